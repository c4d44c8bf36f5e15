"""What a valid deal writes on the sheet (rules.md §4-§8, §14).

A `Tally` holds the running pulya, gora and whists of a pulka and writes each
deal's lines into them: every write is an `Entry` with a reason a player can
read, and a pulya write resolves its own overflow (help, write-off) at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import cast

from .contracts import MISERE_PRICE, Contract
from .deals import Deal, DealType, Word, defenders
from .rules import (
    Overflow, PulkaEnd, Q1Responsible, RaspasyDealer, RaspasyScoring, RaspasyTie, Rules, ShortfallSplit,
    SingleWhistMade, SingleWhistRemiz,
)
from .sheet import Points, Sheet


class Column(StrEnum):
    PULYA = "pulya"
    GORA = "gora"
    WHISTS = "whists"


@dataclass(frozen=True, slots=True)
class Entry:
    """One line a deal writes: `player` writes `points` into `column` (whists: on `on`)."""

    player: int
    column: Column
    points: Points
    reason: str  # a template with {seat} placeholders
    on: int | None = None

    def text(self, names: list[str] | tuple[str, ...]) -> str:
        return self.reason.format(*names)


def exact(value: Points) -> Points:
    """An integral Fraction as int, so that sheets print 4, not 4/1."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


# Who answers for the one missing trick of an 8, 9 or 10 when both whisters took none (§5.3):
# the shares of (first whister, second whister).
_Q1_SHARES: dict[Q1Responsible, tuple[Points, Points]] = {
    Q1Responsible.SECOND_WHISTER: (0, 1),
    Q1Responsible.SPLIT: (Fraction(1, 2), Fraction(1, 2)),
    Q1Responsible.BOTH: (1, 1),
}


def _p(seat: int) -> str:
    return f"{{{seat}}}"


def _tricks(count: Points) -> str:
    return f"{count} trick" if count == 1 else f"{count} tricks"


