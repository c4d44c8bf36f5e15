"""The web package's shape, checked: layers as folders, each with its import rule; small modules; one table
of error codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.engine import Code
from scorekeeper.web.domain import refusals
from scorekeeper.web.edge.errors import HTTP_CODES, STATUS

from test_imports import import_graph  # tests/ is on the path (pytest puts it there)

WEB = Path(refusals.__file__).parents[1]
LAYERS = ("domain", "services", "store", "views", "edge", "pages", "api")
# What no module of the pure layers may load, directly or through another module.
WEB_STACK = ("flask", "werkzeug", "sqlalchemy", "alembic", "wtforms", "flask_wtf", "flask_login", "flask_babel")


def modules(layer: str) -> list[str]:
    return sorted(f"scorekeeper.web.{layer}.{path.stem}" for path in (WEB / layer).glob("*.py")
                  if path.stem != "__init__")


def loaded(names: list[str]) -> list[str]:
    """The top-level packages of WEB_STACK that importing `names` loads, in a fresh interpreter."""
    code = (f"import sys; [__import__(m) for m in {names!r}]; "
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(WEB_STACK)!r}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return eval(result.stdout)  # noqa: S307 - a list of names we printed


@pytest.mark.parametrize("layer", ["domain", "services", "views"])
def test_the_pure_layers_load_no_web_stack(layer):
    """The domain and the services know no HTTP and no database; the views neither (markupsafe and segno
    make their markup)."""
    assert modules(layer)
    assert loaded(modules(layer)) == []


def test_the_check_sees_what_it_looks_for():
    assert "sqlalchemy" in loaded(["scorekeeper.web.store.pulkas"])
    assert "flask" in loaded(["scorekeeper.web.edge.access"])


def _direct(module: str) -> set[str]:
    """The absolute modules a web module imports, outside the package included (stdlib, libraries)."""
    import ast

    path = WEB.joinpath(*module.split(".")[2:]).with_suffix(".py")
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


def test_only_the_store_imports_the_database():
    """SQLAlchemy and Alembic live in store/; elsewhere only sqlalchemy.exc, for telling a database that
    refuses for a while (edge.security) from a bug."""
    for layer in LAYERS:
        if layer == "store":
            continue
        for module in modules(layer):
            database = {m for m in _direct(module) if m.split(".")[0] in ("sqlalchemy", "alembic")}
            assert database <= {"sqlalchemy.exc"}, module
    for module in ("app", "server"):
        assert not {m for m in _direct(f"scorekeeper.web.{module}") if m.split(".")[0] in ("sqlalchemy", "alembic")}


def test_each_layer_imports_only_the_layers_below():
    below = {
        "domain": set(),
        "services": {"domain"},
        "store": {"domain", "services"},  # the Protocols it implements
        "views": {"domain"},
        "edge": {"domain", "services", "store", "views"},
        "pages": {"domain", "services", "views", "edge"},
        "api": {"domain", "services", "views", "edge"},
    }
    graph = import_graph()
    for layer, allowed in below.items():
        for module in modules(layer):
            reached = {target.split(".")[2] for target in graph[module] if target.startswith("scorekeeper.web.")}
            assert reached - {layer} <= allowed, f"{module} imports {sorted(reached - {layer} - allowed)}"


def test_no_blueprint_imports_another():
    graph = import_graph()
    for one, other in (("pages", "api"), ("api", "pages")):
        for module in modules(one):
            assert not {t for t in graph[module] if t.startswith(f"scorekeeper.web.{other}")}, module


def test_no_web_module_is_over_350_lines():
    long = {str(path.relative_to(WEB)): n for path in WEB.rglob("*.py") if "migrations" not in path.parts
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > 350}
    assert long == {}


def test_every_refusal_has_a_status():
    """A code missing from the table would answer 500 instead of its 4xx."""
    codes = {cls.code for cls in _subclasses(refusals.Refused)}
    assert codes | set(refusals.ErrorCode) | set(Code) | set(HTTP_CODES.values()) <= set(STATUS)
    assert all(400 <= status < 600 for status in STATUS.values())


def test_the_openapi_document_lists_the_table(client):
    document = client.get("/api/v1/openapi.json").json
    enum = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert enum == list(STATUS)


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)
