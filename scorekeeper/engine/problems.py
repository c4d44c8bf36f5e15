"""What is wrong with an input: stable codes, where they apply, and a message a player can read.

Messages are templates with `{seat}` placeholders ("{1} sits this deal out");
the edges fill in the names with `Problem.text(names)`. A value taken from the
input goes into a template through `literal`, so its braces stay braces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


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

    def text(self, names: Sequence[str]) -> str:
        message = self.message.format(*names)
        return f"deal {self.deal}: {message}" if self.deal is not None else message


def literal(value: object) -> str:
    """A value from the input, quoted for a message template (its braces are not placeholders)."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return text.replace("{", "{{").replace("}", "}}")


class PulkaError(ValueError):
    """A deal that cannot be written: `problems` are all of that deal's problems, the first-ranked first."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = sorted(problems, key=lambda p: p.code.rank)
        super().__init__(self.problems[0].message)

    @property
    def deal(self) -> int | None:
        return self.problems[0].deal
