"""The sheet: the paper at one moment of a pulka, with what follows from it for the next deal."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .deals import Seating, seating, seats_in_play
from .rules import RaspasyDealer, Rules

# Whole points, or halves and thirds where the rules split a write (§14).
Points = int | Fraction


@dataclass(frozen=True)
class Sheet:
    """The paper sheet at one moment: totals, whose deal is next, the raspasy streak."""

    n: int
    first_dealer: int = 0
    deals: int = 0  # deals written so far
    pulya: tuple[int, ...] = ()
    gora: tuple[Points, ...] = ()
    whists: tuple[tuple[Points, ...], ...] = ()  # whists[i][j]: i wrote on j (j owes i)
    streak: int = 0  # raspasy in a row that no game has ended yet
    finished: bool = False

    @classmethod
    def empty(cls, n: int, first_dealer: int = 0) -> Sheet:
        return cls(n, first_dealer, 0, (0,) * n, (0,) * n, ((0,) * n,) * n)

    @property
    def dealer(self) -> int:
        """Who deals next."""
        return (self.first_dealer + self.deals) % self.n

    @property
    def active(self) -> tuple[int, ...]:
        """The three seats playing the next deal, from first hand clockwise."""
        return seats_in_play(self.n, self.dealer)

    @property
    def seating(self) -> Seating:
        """Who sits where in the next deal."""
        return seating(self.n, self.dealer)

    @property
    def sitting_out(self) -> int | None:
        """The dealer of the next deal when he sits it out: with 4 players."""
        return self.dealer if self.n == 4 else None

    def least_level(self, rules: Rules) -> int:
        """The lowest contract the next deal may be (raspasy exit, §7.4)."""
        return least_level(rules, self.streak)

    def talon_seat(self, rules: Rules) -> int | None:
        """Whose talon tricks may be entered if the next deal is a raspasy: with 4 players under
        `raspasy_dealer: talon` the talon's tricks are the dealer's, who sits out (§7.1, §14); else nobody's."""
        return talon_seat(rules, self.sitting_out)

    def closed(self, rules: Rules) -> tuple[int, ...]:
        """The seats whose pulya is closed: it holds pulya_size points (more under `pulka_end: total`)."""
        return tuple(seat for seat, points in enumerate(self.pulya) if points >= rules.pulya_size)


def least_level(rules: Rules, streak: int) -> int:
    """The lowest contract after `streak` raspasy in a row (§7.4)."""
    return rules.raspasy_exit[min(streak, 3) - 1] if streak else 6


def talon_seat(rules: Rules, sitting_out: int | None) -> int | None:
    """Whose talon tricks a raspasy may have, when `sitting_out` deals and sits out (§7.1, §14)."""
    return sitting_out if rules.raspasy_dealer is RaspasyDealer.TALON else None
