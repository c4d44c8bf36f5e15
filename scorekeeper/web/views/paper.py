"""The paper sheet's page: the grid as typed, and the settlement told in steps (render.steps) beside the
tables the pulka's settlement page shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...engine import Gettext, Ngettext, Settlement, Text
from ...render.steps import steps
from ...settled import Settled
from ...sheetfile import PaperSheet
from ..domain.paper import PRESETS, RATES, SEATS
from .settlement import settlement as settlement_view


def grid(form: Mapping[str, str]) -> dict[str, Any]:
    """What the grid shows: four seats (the fourth left empty at a table of three), each cell as typed."""
    seats = list(range(SEATS))
    return {
        "seats": seats,
        "presets": PRESETS,
        "rates": RATES,
        "value": lambda name: form.get(name, ""),
        "counts_down": bool(form.get("pulya_counts_down")),
    }


def result(paper: PaperSheet, settlement: Settlement, s: Settled, language: str, gettext: Gettext,
           ngettext: Ngettext) -> dict[str, Any]:
    """The settlement as the pulka's settlement page has it, with each step in the players' words."""
    told = steps(paper.sheet, paper.rules, settlement, s, paper.currency or "", language)

    def say(texts: tuple[Text, ...]) -> list[str]:
        return [text.render(paper.players, gettext, ngettext) for text in texts]

    return settlement_view(s, paper.currency or "") | {
        "steps": {"amnesty": say((told.amnesty,))[0], "gora": say(told.gora), "pairs": say(told.pairs),
                  "balances": say(told.balances), "payments": say(told.payments)},
        "names": list(paper.players),
        "pulya_worth": paper.rules.pulya_point_whists,
        "gora_worth": paper.rules.gora_point_whists,
    }
