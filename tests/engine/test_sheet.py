"""engine/sheet.py: the sheet at one moment, and what follows from it for the next deal."""

from __future__ import annotations

import pytest

from scorekeeper.engine import Rules, Sheet


def test_the_deal_passes_clockwise():
    # §1.1: the deal passes clockwise after every deal, whatever was played
    assert [Sheet(4, first_dealer=2, deals=d).dealer for d in range(5)] == [2, 3, 0, 1, 2]
    assert [Sheet(3, deals=d).dealer for d in range(4)] == [0, 1, 2, 0]


def test_with_four_the_dealer_sits_out():
    # §1.1: with 4 at the table the dealer sits out; with 3 nobody does
    sheet = Sheet(4, first_dealer=1, deals=2)
    assert (sheet.dealer, sheet.sitting_out, sheet.active) == (3, 3, (0, 1, 2))
    assert Sheet(3, deals=1).sitting_out is None and Sheet(3, deals=1).active == (2, 0, 1)


@pytest.mark.parametrize("streak,least", [(0, 6), (1, 6), (2, 7), (3, 7), (9, 7)])
def test_least_level_follows_the_raspasy_exit(streak, least):
    # §7.4, Leningrad 6-7-7: the lowest level after 1, 2, 3 or more raspasy in a row
    assert Sheet(3, streak=streak).least_level(Rules.of("leningrad")) == least


@pytest.mark.parametrize("n,preset,talon", [
    (4, "sochi", 1),  # §7.1: with 4 players the talon cards are the dealer's
    (4, "leningrad", 1),
    (4, "rostov", None),  # raspasy_dealer pulya_one: the talon stays closed (§7.3)
    (3, "sochi", None),  # with 3 the talon belongs to nobody
])
def test_talon_seat(n, preset, talon):
    assert Sheet(n, first_dealer=1).talon_seat(Rules.of(preset)) == talon


def test_talon_seat_follows_raspasy_dealer_not_the_preset():
    assert Sheet(4).talon_seat(Rules.of("rostov", raspasy_dealer="talon")) == 0
    assert Sheet(4).talon_seat(Rules.of("sochi", raspasy_dealer="pulya_one")) is None


def test_closed_pulyas():
    # §8.1: a pulya is closed when it holds pulya_size; under `total` it may hold more
    rules = Rules.of("sochi", pulya_size=10)
    assert Sheet(3, pulya=(10, 9, 10)).closed(rules) == (0, 2)
    assert Sheet(4, pulya=(0, 0, 0, 0)).closed(rules) == ()
    assert Sheet(3, pulya=(15, 10, 6)).closed(Rules.of("leningrad", pulya_size=10)) == (0, 1)
