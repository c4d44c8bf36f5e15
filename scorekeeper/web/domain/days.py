"""The day a pulka was played, when its owner says so (a game entered afterwards): as the API writes a day
(2026-11-28) or a person types it (28.11.2026)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone

from ...files import pulyafile
from ...i18n.words import Msg
from .refusals import Fault

# The days a pulka may be said to be played on: the years a pulka file's `started` takes, up to tomorrow (the
# players' tomorrow may be the server's today anywhere on earth).
PLAYED_YEARS = pulyafile.YEARS
BAD_DAY = Msg("the date played is a date like 28.11.2026 (or 2026-11-28), from {first} to tomorrow, not {value}")
_DOTTED = re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})")


def read_day(value: object) -> date | None:
    """A day as the API (2026-11-28) or a person types it (28.11.2026); None for anything else, or one from
    before PLAYED_YEARS or after tomorrow."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        dotted = _DOTTED.fullmatch(text)
        day = date(int(dotted[3]), int(dotted[2]), int(dotted[1])) if dotted else (
            date.fromisoformat(text) if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text) else None)
    except ValueError:
        return None
    tomorrow = datetime.now(timezone.utc).date() + timedelta(days=1)
    return day if day is not None and date(PLAYED_YEARS[0], 1, 1) <= day <= tomorrow else None


def played_day(data: Mapping[str, object], faults: list[Fault], default: date | None) -> date | None:
    """The date played: absent keeps `default`; null or blank says none (the day it was entered)."""
    if "played_on" not in data:
        return default
    value = data["played_on"]
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    day = read_day(value)
    if day is None:
        faults.append(Fault.of("bad_format", "played_on", BAD_DAY(first=PLAYED_YEARS[0], value=repr(str(value)[:40]))))
    return day
