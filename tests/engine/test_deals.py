"""engine/deals.py: a deal as entered, and who sits where in it (docs/rules.md §1.1, §1.5)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import Contract, Deal, DealType, Rules, Strain, defenders, seats_in_play

SEVEN = Contract(7, Strain.HEARTS)
TEN = Contract(10, Strain.SPADES)


def game(whist: dict[int, str] | None, contract: Contract = SEVEN) -> Deal:
    return Deal(DealType.GAME, 0, contract, whist)


@pytest.mark.parametrize("whist,whisters", [
    ({1: "whist", 2: "whist"}, (1, 2)),
    ({2: "whist", 1: "whist"}, (2, 1)),  # in the order the words were entered
    ({1: "pass", 2: "whist"}, (2,)),
    ({1: "pass", 2: "half"}, ()),
    ({1: "pass", 2: "pass"}, ()),
    (None, ()),  # a checked ten
])
def test_whisters_are_the_seats_that_said_whist(whist, whisters):
    assert game(whist).whisters == whisters


def test_misere_and_raspasy_have_no_whisters():
    assert Deal(DealType.MISERE, 0, tricks={0: 0}).whisters == ()
    assert Deal(DealType.RASPASY, tricks={0: 2, 1: 3, 2: 5}).whisters == ()


@pytest.mark.parametrize("deal,played", [
    (game({1: "pass", 2: "pass"}), False),  # W4: both pass, no play
    (game({1: "pass", 2: "half"}), False),  # §1.6: a half-whist accepted, no play
    (game({1: "whist", 2: "pass"}), True),
    (game({1: "whist", 2: "whist"}), True),
    (game(None, TEN), True),  # §1.9: a checked ten is played out
    (Deal(DealType.MISERE, 0, tricks={0: 0}), True),
    (Deal(DealType.RASPASY, tricks={0: 2, 1: 3, 2: 5}), True),
])
def test_played(deal, played):
    assert deal.played(Rules.of("sochi")) is played


def test_a_whisted_ten_is_played_only_when_someone_whists():
    rules = Rules.of("sochi", ten_checked=False)
    assert game({1: "pass", 2: "pass"}, TEN).played(rules) is False
    assert game({1: "whist", 2: "pass"}, TEN).played(rules) is True


@pytest.mark.parametrize("n,dealer,active", [
    (3, 0, (1, 2, 0)),  # §1.1: first hand is the dealer's left; with 3 the dealer plays, third hand
    (3, 2, (0, 1, 2)),
    (4, 0, (1, 2, 3)),  # with 4 the dealer sits out
    (4, 3, (0, 1, 2)),
    (4, 1, (2, 3, 0)),
])
def test_seats_in_play(n, dealer, active):
    assert seats_in_play(n, dealer) == active


@pytest.mark.parametrize("active,declarer,pair", [
    ((1, 2, 0), 0, (1, 2)),  # W1: the first defender is the declarer's left
    ((1, 2, 0), 2, (0, 1)),
    ((2, 3, 0), 0, (2, 3)),  # 4 players, seat 1 deals: the declarer's left skips him
    ((2, 3, 0), 3, (0, 2)),
])
def test_defenders(active, declarer, pair):
    assert defenders(active, declarer) == pair
