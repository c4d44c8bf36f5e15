"""The paper sheet's page: the grid as typed, and the settlement told in steps (render.steps) beside the
tables the pulka's settlement page shows."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from functools import partial
from typing import Any

from ...engine import Gettext, Ngettext, Settlement, Text, replay
from ...render.steps import steps
from ...engine.settled import Settled
from ...files.sheetfile import PaperSheet
from ..domain.paper import PRESETS, PULYA_SIZES, RATES, SEATS
from .gate import Turn
from .settlement import settlement as settlement_view


def grid(form: Mapping[str, str]) -> dict[str, Any]:
    """What the grid shows: four seats (the fourth left empty at a table of three), each cell as typed."""
    seats = list(range(SEATS))
    return {
        "seats": seats,
        "presets": PRESETS,
        "pulya_sizes": json.dumps(PULYA_SIZES),  # for the page's script: the chosen preset's size shown
        "rates": RATES,
        "value": lambda name: form.get(name, ""),
        "counts_down": bool(form.get("pulya_counts_down")),
        "whists_of": lambda i: [f"whists_{i}_{j}" for j in seats if j != i],
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


def pdf(paper: PaperSheet, settlement: Settlement, s: Settled, title: str, language: str, turn: Turn,
        gettext: Gettext, ngettext: Ngettext) -> bytes:
    """The A4 PDF of a paper sheet: the sheet drawn as the paper pulya (a pulka with the sheet as its opening and
    no deals draws just that), the steps in place of a protocol, and the settlement's tables. In a worker
    process, in the caller's turn, as any pulka's PDF."""
    from ...render.pdf import render_pdf_in_worker  # the PDF's libraries only when a PDF is wanted

    told = result(paper, settlement, s, language, gettext, ngettext)["steps"]
    lines = [told["amnesty"], *told["gora"], *told["pairs"], *told["balances"], *told["payments"]]
    drawn = replay(paper.rules, len(paper.players), [], start=paper.sheet)
    render = partial(render_pdf_in_worker, turn.running, paper.players, paper.rules, drawn, settlement, title=title,
                     created=date.today(), currency=paper.currency or "", language=language, steps=lines)
    with turn.entered():
        return turn.run(render)
