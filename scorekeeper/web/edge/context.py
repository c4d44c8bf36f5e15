"""The app's store: the request's app's, or a given app's."""

from __future__ import annotations

from typing import cast

from flask import Flask, current_app

from ..store import Store


def store(app: Flask | None = None) -> Store:
    return cast(Store, (app or current_app).extensions["scorekeeper"])
