"""Validation of a deal against the rules and the pulka's state: every problem, each with its code.

A deal read from a file or a form holds whatever was entered; this module is
where each value is checked, so scoring only ever sees a valid deal.

Nearly every deal is a usual one: a declarer and defenders from the seating's
table, plain words, a count for each of the three players. `_USUAL` recognizes
such a deal at a glance, as valid; any other is checked field by field by
`_Checker`, which finds every problem. The glance accepts only what the checker
would (tests/engine/test_validation.py holds it to that).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeGuard

from .contracts import Contract, Strain
from .deals import HALF, PASS, WHIST, Deal, DealType, Seating, Word
from .problems import Code, Problem
from .rules import Rules
from .sheet import Sheet, least_level, talon_seat
from .texts import Seat, Text, quoted

WORDS = tuple(Word)
STALINGRAD = Contract(6, Strain.SPADES)

FINISHED = Text("the pulka is finished: every deal after its end is refused")
NO_DECLARER = Text("the declarer must be one of the players")
SITS_OUT_DECLARES = Text("{player} deals and sits this deal out: he cannot declare")
SITS_OUT_TRICKS = Text("{player} deals and sits this deal out: he takes no tricks")
SITS_OUT_WHISTS = Text("{player} deals and sits this deal out: he does not whist")
NOT_A_COUNT = Text("{player}'s tricks must be a whole number from 0 to 10, not {value}")
NOT_TEN = Text("tricks add up to {total}, a deal has 10")
ENTER_TRICKS = Text("enter {player}'s tricks")
ENTER_ALL_TRICKS = Text("the deal was played: enter each player's tricks")
ENTER_MISERE_TRICKS = Text("enter the tricks the misère player took")
ENTER_RASPASY_TRICKS = Text("enter each player's tricks on the raspasy")
NO_CONTRACT = Text("the contract must be a level 6-10 and a strain S, C, D, H or NT")
TEN_CHECKED = Text("a ten is checked under these rules: nobody whists or passes it")
SAY_WORDS = Text("say whist, pass or half for each of the two defenders")
NOT_PLAYED = Text("nobody whisted, so the deal was not played: leave out the tricks")
BELOW_EXIT = Text("after {streak} raspasy in a row the contract must be at least {least}, not {contract}")
DECLARER_WHISTS = Text("{player} declares this deal: only the defenders whist or pass")
NOT_A_WORD = Text("{player}'s word must be whist, pass or half, not {value}")
SAY_WORD = Text("{player} defends: say whether he whists or passes")
HALF_FIRST = Text("{first} speaks first: only the second defender, {second}, may say half")
HALF_BESIDE_WHIST = Text("half-whist stands only beside a pass, and {player} whisted")
HALF_LEVEL = Text("half-whist is allowed on {levels} under these rules, not on {level}")
HALF_NO_LEVEL = Text("half-whist is allowed on no level under these rules, not on {level}")
AND = Text("{first} and {second}")
STALINGRAD_WHISTS = Text("Stalingrad: 6♠ must be whisted by both defenders")
TALON_CLOSED = Text("{player} deals: under these rules the talon stays closed and he takes no tricks")
TALON_MOST = Text("{player} deals: the talon wins at most 2 tricks, not {talon}")


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10


def check(deal: Deal, sheet: Sheet, rules: Rules) -> list[Problem]:
    """Every problem of `deal` if it were the next deal of the pulka at `sheet`."""
    return check_next(deal, rules, sheet.deals + 1, sheet.seating, sheet.streak, sheet.finished)


def check_next(deal: Deal, rules: Rules, number: int, seating: Seating, streak: int, finished: bool) -> list[Problem]:
    """Every problem of `deal` as deal `number`, in `seating`, after `streak` raspasy in a row: what `check` reads
    of a sheet, which a replay has without making one."""
    if not finished and _USUAL[deal.type](deal, rules, seating, streak):
        return []
    return _Checker(deal, rules, number, seating, streak, finished).problems


# -- the usual deal, at a glance -------------------------------------------------------------


def _usual_tricks(tricks: Mapping[int, object] | None, seating: Seating) -> bool:
    """A count for each of the three players and for no one else, adding up to 10."""
    if tricks is None or tricks.keys() != seating.playing:
        return False
    a, b, c = tricks.values()
    # Whole numbers, none below 0, adding up to 10: so none above 10 either.
    return type(a) is int and type(b) is int and type(c) is int and min(a, b, c) >= 0 and a + b + c == 10


def _usual_game(deal: Deal, rules: Rules, seating: Seating, streak: int) -> bool:
    """An active declarer, a contract the raspasy streak allows, and either the defenders' plain words (with the
    tricks when someone whisted, else none) or a checked ten with its tricks."""
    contract, whist = deal.contract, deal.whist
    pair = seating.defenders.get(deal.declarer)  # type: ignore[arg-type]  # None, or no active seat: no pair
    if pair is None or contract is None or contract.level < least_level(rules, streak):
        return False
    if rules.checked_ten(contract):
        return whist is None and _usual_tricks(deal.tricks, seating)
    if whist is None or len(whist) != 2 or pair[0] not in whist or pair[1] not in whist:  # the defenders' only
        return False
    first, second = whist[pair[0]], whist[pair[1]]
    if first not in _PLAIN or second not in _PLAIN:  # a half beside a pass, where the rules allow it
        if not (first == PASS and second == HALF and contract.level in rules.half_whist):
            return False
    if rules.stalingrad and contract == STALINGRAD and not first == second == WHIST:
        return False
    return _usual_tricks(deal.tricks, seating) if WHIST in (first, second) else deal.tricks is None


def _usual_raspasy(deal: Deal, rules: Rules, seating: Seating, streak: int) -> bool:
    """The tricks of the three players (no talon's)."""
    return _usual_tricks(deal.tricks, seating)


def _unusual(deal: Deal, rules: Rules, seating: Seating, streak: int) -> bool:
    return False  # a misère is checked field by field: its tricks may be the declarer's alone


_PLAIN = (WHIST, PASS)
_USUAL: dict[DealType, Callable[[Deal, Rules, Seating, int], bool]] = {
    DealType.GAME: _usual_game, DealType.MISERE: _unusual, DealType.RASPASY: _usual_raspasy,
}


# -- every problem, field by field ------------------------------------------------------------


class _Checker:
    """Collects every problem of one deal; each method checks one field."""

    def __init__(self, deal: Deal, rules: Rules, number: int, seating: Seating, streak: int, finished: bool):
        self.deal, self.rules, self.number, self.seating, self.streak = deal, rules, number, seating, streak
        self.active = seating.active
        self.problems: list[Problem] = []
        if deal.type is DealType.RASPASY:
            self.raspasy_tricks()
        else:
            declarer = self.declarer()
            if deal.type is DealType.MISERE:
                self.misere_tricks()
            else:
                self.game(declarer)
        if finished:
            self.problem(Code.PULKA_FINISHED, "type", FINISHED)

    def problem(self, code: Code, where: str, message: Text) -> None:
        self.problems.append(Problem(code, where, message, self.number))

    def declarer(self) -> int | None:
        """The declarer when he is one of the active players."""
        declarer = self.deal.declarer
        if declarer is None or not 0 <= declarer < self.seating.n:
            self.problem(Code.UNKNOWN_PLAYER, "declarer", NO_DECLARER)
        elif declarer not in self.active:
            self.problem(Code.INACTIVE_PLAYER, "declarer", SITS_OUT_DECLARES(player=Seat(declarer)))
        else:
            return declarer
        return None

    def counts(self, tricks: Mapping[int, object], *, talon: bool = False) -> dict[int, int] | None:
        """The counts of a tricks object, None when a value is not a valid count; reports seats and values.
        A seat that sits out is reported and left out, its value unread."""
        counts: dict[int, int] = {}
        valid = True
        for seat, count in tricks.items():
            if seat not in self.active and not talon:
                self.problem(Code.INACTIVE_PLAYER, "tricks", SITS_OUT_TRICKS(player=Seat(seat)))
            elif _is_count(count):
                counts[seat] = count
            else:
                self.problem(Code.BAD_TRICKS, "tricks", NOT_A_COUNT(player=Seat(seat), value=quoted(count)))
                valid = False
        return counts if valid else None

    def total(self, total: int) -> None:
        if total != 10:
            self.problem(Code.TRICKS_SUM, "tricks", NOT_TEN(total=total))

    def missing(self, tricks: Mapping[int, object]) -> bool:
        """Report active seats without tricks; True when there are none."""
        missing = [seat for seat in self.active if seat not in tricks]
        for seat in missing:
            self.problem(Code.TRICKS_MISSING, "tricks", ENTER_TRICKS(player=Seat(seat)))
        return not missing

    def game(self, declarer: int | None) -> None:
        deal, rules = self.deal, self.rules
        contract = deal.contract
        if contract is None:
            self.problem(Code.BAD_CONTRACT, "contract", NO_CONTRACT)
            return
        if rules.checked_ten(contract):
            words_ok = True
            if deal.whist is not None:
                self.problem(Code.BAD_WHIST, "whist", TEN_CHECKED)
        elif deal.whist is None:
            self.problem(Code.BAD_WHIST, "whist", SAY_WORDS)
            words_ok = False
        else:
            words_ok = declarer is not None and self.words(deal.whist, declarer, contract)
        if words_ok:
            if deal.played(rules):
                self.played_tricks()
            elif deal.tricks is not None:
                self.problem(Code.TRICKS_UNEXPECTED, "tricks", NOT_PLAYED)
        least = least_level(rules, self.streak)
        if contract.level < least:
            self.problem(Code.RASPASY_EXIT, "contract",
                         BELOW_EXIT(streak=self.streak, least=least, contract=contract.label_text))

    def words(self, whist: Mapping[int, object], declarer: int, contract: Contract) -> bool:
        """The defenders' words; True when they are complete and legal."""
        first, second = self.seating.defenders[declarer]
        ok = True
        for seat, word in whist.items():
            if seat not in self.active:
                self.problem(Code.INACTIVE_PLAYER, "whist", SITS_OUT_WHISTS(player=Seat(seat)))
                ok = False
            elif seat not in (first, second):
                self.problem(Code.BAD_WHIST, "whist", DECLARER_WHISTS(player=Seat(seat)))
                ok = False
            elif word not in WORDS:
                self.problem(Code.BAD_WHIST, "whist", NOT_A_WORD(player=Seat(seat), value=quoted(word)))
                ok = False
        for seat in (first, second):
            if seat not in whist:
                self.problem(Code.BAD_WHIST, "whist", SAY_WORD(player=Seat(seat)))
                ok = False
        if not ok:
            return False
        w1, w2 = whist[first], whist[second]
        if Word.HALF in (w1, w2):
            reasons: list[Text] = []
            if w1 == Word.HALF:
                reasons.append(HALF_FIRST(first=Seat(first), second=Seat(second)))
            elif w1 != Word.PASS:
                reasons.append(HALF_BESIDE_WHIST(player=Seat(first)))
            if contract.level not in self.rules.half_whist:
                reasons.append(self.half_levels(contract.level))
            for reason in reasons:
                self.problem(Code.HALF_WHIST_NOT_ALLOWED, "whist", reason)
            ok = not reasons
        if self.rules.stalingrad and contract == STALINGRAD and not w1 == w2 == Word.WHIST:
            self.problem(Code.STALINGRAD, "whist", STALINGRAD_WHISTS)
        return ok

    def half_levels(self, level: int) -> Text:
        """Half-whist is not allowed on `level`: the levels it is allowed on, "6 and 7", or none."""
        allowed = self.rules.half_whist
        if not allowed:
            return HALF_NO_LEVEL(level=level)
        levels: Text | int = allowed[0]
        for more in allowed[1:]:
            levels = AND(first=levels, second=more)
        return HALF_LEVEL(levels=levels, level=level)

    def played_tricks(self) -> None:
        tricks = self.deal.tricks
        if tricks is None:
            self.problem(Code.TRICKS_MISSING, "tricks", ENTER_ALL_TRICKS)
            return
        counts = self.counts(tricks)
        if self.missing(tricks) and counts is not None:
            self.total(sum(counts[s] for s in self.active))

    def misere_tricks(self) -> None:
        """The declarer's count is needed; the others' are optional, but once given they add up to 10."""
        tricks = self.deal.tricks
        if tricks is None or self.deal.declarer not in tricks:
            self.problem(Code.TRICKS_MISSING, "tricks", ENTER_MISERE_TRICKS)
            if tricks is None:
                return
        counts = self.counts(tricks)
        if counts is not None and len(counts) > 1:
            self.total(sum(counts.values()))

    def raspasy_tricks(self) -> None:
        tricks = self.deal.tricks
        if tricks is None:
            self.problem(Code.TRICKS_MISSING, "tricks", ENTER_RASPASY_TRICKS)
            return
        counts = self.counts(tricks, talon=True)
        dealer = self.seating.sitting_out
        talon = counts.get(dealer, 0) if counts is not None and dealer is not None else 0
        if talon and dealer is not None:
            if talon_seat(self.rules, dealer) is None:
                self.problem(Code.BAD_TRICKS, "tricks", TALON_CLOSED(player=Seat(dealer)))
                counts = None
            elif talon > 2:
                self.problem(Code.BAD_TRICKS, "tricks", TALON_MOST(player=Seat(dealer), talon=talon))
                counts = None
        if self.missing(tricks) and counts is not None:
            self.total(sum(counts[s] for s in self.active) + talon)
