"""An event's standings after its complete rounds (docs/tournament.md §4): each player's points, whists, rounds, byes,
best round and results round by round, ranked by points and then the event's tie-breaks. Sums are exact; they
do not depend on the order of the tables in a round, or of the rounds' tables finishing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic

from ..records import Who
from .lots import Lots
from .points import bye_points, table_points
from .terms import Scoring, Tiebreak


@dataclass(frozen=True)
class RoundResult(Generic[Who]):
    """A complete round (each of its tables finished or closed): each table's exact whist balances by player, and
    who sat out."""

    tables: tuple[Mapping[Who, Fraction], ...]
    byes: tuple[Who, ...] = ()


@dataclass(frozen=True)
class EventStanding(Generic[Who]):
    """One row of the standings. `results[i]` is round i + 1's points (a bye's for a bye), None for a round before
    he entered or after he withdrew; `best_round` the highest of them; `rounds` the rounds he played at a table."""

    rank: int
    player: Who
    points: Fraction
    whists: Fraction  # the sum of his balances
    rounds: int
    byes: int
    best_round: Fraction
    results: tuple[Fraction | None, ...]


def lots_order(entrants: Sequence[Who], seed: int) -> dict[Who, int]:
    """Each entrant's place (from 0) in the order drawn by lot once for the event: entrant i draws the first
    number of the stream ("lots", i), so a late entrant moves nobody else's lot."""
    drawn = sorted((Lots.of(seed, "lots", i).next(), i) for i in range(len(entrants)))
    return {entrants[i]: place for place, (_, i) in enumerate(drawn)}


def round_points(played: RoundResult[Who], scoring: Scoring, table_size: int) -> dict[Who, Fraction]:
    """Each player's points for one round: his table's, or a bye's."""
    points: dict[Who, Fraction] = {}
    for table in played.tables:
        for player, value in table_points(scoring, table).items():
            if player in points:
                raise ValueError(f"{player!r} is at two tables of one round")
            points[player] = value
    for player in played.byes:
        if player in points:
            raise ValueError(f"{player!r} plays and sits out in one round")
        points[player] = bye_points(scoring, table_size)
    return points


def event_standings(entrants: Sequence[Who], rounds: Sequence[RoundResult[Who]], scoring: Scoring,
                    table_size: int, tiebreaks: Sequence[Tiebreak], seed: int) -> tuple[EventStanding[Who], ...]:
    """The standings after `rounds` (the complete rounds, from the first, up to the one asked for): a row for each
    player who played or sat out in one of them, ranked by points, then by each tie-break in order (whists and
    best round higher first, lots by the order drawn from the seed). Players equal on all of them share a rank,
    and the next rank counts them (two 3rd: 3, 3, 5); rows of one rank in the order of entry. `entrants`: every
    player of the event, in the order of entry."""
    entry = {p: i for i, p in enumerate(entrants)}
    by_round = [round_points(played, scoring, table_size) for played in rounds]
    whists: dict[Who, Fraction] = {}
    played_at: dict[Who, int] = {}
    for played in rounds:
        for table in played.tables:
            for player, balance in table.items():
                whists[player] = whists.get(player, Fraction(0)) + balance
                played_at[player] = played_at.get(player, 0) + 1
    unknown = [p for points in by_round for p in points if p not in entry]
    if unknown:
        raise ValueError(f"{unknown[0]!r} played but is not an entrant")
    players = sorted({p for points in by_round for p in points}, key=entry.__getitem__)
    lots = lots_order(entrants, seed)
    rows = []
    for p in players:
        results = tuple(points.get(p) for points in by_round)
        scored = [r for r in results if r is not None]
        byes = sum(p in played.byes for played in rounds)
        rows.append(EventStanding(0, p, sum(scored, Fraction(0)), whists.get(p, Fraction(0)), played_at.get(p, 0),
                                  byes, max(scored), results))
    keys = {row.player: _key(row, tiebreaks, lots) for row in rows}
    rows.sort(key=lambda row: (keys[row.player], entry[row.player]))
    ranked: list[EventStanding[Who]] = []
    for row in rows:
        rank = len(ranked) + 1 if not ranked or keys[ranked[-1].player] != keys[row.player] else ranked[-1].rank
        ranked.append(EventStanding(rank, row.player, row.points, row.whists, row.rounds, row.byes, row.best_round,
                                    row.results))
    return tuple(ranked)


def _key(row: EventStanding[Who], tiebreaks: Sequence[Tiebreak], lots: Mapping[Who, int]) -> tuple[Fraction, ...]:
    """What a row is ranked by, smaller first: its points, then each tie-break's value, as sorted ascending."""
    values = {Tiebreak.WHISTS: -row.whists, Tiebreak.BEST_ROUND: -row.best_round,
              Tiebreak.LOTS: Fraction(lots[row.player])}
    return (-row.points, *(values[t] for t in tiebreaks))
