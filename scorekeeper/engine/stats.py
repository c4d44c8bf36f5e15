"""Players across pulkas (CLUB.md §1-§2): each player's deals counted by role, and the sums over the pulkas
that count.

A pulka is counted once, when it is replayed (`roles`) and settled: a `Record` keeps what the figures
need of it, so a frozen pulka's figures are those stored when it ended. Everything else adds records up,
exactly (Fractions of whists, Decimals of money), per preset and per currency: a Leningrad whist is not a
Sochi whist, and a rouble is not a euro. Players are opaque keys (the web layer's ids); names are the
caller's, given only where JSON is written.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar, cast

from .contracts import LEVELS
from .deals import HALF, MISERE, PASS, RASPASY, WHIST, defenders, seats_in_play
from .pulka import Replay
from .settlement import Settlement, round_half_away, settle

Key = TypeVar("Key", bound=Hashable)


class Day(Protocol):
    """A pulka's date: a `datetime.date` (its `started` in its own offset). Named by what is done with it,
    comparing, since the engine imports nothing that reads a clock."""

    def __lt__(self, other: Any, /) -> bool: ...

    def __le__(self, other: Any, /) -> bool: ...


# -- one player's deals by role (CLUB.md §2) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declarer:
    """His games at one level as declarer."""

    level: int
    declared: int = 0
    played: int = 0  # a defender whisted, or the ten was checked
    made: int = 0  # tricks ≥ level, or not played: both passed, or a half-whist was accepted

    @property
    def remiz(self) -> int:
        return self.declared - self.made

    def __add__(self, other: Declarer) -> Declarer:
        if other.level != self.level:
            raise ValueError(f"a {self.level} and a {other.level} do not add up")
        return Declarer(self.level, self.declared + other.declared, self.played + other.played,
                        self.made + other.made)


@dataclass(frozen=True, slots=True)
class Misere:
    declared: int = 0
    made: int = 0  # no trick taken

    def __add__(self, other: Misere) -> Misere:
        return Misere(self.declared + other.declared, self.made + other.made)


@dataclass(frozen=True, slots=True)
class Defender:
    """His final words as one of the two defenders of a game (a checked ten has none)."""

    whist: int = 0
    pass_: int = 0  # "pass" in JSON
    half: int = 0
    short: int = 0  # he whisted and the deal wrote gora on him: the defence took less than its obligation

    def __add__(self, other: Defender) -> Defender:
        return Defender(self.whist + other.whist, self.pass_ + other.pass_, self.half + other.half,
                        self.short + other.short)


@dataclass(frozen=True, slots=True)
class Raspasy:
    deals: int = 0  # raspasy he played (the dealer sitting out with four does not)
    tricks: int = 0  # his own: a talon's tricks are nobody's here
    zero: int = 0  # those in which he took none

    def __add__(self, other: Raspasy) -> Raspasy:
        return Raspasy(self.deals + other.deals, self.tricks + other.tricks, self.zero + other.zero)


_NO_GAMES = tuple(Declarer(level) for level in LEVELS)


@dataclass(frozen=True, slots=True)
class Roles:
    """One player's deals in one pulka, or in several (Roles add; `Roles()` is none), by role."""

    deals: int = 0  # deals he was active in: not those he dealt and sat out, with four players
    declarer: tuple[Declarer, ...] = _NO_GAMES  # levels 6 to 10, in order
    misere: Misere = Misere()
    defender: Defender = Defender()
    raspasy: Raspasy = Raspasy()

    def at(self, level: int) -> Declarer:
        """His games declared at `level` (6-10)."""
        return self.declarer[level - LEVELS.start]

    def __add__(self, other: Roles) -> Roles:
        return Roles(self.deals + other.deals, tuple(a + b for a, b in zip(self.declarer, other.declarer)),
                     self.misere + other.misere, self.defender + other.defender, self.raspasy + other.raspasy)

    def stored(self) -> dict[str, Any]:
        """JSON data of ints, as `read` takes it back: the shape of CLUB.md §2 without the derived remiz."""
        return {"deals": self.deals, **_roles_json(self, remiz=False)}

    @classmethod
    def read(cls, data: object) -> Roles:
        """Roles from `stored` data; ValueError for anything else, counts that no deals could give included."""
        top = _object(data, "roles", ("deals", "declarer", "defender", "raspasy"))
        declarer = _object(top["declarer"], "declarer", (*map(str, LEVELS), "misere"))
        levels = []
        for level in LEVELS:
            counts = _counts(declarer[str(level)], f"declarer.{level}", ("declared", "played", "made"))
            levels.append(Declarer(level, *counts))
        roles = cls(_count(top["deals"], "deals"), tuple(levels),
                    Misere(*_counts(declarer["misere"], "declarer.misere", ("declared", "made"))),
                    Defender(*_counts(top["defender"], "defender", ("whist", "pass", "half", "short"))),
                    Raspasy(*_counts(top["raspasy"], "raspasy", ("deals", "tricks", "zero"))))
        if not roles.possible:
            raise ValueError(f"no deals give these counts: {data!r}")
        return roles

    @property
    def possible(self) -> bool:
        """Whether some deals give these counts. In each deal he is active in, he is the declarer, a defender
        with one word, a raspasy player, or none of them (a checked ten's defender, a misère's catcher)."""
        d, m, r = self.defender, self.misere, self.raspasy
        roles = sum(g.declared for g in self.declarer) + m.declared + d.whist + d.pass_ + d.half + r.deals
        return (all(g.played <= g.declared and g.declared - g.played <= g.made <= g.declared for g in self.declarer)
                and m.made <= m.declared and d.short <= d.whist and r.zero <= r.deals
                and r.tricks <= 10 * (r.deals - r.zero) and roles <= self.deals)


