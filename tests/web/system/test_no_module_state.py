"""The services keep nothing between calls: what a process remembers is the store's (store/cache.py, one
thread-safe type), where a module's dict would be shared by every thread unlocked."""

from __future__ import annotations

import ast
from pathlib import Path

from scorekeeper.web import services

MUTABLE = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
MUTABLE_CALLS = {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter"}


def _mutable(value: ast.expr | None) -> bool:
    return isinstance(value, MUTABLE) or (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                                          and value.func.id in MUTABLE_CALLS)


def test_no_service_module_holds_mutable_state():
    found = []
    for path in sorted(Path(services.__file__).parent.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and _mutable(node.value):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
