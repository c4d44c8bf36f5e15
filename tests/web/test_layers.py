"""The web layer's shape, checked: routes → services → repository, one table of error codes."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from scorekeeper.engine import Code
from scorekeeper.web import domain
from scorekeeper.web.errors import HTTP_CODES, STATUS

WEB = Path(domain.__file__).parent


def imports(path: Path) -> set[str]:
    """Every module a file imports, relative ones resolved inside scorekeeper.web."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = {0: "", 1: "scorekeeper.web.", 2: "scorekeeper."}[node.level] + (node.module or "")
            found |= {f"{base}.{alias.name}".strip(".") for alias in node.names} | {base.strip(".")}
    return found


def test_the_services_speak_no_http():
    """Checked in a fresh interpreter: importing the use cases loads neither Flask nor Werkzeug."""
    code = ("import sys, scorekeeper.web.services; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'flask', 'werkzeug', 'flask_wtf', 'wtforms'}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_only_the_repository_touches_rows():
    """Besides the repository and what lies beneath it (the backups beside it), only the factory (app.py)
    names the database, to hand it to the repository; the other modules know the columns' bounds at most."""
    for path in WEB.glob("*.py"):
        if path.name in ("repository.py", "db.py", "models.py", "app.py", "backup.py"):
            continue
        database = {m for m in imports(path) if m.split(".")[0] in ("sqlalchemy", "alembic")}
        rows = {m for m in imports(path) if m.startswith(("scorekeeper.web.models.", "scorekeeper.web.db."))}
        assert not database and not {m for m in rows if not m.endswith("_MAX")}, path.name


def test_no_blueprint_imports_another():
    assert not {m for m in imports(WEB / "pages.py") if m.startswith("scorekeeper.web.api")}
    assert not {m for m in imports(WEB / "api.py") if m.startswith("scorekeeper.web.pages")}


def test_every_refusal_has_a_status():
    """A code missing from the table would answer 500 instead of its 4xx."""
    refusals = {cls.code for cls in _subclasses(domain.Refused)}
    assert refusals | {c.value for c in Code} | set(HTTP_CODES.values()) | {"csrf"} <= set(STATUS)
    assert all(400 <= status < 600 for status in STATUS.values())


def test_the_openapi_document_lists_the_table(client):
    document = client.get("/api/v1/openapi.json").json
    enum = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert enum == list(STATUS)


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)
