"""The use cases: one module per feature, a plain function per use case, each write one transaction.

A service takes the repositories it needs as Protocols (declared in the feature's module here; the store
implements them, and tests/web/fakes.py in memory), works in engine and domain objects, and raises domain
refusals. The import rule: the domain, the engine and the standard library; no Flask, Werkzeug, SQLAlchemy
or WTForms (tests/web/system/test_layers.py checks it in a fresh interpreter).
"""
