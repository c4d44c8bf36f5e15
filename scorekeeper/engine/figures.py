"""A player's figures over the pulkas that count (docs/club.md §2): his sums, a standings table, his running
totals for a chart. Sums are exact (Fractions of whists, Decimals of money) and kept per preset and per
currency: a Leningrad whist is not a Sochi whist, and a rouble is not a euro."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Generic

from .records import Day, Filter, Who, Record, in_order
from .roles import Roles

# One counted pulka, or many, per preset (whists) or per currency (money).
Whists = Mapping[str, Fraction]
Money = Mapping[str, Decimal]


@dataclass(frozen=True)
class HeadToHead(Generic[Who]):
    opponent: Who
    pulkas: int  # counted pulkas both sat in
    net: Whists  # Σ pairwise[player][opponent] over them: what he won from the opponent


@dataclass(frozen=True)
class PlayerStats(Generic[Who]):
    """One player's figures over the pulkas that count for him (docs/club.md §2)."""

    player: Who
    pulkas: int
    won: int  # pulkas with his balance above 0
    lost: int  # below 0
    net: Whists
    money: Money
    roles: Roles
    head_to_head: tuple[HeadToHead[Who], ...]  # most pulkas shared first; ties: the first shared first

    @property
    def deals(self) -> int:
        return self.roles.deals


def _add(sums: dict[str, Any], key: str, value: Any) -> None:
    sums[key] = sums[key] + value if key in sums else value


def player_stats(player: Who, records: Iterable[Record[Who]], filter: Filter[Who] | None = None) -> PlayerStats[Who]:
    """`player`'s figures over the records `filter` admits for him (all his finished ones by default)."""
    f: Filter[Who] = filter or Filter()
    pulkas = won = lost = 0
    net: dict[str, Fraction] = {}
    money: dict[str, Decimal] = {}
    total = Roles()
    shared: dict[Who, int] = {}
    against: dict[Who, dict[str, Fraction]] = {}
    for record in records:
        if not f.admits(record, player):
            continue
        seat = record.seat(player)
        balance = record.net[seat]
        pulkas, won, lost = pulkas + 1, won + (balance > 0), lost + (balance < 0)
        _add(net, record.preset, balance)
        _add(money, record.currency, record.money[seat])
        total += record.roles[seat]
        for other, opponent in enumerate(record.players):
            if other != seat:
                shared[opponent] = shared.get(opponent, 0) + 1
                _add(against.setdefault(opponent, {}), record.preset, record.pairwise[seat][other])
    rows = sorted(shared, key=lambda opponent: -shared[opponent])  # stable: ties stay in the order first shared
    return PlayerStats(player, pulkas, won, lost, net, money, total,
                       tuple(HeadToHead(opponent, shared[opponent], against[opponent]) for opponent in rows))


@dataclass(frozen=True)
class PlayerStanding(Generic[Who]):
    """One player's line of a standings table, per preset and per currency."""

    player: Who
    pulkas: int
    won: int
    lost: int
    net: Whists
    pulkas_in: Mapping[str, int]  # per preset
    deals_in: Mapping[str, int]  # per preset: deals he was active in
    money: Money
    provisional: bool  # fewer counted pulkas than the table's floor

    @property
    def per_pulka(self) -> Whists:
        """His whists per pulka, per preset."""
        return {preset: net / self.pulkas_in[preset] for preset, net in self.net.items()}

    @property
    def per_deal(self) -> Whists:
        """His whists per deal he was active in, per preset: none for a preset of pulkas with no deal (kept
        on paper)."""
        return {preset: net / self.deals_in[preset] for preset, net in self.net.items() if self.deals_in[preset]}


def standings(records: Iterable[Record[Who]], filter: Filter[Who] | None = None,
              floor: int = 0) -> tuple[PlayerStanding[Who], ...]:
    """A line for each player of the records `filter` admits, in the order they first appear; provisional
    under `floor` pulkas. One pass over the records, each seat summed into its player's sums: a club of
    thousands of players takes as long as its pulkas (a pass per player took players × pulkas)."""
    f: Filter[Who] = filter or Filter()
    won: dict[Who, int] = {}
    lost: dict[Who, int] = {}
    net: dict[Who, dict[str, Fraction]] = {}
    pulkas: dict[Who, dict[str, int]] = {}
    deals: dict[Who, dict[str, int]] = {}
    money: dict[Who, dict[str, Decimal]] = {}
    for record in records:
        if not f.admits(record):
            continue
        for player in dict.fromkeys(record.players):  # one seat a pulka each, as record.seat finds it
            seat = record.seat(player)
            balance = record.net[seat]
            # A Fraction's sign is its numerator's: an int compare, where a Fraction's own is slow enough to
            # show in the standings of thousands.
            won[player] = won.get(player, 0) + (balance.numerator > 0)
            lost[player] = lost.get(player, 0) + (balance.numerator < 0)
            _add(net.setdefault(player, {}), record.preset, balance)
            _add(pulkas.setdefault(player, {}), record.preset, 1)
            _add(deals.setdefault(player, {}), record.preset, record.roles[seat].deals)
            _add(money.setdefault(player, {}), record.currency, record.money[seat])
    return tuple(PlayerStanding(player, sum(pulkas[player].values()), won[player], lost[player], net[player],
                                pulkas[player], deals[player], money[player], sum(pulkas[player].values()) < floor)
                 for player in won)


# A chart's points: after each counted pulka, in date order, its date and the running total.
Chart = tuple[tuple[Day, Fraction], ...]


@dataclass(frozen=True)
class Running:
    net: Mapping[str, Chart]  # per preset
    money: Mapping[str, tuple[tuple[Day, Decimal], ...]]  # per currency


def _running(points: Iterable[tuple[str, Day, Any]]) -> dict[str, tuple[tuple[Day, Any], ...]]:
    totals: dict[str, Any] = {}
    lines: dict[str, list[tuple[Day, Any]]] = {}
    for key, day, value in points:
        _add(totals, key, value)
        lines.setdefault(key, []).append((day, totals[key]))
    return {key: tuple(line) for key, line in lines.items()}


def running(player: Who, records: Iterable[Record[Who]], filter: Filter[Who] | None = None) -> Running:
    """`player`'s cumulative net per preset and money per currency, after each pulka that counts for him."""
    f: Filter[Who] = filter or Filter()
    counted = [(record, record.seat(player)) for record in in_order(records) if f.admits(record, player)]
    return Running(_running((r.preset, r.started, r.net[seat]) for r, seat in counted),
                   _running((r.currency, r.started, r.money[seat]) for r, seat in counted))


def running_pair(a: Who, b: Who, records: Iterable[Record[Who]],
                 filter: Filter[Who] | None = None) -> Mapping[str, Chart]:
    """What `a` has won from `b`, cumulated per preset, after each pulka counted for `a` that `b` sat in."""
    f: Filter[Who] = filter or Filter()
    return _running((r.preset, r.started, r.pairwise[r.seat(a)][r.seat(b)]) for r in in_order(records)
                    if f.admits(r, a) and b in r.players and a != b)
