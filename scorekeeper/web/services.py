"""The use cases: one function each, each write one transaction, in engine objects.

A write builds the pulka's new list of deals, replays it with the engine and
stores it only if it replays; otherwise it raises a `domain` error and
nothing is stored. Writes take the version the caller last saw (None: any),
so two phones cannot enter the same deal twice unknowingly, and an optional
idempotency key (`once`), stored in the write's transaction, so that a
request sent again is not made twice. No HTTP here: the routes parse
requests, and errors.py answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from .. import pulyafile
from ..engine import Deal, DealResult, PulkaError, Replay, Text, replay
from .domain import (DealRefused, Msg, NotFound, NothingToUndo, Once, Pulka, Refused, Role, RulesFrozen, Settings,
                     Share, TooManyDeals, VersionConflict, default_name, english, one_line, read_settings)
from .models import SHARE_LABEL_MAX
from .repository import Repository, Summary

# -- reading -----------------------------------------------------------------------------------


def get_pulka(repo: Repository, uid: str) -> Pulka:
    return repo.get(uid)


def list_pulkas(repo: Repository, account_id: int) -> list[Summary]:
    """The account's pulkas and those shared with it."""
    return repo.summaries(account_id)


def pulkas_as_they_stand(repo: Repository, account_id: int) -> list[tuple[Summary, Pulka]]:
    """The account's list with each pulka replayed (from the cache when its version was read before), for
    the home page's status and leader."""
    return [(summary, repo.get(summary.uid)) for summary in repo.summaries(account_id)]


def player_names(repo: Repository, account_id: int) -> list[str]:
    """The names the account has seated before."""
    return repo.player_names(account_id)


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
    return _replay(pulka.settings, deals[:number], focus=number).results[number - 1]


# -- pulkas ------------------------------------------------------------------------------------


def create_pulka(repo: Repository, owner_id: int, settings: Settings, deals: Sequence[Deal] = (),
                 started: datetime | None = None, once: Once | None = None) -> Pulka:
    if len(deals) > repo.max_deals:
        raise TooManyDeals(repo.max_deals)
    return repo.create(owner_id, settings, deals, _replay(settings, deals), started, once)


def again(repo: Repository, owner_id: int, uid: str, once: Once | None = None) -> Pulka:
    """A new pulka for the same table: the players in the same seats, the same first dealer, rules, name
    and currency as pulka `uid`, and no deal yet."""
    return create_pulka(repo, owner_id, repo.get(uid).settings, once=once)


def import_pulka(repo: Repository, owner_id: int, file: pulyafile.Pulka, name: str = "",
                 once: Once | None = None, say: Callable[[Text], str] = english) -> Pulka:
    """A pulka file as a new pulka, named `name`, else as the file names it, else after its players (in the
    language of `say`)."""
    settings = read_settings({
        "name": name or file.name or default_name(file.players, say, imported=True),
        "currency": file.currency or "",
        "players": list(file.players),
        "first_dealer": file.players[file.first_dealer],
        "rules": file.rules.overrides(),
    })
    return create_pulka(repo, owner_id, settings, file.deals, file.started, once)


def change_settings(repo: Repository, uid: str, settings: Settings, expected: int | None = None,
                    by: str = "") -> Pulka:
    """Name and currency change any time; the players, first dealer and rules only before the first deal."""
    with repo.writing(uid) as change:
        before = _expect(change.before, expected)
        replayed = before.replay
        if settings.seating != before.settings.seating:
            if before.deals:
                raise RulesFrozen()
            replayed = _replay(settings, ())
        change.set_settings(settings)
        return change.done(before.deals, replayed, _note("settings", None, by), settings)


def delete_pulka(repo: Repository, uid: str) -> None:
    repo.delete(uid)


# -- deals -------------------------------------------------------------------------------------


