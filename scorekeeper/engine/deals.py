"""A deal as entered at the table, and its validation against the rules and the pulka's state.

Seats are indices 0..n-1 in clockwise order. Texts that name players are
templates with `{seat}` placeholders ("{1} sits this deal out"); the edges
fill in the names with `.text(names)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .contracts import Contract, Strain

if TYPE_CHECKING:
    from .rules import Rules
    from .sheet import Sheet


class DealType(StrEnum):
    GAME = "game"
    MISERE = "misere"
    RASPASY = "raspasy"


class Word(StrEnum):
    """A defender's final word after the contract is declared."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"


class Code(StrEnum):
    """Problem codes, in the order FORMAT.md §3 ranks them (earlier wins)."""

    BAD_JSON = "bad_json"
    BAD_FORMAT = "bad_format"
    BAD_PLAYERS = "bad_players"
    UNKNOWN_PRESET = "unknown_preset"
    UNKNOWN_PARAMETER = "unknown_parameter"
    BAD_PARAMETER = "bad_parameter"
    UNKNOWN_PLAYER = "unknown_player"
    INACTIVE_PLAYER = "inactive_player"
    BAD_CONTRACT = "bad_contract"
    BAD_WHIST = "bad_whist"
    HALF_WHIST_NOT_ALLOWED = "half_whist_not_allowed"
    STALINGRAD = "stalingrad"
    TRICKS_MISSING = "tricks_missing"
    TRICKS_UNEXPECTED = "tricks_unexpected"
    BAD_TRICKS = "bad_tricks"
    TRICKS_SUM = "tricks_sum"
    RASPASY_EXIT = "raspasy_exit"
    PULKA_FINISHED = "pulka_finished"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {code: rank for rank, code in enumerate(Code)}


@dataclass(frozen=True)
class Problem:
    code: Code
    field: str
    message: str  # a template: {seat} placeholders
    deal: int | None = None  # 1-based

    def text(self, names: list[str] | tuple[str, ...]) -> str:
        message = self.message.format(*names)
        return f"deal {self.deal}: {message}" if self.deal is not None else message


def first_problem(problems: list[Problem]) -> Problem:
    """The one problem FORMAT.md reports: the earliest deal, then the earliest code."""
    return min(problems, key=lambda p: (p.deal is not None, p.deal or 0, p.code.rank))


@dataclass(frozen=True)
class Deal:
    type: DealType
    declarer: int | None = None
    contract: Contract | None = None
    whist: Mapping[int, str] | None = None  # defender seat -> Word
    tricks: Mapping[int, object] | None = None  # seat -> tricks taken (the dealer's talon tricks on raspasy)
    open: bool = False  # one whister played with both defenders' hands face up (scores the same)

    def played(self, rules: Rules) -> bool:
        """Were cards played? A game is played when someone whists, or when the ten is checked."""
        if self.type is not DealType.GAME:
            return True
        if self.contract is not None and self.contract.level == 10 and rules.ten_checked:
            return True
        return Word.WHIST in (self.whist or {}).values()


def seats_in_play(n: int, dealer: int) -> tuple[int, ...]:
    """The three active seats from first hand clockwise; at 4 the dealer sits out."""
    return tuple((dealer + i) % n for i in range(1, 4))


def defenders(active: tuple[int, ...], declarer: int) -> tuple[int, int]:
    """First defender (declarer's left, speaks first) and second defender."""
    at = active.index(declarer)
    return active[(at + 1) % 3], active[(at + 2) % 3]


WORDS = tuple(Word)
STALINGRAD = Contract(6, Strain.SPADES)


def _is_count(value: object, most: int = 10) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


def check(deal: Deal, sheet: Sheet, rules: Rules) -> list[Problem]:
    """Every problem of `deal` if it were the next deal of the pulka at `sheet`."""
    number = sheet.deals + 1
    problems: list[Problem] = []

    def problem(code: Code, where: str, message: str) -> None:
        problems.append(Problem(code, where, message, number))

    if deal.type is DealType.RASPASY:
        _check_raspasy_tricks(deal, sheet, rules, problem)
    else:
        _check_declarer(deal, sheet, problem)
        if deal.type is DealType.MISERE:
            _check_misere_tricks(deal, sheet, problem)
        else:
            _check_game(deal, sheet, rules, problem)
    if sheet.finished:
        problem(Code.PULKA_FINISHED, "type", "the pulka is finished: every deal after its end is refused")
    return problems


def _check_declarer(deal: Deal, sheet: Sheet, problem) -> None:
    if deal.declarer is None or not 0 <= deal.declarer < sheet.n:
        problem(Code.UNKNOWN_PLAYER, "declarer", "the declarer must be one of the players")
    elif deal.declarer not in sheet.active:
        problem(Code.INACTIVE_PLAYER, "declarer", f"{{{deal.declarer}}} deals and sits this deal out: he cannot declare")


def _check_counts(counts: Mapping[int, object], sheet: Sheet, problem, *, talon: bool = False) -> bool:
    """Seats and values of a tricks object; True when every value is a valid count."""
    valid = True
    for seat, count in counts.items():
        if seat not in sheet.active and not talon:
            problem(Code.INACTIVE_PLAYER, "tricks", f"{{{seat}}} deals and sits this deal out: he takes no tricks")
        elif not _is_count(count):
            problem(Code.BAD_TRICKS, "tricks", f"{{{seat}}}'s tricks must be a whole number from 0 to 10, not {count!r}")
            valid = False
    return valid


def _check_sum(total: int, problem) -> None:
    if total != 10:
        problem(Code.TRICKS_SUM, "tricks", f"tricks add up to {total}, a deal has 10")


