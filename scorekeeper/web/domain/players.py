"""Players across pulkas (docs/club.md §1): a player of the caller's circle, and the filters every statistics
page, call and file reads from its query."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from ...engine import Filter, Preset
from ...i18n.words import Msg
from .limits import CURRENCY_MAX, PLAYER_NAME_MAX
from .reading import read_text
from .refusals import Refused


@dataclass(frozen=True)
class Player:
    """A name of the circle, by its public id; `own`: of the caller's account (he may rename and merge him),
    not only met in a pulka shared with the caller."""

    id: str
    name: str
    own: bool = True


@dataclass(frozen=True)
class Member:
    """One of the caller's own players as a merge weighs him: whom he is merged into (None: nobody), those
    merged into him, and the pulkas he sat in (two who sat at one table are two players)."""

    id: str
    merged_into: str | None
    merged: tuple[str, ...]
    pulkas: frozenset[str]


@dataclass(frozen=True)
class Rename:
    """One of the caller's own players gets another name (read_name reads it)."""

    player: str
    name: str


@dataclass(frozen=True)
class Merge:
    """`gone` counts as `into` from now on: one player entered under two spellings."""

    gone: str
    into: str


@dataclass(frozen=True)
class Unmerge:
    """The player merged into another counts as himself again."""

    player: str


FILTER_KEYS = ("from", "to", "preset", "players", "currency", "with", "unfinished")
FLOOR = 3  # fewer counted pulkas than this: a provisional line, and no rival or nemesis
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def read_filter(query: Mapping[str, Sequence[str]]) -> Filter[str]:
    """The filter of a query ({key: its values}; docs/club.md §1); Refused naming the first field that is not one.
    An empty value is no filter: the filter bar's blank fields say "any"."""
    def one(key: str) -> str | None:
        values = query.get(key) or ()
        return values[-1] if values and values[-1] != "" else None

    dates: list[date | None] = []
    for key in ("from", "to"):
        value = one(key)
        try:
            dates.append(date.fromisoformat(value) if value is not None and _DATE.fullmatch(value) else None)
        except ValueError:
            dates.append(None)
        if value is not None and dates[-1] is None:
            raise Refused(Msg("{key} is a date written YYYY-MM-DD")(key=key), key)
    preset = one("preset")
    if preset is not None and preset not in {p.value for p in Preset}:
        raise Refused(Msg("preset is one of {choices}")(choices=", ".join(p.value for p in Preset)), "preset")
    players = one("players")
    if players is not None and players not in ("3", "4"):
        raise Refused(Msg("players is 3 or 4"), "players")
    currency = one("currency")  # looked up, never stored: a currency kept before the text rule still filters
    if currency is not None and len(currency) > CURRENCY_MAX:
        raise Refused(Msg("currency is at most {most} characters")(most=CURRENCY_MAX), "currency")
    unfinished = one("unfinished")
    if unfinished not in (None, "0", "1"):
        raise Refused(Msg("unfinished is 1 (count unfinished pulkas too) or 0"), "unfinished")
    return Filter(dates[0], dates[1], preset, int(players) if players else None, currency,
                  frozenset(v for v in query.get("with") or () if v), unfinished == "1")


def filter_query(f: Filter[str]) -> list[tuple[str, str]]:
    """The filter as a query again, for the links of a page: what it keeps in the URL."""
    pairs = [("from", f.start), ("to", f.end), ("preset", f.preset), ("players", f.players), ("currency", f.currency)]
    query = [(key, str(value)) for key, value in pairs if value is not None]
    return query + [("with", player) for player in sorted(f.with_)] + ([("unfinished", "1")] if f.unfinished else [])


def read_name(value: object) -> str:
    """A player's new name: one line of 1 to PLAYER_NAME_MAX characters that show, trimmed (reading.read_text,
    as a name)."""
    return read_text(value, "name", PLAYER_NAME_MAX, name=True)
