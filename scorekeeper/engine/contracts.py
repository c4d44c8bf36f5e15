"""The contract ladder: levels, strains, prices and the defenders' obligation (docs/rules.md §1.2, W2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .texts import Text


class Strain(StrEnum):
    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    NO_TRUMP = "NT"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS = {
    Strain.SPADES: "♠",
    Strain.CLUBS: "♣",
    Strain.DIAMONDS: "♦",
    Strain.HEARTS: "♥",
    Strain.NO_TRUMP: "NT",
}

# A suit is its symbol in every language; no trump is a word, spelt as the reader's language spells it.
NO_TRUMP = Text("{level}NT")

LEVELS = range(6, 11)
MISERE_PRICE = 10

# Tricks the two defenders undertake together, by level (W2); a misère has none.
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}


@dataclass(frozen=True, slots=True)
class Contract:
    level: int
    strain: Strain

    @classmethod
    def parse(cls, text: object) -> Contract | None:
        """`7H`, `10NT` … ; None for anything else (the caller reports `bad_contract`)."""
        return CONTRACTS.get(text) if isinstance(text, str) else None

    @property
    def price(self) -> int:
        return 2 * (self.level - 5)

    @property
    def obligation(self) -> int:
        return OBLIGATION[self.level]

    def __str__(self) -> str:
        return f"{self.level}{self.strain.value}"

    @property
    def label(self) -> str:
        """What a player writes: 7♥, 10NT."""
        return f"{self.level}{self.strain.symbol}"

    @property
    def label_text(self) -> Text | str:
        """The label as a value in a text: 7♥ as it is, 10NT to be translated."""
        made = _LABEL_TEXTS.get((self.level, self.strain))  # by its parts: a Contract's own hash is slow
        return made if made is not None else _label_text(self)


def _label_text(contract: Contract) -> Text | str:
    return NO_TRUMP(level=contract.level) if contract.strain is Strain.NO_TRUMP else contract.label


CONTRACTS = {str(c): c for c in (Contract(level, strain) for level in LEVELS for strain in Strain)}
# Each deal's reasons name its contract: the labels are made once.
_LABEL_TEXTS = {(contract.level, contract.strain): _label_text(contract) for contract in CONTRACTS.values()}
