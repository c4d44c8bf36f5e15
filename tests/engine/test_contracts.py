"""engine/contracts.py: the ladder, prices and obligations (docs/rules.md §1.2, §1.5 W2)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import Contract, Strain
from scorekeeper.engine.contracts import MISERE_PRICE


@pytest.mark.parametrize("strain", list(Strain))
def test_price_by_level_whatever_the_strain(strain):
    # §1.2: 6 -> 2, 7 -> 4, 8 -> 6, 9 -> 8, 10 -> 10; "the strain does not change the price"
    assert [Contract(level, strain).price for level in range(6, 11)] == [2, 4, 6, 8, 10]


def test_misere_price():
    assert MISERE_PRICE == 10  # §1.2


def test_obligation():
    # W2: the defenders undertake 4 tricks on a 6, 2 on a 7, 1 on an 8, 9 or 10
    assert [Contract(level, Strain.SPADES).obligation for level in range(6, 11)] == [4, 2, 1, 1, 1]


@pytest.mark.parametrize("text,level,strain", [
    ("6S", 6, Strain.SPADES), ("7C", 7, Strain.CLUBS), ("8D", 8, Strain.DIAMONDS), ("9H", 9, Strain.HEARTS),
    ("10NT", 10, Strain.NO_TRUMP), ("6NT", 6, Strain.NO_TRUMP),
])
def test_parse(text, level, strain):
    # docs/files.md §1: level 6-10 and a strain S, C, D, H or NT
    contract = Contract.parse(text)
    assert contract == Contract(level, strain) and str(contract) == text


@pytest.mark.parametrize("text", ["5S", "11S", "6X", "6", "S6", "", "10N", "6 S", "6s", 6, None, ["6", "S"]])
def test_parse_refuses_anything_else(text):
    assert Contract.parse(text) is None


def test_every_contract_parses_back():
    contracts = [Contract(level, strain) for level in range(6, 11) for strain in Strain]
    assert len(contracts) == 25 and all(Contract.parse(str(c)) == c for c in contracts)


def test_label_is_what_a_player_writes():
    assert [Contract.parse(t).label for t in ("7H", "6S", "8C", "9D", "10NT")] == ["7♥", "6♠", "8♣", "9♦", "10NT"]
