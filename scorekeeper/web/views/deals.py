"""A deal as pages and answers show it: each line it wrote and why, a summary per player, and the form that
enters it (who deals, who plays)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...i18n import translate
from ...files import pulyafile
from ...engine import Column, DealResult, Entry, Points, Sheet, Strain, Text, defenders
from ...render.text import describe, points, signed
from ...i18n.words import Msg
from ..domain.deals import lone_whist_total
from ..domain.pulkas import Pulka

STRAINS = [(s.value, s.symbol) for s in Strain]
WHISTS_ON = Msg("{player}: {count} whist on {on}", "{player}: {count} whists on {on}", "count")
WHISTS_ON_PART = Msg("{player}: {points} whists on {on}")  # 2½ whists, or fewer than none
IN_COLUMN = {Column.PULYA: Msg("{player}: pulya {points}"), Column.GORA: Msg("{player}: gora {points}")}


def say(text: Text, names: Sequence[str], language: str) -> str:
    """A text (the web's or the engine's) in `language`."""
    return translate.writer(names, language)(text)


def entry_view(entry: Entry, names: Sequence[str], language: str) -> dict[str, Any]:
    view: dict[str, Any] = {"player": names[entry.player], "column": entry.column.value}
    if entry.on is not None:
        view["on"] = names[entry.on]
    return view | {"points": entry.points, "reason": say(entry.reason, names, language)}


def line(names: Sequence[str], player: int, column: Column, value: Points, on: int | None, language: str) -> str:
    """"Boris: pulya +4", "Anna: 8 whists on Boris" («Борис: пуля +4», «Анна → Борис: 8 вистов»)."""
    if column is Column.WHISTS:
        assert on is not None
        whole = isinstance(value, int) or value.denominator == 1
        text = (WHISTS_ON(player=names[player], count=int(value), on=names[on]) if whole and value >= 0 else
                WHISTS_ON_PART(player=names[player], points=points(value), on=names[on]))
        return say(text, names, language)
    return say(IN_COLUMN[column](player=names[player], points=signed(value)), names, language)


def written(entries: Sequence[Entry], names: Sequence[str], language: str) -> list[dict[str, str]]:
    """Each line a deal writes and why: {"what": "Anna: 60 whists on Boris", "why": "Anna helps Boris with …"}.
    The preview shows these, so that a line that looks odd (help, consolation) says where it comes from."""
    return [{"what": line(names, e.player, e.column, e.points, e.on, language),
             "why": say(e.reason, names, language)} for e in entries]


def summary(entries: Sequence[Entry], names: Sequence[str], language: str) -> list[str]:
    """What a deal writes, one phrase per player and column: "Boris: pulya +4", "Anna: 8 whists on Boris"."""
    totals: dict[tuple[int, Column, int | None], Points] = {}
    for e in entries:
        key = (e.player, e.column, e.on)
        totals[key] = totals.get(key, 0) + e.points
    return [line(names, player, column, total, on, language) for (player, column, on), total in totals.items()]


def deal_view(pulka: Pulka, result: DealResult, language: str) -> dict[str, Any]:
    """One deal as the protocol shows it."""
    names, rules = pulka.players, pulka.rules
    before = pulka.replay.sheet_before(result.number)
    closed = [seat for seat in result.sheet.closed(rules) if seat not in before.closed(rules)]
    view: dict[str, Any] = {"n": result.number, "dealer": names[result.dealer]}
    if pulka.n == 4:
        view["sitting_out"] = names[result.dealer]
    return view | {
        "deal": pulyafile.deal_to_json(result.deal, names),
        "text": describe(result.deal, names, result.k, language, rules),
        "raspasy_k": result.k or None,
        "entries": [entry_view(e, names, language) for e in result.entries],
        "summary": summary(result.entries, names, language),
        "pulya_closed": [names[s] for s in closed],
        "finished": result.sheet.finished and not before.finished,
    }


def deal_form(pulka: Pulka, number: int) -> dict[str, Any]:
    """Who deals deal `number` and who plays it: what the deal form shows above its fields."""
    rules = pulka.rules
    sheet = pulka.replay.sheet_before(number)
    editing = number <= len(pulka.deals)
    return {
        "seating": seated(pulka, sheet), "number": number, "editing": editing, "names": pulka.players,
        "lone_total": lone_whist_total(rules),
        "least_level": sheet.least_level(rules), "streak": sheet.streak,
        "strains": STRAINS, "levels": range(6, 11),
        "half_levels": list(rules.half_whist), "ten_checked": rules.ten_checked,
        # A new deal's form seated for each deal of the next round too: a phone that kept deals without a
        # connection (static/sw.js) shows the form for the deal after them, from the copy it kept of this one.
        "ahead": [] if editing else [seated(pulka, replace(sheet, deals=sheet.deals + k)) for k in range(pulka.n)],
    }


def seated(pulka: Pulka, sheet: Sheet) -> dict[str, Any]:
    """Who deals the next deal of `sheet`, who plays it and in which order."""
    names, active = pulka.players, sheet.active
    return {
        "dealer": names[sheet.dealer], "first_hand": names[active[0]],
        "sitting_out": names[sheet.sitting_out] if sheet.sitting_out is not None else None,
        # Every deal in seating order, so that a player is always in the same place on the screen; the
        # first hand is marked, and with four the dealer who sits out keeps his place, greyed.
        "seats": [(seat, names[seat]) for seat in range(pulka.n)], "active": active, "first_seat": active[0],
        "sitting_out_seat": sheet.sitting_out, "talon": sheet.talon_seat(pulka.rules),
        "defenders_json": json.dumps({str(seat): list(defenders(active, seat)) for seat in active}),
    }


def next_deal(pulka: Pulka) -> dict[str, Any] | None:
    """Whose deal is next, and who plays it; None when the pulka is finished."""
    sheet, names = pulka.sheet, pulka.players
    if sheet.finished:
        return None
    return {
        "n": sheet.deals + 1,
        "dealer": names[sheet.dealer],
        "first_hand": names[sheet.active[0]],
        "active": [names[s] for s in sheet.active],
        "sitting_out": names[sheet.sitting_out] if sheet.sitting_out is not None else None,
        "least_level": sheet.least_level(pulka.rules),
    }
