"""What is wrong with an input: stable codes, where they apply, and a message a player can read.

A message is a `Text`: its template is declared once by the module that finds
the problem, its values are filled in there (a value taken from the input goes
in `quoted`), and the edges write it in a language with the names,
`Problem.text(names)` in English.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .texts import Text


class Code(StrEnum):
    """Problem codes, in the order docs/files.md §3 ranks them (earlier wins), with §5's placed where it puts them."""

    BAD_JSON = "bad_json"
    BAD_FORMAT = "bad_format"
    BAD_PLAYERS = "bad_players"
    UNKNOWN_PRESET = "unknown_preset"
    UNKNOWN_PARAMETER = "unknown_parameter"
    BAD_PARAMETER = "bad_parameter"
    BAD_NUMBER = "bad_number"
    SELF_WHISTS = "self_whists"
    BAD_OPENING = "bad_opening"
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


IN_DEAL = Text("deal {deal}: {message}")


@dataclass(frozen=True)
class Problem:
    code: Code
    field: str
    message: Text  # what is wrong, without the deal: a form shows it on the field
    deal: int | None = None  # 1-based

    @property
    def full(self) -> Text:
        """The message with its deal number, as a pulka's problem is reported."""
        return self.message if self.deal is None else IN_DEAL(deal=self.deal, message=self.message)

    def text(self, names: Sequence[str]) -> str:
        return self.full.text(names)


# Seats as `{0}`, `{1}` … where no names are at hand: an exception's text.
_SEATS_UNNAMED = tuple(f"{{{seat}}}" for seat in range(4))


class PulkaError(ValueError):
    """A deal that cannot be written: `problems` are all of that deal's problems, the first-ranked first."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = sorted(problems, key=lambda p: p.code.rank)
        super().__init__(self.problems[0].message.text(_SEATS_UNNAMED))

    @property
    def deal(self) -> int | None:
        return self.problems[0].deal
