"""The installable app: the service worker and the pages it shows when there is no connection."""

from __future__ import annotations

import hashlib
from functools import cache

from flask import Blueprint, Response, render_template

from ...resources import STATIC_DIR

bp = Blueprint("shell", __name__)


@cache
def _worker() -> str:
    """static/sw.js with the version of the static files in it (a changed file makes a new worker)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in STATIC_DIR.rglob("*") if p.is_file()):
        digest.update(path.relative_to(STATIC_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    return (STATIC_DIR / "sw.js").read_text(encoding="utf-8").replace("SHELL_VERSION", digest.hexdigest()[:16])


@bp.get("/sw.js")
def worker() -> Response:
    # At the root, so that its scope is the whole site; never cached by the browser's HTTP cache, so a
    # new version is found at once.
    return Response(_worker(), mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


@bp.get("/offline")
def offline() -> str:
    return render_template("shell/offline.html")


@bp.get("/outbox")
def outbox() -> str:
    """Where a write saved without a connection leads: it is kept on the phone (static/sw.js) and listed."""
    return render_template("shell/outbox.html")
