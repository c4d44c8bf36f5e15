"""Players across pulkas (CLUB.md §1-§2): each player's deals counted by role, and the sums over the pulkas
that count.

A pulka is counted once, when it is replayed (`roles`) and settled: a `Record` keeps what the figures
need of it, so a frozen pulka's figures are those stored when it ended. Everything else adds records up,
exactly (Fractions of whists, Decimals of money), per preset and per currency: a Leningrad whist is not a
Sochi whist, and a rouble is not a euro. Players are opaque keys (the web layer's ids); names are the
caller's, given only where JSON is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from .contracts import LEVELS
from .deals import HALF, MISERE, PASS, RASPASY, WHIST, defenders, seats_in_play
from .pulka import Replay

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
