"""Validation of a deal against the rules and the pulka's state: every problem, each with its code.

A deal read from a file or a form holds whatever was entered; this module is
where each value is checked, so scoring only ever sees a valid deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

from .contracts import Contract, Strain
from .deals import Deal, DealType, Word, defenders
from .problems import Code, Problem, literal
from .rules import Rules
from .sheet import Sheet

WORDS = tuple(Word)
STALINGRAD = Contract(6, Strain.SPADES)


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10


def check(deal: Deal, sheet: Sheet, rules: Rules) -> list[Problem]:
    """Every problem of `deal` if it were the next deal of the pulka at `sheet`."""
    return _Checker(deal, sheet, rules).problems


class _Checker:
    """Collects every problem of one deal; each method checks one field."""

    def __init__(self, deal: Deal, sheet: Sheet, rules: Rules):
        self.deal, self.sheet, self.rules = deal, sheet, rules
        self.number = sheet.deals + 1
        self.active = sheet.active
        self.problems: list[Problem] = []
        if deal.type is DealType.RASPASY:
            self.raspasy_tricks()
        else:
            declarer = self.declarer()
            if deal.type is DealType.MISERE:
                self.misere_tricks()
            else:
                self.game(declarer)
        if sheet.finished:
            self.problem(Code.PULKA_FINISHED, "type", "the pulka is finished: every deal after its end is refused")

    def problem(self, code: Code, where: str, message: str) -> None:
        self.problems.append(Problem(code, where, message, self.number))

    def declarer(self) -> int | None:
        """The declarer when he is one of the active players."""
        declarer = self.deal.declarer
        if declarer is None or not 0 <= declarer < self.sheet.n:
            self.problem(Code.UNKNOWN_PLAYER, "declarer", "the declarer must be one of the players")
        elif declarer not in self.active:
            self.problem(Code.INACTIVE_PLAYER, "declarer", f"{{{declarer}}} deals and sits this deal out: he cannot declare")
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
                self.problem(Code.INACTIVE_PLAYER, "tricks", f"{{{seat}}} deals and sits this deal out: he takes no tricks")
            elif _is_count(count):
                counts[seat] = count
            else:
                self.problem(Code.BAD_TRICKS, "tricks",
                             f"{{{seat}}}'s tricks must be a whole number from 0 to 10, not {literal(count)}")
                valid = False
        return counts if valid else None

    def total(self, total: int) -> None:
        if total != 10:
            self.problem(Code.TRICKS_SUM, "tricks", f"tricks add up to {total}, a deal has 10")

    def missing(self, tricks: Mapping[int, object]) -> bool:
        """Report active seats without tricks; True when there are none."""
        missing = [seat for seat in self.active if seat not in tricks]
        for seat in missing:
            self.problem(Code.TRICKS_MISSING, "tricks", f"enter {{{seat}}}'s tricks")
        return not missing

    def game(self, declarer: int | None) -> None:
        deal, rules = self.deal, self.rules
        contract = deal.contract
        if contract is None:
            self.problem(Code.BAD_CONTRACT, "contract", "the contract must be a level 6-10 and a strain S, C, D, H or NT")
            return
        if rules.checked_ten(contract):
            words_ok = True
            if deal.whist is not None:
                self.problem(Code.BAD_WHIST, "whist", "a ten is checked under these rules: nobody whists or passes it")
        elif deal.whist is None:
            self.problem(Code.BAD_WHIST, "whist", "say whist, pass or half for each of the two defenders")
            words_ok = False
        else:
            words_ok = declarer is not None and self.words(deal.whist, declarer, contract)
        if words_ok:
            if deal.played(rules):
                self.played_tricks()
            elif deal.tricks is not None:
                self.problem(Code.TRICKS_UNEXPECTED, "tricks",
                             "nobody whisted, so the deal was not played: leave out the tricks")
        least = self.sheet.least_level(rules)
        if contract.level < least:
            self.problem(Code.RASPASY_EXIT, "contract", f"after {self.sheet.streak} raspasy in a row the contract "
                                                        f"must be at least {least}, not {contract.label}")

    def words(self, whist: Mapping[int, object], declarer: int, contract: Contract) -> bool:
        """The defenders' words; True when they are complete and legal."""
        first, second = defenders(self.active, declarer)
        ok = True
        for seat, word in whist.items():
            if seat not in self.active:
                self.problem(Code.INACTIVE_PLAYER, "whist", f"{{{seat}}} deals and sits this deal out: he does not whist")
                ok = False
            elif seat not in (first, second):
                self.problem(Code.BAD_WHIST, "whist", f"{{{seat}}} declares this deal: only the defenders whist or pass")
                ok = False
            elif word not in WORDS:
                self.problem(Code.BAD_WHIST, "whist", f"{{{seat}}}'s word must be whist, pass or half, not {literal(word)}")
                ok = False
        for seat in (first, second):
            if seat not in whist:
                self.problem(Code.BAD_WHIST, "whist", f"{{{seat}}} defends: say whether he whists or passes")
                ok = False
        if not ok:
            return False
        w1, w2 = whist[first], whist[second]
        if Word.HALF in (w1, w2):
            if w1 == Word.HALF:
                reasons = [f"{{{first}}} speaks first: only the second defender, {{{second}}}, may say half"]
            elif w1 != Word.PASS:
                reasons = [f"half-whist stands only beside a pass, and {{{first}}} whisted"]
            else:
                reasons = []
            if contract.level not in self.rules.half_whist:
                allowed = " and ".join(map(str, self.rules.half_whist)) or "no level"
                reasons.append(f"half-whist is allowed on {allowed} under these rules, not on {contract.level}")
            for reason in reasons:
                self.problem(Code.HALF_WHIST_NOT_ALLOWED, "whist", reason)
            ok = not reasons
        if self.rules.stalingrad and contract == STALINGRAD and not w1 == w2 == Word.WHIST:
            self.problem(Code.STALINGRAD, "whist", "Stalingrad: 6♠ must be whisted by both defenders")
        return ok

    def played_tricks(self) -> None:
        tricks = self.deal.tricks
        if tricks is None:
            self.problem(Code.TRICKS_MISSING, "tricks", "the deal was played: enter each player's tricks")
            return
        counts = self.counts(tricks)
        if self.missing(tricks) and counts is not None:
            self.total(sum(counts[s] for s in self.active))

    def misere_tricks(self) -> None:
        """The declarer's count is needed; the others' are optional, but once given they add up to 10."""
        tricks = self.deal.tricks
        if tricks is None or self.deal.declarer not in tricks:
            self.problem(Code.TRICKS_MISSING, "tricks", "enter the tricks the misère player took")
            if tricks is None:
                return
        counts = self.counts(tricks)
        if counts is not None and len(counts) > 1:
            self.total(sum(counts.values()))

    def raspasy_tricks(self) -> None:
        tricks = self.deal.tricks
        if tricks is None:
            self.problem(Code.TRICKS_MISSING, "tricks", "enter each player's tricks on the raspasy")
            return
        counts = self.counts(tricks, talon=True)
        dealer = self.sheet.sitting_out
        talon = counts.get(dealer, 0) if counts is not None and dealer is not None else 0
        if talon and self.sheet.talon_seat(self.rules) is None:
            self.problem(Code.BAD_TRICKS, "tricks",
                         f"{{{dealer}}} deals: under these rules the talon stays closed and he takes no tricks")
            counts = None
        elif talon > 2:
            self.problem(Code.BAD_TRICKS, "tricks", f"{{{dealer}}} deals: the talon wins at most 2 tricks, not {talon}")
            counts = None
        if self.missing(tricks) and counts is not None:
            self.total(sum(counts[s] for s in self.active) + talon)