def _check_game(deal: Deal, sheet: Sheet, rules: Rules, problem) -> None:
    contract = deal.contract
    if contract is None:
        problem(Code.BAD_CONTRACT, "contract", "the contract must be a level 6-10 and a strain S, C, D, H or NT")
        return
    checked_ten = contract.level == 10 and rules.ten_checked
    words_ok = True
    if checked_ten:
        if deal.whist is not None:
            problem(Code.BAD_WHIST, "whist", "a ten is checked under these rules: nobody whists or passes it")
    elif deal.whist is None:
        problem(Code.BAD_WHIST, "whist", "say whist, pass or half for each of the two defenders")
        words_ok = False
    elif deal.declarer in sheet.active:
        words_ok = _check_words(deal, contract, sheet, rules, problem)
    else:
        words_ok = False
    if checked_ten or words_ok:
        played = deal.played(rules)
        if played:
            _check_played_tricks(deal, sheet, problem)
        elif deal.tricks is not None:
            problem(Code.TRICKS_UNEXPECTED, "tricks", "nobody whisted, so the deal was not played: leave out the tricks")
    streak = sheet.streak
    if streak and contract.level < (least := rules.raspasy_exit[min(streak, 3) - 1]):
        problem(Code.RASPASY_EXIT, "contract",
                f"after {streak} raspasy in a row the contract must be at least {least}, not {contract.label}")


def _check_words(deal: Deal, contract: Contract, sheet: Sheet, rules: Rules, problem) -> bool:
    first, second = defenders(sheet.active, deal.declarer)
    ok = True
    for seat, word in deal.whist.items():
        if seat not in sheet.active:
            problem(Code.INACTIVE_PLAYER, "whist", f"{{{seat}}} deals and sits this deal out: he does not whist")
            ok = False
        elif seat not in (first, second):
            problem(Code.BAD_WHIST, "whist", f"{{{seat}}} declares this deal: only the defenders whist or pass")
            ok = False
        elif word not in WORDS:
            problem(Code.BAD_WHIST, "whist", f"{{{seat}}}'s word must be whist, pass or half, not {word!r}")
            ok = False
    for seat in (first, second):
        if seat not in deal.whist:
            problem(Code.BAD_WHIST, "whist", f"{{{seat}}} defends: say whether he whists or passes")
            ok = False
    if not ok:
        return False
    w1, w2 = deal.whist[first], deal.whist[second]
    if Word.HALF in (w1, w2):
        if w1 == Word.HALF:
            reasons = [f"{{{first}}} speaks first: only the second defender, {{{second}}}, may say half"]
        elif w1 != Word.PASS:
            reasons = [f"half-whist stands only beside a pass, and {{{first}}} whisted"]
        else:
            reasons = []
        if contract.level not in rules.half_whist:
            allowed = " and ".join(map(str, rules.half_whist)) or "no level"
            reasons.append(f"half-whist is allowed on {allowed} under these rules, not on {contract.level}")
        for reason in reasons:
            problem(Code.HALF_WHIST_NOT_ALLOWED, "whist", reason)
        ok = not reasons
    if rules.stalingrad and contract == STALINGRAD and not w1 == w2 == Word.WHIST:
        problem(Code.STALINGRAD, "whist", "Stalingrad: 6♠ must be whisted by both defenders")
    return ok


def _check_played_tricks(deal: Deal, sheet: Sheet, problem) -> None:
    if deal.tricks is None:
        problem(Code.TRICKS_MISSING, "tricks", "the deal was played: enter each player's tricks")
        return
    valid = _check_counts(deal.tricks, sheet, problem)
    missing = [seat for seat in sheet.active if seat not in deal.tricks]
    for seat in missing:
        problem(Code.TRICKS_MISSING, "tricks", f"enter {{{seat}}}'s tricks")
    if valid and not missing:
        _check_sum(sum(deal.tricks[s] for s in sheet.active), problem)


def _check_misere_tricks(deal: Deal, sheet: Sheet, problem) -> None:
    tricks = deal.tricks
    if tricks is None or deal.declarer not in tricks:
        problem(Code.TRICKS_MISSING, "tricks", "enter the tricks the misère player took")
        if tricks is None:
            return
    if _check_counts(tricks, sheet, problem):
        total = sum(tricks[s] for s in sheet.active if s in tricks)
        if all(s in tricks for s in sheet.active) or total > 10:
            _check_sum(total, problem)


def _check_raspasy_tricks(deal: Deal, sheet: Sheet, rules: Rules, problem) -> None:
    tricks = deal.tricks
    if tricks is None:
        problem(Code.TRICKS_MISSING, "tricks", "enter each player's tricks on the raspasy")
        return
    valid = _check_counts(tricks, sheet, problem, talon=True)
    talon = 0
    if sheet.n == 4 and sheet.dealer in tricks and valid:
        talon = tricks[sheet.dealer]
        if rules.raspasy_dealer == "pulya_one" and talon:
            problem(Code.BAD_TRICKS, "tricks",
                    f"{{{sheet.dealer}}} deals: under these rules the talon stays closed and he takes no tricks")
            valid = False
        elif talon > 2:
            problem(Code.BAD_TRICKS, "tricks", f"{{{sheet.dealer}}} deals: the talon wins at most 2 tricks, not {talon}")
            valid = False
    missing = [seat for seat in sheet.active if seat not in tricks]
    for seat in missing:
        problem(Code.TRICKS_MISSING, "tricks", f"enter {{{seat}}}'s tricks")
    if valid and not missing:
        _check_sum(sum(tricks[s] for s in sheet.active) + talon, problem)
