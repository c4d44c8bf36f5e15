"""A paper sheet: settled (nothing stored, no repository asked), or kept as a pulka of its owner whose
opening is the sheet and which has no deals (docs/files.md §5), so that the table may also go on from it."""

from __future__ import annotations

import dataclasses

from ...engine import Settlement, settle
from ...engine.settled import Settled, settled
from ...files.sheetfile import PaperSheet
from ..domain.limits import Limits
from ..domain.paper import KeepSheet, check_opening
from ..domain.pulkas import Pulka, read_settings
from .pulkas import PulkaRepository, create_pulka


def settle_sheet(paper: PaperSheet) -> tuple[Settlement, Settled]:
    """The settlement of the sheet as given (docs/rules.md §15), and its projection with the players' names."""
    settlement = settle(paper.sheet, paper.rules)
    return settlement, settled(paper.players, paper.sheet, paper.rules, settlement)


def keep(pulkas: PulkaRepository, owner_id: int, command: KeepSheet, by: str, limits: Limits = Limits()) -> Pulka:
    """The sheet as a new pulka of `owner_id`, its opening the sheet, no deals, its result frozen and counted
    by the statistics and the ledger: finished when the sheet is (every pulya closed at the size the table
    played, docs/rules.md §8.1), else closed by `by` as it stands; named as the sheet names it, else
    `untitled`. Reopened, its next deal is dealt by the command's `first_dealer` (a player's name; the first
    player's when None). Refused (bad_opening) where a pulya stands above the size it closes at, which no
    pulka's sheet can hold."""
    paper = command.sheet
    check_opening(paper)
    settings = read_settings({
        "first_dealer": command.first_dealer or paper.players[0],
        "name": paper.name or command.untitled,
        "currency": paper.currency or "",
        "players": list(paper.players),
        "rules": paper.rules.overrides(),
    })
    return create_pulka(pulkas, owner_id, dataclasses.replace(settings, opening=paper.sheet),
                        closed_by=by, limits=limits)
