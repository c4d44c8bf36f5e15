"""engine/pulka.py: replaying a pulka's deals, in order, into its sheet."""

from __future__ import annotations

import gc

import pytest

from scorekeeper.engine import Code, Contract, Deal, DealType, PulkaError, Rules, Strain, replay

SOCHI = Rules.of("sochi", pulya_size=50)
RASPASY = Deal(DealType.RASPASY, tricks={0: 2, 1: 3, 2: 5})


def passed(declarer: int, first: int, second: int, level: int = 6) -> Deal:
    return Deal(DealType.GAME, declarer, Contract(level, Strain.CLUBS), {first: "pass", second: "pass"})


def test_sheet_before_and_result():
    pulka = replay(SOCHI, 3, [RASPASY, passed(2, 0, 1), RASPASY])
    assert pulka.sheet_before(1) is pulka.start and pulka.start.deals == 0
    assert pulka.sheet_before(2) is pulka.result(1).sheet
    assert pulka.sheet_before(3).pulya == (0, 0, 2)  # §10: both pass, 6 -> pulya +2 for seat 2
    assert pulka.sheet_before(4) is pulka.sheet  # the sheet the next deal is written on
    assert [pulka.result(number).number for number in (1, 2, 3)] == [1, 2, 3]
    assert pulka.result(2).deal == passed(2, 0, 1)


@pytest.mark.parametrize("number", [0, -1, 4, 10])
def test_result_outside_the_deals_is_a_lookup_error(number):
    pulka = replay(SOCHI, 3, [RASPASY, RASPASY, RASPASY])
    with pytest.raises(LookupError) as caught:
        pulka.result(number)
    assert type(caught.value) is LookupError
    if number != 4:
        with pytest.raises(LookupError):
            pulka.sheet_before(number)


def test_raspasy_streak_and_its_place():
    # §7.4: a made game ends the streak, a failed one leaves it; k is the raspasy's place in it
    failed = Deal(DealType.GAME, 1, Contract(6, Strain.SPADES), {2: "whist", 0: "whist"}, {1: 5, 2: 3, 0: 2})
    pulka = replay(SOCHI, 3, [RASPASY, RASPASY, failed, RASPASY, passed(2, 0, 1), RASPASY])
    assert [r.k for r in pulka.results] == [1, 2, 0, 3, 0, 1]
    assert [r.sheet.streak for r in pulka.results] == [1, 2, 2, 3, 0, 1]
    assert [r.dealer for r in pulka.results] == [0, 1, 2, 0, 1, 2]


def test_the_first_deal_with_a_problem_stops_the_replay_with_all_its_problems():
    bad = Deal(DealType.RASPASY, tricks={0: 3, 1: 3, 2: "x"})
    with pytest.raises(PulkaError) as caught:
        replay(SOCHI, 3, [RASPASY, bad, Deal(DealType.RASPASY)])
    assert caught.value.deal == 2
    assert [p.code for p in caught.value.problems] == [Code.BAD_TRICKS]


@pytest.mark.parametrize("n,first_dealer", [(2, 0), (5, 0), (3, 3), (4, -1)])
def test_a_pulka_has_3_or_4_players(n, first_dealer):
    with pytest.raises(PulkaError) as caught:
        replay(SOCHI, n, [], first_dealer)
    assert caught.value.problems[0].code is Code.BAD_PLAYERS


def test_replay_leaves_the_garbage_collector_alone(monkeypatch):
    def touched() -> None:
        raise AssertionError("replay touched the garbage collector")

    for name in ("disable", "enable", "isenabled", "freeze", "collect"):
        monkeypatch.setattr(gc, name, touched)
    assert replay(SOCHI, 3, [RASPASY] * 20).sheet.deals == 20


@pytest.mark.parametrize("exit_on,refused", [("made", True), ("any", False)])
def test_a_failed_game_leaves_the_exit_minimum_in_force(exit_on, refused):
    # §7.4: only a made game ends the streak (raspasy_exit_on made), so a 6 may not follow a failed 7 when
    # the exit after one raspasy is 7; under `any` the failed 7 ended it
    rules = Rules.of("sochi", pulya_size=50, raspasy_exit=[7, 7, 8], raspasy_exit_on=exit_on)
    failed7 = Deal(DealType.GAME, 1, Contract(7, Strain.SPADES), {2: "whist", 0: "whist"}, {1: 5, 2: 3, 0: 2})
    deals = [RASPASY, failed7, passed(2, 0, 1)]
    if refused:
        with pytest.raises(PulkaError) as caught:
            replay(rules, 3, deals)
        assert (caught.value.deal, caught.value.problems[0].code) == (3, Code.RASPASY_EXIT)
    else:
        assert replay(rules, 3, deals).sheet.streak == 0
