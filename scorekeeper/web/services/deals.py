"""Deals: what one would write, entering one, editing or deleting any, and taking the last one back.

Every write replays the pulka's new list of deals and stores it only if it replays: an edit or a deletion
that would make a later deal invalid is refused, naming that deal.
"""

from __future__ import annotations

import json

from ...files import pulyafile
from ...engine import Deal, DealResult
from ...i18n.words import Msg
from ..domain.deals import DeleteDeal, EditDeal, EnterDeal, UndoDeal
from ..domain.limits import Limits
from ..domain.pulkas import Pulka, writable
from ..domain.refusals import NothingToUndo, TooManyDeals
from .pulkas import PulkaRepository, check_room, note, replayed, written


def preview(pulka: Pulka, deal: Deal, number: int | None = None) -> DealResult:
    """What `deal` would write as deal `number` (default: the next one); nothing is stored."""
    deals = list(pulka.deals)
    if number is None:
        number = len(deals) + 1
        deals.append(deal)
    else:
        pulka.result(number)
        deals[number - 1] = deal
    # Only the deals up to this one matter for what it writes; later ones are checked on save.
    return replayed(pulka.settings, deals[:number], focus=number).results[number - 1]


def add_deal(pulkas: PulkaRepository, command: EnterDeal, by: str = "", limits: Limits = Limits()) -> Pulka:
    """The next deal, within the app's `limits` (the pulka's, and its owner's room)."""
    deal = command.deal
    with pulkas.writing(command.uid, command.expected, adding=True) as change:
        before = writable(change.before)
        if len(before.deals) >= limits.pulka_deals:
            raise TooManyDeals(limits.pulka_deals)
        check_room(pulkas, limits, before.owner_id, 1, held=change.owner_deals)
        deals = (*before.deals, deal)
        replay = replayed(before.settings, deals, focus=len(deals))
        change.append(deal)
        return written(change, deals, replay, note("added", len(deals), by))


def edit_deal(pulkas: PulkaRepository, command: EditDeal, by: str = "") -> Pulka:
    """Replace deal `number`; every later deal is scored again, and must stay valid."""
    number, deal = command.number, command.deal
    with pulkas.writing(command.uid, command.expected) as change:
        before = writable(change.before)
        before.result(number)
        deals = list(before.deals)
        deals[number - 1] = deal
        replay = replayed(before.settings, deals, focus=number,
                          action=Msg("This change to deal {number}")(number=number))
        change.replace(number, deal)
        return written(change, deals, replay, note("edited", number, by))


def delete_deal(pulkas: PulkaRepository, command: DeleteDeal, by: str = "") -> Pulka:
    """Remove deal `number`; the later deals keep their order and are scored again, and must stay valid."""
    number = command.number
    with pulkas.writing(command.uid, command.expected) as change:
        before = writable(change.before)
        before.result(number)
        deals = before.deals[:number - 1] + before.deals[number:]
        replay = replayed(before.settings, deals, action=Msg("Deleting deal {number}")(number=number),
                          renumber_from=number)
        change.remove(number)
        return written(change, deals, replay, note("deleted", number, by))


def undo(pulkas: PulkaRepository, command: UndoDeal, by: str = "") -> Pulka:
    """Take the last deal back."""
    with pulkas.writing(command.uid, command.expected) as change:
        before = writable(change.before)
        if not before.deals:
            raise NothingToUndo()
        number = len(before.deals)
        change.remove(number)
        # The deal as it was, so that any phone may restore it until something else is written.
        taken = json.dumps(pulyafile.deal_to_json(before.deals[-1], before.players), ensure_ascii=False)
        return written(change, before.deals[:-1], replayed(before.settings, before.deals[:-1]),
                       note("undone", number, by) | {"undone": taken})
