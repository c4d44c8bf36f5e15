"""The app's store and its limits: the request's app's, or a given app's."""

from __future__ import annotations

from typing import cast

from flask import Flask, current_app

from ..domain.limits import Limits
from ..store import Store


def store(app: Flask | None = None) -> Store:
    return cast(Store, (app or current_app).extensions["scorekeeper"])


def limits(app: Flask | None = None) -> Limits:
    """What the app's settings allow (SCOREKEEPER_MAX_DEALS and the account's), for the use cases to keep."""
    return cast(Limits, (app or current_app).extensions["scorekeeper.limits"])
