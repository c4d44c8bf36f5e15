"""Where the app's templates/ and static/ folders are: inside the package in an installed wheel
(pyproject.toml force-includes them), beside it in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    installed = _PACKAGE / name
    return installed if installed.is_dir() else _PACKAGE.parent / name


STATIC_DIR = resource_dir("static")
TEMPLATES_DIR = resource_dir("templates")