def _roles_json(roles: Roles, remiz: bool) -> dict[str, Any]:
    declarer: dict[str, Any] = {}
    for game in roles.declarer:
        counts = {"declared": game.declared, "played": game.played, "made": game.made}
        declarer[str(game.level)] = counts | ({"remiz": game.remiz} if remiz else {})
    declarer["misere"] = {"declared": roles.misere.declared, "made": roles.misere.made}
    d, r = roles.defender, roles.raspasy
    return {"declarer": declarer,
            "defender": {"whist": d.whist, "pass": d.pass_, "half": d.half, "short": d.short},
            "raspasy": {"deals": r.deals, "tricks": r.tricks, "zero": r.zero}}


def _object(data: object, name: str, keys: tuple[str, ...]) -> Mapping[str, object]:
    if not isinstance(data, Mapping) or set(data) != set(keys):
        raise ValueError(f"{name} must be an object of {', '.join(keys)}, not {data!r}")
    return cast("Mapping[str, object]", data)


def _count(value: object, name: str) -> int:
    if type(value) is not int or value < 0:  # a bool is an int, and no count
        raise ValueError(f"{name} must be a whole number, at least 0, not {value!r}")
    return value


def _counts(data: object, name: str, keys: tuple[str, ...]) -> list[int]:
    counts = _object(data, name, keys)
    return [_count(counts[key], f"{name}.{key}") for key in keys]


_ACTIVE = Roles(deals=1)
_RASPASY_ZERO = Roles(raspasy=Raspasy(1, 0, 1))


