"""A deal as entered at the table, and who sits where in it.

Seats are indices 0..n-1 in clockwise order; names appear only at the edges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .contracts import Contract
from .rules import Rules


class DealType(StrEnum):
    GAME = "game"
    MISERE = "misere"
    RASPASY = "raspasy"


class Word(StrEnum):
    """A defender's final word after the contract is declared."""

    WHIST = "whist"
    PASS = "pass"
    HALF = "half"


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
    return _SEATS_IN_PLAY[n][dealer]


_SEATS_IN_PLAY = {n: [tuple((dealer + i) % n for i in range(1, 4)) for dealer in range(n)] for n in (3, 4)}


def defenders(active: tuple[int, ...], declarer: int) -> tuple[int, int]:
    """First defender (declarer's left, speaks first) and second defender."""
    at = active.index(declarer)
    return active[(at + 1) % 3], active[(at + 2) % 3]
