"""The pages' blueprint, which every module of pages/ adds its routes to."""

from __future__ import annotations

from flask import Blueprint

from ..edge.idempotency import new_key

bp = Blueprint("pages", __name__)
# Every form that writes carries a fresh idempotency key (templates call idempotency_key()).
bp.add_app_template_global(new_key, "idempotency_key")
