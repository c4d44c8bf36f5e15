"""One name, one class: a class name defined in two modules of the package (or a type alias named as another
module's class) makes every import of it a question of which one is meant."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).parent


def _modules() -> dict[str, ast.Module]:
    return {str(path.relative_to(PACKAGE.parent)): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))}


def _aliases(tree: ast.Module) -> set[str]:
    """The module's own names for types: `Name = tuple[...]`, `Name = TypeVar(...)` (constants are in capitals)."""
    names = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id[:1].isupper() and not t.id.isupper()}
    return names


def test_no_class_name_is_defined_twice() -> None:
    defined: dict[str, list[str]] = defaultdict(list)
    for module, tree in _modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                defined[node.name].append(module)
    assert {name: modules for name, modules in defined.items() if len(modules) > 1} == {}


def test_no_type_alias_is_named_as_a_class() -> None:
    modules = _modules()
    classes = {node.name: module for module, tree in modules.items() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)}
    clashes = {name: (module, classes[name]) for module, tree in modules.items() for name in _aliases(tree)
               if name in classes}
    assert clashes == {}
