"""Players across evenings (docs/club.md §1-2): the caller's circle, a player's statistics over the pulkas that
count for the caller, the standings of the circle; renaming and merging his own players.

The figures are the engine's (engine.figures, engine.career) over the records the repository gives: frozen
pulkas' stored results, never a fresh replay, and only pulkas the caller may read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from ...engine import (Career, Chart, DealLine, Filter, PlayerStanding, PlayerStats, PulkaLine, Record, Rivals, Running,
                       career, deal_lines, player_stats, pulka_lines, rivals, running, running_pair, standings)
from ...i18n.words import Msg
from ..domain.names import ALIKE_AT_TABLE, ALIKE_IN_CIRCLE, alike, name_fault, shown
from ..domain.players import FLOOR, Member, Merge, Player, Rename, Unmerge
from ..domain.pulkas import Pulka
from ..domain.refusals import Duplicate, NotFound, Refused


class PlayerRepository(Protocol):
    def records(self, account_id: int, unfinished: bool = False
                ) -> tuple[Sequence[Player], Sequence[Record[str]], Mapping[str, str]]:
        """The account's circle, a record of every pulka it may read (frozen ones; `unfinished`: all), and the
        names of those pulkas by id."""

    def merged_ones(self, account_id: int, uid: str) -> list[Player]:
        """The account's players merged into `uid`, at any depth."""

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]: ...

    def writing(self, account_id: int) -> AbstractContextManager[PlayerWrite]:
        """One write on the account's own players, in the unit of work's transaction (else in one of its own,
        committed when the block ends); rolled back if it raises. The writes of one circle take effect one at
        a time: what a write reads in its block, no other changes before it ends."""


class PlayerWrite(Protocol):
    """The rows of one write on an account's own players: what the service decides from, and what it
    changes. The store checks nothing: every rule is the service's."""

    def member(self, uid: str) -> Member | None:
        """One of the account's own players; None for any other id."""

    def counterparts(self, uids: Iterable[str]) -> frozenset[str]:
        """The players a payment row (of any ledger) stands between with one of `uids`."""

    def rename(self, uid: str, name: str) -> Player:
        """Duplicate when another player of the circle has the name already."""

    def circle(self) -> Mapping[str, str]:
        """The name of every player of the account's circle (merged ones too), by id."""

    def beside(self, uids: Iterable[str]) -> frozenset[str]:
        """The names of those who sat at one table with any of `uids`, theirs left out."""

    def merge(self, uids: Iterable[str], into: str | None) -> None:
        """Each of `uids` counted as `into`; None: as himself again."""


@dataclass(frozen=True)
class Circle:
    """The caller's players and the records that count under a filter."""

    players: tuple[Player, ...]
    records: tuple[Record[str], ...]
    filter: Filter[str]
    titles: Mapping[str, str]  # the pulkas' names by id

    def name_of(self, uid: str) -> str:
        return self._by_id[uid].name

    def player(self, uid: str) -> Player:
        found = self._by_id.get(uid)
        if found is None:
            raise NotFound("player")
        return found

    def pulkas_of(self, uid: str) -> int:
        return self._counted.get(uid, 0)

    # Looked up once per name a page or a file shows: by id, not through the list (a club of thousands of players
    # would make each page players × names).
    @cached_property
    def _by_id(self) -> dict[str, Player]:
        return {p.id: p for p in self.players}

    @cached_property
    def _counted(self) -> dict[str, int]:
        """How many of the records count for each player, in one pass over them."""
        counted: dict[str, int] = {}
        for r in self.records:
            for uid in dict.fromkeys(r.players):
                if self.filter.admits(r, uid):
                    counted[uid] = counted.get(uid, 0) + 1
        return counted


def circle(players: PlayerRepository, account_id: int, filter: Filter[str]) -> Circle:
    found, records, titles = players.records(account_id, filter.unfinished)
    return Circle(tuple(sorted(found, key=lambda p: p.name.casefold())), tuple(records), filter, titles)


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    stats: PlayerStats[str]
    running: Running
    merged: tuple[Player, ...]
    lines: tuple[PulkaLine[str], ...]  # his counted pulkas, the latest first
    career: Career
    rivals: Rivals[str]
    against: str | None  # the one other player the filter asks for (`with`): head to head with him
    pair: Mapping[str, Chart]  # then what he won from him, running, per preset


