"""The JSON API under /api/v1: one blueprint, described by /api/v1/openapi.json. Players appear by name,
deals as in the pulka file. Each route parses its body, calls one use case, and answers what the presenter
built; a refused request gets a 4xx with the problem's code (edge.errors), and nothing is stored. What a
write answers is built of what it made, by a presenter of its own: with an idempotency key it is built in
the write's transaction (edge.idempotency.write)."""

from __future__ import annotations

from .blueprint import bp

# Each feature's module, as it is imported, adds its routes to bp and its part to the document: a feature
# is one line here.
from . import accounts
from . import deals
from . import ledger
from . import paper
from . import players
from . import pulkas
from . import reference
from . import results
from . import shares

__all__ = ["bp"]
