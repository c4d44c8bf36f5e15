"""The API's blueprint, which every module of api/ adds its routes to."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