def roles(replay: Replay) -> tuple[Roles, ...]:
    """Each seat's Roles in a replayed pulka: its deals only, none for a paper opening it went on from."""
    rules, n = replay.rules, replay.start.n
    seats = [Roles()] * n
    for result in replay.results:
        deal, active = result.deal, seats_in_play(n, result.dealer)
        tricks = cast("Mapping[int, int]", deal.tricks or {})  # valid: whole numbers 0-10
        for seat in active:
            seats[seat] += _ACTIVE
        if deal.type is RASPASY:
            for seat in active:
                taken = tricks.get(seat, 0)
                seats[seat] += _RASPASY_ZERO if not taken else Roles(raspasy=Raspasy(1, taken))
            continue
        declarer = cast(int, deal.declarer)  # valid: a game and a misère have one
        if deal.type is MISERE:
            seats[declarer] += Roles(misere=Misere(1, int(not tricks[declarer])))
            continue
        contract = deal.contract
        assert contract is not None  # valid: a game has one
        played = deal.played(rules)
        made = not played or tricks[declarer] >= contract.level
        at = contract.level - LEVELS.start
        games = tuple(Declarer(g.level, 1, int(played), int(made)) if i == at else g for i, g in enumerate(_NO_GAMES))
        seats[declarer] += Roles(declarer=games)
        if rules.checked_ten(contract):
            continue  # nobody defends it with a word
        whist = cast("Mapping[int, object]", deal.whist)
        for seat in defenders(active, declarer):
            word = whist[seat]
            # In a game a defender's gora is his shortfall alone: remiz and a pulya's write-off are the
            # declarer's, and help is written in whists.
            short = word == WHIST and result.sheet.gora[seat] > replay.sheet_before(result.number).gora[seat]
            seats[seat] += Roles(defender=Defender(int(word == WHIST), int(word == PASS), int(word == HALF),
                                                   int(short)))
    return tuple(seats)


class DealRole(StrEnum):
    """What a seat did in a deal, as the deal × player file says it."""

    DECLARER = "declarer"  # of a game or a misère
    WHIST = "whist"
    PASS = "pass"
    HALF = "half"
    DEFENDER = "defender"  # without a word: against a misère or a checked ten
    RASPASY = "raspasy"
    OUT = "out"  # the dealer sitting out, with four


@dataclass(frozen=True)
class DealLine:
    """One seat in one deal: its role, and what the deal moved his balance by (exact whists, rules.md §15:
    the balance of the sheet after it less that of the sheet before, so a pulka's lines add up to its net)."""

    number: int
    seat: int
    role: DealRole
    moved: Fraction


def deal_lines(replay: Replay) -> tuple[DealLine, ...]:
    """Every seat of every deal of a replayed pulka (none for a paper opening it went on from)."""
    rules, n = replay.rules, replay.start.n
    before = settle(replay.start, rules).net
    lines = []
    for result in replay.results:
        deal, active = result.deal, seats_in_play(n, result.dealer)
        after = settle(result.sheet, rules).net
        words = cast("Mapping[int, str]", deal.whist or {})
        for seat in range(n):
            if seat not in active:
                role = DealRole.OUT
            elif deal.type is RASPASY:
                role = DealRole.RASPASY
            elif seat == deal.declarer:
                role = DealRole.DECLARER
            else:
                role = DealRole(words[seat]) if seat in words else DealRole.DEFENDER
            lines.append(DealLine(result.number, seat, role, after[seat] - before[seat]))
        before = after
    return tuple(lines)


# -- the pulkas that count ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Record(Generic[Key]):
    """What the figures need of one pulka, by seat: stored when it is frozen, never worked out again."""

    preset: str  # the preset it was created with
    currency: str
    started: Day  # its own local date
    finished: bool  # finished (rules.md §8.1) or closed by hand
    players: tuple[Key, ...]
    net: tuple[Fraction, ...]  # exact whists (rules.md §15)
    money: tuple[Decimal, ...]  # cents
    pairwise: tuple[tuple[Fraction, ...], ...]  # [i][j]: what i wins from j, in whists
    roles: tuple[Roles, ...]
    pulka: str = ""  # the pulka's id, for the lists that link to it
    minutes: int = 0  # how long it was played: from its start to its last deal

    @classmethod
    def of(cls, players: Sequence[Key], replay: Replay, started: Day, currency: str, closed: bool = False,
           settlement: Settlement | None = None, pulka: str = "", minutes: int = 0) -> Record[Key]:
        """The record of a replayed pulka (`settlement`, if already made, its settlement); `closed` when the
        owner ended it early."""
        s = settlement or settle(replay.sheet, replay.rules)
        return cls(replay.rules.preset.value, currency, started, replay.finished or closed, tuple(players),
                   s.net, s.money, s.pairwise, roles(replay), pulka, minutes)

    def seat(self, player: Key) -> int:
        return self.players.index(player)


