"""What the web layer knows without HTTP or a database: the model of a pulka as the app keeps it, its
settings, accounts and share links, the limits, the refusals, how requests are read, deal entry, and
idempotency records.

The import rule: the engine, the pulka file and the standard library, nothing else (no Flask, Werkzeug,
SQLAlchemy, WTForms). tests/web/system/test_layers.py checks it in a fresh interpreter.
"""
