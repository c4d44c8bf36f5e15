"""The HTML pages: one blueprint. Each route parses its form, calls one use case, and shows what the
presenter built; a refusal is shown on the page it came from (edge.errors gives its status). Every form
that writes carries a fresh idempotency key: sent twice (a double tap, a browser that retries, a phone
that never heard back), it is saved once."""

from __future__ import annotations

from .blueprint import bp

# Each feature's module adds its routes to bp as it is imported: a feature is one line here.
from . import accounts
from . import deals
from . import ledger
from . import paper
from . import players
from . import pulkas
from . import results
from . import shares

__all__ = ["bp"]