@dataclass(frozen=True)
class Filter(Generic[Key]):
    """Which pulkas count (CLUB.md §1): the same on every page, call and file."""

    start: Day | None = None  # inclusive, on `Record.started`; None: open
    end: Day | None = None  # inclusive
    preset: str | None = None
    players: int | None = None  # 3 or 4
    currency: str | None = None
    with_: frozenset[Key] = frozenset()  # only pulkas every one of them sat in
    unfinished: bool = False  # count unfinished pulkas too, not only finished or closed ones

    def admits(self, record: Record[Key], player: Key | None = None) -> bool:
        """Whether `record` counts, for `player` when given (he sat in it)."""
        return ((self.unfinished or record.finished)
                and (self.start is None or self.start <= record.started)
                and (self.end is None or record.started <= self.end)
                and (self.preset is None or record.preset == self.preset)
                and (self.players is None or len(record.players) == self.players)
                and (self.currency is None or record.currency == self.currency)
                and self.with_.issubset(record.players)
                and (player is None or player in record.players))


# One counted pulka, or many, per preset (whists) or per currency (money).
Whists = Mapping[str, Fraction]
Money = Mapping[str, Decimal]
Names = Callable[[Any], str] | Mapping[Any, str]


@dataclass(frozen=True)
class HeadToHead(Generic[Key]):
    opponent: Key
    pulkas: int  # counted pulkas both sat in
    net: Whists  # Σ pairwise[player][opponent] over them: what he won from the opponent


@dataclass(frozen=True)
class PlayerStats(Generic[Key]):
    """One player's figures over the pulkas that count for him (CLUB.md §2)."""

    player: Key
    pulkas: int
    won: int  # pulkas with his balance above 0
    lost: int  # below 0
    net: Whists
    money: Money
    roles: Roles
    head_to_head: tuple[HeadToHead[Key], ...]  # most pulkas shared first; ties: the first shared first

    @property
    def deals(self) -> int:
        return self.roles.deals

    def to_json(self, name_of: Names) -> dict[str, Any]:
        """The stats object of CLUB.md §2, players as `{"id", "name"}` by `name_of` (a callable or a mapping).

        Whists are rounded half away from zero to 2 decimals once summed; money is summed cents, so exact.
        Either is a JSON number json.dumps writes: an int when whole, else the float of the 2-decimal value,
        which it writes as those 2 decimals (exactly, for amounts of up to 15 digits).
        """
        name = name_of.__getitem__ if isinstance(name_of, Mapping) else name_of
        return {"player": {"id": self.player, "name": name(self.player)},
                "pulkas": self.pulkas, "won": self.won, "lost": self.lost, "deals": self.deals,
                "net": _whists_json(self.net), "money": {c: _number(m) for c, m in self.money.items()},
                **_roles_json(self.roles, remiz=True),
                "head_to_head": [{"opponent": {"id": h.opponent, "name": name(h.opponent)}, "pulkas": h.pulkas,
                                  "net": _whists_json(h.net)} for h in self.head_to_head]}


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _whists_json(net: Whists) -> dict[str, int | float]:
    return {preset: _number(round_half_away(whists)) for preset, whists in net.items()}


def _add(sums: dict[str, Any], key: str, value: Any) -> None:
    sums[key] = sums[key] + value if key in sums else value


