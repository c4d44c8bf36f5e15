"""The installable app: the service worker and the pages it shows when there is no connection."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from flask import Blueprint, Response, render_template

from ...resources import STATIC_DIR
from .access import Need, needs

bp = Blueprint("shell", __name__)


@cache
def _worker() -> str:
    """static/sw.js with the version of the static files in it (a changed file makes a new worker) and the
    list of the app's scripts, every file under static/js: the worker keeps them all, so that the modules
    main.js imports are there without a connection too."""
    digest = hashlib.sha256()
    for path in sorted(p for p in STATIC_DIR.rglob("*") if p.is_file()):
        digest.update(path.relative_to(STATIC_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    scripts = sorted(f"/static/{p.relative_to(STATIC_DIR).as_posix()}" for p in (STATIC_DIR / "js").rglob("*")
                     if p.is_file())
    return ((STATIC_DIR / "sw.js").read_text(encoding="utf-8").replace("SHELL_VERSION", digest.hexdigest()[:16])
            .replace('["SHELL_SCRIPTS"]', json.dumps(scripts)))


@bp.get("/sw.js")
@needs(Need.ANYONE)
def worker() -> Response:
    # At the root, so that its scope is the whole site; never cached by the browser's HTTP cache, so a
    # new version is found at once.
    return Response(_worker(), mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


@bp.get("/offline")
@needs(Need.ANYONE)
def offline() -> str:
    return render_template("shell/offline.html")


@bp.get("/outbox")
@needs(Need.ANYONE)
def outbox() -> str:
    """Where a write saved without a connection leads: it is kept on the phone (static/sw.js) and listed."""
    return render_template("shell/outbox.html")
