"""The settings read the FLASK_* variables of what they are given as Flask reads them from the process."""

from __future__ import annotations

import os

from flask import Config

from scorekeeper.web.settings import AppSettings, flask_variables

ENV = {"FLASK_SECRET_KEY": "key", "FLASK_PERMANENT_SESSION_LIFETIME": "3600", "FLASK_TESTING": "true",
       "FLASK_NESTED__ONE": "[1, 2]", "FLASK_NESTED__TWO": "text", "OTHER": "x"}


def test_flask_variables_are_read_as_flask_reads_them(monkeypatch):
    for name in list(os.environ):
        if name.startswith("FLASK_"):
            monkeypatch.delenv(name)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    config = Config(".")
    config.from_prefixed_env()
    assert flask_variables(ENV) == dict(config)


def test_the_caller_s_config_comes_before_the_environment():
    settings = AppSettings.read({"SCOREKEEPER_MAX_DEALS": "5", "SCOREKEEPER_PROXIES": "2"}, {"MAX_DEALS": 7})
    assert (settings.max_deals, settings.proxies, settings.config["MAX_DEALS"]) == (7, 2, 7)
