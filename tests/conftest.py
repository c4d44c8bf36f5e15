"""Hypothesis explores new examples on every developer run; CI replays a fixed sequence, so a
red CI is always reproducible (and a new finding shows up on a developer's machine first)."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
