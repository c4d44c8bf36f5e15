"""What imports what: no circles inside the package (every import counts, also under TYPE_CHECKING or
inside a function), a pure standard-library engine, and the file layer without the web stack."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scorekeeper"
# Pure computation only: no I/O, no clock, no process state (the engine's part of the project's bar).
ENGINE_MAY_IMPORT = {"__future__", "collections", "collections.abc", "dataclasses", "decimal", "enum", "fractions", "functools",
                     "heapq", "math", "typing"}


def _modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _targets(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, modules: dict[str, Path]) -> set[str]:
    """The package modules one import statement loads."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module if is_package else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        # `from pkg import name` loads pkg.name when that is a module, else only pkg
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
    return {name for name in names if name in modules}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imports = (node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom)))
        graph[name] = set().union(*(_targets(node, name, path.name == "__init__.py", modules) for node in imports))
        graph[name].discard(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), as a path back to its start."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(_path(graph, group, node))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _path(graph: dict[str, set[str]], group: set[str], start: str) -> list[str]:
    """A shortest way from `start` around and back, inside `group`."""
    paths = {target: [start, target] for target in graph[start] & group}
    while start not in paths:
        paths = {target: path + [target] for node, path in sorted(paths.items())
                 for target in sorted(graph[node] & group) if target not in paths} | paths
    return paths[start]


def _without_web(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    web = "scorekeeper.web"
    return {name: {t for t in targets if not t.startswith(web)}
            for name, targets in graph.items() if not name.startswith(web)}


def _imports(tree: ast.AST) -> set[str]:
    """The absolute modules a module imports (relative imports are the package's own)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


def test_the_engine_imports_only_pure_standard_library_modules():
    engine = PACKAGE / "engine"
    paths = sorted(engine.rglob("*.py"))  # the engine's packages too (tournament/)
    assert engine / "tournament" / "draw.py" in paths
    for path in paths:
        outside = _imports(ast.parse(path.read_text(encoding="utf-8"))) - ENGINE_MAY_IMPORT
        assert not outside, f"{path.relative_to(engine)} imports {sorted(outside)}"


def test_the_file_layer_loads_no_web_stack():
    code = ("import sys, scorekeeper.files.pulyafile, scorekeeper.cli; "
            "print([m for m in sys.modules if m.split('.')[0] in ('flask', 'sqlalchemy', 'weasyprint')])")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "scorekeeper.engine.validation" in graph["scorekeeper.engine.pulka"]  # from .validation import …
    assert "scorekeeper.files.pulyafile" in graph["scorekeeper.web.api.deals"]  # from ... import pulyafile
    assert "scorekeeper.web.app" in graph["scorekeeper.web"]  # inside a function
    assert "scorekeeper.web.store.db" in graph["scorekeeper.cli"]  # inside a function, from .web.store.db import …


def test_no_import_cycle_outside_the_web_layer():
    assert cycles(_without_web(import_graph())) == []


def test_no_import_cycle_anywhere():
    assert cycles(import_graph()) == []
