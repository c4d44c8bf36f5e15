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


# The members every deal is compared with, looked up once: reaching an enum's member is slow (Python 3.11).
GAME, MISERE, RASPASY = DealType.GAME, DealType.MISERE, DealType.RASPASY
WHIST, PASS, HALF = Word.WHIST, Word.PASS, Word.HALF


@dataclass(frozen=True, init=False)
class Deal:
    """A deal as entered. A file or a form may put anything where a word or a count belongs:
    `validation.check` reports every such value, and only a valid deal is scored."""

    type: DealType
    declarer: int | None = None
    contract: Contract | None = None
    whist: Mapping[int, object] | None = None  # defender seat -> his Word
    tricks: Mapping[int, object] | None = None  # seat -> tricks taken (the dealer's talon tricks on raspasy)
    open: bool = False  # one whister played with both defenders' hands face up (scores the same)

    def __init__(self, type: DealType, declarer: int | None = None, contract: Contract | None = None,
                 whist: Mapping[int, object] | None = None, tricks: Mapping[int, object] | None = None,
                 open: bool = False):
        # The generated __init__ of a frozen dataclass, without its object.__setattr__ for each field: a file is
        # read into thousands of deals, and that was a third of reading it.
        self.__dict__.update(type=type, declarer=declarer, contract=contract, whist=whist, tricks=tricks, open=open)

    @property
    def whisters(self) -> tuple[int, ...]:
        """The seats that said whist, in the order of `whist`; empty when nobody did."""
        return tuple([seat for seat, word in (self.whist or {}).items() if word == WHIST])

    def played(self, rules: Rules) -> bool:
        """Were cards played? A game is played when someone whists, or when the ten is checked."""
        if self.type is not GAME:
            return True
        return rules.checked_ten(self.contract) or WHIST in (self.whist or {}).values()


def seats_in_play(n: int, dealer: int) -> tuple[int, ...]:
    """The three active seats from first hand clockwise; at 4 the dealer sits out."""
    return _SEATS_IN_PLAY[n][dealer]


_SEATS_IN_PLAY = {n: [tuple((dealer + i) % n for i in range(1, 4)) for dealer in range(n)] for n in (3, 4)}


def defenders(active: tuple[int, ...], declarer: int) -> tuple[int, int]:
    """First defender (declarer's left, speaks first) and second defender."""
    at = active.index(declarer)
    return active[(at + 1) % 3], active[(at + 2) % 3]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where in a deal of `n` players dealt by `dealer`: what validation and scoring look up for every
    deal, worked out once for each of the few seatings there are (`seating`)."""

    n: int
    dealer: int
    active: tuple[int, ...]  # from first hand clockwise
    playing: frozenset[int]  # the same seats, to compare with a deal's
    sitting_out: int | None  # the dealer, with 4 players
    defenders: Mapping[int, tuple[int, int]]  # an active seat's defenders, were he to declare


def seating(n: int, dealer: int) -> Seating:
    """The seating of a deal dealt by `dealer` (KeyError unless 3 or 4 players and a seat)."""
    return _SEATINGS[n][dealer]


def _seating(n: int, dealer: int) -> Seating:
    active = seats_in_play(n, dealer)
    return Seating(n, dealer, active, frozenset(active), dealer if n == 4 else None,
                   {seat: defenders(active, seat) for seat in active})


_SEATINGS = {n: [_seating(n, dealer) for dealer in range(n)] for n in (3, 4)}