def of_player(players: PlayerRepository, account_id: int, uid: str, filter: Filter[str],
              floor: int = FLOOR) -> tuple[Circle, PlayerPage]:
    """A player's statistics, his pulkas, running totals, rival and nemesis (from `floor` shared pulkas on),
    and those merged into him; NotFound for a player not of the caller's circle (as for a pulka, one he may
    not see does not exist)."""
    c = circle(players, account_id, filter)
    player = c.player(uid)
    merged = tuple(players.merged_ones(account_id, uid)) if player.own else ()
    stats, lines = player_stats(uid, c.records, filter), pulka_lines(uid, c.records, filter)
    others = filter.with_ - {uid}
    against = next(iter(others)) if len(others) == 1 else None
    pair = running_pair(uid, against, c.records, filter) if against is not None else {}
    return c, PlayerPage(player, stats, running(uid, c.records, filter), merged, lines, career(lines),
                         rivals(stats, lines, floor), against, pair)


class Replays(Protocol):
    def get(self, uid: str) -> Pulka: ...


def deals_of(pulkas: Replays, page: PlayerPage) -> Iterator[tuple[PulkaLine[str], Pulka, tuple[DealLine, ...]]]:
    """Each of the player's counted pulkas, as stored, with his seat's line in each of its deals: read one after
    the other as they are asked for (a file of them is sent as it is written, never all his pulkas at once)."""
    for line in page.lines:
        pulka = pulkas.get(line.record.pulka)
        yield line, pulka, tuple(d for d in deal_lines(pulka.replay) if d.seat == line.seat)


def seat_player(players: PlayerRepository, account_id: int, pulka: str, seat: int) -> str:
    """The id of the player in `seat` of a pulka the caller may read, in his circle."""
    seats = players.seated(account_id, pulka)
    if not 0 <= seat < len(seats):
        raise NotFound("player")
    return seats[seat]


def standings_of(c: Circle, floor: int) -> Sequence[PlayerStanding[str]]:
    return standings(c.records, c.filter, floor)


def rename(players: PlayerRepository, account_id: int, command: Rename) -> Player:
    name = command.name
    with players.writing(account_id) as write:
        _member(write, command.player)
        fault = name_fault(name, [n for other, n in write.circle().items() if other != command.player],
                           ALIKE_IN_CIRCLE)
        if fault is not None:
            raise Refused(fault, "name")
        try:
            return write.rename(command.player, name)
        except Duplicate:
            raise Refused(Msg("{name} is a player of your circle already: merge the two instead")(name=name),
                          "name") from None


def merge(players: PlayerRepository, account_id: int, command: Merge) -> None:
    """`gone` counts as `into` from now on (one player entered under two spellings), with everyone merged into
    him (docs/club.md §1, "Merging, exactly"): each one's group is he and everyone merged into him, at any
    depth; refused when one group holds the other (a circle), when either is merged already, when a member of
    each sat at one table (one person never holds two seats) or a payment stands between a member of each."""
    with players.writing(account_id) as write:
        moving, target = _member(write, command.gone), write.member(command.into)
        if target is None or target.id == moving.id:
            raise Refused(Msg("merge a player into another one of your circle, not merged himself"), "into")
        ours, theirs = _group(write, moving), _group(write, target)
        if moving.id in theirs or target.id in ours:
            raise Refused(Msg("one of the two is merged into the other already"), "into")
        if moving.merged_into is not None or target.merged_into is not None:
            raise Refused(Msg("merge a player into another one of your circle, not merged himself"), "into")
        if _pulkas(ours) & _pulkas(theirs):
            raise Refused(Msg("the two sat at one table in a pulka: they are two players"), "into")
        if write.counterparts(ours) & theirs.keys():
            raise Refused(Msg("payments stand between the two in the ledger: they are two players"), "into")
        name = write.circle()[target.id]  # the name his pulkas count under from now on
        other = alike(name, write.beside(ours))
        if other is not None:
            raise Refused(ALIKE_AT_TABLE(name=shown(name), other=shown(other)), "into")
        # He alone: those merged into him stay his, so that undoing this merge gives them back with him.
        write.merge((moving.id,), target.id)


def unmerge(players: PlayerRepository, account_id: int, command: Unmerge) -> None:
    """The player counts as himself again, with everyone merged into him; the others keep theirs."""
    with players.writing(account_id) as write:
        if _member(write, command.player).merged_into is None:
            raise Refused(Msg("this player is not merged into another"), "id")
        write.merge((command.player,), None)


def _group(write: PlayerWrite, member: Member) -> dict[str, Member]:
    """He and everyone merged into him, at any depth, by id."""
    group = {member.id: member}
    waiting = list(member.merged)
    while waiting:
        uid = waiting.pop()
        if uid not in group:  # a circle stored before merges were serialised ends here
            group[uid] = _member(write, uid)
            waiting.extend(group[uid].merged)
    return group


def _pulkas(group: Mapping[str, Member]) -> frozenset[str]:
    return frozenset().union(*(m.pulkas for m in group.values()))


def _member(write: PlayerWrite, uid: str) -> Member:
    """One of the caller's own players; NotFound for any other (one he may not see does not exist)."""
    member = write.member(uid)
    if member is None:
        raise NotFound("player")
    return member
