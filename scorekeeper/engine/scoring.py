"""What a valid deal writes on the sheet (docs/rules.md §4-§8, §14).

A `Tally` holds the running pulya, gora and whists of a pulka and writes each
deal's lines into them: every write is a line with a reason a player can read
(an `Entry`), and a pulya write resolves its own overflow (help, write-off) at
once. The reasons are `Text`s declared below, one for each way a line is
written. A write names its reason's template and the template's values, in the
order the template first names them (as `str.format` takes them, so the
template above reads as the call: `REMIZ, declarer, count, contract, per`);
the `Text` is made with the line only when the lines are wanted (a replay keeps
the totals, and writes a deal again for its lines when they are read).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import cast

from .contracts import MISERE_PRICE
from .deals import HALF, WHIST, Deal, DealType, Seating
from .rules import (
    Overflow, PulkaEnd, Q1Responsible, RaspasyDealer, RaspasyScoring, RaspasyTie, Rules, ShortfallSplit,
    SingleWhistMade, SingleWhistRemiz, Terms,
)
from .sheet import Points, Sheet
from .texts import SEATS, Text, Value


class Column(StrEnum):
    PULYA = "pulya"
    GORA = "gora"
    WHISTS = "whists"


# The columns as every line names them, looked up once: reaching an enum's member is slow (Python 3.11).
_PULYA, _GORA, _WHISTS = Column.PULYA, Column.GORA, Column.WHISTS


@dataclass(frozen=True, slots=True)
class Entry:
    """One line a deal writes: `player` writes `points` into `column` (whists: on `on`)."""

    player: int
    column: Column
    points: Points
    reason: Text
    on: int | None = None

    def text(self, names: list[str] | tuple[str, ...]) -> str:
        return self.reason.text(names)


# Every reason a line is written for. Where a count of tricks stands in one, it has a plural
# chosen by `count` ("1 trick", "2 tricks"): Russian has three forms where English has two.

# -- the pulya and its overflow (§8.2)
PULYA_FITS = Text("{reason} ({fits} of {points} fit: the pulya closes at {size})")
WRITTEN_OFF = Text("{player}'s pulya is closed and nobody needs help: {surplus} surplus × {per} written off the gora")
HELPS = Text("{helper} closes over the pulya and helps {player}: pulya +{given}")
HELPS_CLOSED = Text("{helper}'s pulya is closed: the surplus helps {player}: pulya +{given}")
# English writes "whists" after any product; Russian inflects the word by the number before it.
HELP_WHISTS = Text("{helper} helps {player} with {given} pulya: {given} × {per} whists",
                   "{helper} helps {player} with {given} pulya: {given} × {per} whists", "per")
# -- misère
MISERE_MADE = Text("{player} made misère: pulya +{price}")
MISERE_TOOK = Text("{player} took {count} trick on misère: gora {count} × {per}",
                   "{player} took {count} tricks on misère: gora {count} × {per}", "count")
# -- a game
PASSED = Text("{declarer} plays {contract}, both defenders pass: pulya +{price}")
HALF_PASSED = Text("{declarer} plays {contract}, {player} half-whists: pulya +{price}")
HALF_WHISTS = Text("{player} half-whists {contract}: {count} trick × {per}",
                   "{player} half-whists {contract}: {count} tricks × {per}", "count")
MADE = Text("{declarer} made {contract}: pulya +{price}")
CHECKED_MADE = Text("{declarer} made the checked {contract}: pulya +{price}")
WHISTS = Text("{player} writes whists on {declarer}: {count} trick × {per} on {contract}",
              "{player} writes whists on {declarer}: {count} tricks × {per} on {contract}", "count")
WHISTS_ALONE = Text(
    "{player} writes whists on {declarer}: {count} trick × {per} on {contract}, whisting alone for both hands",
    "{player} writes whists on {declarer}: {count} tricks × {per} on {contract}, whisting alone for both hands",
    "count")
WHISTS_CHECKED = Text("{player} writes whists on {declarer}: {count} trick × {per} on the checked {contract}",
                      "{player} writes whists on {declarer}: {count} tricks × {per} on the checked {contract}",
                      "count")
WHISTS_HALF = Text(
    "{player} writes whists on {declarer}: half of the defence's {count} trick × {per} on {contract} "
    "(gentleman's whist)",
    "{player} writes whists on {declarer}: half of the defence's {count} tricks × {per} on {contract} "
    "(gentleman's whist)",
    "count")
REMIZ = Text("{declarer} is remiz by {count} on {contract}: gora {count} × {per}")
CONSOLATION = Text("{player} writes consolation on {declarer}: {count} undertrick × {per}",
                   "{player} writes consolation on {declarer}: {count} undertricks × {per}", "count")
SHORT_ALONE = Text("{player} whisted {contract} alone and the defence took {taken} of {duty}: short {short} × {per}")
SHORT_NONE = Text("{player}: the whisters took no trick on {contract}, short 1 × {per}")
SHORT_NONE_HALF = Text("{player}: the whisters took no trick on {contract}, half short 1 × {per}")
SHORT_OWN = Text("{player} took {taken} of his {quota} on {contract}: short {short} × {per}")
# -- raspasy: the first of a streak, and the k-th
RASPASY_GORA = Text("{player} took {count} trick on raspasy: gora {count} × {per}",
                    "{player} took {count} tricks on raspasy: gora {count} × {per}", "count")
RASPASY_GORA_NTH = Text("{player} took {count} trick on raspasy #{k}: gora {count} × {per}",
                        "{player} took {count} tricks on raspasy #{k}: gora {count} × {per}", "count")
RASPASY_ZERO = Text("{player} took no trick on raspasy: pulya +{zero}")
RASPASY_ZERO_NTH = Text("{player} took no trick on raspasy #{k}: pulya +{zero}")
RASPASY_DEALER = Text("{player} deals the raspasy and sits out: pulya +1")
FEWEST = Text("{player} took fewest on raspasy and writes whists on {taker}: his {count} trick × {per}",
              "{player} took fewest on raspasy and writes whists on {taker}: his {count} tricks × {per}", "count")
FEWEST_NTH = Text(
    "{player} took fewest on raspasy #{k} and writes whists on {taker}: his {count} trick × {per}",
    "{player} took fewest on raspasy #{k} and writes whists on {taker}: his {count} tricks × {per}",
    "count")
FEWEST_SHARED = Text("{reason}, shared by the two who tied")
FEWEST_TIED = Text("{reason}, tied for fewest")


def exact(value: Points) -> Points:
    """An integral Fraction as int, so that sheets print 4, not 4/1."""
    if type(value) is not int and isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


# Who answers for the one missing trick of an 8, 9 or 10 when both whisters took none (§5.3):
# the shares of (first whister, second whister).
_Q1_SHARES: dict[Q1Responsible, tuple[Points, Points]] = {
    Q1Responsible.SECOND_WHISTER: (0, 1),
    Q1Responsible.SPLIT: (Fraction(1, 2), Fraction(1, 2)),
    Q1Responsible.BOTH: (1, 1),
}

# A line's reason: a template, or what fills one in, from the values a write names (`Text.__call__`).
Reason = Callable[..., Text]


class Tally:
    """The running sheet of one pulka, written deal by deal.

    Every write names its reason as a template and the values that fill it in; the reason is
    made, with its line (`line`), only when `lines` is set. A replay keeps the totals alone, and
    writes a deal again, with its lines, when someone reads them (`pulka.DealResult.entries`).
    """

    def __init__(self, rules: Rules, n: int, *, lines: bool = True):
        self.rules = rules
        self.n = n
        self.lines = lines
        # The rules' choices that every deal asks about, decided once.
        self.total_end = rules.pulka_end is PulkaEnd.TOTAL
        self.greedy = rules.single_whist_remiz is SingleWhistRemiz.GREEDY
        self.whister_all = rules.single_whist_made is SingleWhistMade.WHISTER_ALL
        self.raspasy_gora = rules.raspasy_scoring is RaspasyScoring.GORA
        self.talon = rules.raspasy_dealer is RaspasyDealer.TALON  # else the dealer writes 1 (with 4)
        self.terms = rules.terms  # each contract's price, whists, remiz … under these rules
        self.pulya: list[int] = [0] * n  # every pulya write is whole: prices, bonuses, help
        self.gora: list[Points] = [0] * n
        self.whists: list[list[Points]] = [[0] * n for _ in range(n)]
        self.entries: list[Entry] = []

    # -- the three columns --------------------------------------------------
    # After the write's own arguments, the reason's values in the order its template names them: as
    # values, not keywords, since a keyword's dictionary would be made for every line, read or not.

    def write_gora(self, player: int, points: Points, reason: Reason, *values: Value) -> None:
        if points:
            if type(points) is not int:  # as nearly every write is: only a share can be a Fraction
                points = exact(points)
            self.gora[player] += points
            if self.lines:
                self.line(player, _GORA, points, None, reason, values)

    def write_whists(self, player: int, on: int, points: Points, reason: Reason, *values: Value) -> None:
        if points:
            if type(points) is not int:
                points = exact(points)
            self.whists[player][on] += points
            if self.lines:
                self.line(player, _WHISTS, points, on, reason, values)

    def write_pulya(self, player: int, points: int, reason: Reason, *values: Value) -> None:
        """Pulya points; under `all_closed` what does not fit is helped on or written off (§8.2)."""
        if not points:
            return
        rules = self.rules
        size = rules.pulya_size
        fits = points if self.total_end else max(0, min(points, size - self.pulya[player]))
        if fits:
            self.pulya[player] += fits
            if self.lines and fits == points:
                self.line(player, _PULYA, fits, None, reason, values)
            elif self.lines:  # what fits, for the reason it was written for
                self.line(player, _PULYA, fits, None, PULYA_FITS, (reason(*values), fits, points, size))
        surplus = points - fits
        if surplus and rules.overflow is Overflow.HELP_THEN_WRITEOFF:
            surplus = self._help(player, surplus, closed=not fits)
        if surplus:
            per = rules.writeoff_gora_per_point
            self.write_gora(player, -surplus * per, WRITTEN_OFF, SEATS[player], surplus, per)

    def _help(self, helper: int, surplus: int, closed: bool) -> int:
        """Fill the others' open pulyas, largest first (ties: nearest clockwise); return what is left.
        `closed`: the helper's pulya was closed before this write (it does not close over it now)."""
        size, per = self.rules.pulya_size, self.rules.help_whists_per_point
        others = [(helper + i) % self.n for i in range(1, self.n)]
        needy = sorted((seat for seat in others if self.pulya[seat] < size), key=lambda seat: -self.pulya[seat])
        for seat in needy:
            given = min(surplus, size - self.pulya[seat])
            self.pulya[seat] += given
            if self.lines:
                self.line(seat, _PULYA, given, None, HELPS_CLOSED if closed else HELPS,
                          (SEATS[helper], SEATS[seat], given))
            self.write_whists(helper, seat, given * per, HELP_WHISTS, SEATS[helper], SEATS[seat], given, per)
            surplus -= given
            if not surplus:
                break
        return surplus

    def line(self, player: int, column: Column, points: Points, on: int | None, reason: Reason,
             values: tuple[Value, ...]) -> None:
        """Keep a line the deal wrote, its reason made from its template and values."""
        self.entries.append(Entry(player, column, points, reason(*values), on))

    @property
    def finished(self) -> bool:
        size = self.rules.pulya_size
        if self.total_end:
            return sum(self.pulya) >= self.n * size
        return self.pulya.count(size) == self.n  # every pulya holds exactly its size

    # -- deals ----------------------------------------------------------------

    def score(self, deal: Deal, sheet: Sheet) -> bool:
        """Write `deal`, valid at `sheet`; True when it is a game or misère that was made."""
        return self.play(deal, sheet.seating, sheet.streak + 1)

    def play(self, deal: Deal, seating: Seating, k: int) -> bool:
        """Write `deal`, valid in `seating`; a raspasy is the k-th of its streak. True when it is a game
        or misère that was made."""
        return _SCORE[deal.type](self, deal, seating, k)

    def _misere(self, deal: Deal, seating: Seating, k: int) -> bool:
        declarer = deal.declarer
        assert declarer is not None  # validation: a misère has a declarer
        taken = _counts(deal)[declarer]
        if not taken:
            self.write_pulya(declarer, MISERE_PRICE, MISERE_MADE, SEATS[declarer], MISERE_PRICE)
            return True
        per = self.rules.misere_gora_per_trick
        self.write_gora(declarer, taken * per, MISERE_TOOK, SEATS[declarer], taken, per)
        return False

    def _game(self, deal: Deal, seating: Seating, k: int) -> bool:
        declarer, contract, tricks = deal.declarer, deal.contract, _counts(deal)
        assert declarer is not None and contract is not None  # validation: a game has a declarer and a contract
        terms = self.terms[contract.level, contract.strain]
        price, per_trick, name = terms.price, terms.per_trick, terms.label
        first, second = seating.defenders[declarer]
        d = SEATS[declarer]
        if terms.checked:
            return self._checked_ten(declarer, tricks, terms, (first, second), seating)

        # In defender order, not the order they were entered: the second whister answers on an 8-10 (§5.3).
        whist = deal.whist
        assert whist is not None  # validation: both defenders said their word
        whisters = [seat for seat in (first, second) if whist[seat] == WHIST]
        if not whisters:
            if whist[second] == HALF:
                self.write_pulya(declarer, price, HALF_PASSED, d, name, SEATS[second], price)
            else:
                self.write_pulya(declarer, price, PASSED, d, name, price)
            if whist[second] == HALF:
                half = terms.duty // 2
                self.write_whists(second, declarer, half * per_trick, HALF_WHISTS, SEATS[second], name, half, per_trick)
            return True

        taken = tricks[first] + tricks[second]
        undertricks = contract.level - tricks[declarer]
        lone = len(whisters) == 1
        passer = second if whisters == [first] else first
        if undertricks <= 0:
            self.write_pulya(declarer, price, MADE, d, name, price)
            if lone and self.whister_all:
                self._whists_for(WHISTS_ALONE, whisters[0], declarer, taken, per_trick, name)
            else:
                for seat in (first, second) if lone else whisters:
                    self._whists_for(WHISTS, seat, declarer, tricks[seat], per_trick, name)
            self._shortfall(terms, whisters, tricks, taken)
            return True

        others = [*whisters, *([passer] if lone and self.rules.consolation_by_passer else ())]
        self._remiz(declarer, terms, undertricks, others, seating)
        if not lone:
            for seat in whisters:
                self._whists_for(WHISTS, seat, declarer, tricks[seat], per_trick, name)
        elif self.greedy:
            self._whists_for(WHISTS_ALONE, whisters[0], declarer, taken, per_trick, name)
        else:
            for seat in (whisters[0], passer):
                self._whists_for(WHISTS_HALF, seat, declarer, taken, per_trick, name, Fraction(1, 2))
        return False

    def _checked_ten(self, declarer: int, tricks: Mapping[int, int], terms: Terms, pair: tuple[int, int],
                     seating: Seating) -> bool:
        undertricks = 10 - tricks[declarer]
        if not undertricks:
            self.write_pulya(declarer, terms.price, CHECKED_MADE, SEATS[declarer], terms.label, terms.price)
            return True
        self._remiz(declarer, terms, undertricks, list(pair), seating)
        if self.rules.checked_ten_whists:
            for seat in pair:
                self._whists_for(WHISTS_CHECKED, seat, declarer, tricks[seat], terms.per_trick, terms.label)
        return False

    def _whists_for(self, reason: Text, seat: int, declarer: int, count: int, per_trick: int, name: Value,
                    share: Points = 1) -> None:
        """`seat` writes whists on the declarer for `count` tricks at `per_trick` (a `share` of them); `name` is
        the contract's label."""
        self.write_whists(seat, declarer, share * count * per_trick,
                          reason, SEATS[seat], SEATS[declarer], count, per_trick, name)

    def _remiz(self, declarer: int, terms: Terms, undertricks: int, others: list[int], seating: Seating) -> None:
        d, per, consolation = SEATS[declarer], terms.remiz, terms.consolation
        self.write_gora(declarer, undertricks * per, REMIZ, d, undertricks, terms.label, per)
        if self.rules.consolation_by_dealer and seating.sitting_out is not None:
            others = [*others, seating.sitting_out]
        for seat in others:
            self.write_whists(seat, declarer, undertricks * consolation, CONSOLATION, SEATS[seat], d, undertricks,
                              consolation)

    def _shortfall(self, terms: Terms, whisters: list[int], tricks: Mapping[int, int], taken: int) -> None:
        """Whisters who did not take their share of the obligation write gora (§5.2, §5.3)."""
        rules = self.rules
        duty, per, name = terms.duty, terms.shortfall, terms.label
        short = duty - taken
        if short <= 0 or not per:
            return
        if len(whisters) == 1:
            self.write_gora(whisters[0], short * per, SHORT_ALONE, SEATS[whisters[0]], name, taken, duty, short, per)
            return
        if duty == 1:
            for seat, share in zip(whisters, _Q1_SHARES[rules.q1_responsible]):
                reason = SHORT_NONE_HALF if share == Fraction(1, 2) else SHORT_NONE
                self.write_gora(seat, share * per, reason, SEATS[seat], name, per)
            return
        quota = duty // 2
        for seat in whisters:
            missing = max(0, quota - tricks[seat])
            if rules.shortfall_split is ShortfallSplit.CAPPED:
                missing = min(missing, short)
            self.write_gora(seat, missing * per, SHORT_OWN, SEATS[seat], tricks[seat], quota, name, missing, per)

    def _raspasy(self, deal: Deal, seating: Seating, k: int) -> bool:
        rules, tricks = self.rules, _counts(deal)
        active, talon = seating.active, seating.sitting_out if self.talon else None
        takers = active if talon is None else (*active, talon)
        taken = {seat: tricks.get(seat, 0) for seat in takers}
        zero = rules.raspasy_zero_pulya[min(k, len(rules.raspasy_zero_pulya)) - 1]
        if self.raspasy_gora:
            per = rules.raspasy_gora[min(k, len(rules.raspasy_gora)) - 1]
            reason = _nth(RASPASY_GORA, RASPASY_GORA_NTH, k)
            for seat in takers:
                self.write_gora(seat, taken[seat] * per, reason, SEATS[seat], taken[seat], per)
        else:
            self._raspasy_whists(active, taken, k)
        for seat in active:
            if not taken[seat]:
                self.write_pulya(seat, zero, _nth(RASPASY_ZERO, RASPASY_ZERO_NTH, k), SEATS[seat], zero)
        if seating.sitting_out is not None and not self.talon:
            self.write_pulya(seating.sitting_out, 1, RASPASY_DEALER, SEATS[seating.sitting_out])
        return False  # a raspasy is never a game made

    def _raspasy_whists(self, active: tuple[int, ...], taken: dict[int, int], k: int) -> None:
        """The fewest-tricks player writes whists on every other player's tricks (§7.3).

        At 4 players under `raspasy_dealer: talon` the fewest is sought among the three
        active players only: the dealer who sits out never writes raspasy whists, and the
        tricks his talon won (he is in `taken`) are written on him like anyone's (§14,
        `raspasy_whists_per_trick`). When the three active players tie (3-3-3 beside a talon
        trick) none has fewest and nobody writes: docs/rules.md does not cover that case.
        """
        per = self.rules.raspasy_whists_per_trick
        fewest = min(taken[seat] for seat in active)
        writers = [seat for seat in active if taken[seat] == fewest]
        if len(writers) == len(active):
            return
        share: Points = Fraction(1, len(writers)) if self.rules.raspasy_tie is RaspasyTie.SPLIT else 1
        reason = _nth(FEWEST, FEWEST_NTH, k)
        if len(writers) > 1:
            reason = _tied(FEWEST_SHARED if share != 1 else FEWEST_TIED, reason)
        for writer in writers:
            for seat, count in taken.items():
                if seat not in writers:
                    self.write_whists(writer, seat, share * count * per, reason, SEATS[writer], SEATS[seat], count, per)


# How each type of deal is written: True when it is a game or misère that was made.
_SCORE: dict[DealType, Callable[[Tally, Deal, Seating, int], bool]] = {
    DealType.GAME: Tally._game,
    DealType.MISERE: Tally._misere,
    DealType.RASPASY: Tally._raspasy,
}


def _nth(first: Text, nth: Text, k: int) -> Reason:
    """The reason on the first raspasy of a streak, or on the k-th ("raspasy #2")."""
    return first if k == 1 else _kth(nth, k)


# Made once for each k: a reason's template is the same object for every line that has it.
@functools.cache
def _kth(nth: Text, k: int) -> Reason:
    return functools.partial(nth, k=k)


@functools.cache
def _tied(tie: Text, reason: Reason) -> Reason:
    """`reason`, said of the players who tied for fewest tricks."""
    return lambda *values: tie(reason=reason(*values))


def _counts(deal: Deal) -> Mapping[int, int]:
    """The tricks of a valid deal: validation has made sure every count is a whole number from 0 to 10."""
    return cast("Mapping[int, int]", deal.tricks or {})
