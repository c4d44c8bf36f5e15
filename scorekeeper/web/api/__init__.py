"""The JSON API under /api/v1: one blueprint, a module per feature, described by /api/v1/openapi.json.
Players appear by name, deals as in the pulka file. Each route parses its body, calls one use case, and
answers what the presenter built; a refused request gets a 4xx with the problem's code (edge.errors), and
nothing is stored. What a write answers is built of what it made, by a presenter of its own: with an
idempotency key it is built in the write's transaction (edge.idempotency.write)."""

from __future__ import annotations

from . import accounts, deals, ledger, paper, players, pulkas, reference, results, shares  # the routes, each module's on bp
from .blueprint import bp

__all__ = ["accounts", "bp", "deals", "ledger", "paper", "players", "pulkas", "reference", "results", "shares"]
