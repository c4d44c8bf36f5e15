"""Lots drawn from an event's seed: the same seed and the same labels draw the same lots, on any machine and any
Python.

A `Lots` is a small generator of its own (SplitMix64, Steele, Lea and Flood 2014), not the `random` module: an
event's draws are redrawn from its seed long after they were made, so the numbers must not change with the
interpreter, and nothing here touches any shared state. Each use draws from its own stream, named by labels
(`Lots.of(seed, "byes", 3)`): the byes of round 3 do not move when the draw of round 2 draws more numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
# FNV-1a over the labels' UTF-8 bytes: a label's text becomes the stream's starting state.
_FNV_OFFSET, _FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3

T = TypeVar("T")


def _fnv(text: str) -> int:
    h = _FNV_OFFSET
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * _FNV_PRIME) & _MASK
    return h


class Lots:
    """A stream of lots: whole numbers, choices and orders, each drawn from the state the labels started."""

    __slots__ = ("_state",)

    def __init__(self, state: int) -> None:
        self._state = state & _MASK

    @classmethod
    def of(cls, seed: int, *labels: int | str) -> Lots:
        """The stream of `seed` named by `labels` (a purpose and the numbers that tell its uses apart). A label's
        type is part of its name: round 3 is not the label "3"."""
        return cls(_fnv("\x1f".join(f"{type(part).__name__}:{part}" for part in (seed, *labels))))

    def next(self) -> int:
        """The next number of 64 bits."""
        self._state = (self._state + _GOLDEN) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1, each as likely (numbers past the last whole multiple of n are drawn
        again, so that none is favoured)."""
        if not 0 < n <= _MASK:
            raise ValueError(f"lots are drawn below 1 to 2**64 - 1, not {n}")
        limit = (_MASK + 1) - (_MASK + 1) % n
        while True:
            value = self.next()
            if value < limit:
                return value % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """The items in an order drawn by lot (Fisher and Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
