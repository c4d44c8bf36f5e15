"""The app's settings, read once: the environment (DATABASE_URL, FLASK_*, SCOREKEEPER_*, README's table) under
what the caller passes, checked and typed, so that create_app only wires what they say."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from .domain.limits import MAX_ACCOUNT_DEALS, MAX_DEALS, MAX_PULKAS, PAGE_ROWS, Limits
from .store.db import Unavailable

SESSION_DEFAULTS: dict[str, Any] = {
    # A phone at the table stays signed in, and keeps the share links it opened; the server ends the session
    # at log-out (sessions.end_session), so a copied cookie does not outlive it.
    "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
}


def size(text: str) -> int:
    """Bytes from "2097152", "512K" or "2M" (binary kilo- and megabytes)."""
    text = text.strip().upper().removesuffix("B").removesuffix("I")
    factor = {"K": 2**10, "M": 2**20}.get(text[-1:], 1)
    return int(text.rstrip("KM")) * factor


def flask_variables(env: Mapping[str, str]) -> dict[str, Any]:
    """The FLASK_* variables as Flask's `Config.from_prefixed_env` reads them from the process: a value is
    JSON when it parses as JSON (FLASK_PERMANENT_SESSION_LIFETIME=3600 is a number), a string otherwise, and
    FLASK_A__B is key B of a dict A. Read here from `env`, so that the settings are those of what is passed."""
    found: dict[str, Any] = {}
    for name in sorted(env):
        if not name.startswith("FLASK_"):
            continue
        value: Any = env[name]
        try:
            value = json.loads(value)
        except ValueError:
            pass
        *path, key = name.removeprefix("FLASK_").split("__")
        into = found
        for part in path:
            into = into.setdefault(part, {})
        into[key] = value
    return found


@dataclass(frozen=True)
class AppSettings:
    """Everything an app is made with. `config` is Flask's configuration as the app keeps it (the processes of
    a server each make their app from it); the fields are what the wiring takes from it."""

    config: Mapping[str, Any]
    instance_path: str | None  # None: Flask's instance folder
    proxies: int  # the reverse proxies in front whose X-Forwarded-* headers are trusted
    limits: Limits  # which the use cases keep
    cache_mb: float  # the replayed pulkas and their pages, per process
    pdf_renderers: int
    migrate: bool  # bring the database's schema up to date on start

    @classmethod
    def read(cls, env: Mapping[str, str], given: Mapping[str, Any] | None = None,
             instance_path: str | None = None) -> AppSettings:
        """The settings: `given`, else the environment `env`, else the defaults; Unavailable, in a line the
        command prints, for a variable it cannot read."""
        config = flask_variables(env)
        if env.get("DATABASE_URL"):
            config["DATABASE_URL"] = env["DATABASE_URL"]
        if env.get("SCOREKEEPER_CACHE_MB"):
            config["CACHE_MB"] = float(env["SCOREKEEPER_CACHE_MB"])
        config.update(given or {})
        config.setdefault("REGISTRATION", env.get("SCOREKEEPER_REGISTRATION", "open"))
        if config["REGISTRATION"] not in ("open", "closed"):
            raise Unavailable("SCOREKEEPER_REGISTRATION is open or closed")
        config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # a pulka lasts an evening; a form may sit open for hours
        # Flask's own config defines these keys (SameSite None, 31 days): ours hold unless the caller's config
        # or a FLASK_* variable names them.
        named = set(given or {}) | {name.removeprefix("FLASK_") for name in env if name.startswith("FLASK_")}
        config.update({name: value for name, value in SESSION_DEFAULTS.items() if name not in named})
        if hosts := env.get("SCOREKEEPER_TRUSTED_HOSTS"):
            config.setdefault("TRUSTED_HOSTS", [host.strip() for host in hosts.split(",") if host.strip()])
        try:
            config.setdefault("PROXIES", int(env.get("SCOREKEEPER_PROXIES", "0") or 0))
        except ValueError:
            raise Unavailable("SCOREKEEPER_PROXIES is the number of proxies in front, such as 1") from None
        try:
            if config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default is None: no limit
                config["MAX_CONTENT_LENGTH"] = size(env.get("SCOREKEEPER_MAX_UPLOAD", "2M"))
            config.setdefault("MAX_DEALS", int(env.get("SCOREKEEPER_MAX_DEALS", MAX_DEALS)))
            config.setdefault("MAX_PULKAS", int(env.get("SCOREKEEPER_MAX_PULKAS", MAX_PULKAS)))
            config.setdefault("MAX_ACCOUNT_DEALS", int(env.get("SCOREKEEPER_MAX_ACCOUNT_DEALS", MAX_ACCOUNT_DEALS)))
        except ValueError:
            raise Unavailable("SCOREKEEPER_MAX_UPLOAD is a size such as 2M or 512K, and SCOREKEEPER_MAX_DEALS, "
                              "SCOREKEEPER_MAX_PULKAS and SCOREKEEPER_MAX_ACCOUNT_DEALS whole numbers") from None
        config["MAX_FORM_MEMORY_SIZE"] = config["MAX_CONTENT_LENGTH"]  # a pasted pulka file is a form field
        config.setdefault("CACHE_MB", 64)
        config.setdefault("PDF_RENDERERS", 2)
        config.setdefault("PAGE_ROWS", PAGE_ROWS)  # the tests page through small lists with a few rows a page
        return cls(config, instance_path or env.get("SCOREKEEPER_INSTANCE") or None, config["PROXIES"],
                   Limits(config["MAX_DEALS"], config["MAX_PULKAS"], config["MAX_ACCOUNT_DEALS"], config["PAGE_ROWS"]),
                   config["CACHE_MB"], config["PDF_RENDERERS"], config.get("MIGRATE_ON_START", True))

    @property
    def max_deals(self) -> int:
        """The deals one pulka holds at most."""
        return self.limits.pulka_deals
