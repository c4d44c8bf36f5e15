"""Pulkas: reading them, starting one (new, the same table again, an import), its settings, deleting it.

A write builds the pulka's new list of deals, replays it with the engine and stores it only if it replays;
otherwise it raises a refusal and nothing is stored. Writes take the version the caller last saw (None:
any), so two phones cannot enter the same deal twice unknowingly. The repositories write in the unit of work
the edge opened (services.unit), which commits the write with its idempotency key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from typing import Protocol

from ...engine import Code, Deal, PulkaError, Replay, Text, replay
from ...i18n.words import Msg
from ..domain.limits import Limits
from ..domain.names import newcomers_fault
from ..domain.pulkas import (ChangeSettings, DeletePulka, ImportPulka, Note, Pulka, Settings, Stamp, PulkaStanding,
                             Successor, Summary, ended, next_at_table, read_settings, writable)
from ..domain.results import Result
from ..domain.refusals import AccountFull, DealRefused, Refused, RulesFrozen, TooManyDeals, TooManyPulkas


class PulkaChange(Protocol):
    """The rows of one write on one pulka, said in deals and settings."""

    @property
    def before(self) -> Pulka: ...

    def append(self, deal: Deal) -> None: ...

    def replace(self, number: int, deal: Deal) -> None: ...

    def remove(self, number: int) -> None: ...

    def set_settings(self, settings: Settings) -> None: ...

    def freeze(self, result: Result) -> None:
        """The pulka ends with `result` (domain.results), recorded as its ending."""

    def thaw(self, by: str) -> None:
        """Its result is taken back (recorded: who)."""

    @property
    def owner_deals(self) -> int | None:
        """How many deals the pulka's owner's pulkas held when the write began, under its lock; None unless
        the write was opened `adding` a deal (or the pulka is nobody's)."""

    def done(self, deals: Sequence[Deal], replayed: Replay, note: Note, settings: Settings | None = None) -> Pulka:
        """The pulka this write makes, kept by its new version once the transaction commits."""


class PulkaRepository(Protocol):
    """Pulkas by uid, each at its version, and the players of an account's circle. It counts what the limits
    weigh; the use cases keep the limits."""

    def account_pulkas(self, account_id: int) -> int:
        """How many pulkas the account owns."""

    def account_deals(self, account_id: int) -> int:
        """How many deals the account's pulkas hold in all."""

    def get(self, uid: str) -> Pulka:
        """The pulka as it is now, replayed; NotFound when there is none."""

    def known(self, uid: str) -> Pulka:
        """The pulka as this process last knew it, which may be a version behind the database's; NotFound."""

    def stamp(self, uid: str, seen: int = 0) -> Stamp:
        """The pulka's version, deals and last change, never older than the version `seen`; NotFound."""

    def successor(self, uid: str) -> Successor | None:
        """The pulka the table of `uid` plays now (its last one), when that is a later one; None otherwise (and
        for no such pulka)."""

    def summaries(self, account_id: int) -> list[Summary]:
        """The account's pulkas and those shared with it, newest first."""

    def player_names(self, account_id: int) -> list[str]: ...

    def circle_names(self, account_id: int) -> list[str]:
        """The names of the account's circle: its own players' and those of the pulkas shared with it."""

    def create(self, owner_id: int, settings: Settings, deals: Sequence[Deal], replayed: Replay,
               started: datetime | None = None, table: str = "", frozen: Result | None = None) -> Pulka:
        """A new pulka at `table` (a pulka's `table`), else at a table of its own; frozen at once with
        `frozen`, if given."""

    def writing(self, uid: str, expected: int | None = None, adding: bool = False
                ) -> AbstractContextManager[PulkaChange]:
        """One write on one pulka, in the unit of work's transaction (else in one of its own, committed when
        the block ends); rolled back if it raises. NotFound: no such pulka; VersionConflict: the pulka is not
        at the `expected` version (the one the caller last saw; None: any), found before anything is read.
        `adding`: the write adds a deal, and the change knows how many its owner's pulkas held as it began
        (`owner_deals`)."""

    def delete(self, uid: str) -> None: ...


# -- reading -----------------------------------------------------------------------------------


def get_pulka(pulkas: PulkaRepository, uid: str) -> Pulka:
    return pulkas.get(uid)


def pulka_to_write(pulkas: PulkaRepository, uid: str) -> Pulka:
    """What a write's request is read against (its players' names, the number of a new deal): the pulka as
    this process last knew it, without asking the database when it may trust that. The write itself takes
    the pulka as it is under its lock, and the version the caller saw, if it says one."""
    return pulkas.known(uid)


def version(pulkas: PulkaRepository, uid: str, seen: int = 0) -> Stamp:
    """What a phone watching the sheet asks every few seconds: the version (never older than the one it
    saw), with the deals and the last change."""
    return pulkas.stamp(uid, seen)


def played_now(pulkas: PulkaRepository, uid: str) -> Successor | None:
    """The table's later pulka that it plays now, if it went on from this one: every page of this one leads
    there in a tap."""
    return pulkas.successor(uid)


def list_pulkas(pulkas: PulkaRepository, account_id: int) -> list[Summary]:
    """The account's pulkas and those shared with it."""
    return pulkas.summaries(account_id)


def pulkas_as_they_stand(pulkas: PulkaRepository, account_id: int) -> list[tuple[Summary, PulkaStanding]]:
    """The account's list with where each pulka stands, for the home page's status and leader: as its last
    write kept it, so that a list of a thousand long pulkas costs one query, not a thousand replays (only a
    pulka written before standings were kept is replayed)."""
    return [(summary, summary.standing or PulkaStanding.of(pulkas.get(summary.uid)))
            for summary in pulkas.summaries(account_id)]


def player_names(pulkas: PulkaRepository, account_id: int) -> list[str]:
    """The names the account has seated before."""
    return pulkas.player_names(account_id)


# -- writing -----------------------------------------------------------------------------------


def create_pulka(pulkas: PulkaRepository, owner_id: int, settings: Settings, deals: Sequence[Deal] = (),
                 started: datetime | None = None, table: str = "", closed_by: str | None = None,
                 limits: Limits = Limits()) -> Pulka:
    """A new pulka, frozen at once when its deals finish it or `closed_by` closes it (a paper sheet kept);
    within the app's `limits`. Refused (bad_players) when a name new to the owner's circle reads as one of it
    (domain.names)."""
    if len(deals) > limits.pulka_deals:
        raise TooManyDeals(limits.pulka_deals)
    check_newcomers(pulkas, owner_id, settings.players)
    check_room(pulkas, limits, owner_id, len(deals), new_pulka=True)
    replay_ = replayed(settings, deals)
    return pulkas.create(owner_id, settings, deals, replay_, started, table,
                         ended(settings, replay_, datetime.now(timezone.utc), closed_by))


def check_newcomers(pulkas: PulkaRepository, owner_id: int | None, players: Sequence[str]) -> None:
    """Refused (bad_players, on the players) when a name new to the owner's circle differs from one of it only
    by invisible characters (docs/club.md §1)."""
    if owner_id is None:
        return  # a pulka from before accounts: nobody's circle
    fault = newcomers_fault(players, pulkas.circle_names(owner_id))
    if fault is not None:
        raise Refused(fault, "players", code=Code.BAD_PLAYERS.value)


def check_room(pulkas: PulkaRepository, limits: Limits, owner_id: int | None, deals: int, new_pulka: bool = False,
               held: int | None = None) -> None:
    """Whether the account has room, within `limits`, for a new pulka and for `deals` more deals; refused
    otherwise. `held`: the deals the account holds, if the caller knows them already (a write opened `adding`
    a deal)."""
    if owner_id is None:
        return  # a pulka from before accounts: nobody's to count
    # Each count only where it can refuse: a deal's write (every few seconds at every table) counts no pulkas.
    if new_pulka and pulkas.account_pulkas(owner_id) >= limits.pulkas:
        raise TooManyPulkas(limits.pulkas)
    if deals and (pulkas.account_deals(owner_id) if held is None else held) + deals > limits.deals:
        raise AccountFull(limits.deals)


def again(pulkas: PulkaRepository, owner_id: int, uid: str, first_dealer: str | None = None,
          limits: Limits = Limits(), by: str = "") -> Pulka:
    """The next pulka of the same table (domain.pulkas.next_at_table), with no deal yet: the table's share
    links open it, each with its role. `first_dealer`: a player's name, chosen. The pulka the table played
    until now is told (a note "again" by `by`, its version moved on, nothing else of it changed), so that the
    phones watching it hear of the next one at once."""
    before = pulkas.get(uid)
    if first_dealer is not None and first_dealer not in before.players:
        raise Refused(Msg("the first dealer is one of the players"), "first_dealer")
    dealer = before.players.index(first_dealer) if first_dealer is not None else None
    # In the offset the table's pulka started with: the evening's pulkas share its calendar.
    started = datetime.now(before.started.tzinfo) if before.utc_offset is not None else None
    later = pulkas.successor(uid)
    # Told before the new one is made, in the same unit of work: the new pulka stays the table's latest change.
    # The room first, so that a refused again tells nobody.
    check_room(pulkas, limits, owner_id, 0, new_pulka=True)
    with pulkas.writing(later.uid if later else uid) as change:
        told = change.before
        change.done(told.deals, told.replay, note("again", None, by))
    return create_pulka(pulkas, owner_id, next_at_table(before, dealer), started=started,
                        table=before.table or before.uid, limits=limits)


def import_pulka(pulkas: PulkaRepository, owner_id: int, command: ImportPulka, limits: Limits = Limits()) -> Pulka:
    """A pulka file as a new pulka, named as the command says, else as the file names it, else after its
    players."""
    file = command.file
    settings = read_settings({
        "name": command.name or file.name or command.untitled,
        "currency": file.currency or "",
        "players": list(file.players),
        "first_dealer": file.players[file.first_dealer],
        "rules": file.rules.overrides(),
    })
    settings = dataclasses.replace(settings, opening=file.opening)
    return create_pulka(pulkas, owner_id, settings, file.deals, file.started, limits=limits)


def change_settings(pulkas: PulkaRepository, command: ChangeSettings, by: str = "") -> Pulka:
    """Name and currency change any time; the players, first dealer and rules only before the first deal."""
    settings = command.settings
    with pulkas.writing(command.uid, command.expected) as change:
        before = writable(change.before)
        replay_ = before.replay
        if settings.seating != before.settings.seating:
            if before.deals:
                raise RulesFrozen()
            check_newcomers(pulkas, before.owner_id, settings.players)
            replay_ = replayed(settings, ())
        change.set_settings(settings)
        return written(change, before.deals, replay_, note("settings", None, by), settings)


def delete_pulka(pulkas: PulkaRepository, command: DeletePulka) -> None:
    pulkas.delete(command.uid)


# -- what every write does -----------------------------------------------------------------------


def written(change: PulkaChange, deals: Sequence[Deal], replay_: Replay, note: Note,
            settings: Settings | None = None) -> Pulka:
    """The write done: one that leaves the pulka finished freezes it (docs/rules.md §8.1)."""
    result = ended(settings or change.before.settings, replay_, datetime.now(timezone.utc))
    if result is not None:
        change.freeze(result)
    return change.done(deals, replay_, note, settings)


def note(what: str, deal: int | None, by: str) -> dict[str, object]:
    """What a write did and who did it, for the phones watching the sheet."""
    return {"what": what, "deal": deal, "by": by}


def replayed(settings: Settings, deals: Sequence[Deal], focus: int | None = None, action: Text | None = None,
             renumber_from: int | None = None) -> Replay:
    """The engine's replay of `deals`, its chains linked (the sheet and the answer show them); DealRefused
    with its problems if a deal breaks the rules."""
    try:
        return replay(settings.rules, len(settings.players), deals, settings.first_dealer, settings.opening,
                      chains=True)
    except PulkaError as error:
        raise DealRefused.of(error, settings.players, focus, action, renumber_from) from None

