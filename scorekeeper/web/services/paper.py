"""Settling a paper sheet: nothing is stored, so no repository is asked (keeping one is a pulka's use case)."""

from __future__ import annotations

from ...engine import Settlement, settle
from ...settled import Settled, settled
from ...sheetfile import PaperSheet


def settle_sheet(paper: PaperSheet) -> tuple[Settlement, Settled]:
    """The settlement of the sheet as given (rules.md §15), and its projection with the players' names."""
    settlement = settle(paper.sheet, paper.rules)
    return settlement, settled(paper.players, paper.sheet, paper.rules, settlement)