def player_stats(player: Key, records: Iterable[Record[Key]], filter: Filter[Key] | None = None) -> PlayerStats[Key]:
    """`player`'s figures over the records `filter` admits for him (all his finished ones by default)."""
    f: Filter[Key] = filter or Filter()
    pulkas = won = lost = 0
    net: dict[str, Fraction] = {}
    money: dict[str, Decimal] = {}
    total = Roles()
    shared: dict[Key, int] = {}
    against: dict[Key, dict[str, Fraction]] = {}
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
class PlayerStanding(Generic[Key]):
    """One player's line of a standings table, per preset and per currency."""

    player: Key
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


def standings(records: Iterable[Record[Key]], filter: Filter[Key] | None = None,
              floor: int = 0) -> tuple[PlayerStanding[Key], ...]:
    """A line for each player of the records `filter` admits, in the order they first appear; provisional
    under `floor` pulkas."""
    f: Filter[Key] = filter or Filter()
    counted = [record for record in records if f.admits(record)]
    players = dict.fromkeys(player for record in counted for player in record.players)
    lines = []
    for player in players:
        won = lost = 0
        net: dict[str, Fraction] = {}
        pulkas: dict[str, int] = {}
        deals: dict[str, int] = {}
        money: dict[str, Decimal] = {}
        for record in counted:
            if player in record.players:
                seat = record.seat(player)
                balance = record.net[seat]
                won, lost = won + (balance > 0), lost + (balance < 0)
                _add(net, record.preset, balance)
                _add(pulkas, record.preset, 1)
                _add(deals, record.preset, record.roles[seat].deals)
                _add(money, record.currency, record.money[seat])
        total = sum(pulkas.values())
        lines.append(PlayerStanding(player, total, won, lost, net, pulkas, deals, money, total < floor))
    return tuple(lines)


@dataclass(frozen=True)
class PulkaLine(Generic[Key]):
    """One counted pulka of a player, as his list of results shows it."""

    record: Record[Key]
    seat: int

    @property
    def mates(self) -> tuple[Key, ...]:
        return tuple(p for i, p in enumerate(self.record.players) if i != self.seat)

    @property
    def deals(self) -> int:
        return self.record.roles[self.seat].deals

    @property
    def net(self) -> Fraction:
        return self.record.net[self.seat]

    @property
    def money(self) -> Decimal:
        return self.record.money[self.seat]

    def against(self, opponent: Key) -> Fraction:
        """What he won from `opponent` in this pulka (pairwise, pulya term included)."""
        return self.record.pairwise[self.seat][self.record.seat(opponent)]


def pulka_lines(player: Key, records: Iterable[Record[Key]], filter: Filter[Key] | None = None
                ) -> tuple[PulkaLine[Key], ...]:
    """`player`'s counted pulkas, the latest first (pulkas of one date: the later given first)."""
    f: Filter[Key] = filter or Filter()
    counted = [PulkaLine(r, r.seat(player)) for r in _in_order(records) if f.admits(r, player)]
    return tuple(reversed(counted))


@dataclass(frozen=True)
class Career:
    """A player's evenings over his counted pulkas (`pulka_lines`, the latest first)."""

    evenings: int  # the dates he played on
    first: Day | None
    last: Day | None
    minutes: int  # at the table: each pulka from its start to its last deal
    form: tuple[int, ...]  # his last ten pulkas, the latest first: 1 won, −1 lost, 0 even
    streak: int  # the run his latest pulkas make: +3 three won in a row, −2 two lost; 0 after an even one
    longest: int  # his longest run of won pulkas


