"""Hypothesis explores new examples on every developer run; CI replays a fixed sequence, so a
red CI is always reproducible (and a new finding shows up on a developer's machine first)."""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def english_command_line(monkeypatch):
    """The command line speaks the environment's language (LANGUAGE first, as gettext reads it): English in
    the tests, whatever the machine's locale, unless a test asks for another."""
    monkeypatch.setenv("LANGUAGE", "en")
