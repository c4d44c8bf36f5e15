"""The HTML pages: one blueprint, a module per feature. Each route parses its form, calls one use case, and
shows what the presenter built; a refusal is shown on the page it came from (edge.errors gives its status).
Every form that writes carries a fresh idempotency key: sent twice (a double tap, a browser that retries, a
phone that never heard back), it is saved once."""

from __future__ import annotations

from . import accounts, deals, ledger, paper, players, pulkas, results, shares  # the routes, each module's on bp
from .blueprint import bp

__all__ = ["accounts", "bp", "deals", "ledger", "paper", "players", "pulkas", "results", "shares"]
