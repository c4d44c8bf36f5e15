"""One player's deals counted by role (docs/club.md §2): as declarer at each level, at misère, as a defender by his
word, at raspasy; and what each seat did in each deal, with what the deal moved his balance by. Counted when
a pulka is replayed, and added up over pulkas (`records`, `figures`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import cast

from .contracts import LEVELS
from .deals import HALF, MISERE, PASS, RASPASY, WHIST, defenders, seats_in_play
from .pulka import Replay
from .settlement import settle


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

    @property
    def possible(self) -> bool:
        """Whether some deals give these counts. In each deal he is active in, he is the declarer, a defender
        with one word, a raspasy player, or none of them (a checked ten's defender, a misère's catcher)."""
        d, m, r = self.defender, self.misere, self.raspasy
        roles = sum(g.declared for g in self.declarer) + m.declared + d.whist + d.pass_ + d.half + r.deals
        return (all(g.played <= g.declared and g.declared - g.played <= g.made <= g.declared for g in self.declarer)
                and m.made <= m.declared and d.short <= d.whist and r.zero <= r.deals
                and r.tricks <= 10 * (r.deals - r.zero) and roles <= self.deals)


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
    """One seat in one deal: its role, and what the deal moved his balance by (exact whists, docs/rules.md §15:
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