def add_deal(repo: Repository, uid: str, deal: Deal, expected: int | None = None, by: str = "",
             once: Once | None = None) -> Pulka:
    with repo.writing(uid, once) as change:
        before = _expect(change.before, expected)
        if len(before.deals) >= repo.max_deals:
            raise TooManyDeals(repo.max_deals)
        deals = (*before.deals, deal)
        replayed = _replay(before.settings, deals, focus=len(deals))
        change.append(deal)
        return change.done(deals, replayed, _note("added", len(deals), by))


def edit_deal(repo: Repository, uid: str, number: int, deal: Deal, expected: int | None = None,
              by: str = "", once: Once | None = None) -> Pulka:
    """Replace deal `number`; every later deal is scored again, and must stay valid."""
    with repo.writing(uid, once) as change:
        before = _expect(change.before, expected)
        before.result(number)
        deals = list(before.deals)
        deals[number - 1] = deal
        replayed = _replay(before.settings, deals, focus=number, action=Msg("This change to deal {number}")(number=number))
        change.replace(number, deal)
        return change.done(deals, replayed, _note("edited", number, by))


def delete_deal(repo: Repository, uid: str, number: int, expected: int | None = None, by: str = "",
                once: Once | None = None) -> Pulka:
    """Remove deal `number`; the later deals keep their order and are scored again, and must stay valid."""
    with repo.writing(uid, once) as change:
        before = _expect(change.before, expected)
        before.result(number)
        deals = before.deals[:number - 1] + before.deals[number:]
        replayed = _replay(before.settings, deals, action=Msg("Deleting deal {number}")(number=number), renumber_from=number)
        change.remove(number)
        return change.done(deals, replayed, _note("deleted", number, by))


def undo(repo: Repository, uid: str, expected: int | None = None, by: str = "", once: Once | None = None) -> Pulka:
    """Take the last deal back."""
    with repo.writing(uid, once) as change:
        before = _expect(change.before, expected)
        if not before.deals:
            raise NothingToUndo()
        number = len(before.deals)
        change.remove(number)
        return change.done(before.deals[:-1], _replay(before.settings, before.deals[:-1]), _note("undone", number, by))


# -- share links -------------------------------------------------------------------------------


def create_share(repo: Repository, uid: str, role: object, label: object = "") -> Share:
    """A new link to the pulka for a viewer or a scorer."""
    if role not in (Role.VIEWER, Role.SCORER):
        raise Refused(Msg("a share link's role is viewer or scorer"), "role")
    if not isinstance(label, str) or len(label.strip()) > SHARE_LABEL_MAX or not one_line(label):
        raise Refused(Msg("a link's name is one line of at most {most} characters")(most=SHARE_LABEL_MAX), "label")
    return repo.add_share(uid, Role(role), label.strip())


def list_shares(repo: Repository, uid: str) -> list[Share]:
    return repo.shares(uid)


def revoke_share(repo: Repository, uid: str, share_id: str) -> None:
    """The link stops working at once, in every browser that opened it."""
    repo.delete_share(uid, share_id)


def open_share(repo: Repository, token: str, account_id: int | None = None) -> Share:
    """Someone opened a share link: with an account, the pulka joins that account's list."""
    share = repo.share(token)
    if share is None:
        raise NotFound("share link")
    if account_id is not None:
        repo.grant(account_id, share)
    return share


# -- helpers -----------------------------------------------------------------------------------


def _note(what: str, deal: int | None, by: str) -> dict[str, object]:
    """What a write did and who did it, for the phones watching the sheet."""
    return {"what": what, "deal": deal, "by": by}


def _expect(pulka: Pulka, expected: int | None) -> Pulka:
    if expected is not None and expected != pulka.version:
        raise VersionConflict()
    return pulka


def _replay(settings: Settings, deals: Sequence[Deal], focus: int | None = None, action: str | None = None,
            renumber_from: int | None = None) -> Replay:
    """The engine's replay of `deals`; DealRefused with its problems if a deal breaks the rules."""
    try:
        return replay(settings.rules, len(settings.players), deals, settings.first_dealer)
    except PulkaError as error:
        raise DealRefused.of(error, settings.players, focus, action, renumber_from) from None

