"""Players across evenings (CLUB.md §1-2): the caller's circle, a player's statistics over the pulkas that
count for the caller, the standings of the circle; renaming and merging his own players.

The figures are the engine's (engine.stats) over the records the repository gives: frozen pulkas' stored
results, never a fresh replay, and only pulkas the caller may read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ...engine import Filter, PlayerStats, Record, player_stats, running, running_pair, standings
from ...engine.stats import Career, DealLine, Line, PulkaLine, Rivals, Running, Standing, career, deal_lines, pulka_lines, rivals
from ..domain.players import FLOOR, Player
from ..domain.pulkas import Pulka
from ..domain.refusals import NotFound


class PlayerRepository(Protocol):
    def records(self, account_id: int, unfinished: bool = False
                ) -> tuple[Sequence[Player], Sequence[Record[str]], Mapping[str, str]]:
        """The account's circle, a record of every pulka it may read (frozen ones; `unfinished`: all), and the
        names of those pulkas by id."""

    def merged_ones(self, account_id: int, uid: str) -> list[Player]: ...

    def seated(self, account_id: int, pulka: str) -> tuple[str, ...]: ...

    def rename(self, account_id: int, uid: str, name: str) -> Player: ...

    def merge(self, account_id: int, gone: str, into: str) -> None: ...

    def unmerge(self, account_id: int, uid: str) -> None: ...


@dataclass(frozen=True)
class Circle:
    """The caller's players and the records that count under a filter."""

    players: tuple[Player, ...]
    records: tuple[Record[str], ...]
    filter: Filter[str]
    titles: Mapping[str, str]  # the pulkas' names by id

    def name_of(self, uid: str) -> str:
        return next(p.name for p in self.players if p.id == uid)

    def player(self, uid: str) -> Player:
        found = next((p for p in self.players if p.id == uid), None)
        if found is None:
            raise NotFound("player")
        return found

    def pulkas_of(self, uid: str) -> int:
        return sum(uid in r.players and self.filter.admits(r, uid) for r in self.records)


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
    pair: Mapping[str, Line]  # then what he won from him, running, per preset


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


def deals_of(pulkas: Replays, page: PlayerPage) -> tuple[tuple[PulkaLine[str], Pulka, tuple[DealLine, ...]], ...]:
    """Each of the player's counted pulkas, as stored, with his seat's line in each of its deals."""
    found = []
    for line in page.lines:
        pulka = pulkas.get(line.record.pulka)
        found.append((line, pulka, tuple(d for d in deal_lines(pulka.replay) if d.seat == line.seat)))
    return tuple(found)


def seat_player(players: PlayerRepository, account_id: int, pulka: str, seat: int) -> str:
    """The id of the player in `seat` of a pulka the caller may read, in his circle."""
    seats = players.seated(account_id, pulka)
    if not 0 <= seat < len(seats):
        raise NotFound("player")
    return seats[seat]


def standings_of(c: Circle, floor: int) -> Sequence[Standing[str]]:
    return standings(c.records, c.filter, floor)


def rename(players: PlayerRepository, account_id: int, uid: str, name: str) -> Player:
    return players.rename(account_id, uid, name)


def merge(players: PlayerRepository, account_id: int, gone: str, into: str) -> None:
    players.merge(account_id, gone, into)


def unmerge(players: PlayerRepository, account_id: int, uid: str) -> None:
    players.unmerge(account_id, uid)