def career(lines: Sequence[PulkaLine[Key]]) -> Career:
    signs = [(line.net > 0) - (line.net < 0) for line in lines]
    run = next((i for i, sign in enumerate(signs) if sign != signs[0]), len(signs)) if signs else 0
    longest = best = 0
    for sign in signs:
        best = best + 1 if sign > 0 else 0
        longest = max(longest, best)
    days = [line.record.started for line in lines]
    return Career(len(set(days)), min(days, default=None), max(days, default=None),
                  sum(line.record.minutes for line in lines), tuple(signs[:10]), run * (signs[0] if signs else 0),
                  longest)


@dataclass(frozen=True)
class Rivals(Generic[Key]):
    """From `floor` shared pulkas on: the rival, with whom he shared the most; the nemesis, who won from him
    (pairwise) in the most shared pulkas: counts, never whists, so presets are not added together."""

    rival: HeadToHead[Key] | None
    nemesis: Key | None
    beaten: int  # in how many of the shared pulkas the nemesis won from him
    shared: int  # how many pulkas they shared


def rivals(stats: PlayerStats[Key], lines: Sequence[PulkaLine[Key]], floor: int) -> Rivals[Key]:
    above = [h for h in stats.head_to_head if h.pulkas >= floor]
    beaten = Counter(other for line in lines for other in line.record.players if line.against(other) < 0)
    worst = max(above, key=lambda h: (beaten[h.opponent], h.pulkas), default=None)  # ties: the first listed
    if worst is None or beaten[worst.opponent] == 0:
        return Rivals(above[0] if above else None, None, 0, 0)
    return Rivals(above[0], worst.opponent, beaten[worst.opponent], worst.pulkas)


# A chart's points: after each counted pulka, in date order, its date and the running total.
Chart = tuple[tuple[Day, Fraction], ...]


@dataclass(frozen=True)
class Running:
    net: Mapping[str, Chart]  # per preset
    money: Mapping[str, tuple[tuple[Day, Decimal], ...]]  # per currency


def _in_order(records: Iterable[Record[Key]]) -> list[Record[Key]]:
    """By date; pulkas of one date in the order given."""
    return sorted(records, key=lambda record: record.started)


def _running(points: Iterable[tuple[str, Day, Any]]) -> dict[str, tuple[tuple[Day, Any], ...]]:
    totals: dict[str, Any] = {}
    lines: dict[str, list[tuple[Day, Any]]] = {}
    for key, day, value in points:
        _add(totals, key, value)
        lines.setdefault(key, []).append((day, totals[key]))
    return {key: tuple(line) for key, line in lines.items()}


def running(player: Key, records: Iterable[Record[Key]], filter: Filter[Key] | None = None) -> Running:
    """`player`'s cumulative net per preset and money per currency, after each pulka that counts for him."""
    f: Filter[Key] = filter or Filter()
    counted = [(record, record.seat(player)) for record in _in_order(records) if f.admits(record, player)]
    return Running(_running((r.preset, r.started, r.net[seat]) for r, seat in counted),
                   _running((r.currency, r.started, r.money[seat]) for r, seat in counted))


def running_pair(a: Key, b: Key, records: Iterable[Record[Key]],
                 filter: Filter[Key] | None = None) -> Mapping[str, Chart]:
    """What `a` has won from `b`, cumulated per preset, after each pulka counted for `a` that `b` sat in."""
    f: Filter[Key] = filter or Filter()
    return _running((r.preset, r.started, r.pairwise[r.seat(a)][r.seat(b)]) for r in _in_order(records)
                    if f.admits(r, a) and b in r.players and a != b)


def merged(records: Iterable[Record[Key]], into: Key, gone: Key) -> tuple[Record[Key], ...]:
    """The records with player `gone` become `into`'s (two spellings of one player); ValueError when both sat
    in one pulka, as one player cannot have two seats."""
    out = []
    for record in records:
        if gone in record.players:
            if into in record.players and into != gone:
                raise ValueError(f"{into!r} and {gone!r} sat in one pulka: they are two players")
            record = dataclasses.replace(record, players=tuple(into if p == gone else p for p in record.players))
        out.append(record)
    return tuple(out)