class Tally:
    """The running sheet of one pulka, written deal by deal."""

    def __init__(self, rules: Rules, n: int):
        self.rules = rules
        self.n = n
        self.pulya: list[int] = [0] * n  # every pulya write is whole: prices, bonuses, help
        self.gora: list[Points] = [0] * n
        self.whists: list[list[Points]] = [[0] * n for _ in range(n)]
        self.entries: list[Entry] = []

    # -- the three columns --------------------------------------------------

    def write_gora(self, player: int, points: Points, reason: str) -> None:
        if points:
            points = exact(points)
            self.gora[player] += points
            self.entries.append(Entry(player, Column.GORA, points, reason))

    def write_whists(self, player: int, on: int, points: Points, reason: str) -> None:
        if points:
            points = exact(points)
            self.whists[player][on] += points
            self.entries.append(Entry(player, Column.WHISTS, points, reason, on))

    def write_pulya(self, player: int, points: int, reason: str) -> None:
        """Pulya points; under `all_closed` what does not fit is helped on or written off (§8.2)."""
        if not points:
            return
        rules = self.rules
        size = rules.pulya_size
        fits = points if rules.pulka_end is PulkaEnd.TOTAL else max(0, min(points, size - self.pulya[player]))
        if fits:
            self.pulya[player] += fits
            note = "" if fits == points else f" ({fits} of {points} fit: the pulya closes at {size})"
            self.entries.append(Entry(player, Column.PULYA, fits, reason + note))
        surplus = points - fits
        if surplus and rules.overflow is Overflow.HELP_THEN_WRITEOFF:
            surplus = self._help(player, surplus)
        if surplus:
            per = rules.writeoff_gora_per_point
            self.write_gora(player, -surplus * per,
                            f"{_p(player)}'s pulya is closed and nobody needs help: "
                            f"{surplus} surplus × {per} written off the gora")

    def _help(self, helper: int, surplus: int) -> int:
        """Fill the others' open pulyas, largest first (ties: nearest clockwise); return what is left."""
        size, per = self.rules.pulya_size, self.rules.help_whists_per_point
        others = [(helper + i) % self.n for i in range(1, self.n)]
        needy = sorted((seat for seat in others if self.pulya[seat] < size), key=lambda seat: -self.pulya[seat])
        for seat in needy:
            given = min(surplus, size - self.pulya[seat])
            self.pulya[seat] += given
            self.entries.append(Entry(seat, Column.PULYA, given,
                                      f"{_p(helper)} closes over the pulya and helps {_p(seat)}: pulya +{given}"))
            self.write_whists(helper, seat, given * per,
                              f"{_p(helper)} helps {_p(seat)} with {given} pulya: {given} × {per} whists")
            surplus -= given
            if not surplus:
                break
        return surplus

    @property
    def finished(self) -> bool:
        size = self.rules.pulya_size
        if self.rules.pulka_end is PulkaEnd.TOTAL:
            return sum(self.pulya) >= self.n * size
        return all(points == size for points in self.pulya)

    # -- deals ----------------------------------------------------------------

    def score(self, deal: Deal, sheet: Sheet) -> bool:
        """Write `deal`, valid at `sheet`; True when it is a game or misère that was made."""
        tricks = _counts(deal)
        if deal.type is DealType.RASPASY:
            self._raspasy(tricks, sheet)
            return False
        declarer = deal.declarer
        assert declarer is not None  # validation: a game or misère has a declarer
        if deal.type is DealType.MISERE:
            return self._misere(declarer, tricks[declarer])
        return self._game(deal, declarer, tricks, sheet)

    def _misere(self, declarer: int, taken: int) -> bool:
        if not taken:
            self.write_pulya(declarer, MISERE_PRICE, f"{_p(declarer)} made misère: pulya +{MISERE_PRICE}")
            return True
        per = self.rules.misere_gora_per_trick
        self.write_gora(declarer, taken * per,
                        f"{_p(declarer)} took {_tricks(taken)} on misère: gora {taken} × {per}")
        return False

    def _game(self, deal: Deal, declarer: int, tricks: Mapping[int, int], sheet: Sheet) -> bool:
        rules = self.rules
        contract = deal.contract
        assert contract is not None  # validation: a game has a contract
        price = contract.price
        per_trick = rules.whist_factor * price
        first, second = defenders(sheet.active, declarer)
        sits_out = () if sheet.sitting_out is None else (sheet.sitting_out,)
        d, name = _p(declarer), contract.label
        if rules.checked_ten(contract):
            return self._checked_ten(declarer, tricks, contract, (first, second), sits_out)

        # In defender order, not the order they were entered: the second whister answers on an 8-10 (§5.3).
        said = deal.whisters
        whisters = [seat for seat in (first, second) if seat in said]
        if not whisters:
            self.write_pulya(declarer, price, f"{d} plays {name}, both defenders pass: pulya +{price}")
            if deal.whist is not None and deal.whist[second] == Word.HALF:
                half = contract.obligation // 2
                self.write_whists(second, declarer, half * per_trick,
                                  f"{_p(second)} half-whists {name}: {_tricks(half)} × {per_trick}")
            return True

        taken = tricks[first] + tricks[second]
        undertricks = contract.level - tricks[declarer]
        lone = len(whisters) == 1
        passer = second if whisters == [first] else first
        if undertricks <= 0:
            self.write_pulya(declarer, price, f"{d} made {name}: pulya +{price}")
            if lone and rules.single_whist_made is SingleWhistMade.WHISTER_ALL:
                self._whists_for(whisters[0], declarer, taken, per_trick, f"{name}, whisting alone for both hands")
            else:
                for seat in (first, second) if lone else whisters:
                    self._whists_for(seat, declarer, tricks[seat], per_trick, name)
            self._shortfall(contract, whisters, tricks, taken)
            return True

        others = [*whisters, *([passer] if lone and rules.consolation_by_passer else ())]
        self._remiz(declarer, contract, undertricks, others, sits_out)
        if not lone:
            for seat in whisters:
                self._whists_for(seat, declarer, tricks[seat], per_trick, name)
        elif rules.single_whist_remiz is SingleWhistRemiz.GREEDY:
            self._whists_for(whisters[0], declarer, taken, per_trick, f"{name}, whisting alone for both hands")
        else:
            for seat in (whisters[0], passer):
                self.write_whists(seat, declarer, Fraction(taken * per_trick, 2),
                                  f"{_p(seat)} writes whists on {d}: half of the defence's "
                                  f"{_tricks(taken)} × {per_trick} on {name} (gentleman's whist)")
        return False

    def _checked_ten(self, declarer: int, tricks: Mapping[int, int], contract: Contract, pair: tuple[int, int],
                     sits_out: tuple[int, ...]) -> bool:
        undertricks = 10 - tricks[declarer]
        if not undertricks:
            self.write_pulya(declarer, contract.price, f"{_p(declarer)} made the checked {contract.label}: "
                                                       f"pulya +{contract.price}")
            return True
        self._remiz(declarer, contract, undertricks, list(pair), sits_out)
        if self.rules.checked_ten_whists:
            per_trick = self.rules.whist_factor * contract.price
            for seat in pair:
                self._whists_for(seat, declarer, tricks[seat], per_trick, f"the checked {contract.label}")
        return False

    def _whists_for(self, seat: int, declarer: int, count: int, per_trick: int, what: str) -> None:
        self.write_whists(seat, declarer, count * per_trick,
                          f"{_p(seat)} writes whists on {_p(declarer)}: {_tricks(count)} × {per_trick} on {what}")

    def _remiz(self, declarer: int, contract: Contract, undertricks: int, others: list[int],
               sits_out: tuple[int, ...]) -> None:
        rules = self.rules
        price, d = contract.price, _p(declarer)
        per = rules.remiz_factor * price
        self.write_gora(declarer, undertricks * per,
                        f"{d} is remiz by {undertricks} on {contract.label}: gora {undertricks} × {per}")
        consolation = max(rules.consolation_factor * price, rules.consolation_min)
        if rules.consolation_by_dealer:
            others = [*others, *sits_out]
        for seat in others:
            self.write_whists(seat, declarer, undertricks * consolation,
                              f"{_p(seat)} writes consolation on {d}: {undertricks} undertrick"
                              f"{'' if undertricks == 1 else 's'} × {consolation}")

    def _shortfall(self, contract: Contract, whisters: list[int], tricks: Mapping[int, int], taken: int) -> None:
        """Whisters who did not take their share of the obligation write gora (§5.2, §5.3)."""
        rules = self.rules
        duty = contract.obligation
        short = duty - taken
        per = exact(rules.shortfall_factor * contract.price)
        if short <= 0 or not per:
            return
        name = contract.label
        if len(whisters) == 1:
            self.write_gora(whisters[0], short * per,
                            f"{_p(whisters[0])} whisted {name} alone and the defence took {taken} of {duty}: "
                            f"short {short} × {per}")
            return
        if duty == 1:
            for seat, share in zip(whisters, _Q1_SHARES[rules.q1_responsible]):
                self.write_gora(seat, share * per,
                                f"{_p(seat)}: the whisters took no trick on {name}, "
                                f"{'half ' if share == Fraction(1, 2) else ''}short 1 × {per}")
            return
        quota = duty // 2
        for seat in whisters:
            missing = max(0, quota - tricks[seat])
            if rules.shortfall_split is ShortfallSplit.CAPPED:
                missing = min(missing, short)
            self.write_gora(seat, missing * per,
                            f"{_p(seat)} took {tricks[seat]} of his {quota} on {name}: short {missing} × {per}")

    def _raspasy(self, tricks: Mapping[int, int], sheet: Sheet) -> None:
        rules = self.rules
        k = sheet.streak + 1
        active, talon = sheet.active, sheet.talon_seat(rules)
        takers = active if talon is None else (*active, talon)
        taken = {seat: tricks.get(seat, 0) for seat in takers}
        zero = rules.raspasy_zero_pulya[min(k, len(rules.raspasy_zero_pulya)) - 1]
        streak = f"raspasy #{k}" if k > 1 else "raspasy"
        if rules.raspasy_scoring is RaspasyScoring.GORA:
            per = rules.raspasy_gora[min(k, len(rules.raspasy_gora)) - 1]
            for seat in takers:
                self.write_gora(seat, taken[seat] * per,
                                f"{_p(seat)} took {_tricks(taken[seat])} on {streak}: gora {taken[seat]} × {per}")
        else:
            self._raspasy_whists(active, taken, streak)
        for seat in active:
            if not taken[seat]:
                self.write_pulya(seat, zero, f"{_p(seat)} took no trick on {streak}: pulya +{zero}")
        if sheet.sitting_out is not None and rules.raspasy_dealer is RaspasyDealer.PULYA_ONE:
            self.write_pulya(sheet.sitting_out, 1, f"{_p(sheet.sitting_out)} deals the raspasy and sits out: pulya +1")

    def _raspasy_whists(self, active: tuple[int, ...], taken: dict[int, int], streak: str) -> None:
        """The fewest-tricks player writes whists on every other player's tricks (§7.3).

        At 4 players under `raspasy_dealer: talon` the fewest is sought among the three
        active players only: the dealer who sits out never writes raspasy whists, and the
        tricks his talon won (he is in `taken`) are written on him like anyone's (§14,
        `raspasy_whists_per_trick`). When the three active players tie (3-3-3 beside a talon
        trick) none has fewest and nobody writes: rules.md does not cover that case.
        """
        per = self.rules.raspasy_whists_per_trick
        fewest = min(taken[seat] for seat in active)
        writers = [seat for seat in active if taken[seat] == fewest]
        if len(writers) == len(active):
            return
        share: Points = Fraction(1, len(writers)) if self.rules.raspasy_tie is RaspasyTie.SPLIT else 1
        tie = "" if len(writers) == 1 else (", shared by the two who tied" if share != 1 else ", tied for fewest")
        for writer in writers:
            for seat, count in taken.items():
                if seat not in writers:
                    self.write_whists(writer, seat, share * count * per,
                                      f"{_p(writer)} took fewest on {streak} and writes whists on {_p(seat)}: "
                                      f"his {_tricks(count)} × {per}{tie}")


def _counts(deal: Deal) -> Mapping[int, int]:
    """The tricks of a valid deal: validation has made sure every count is a whole number from 0 to 10."""
    return cast("Mapping[int, int]", deal.tricks or {})
