"""engine/validation.py: every problem of a deal at a given sheet (docs/rules.md §12, docs/files.md §1 and §3)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import Code, Contract, Deal, DealType, Rules, Sheet
from scorekeeper.engine.validation import check

A, B, C, D = range(4)
NAMES = ("A", "B", "C", "D")
SOCHI = Rules.of("sochi")
THREE = Sheet.empty(3)  # A deals: B is first hand; A declares -> B first defender, C second
FOUR = Sheet.empty(4)  # A deals and sits out; B, C, D play


def game(declarer=B, contract="7H", whist=None, tricks=None) -> Deal:
    return Deal(DealType.GAME, declarer, Contract.parse(contract), whist, tricks)


def codes(deal: Deal, sheet: Sheet = THREE, rules: Rules = SOCHI) -> list[Code]:
    return [problem.code for problem in check(deal, sheet, rules)]


VALID = [
    game(B, "7H", {C: "whist", A: "pass"}, {B: 7, C: 2, A: 1}),
    game(B, "6S", {C: "pass", A: "pass"}),
    game(B, "7D", {C: "pass", A: "half"}),  # §1.6: the second defender, after a pass, on a 7
    game(B, "10NT", None, {B: 9, C: 1, A: 0}),  # §1.9: a checked ten has no words
    Deal(DealType.MISERE, A, tricks={A: 0}),  # docs/files.md §1: the declarer's count is enough
    Deal(DealType.MISERE, A, tricks={A: 1, B: 4, C: 5}),
    Deal(DealType.RASPASY, tricks={A: 0, B: 4, C: 6}),
]


@pytest.mark.parametrize("deal", VALID)
def test_a_valid_deal_has_no_problem(deal):
    assert check(deal, THREE, SOCHI) == []


@pytest.mark.parametrize("deal,code", [
    (game(7, "6S", {C: "pass", A: "pass"}), Code.UNKNOWN_PLAYER),
    (game(None, "6S", {C: "pass", A: "pass"}), Code.UNKNOWN_PLAYER),
    (game(B, "5S"), Code.BAD_CONTRACT),
    (game(B, "7H", None, {B: 7, C: 2, A: 1}), Code.BAD_WHIST),  # W1: both defenders speak
    (game(B, "7H", {C: "whist"}, {B: 7, C: 2, A: 1}), Code.BAD_WHIST),
    (game(B, "7H", {C: "vist", A: "pass"}, {B: 7, C: 2, A: 1}), Code.BAD_WHIST),
    (game(B, "7H", {C: "pass", A: "pass", B: "pass"}), Code.BAD_WHIST),  # the declarer does not whist
    (game(B, "10NT", {C: "whist", A: "pass"}, {B: 9, C: 1, A: 0}), Code.BAD_WHIST),  # §1.9 checked
    (game(B, "8H", {C: "pass", A: "half"}), Code.HALF_WHIST_NOT_ALLOWED),  # §1.6 only on 6 and 7
    (game(B, "7H", {C: "half", A: "pass"}), Code.HALF_WHIST_NOT_ALLOWED),  # only the second defender
    (game(B, "7H", {C: "whist", A: "half"}, {B: 7, C: 2, A: 1}), Code.HALF_WHIST_NOT_ALLOWED),  # only beside a pass
    (game(B, "7H", {C: "whist", A: "pass"}), Code.TRICKS_MISSING),
    (game(B, "7H", {C: "whist", A: "pass"}, {B: 7, C: 3}), Code.TRICKS_MISSING),
    (game(B, "7H", {C: "pass", A: "pass"}, {B: 7, C: 2, A: 1}), Code.TRICKS_UNEXPECTED),  # W4: no play
    (game(B, "7H", {C: "whist", A: "pass"}, {B: 7, C: 2, A: -1}), Code.BAD_TRICKS),
    (game(B, "7H", {C: "whist", A: "pass"}, {B: 7, C: 2, A: True}), Code.BAD_TRICKS),
    (game(B, "7H", {C: "whist", A: "pass"}, {B: 7, C: 2, A: 2}), Code.TRICKS_SUM),  # §12.4: 10 tricks
    (Deal(DealType.MISERE, A, tricks={B: 5, C: 5}), Code.TRICKS_MISSING),
    (Deal(DealType.MISERE, A, tricks={A: 11}), Code.BAD_TRICKS),  # §12.5: 0..10
    (Deal(DealType.MISERE, A, tricks={A: 0, B: 5, C: 6}), Code.TRICKS_SUM),
    (Deal(DealType.RASPASY), Code.TRICKS_MISSING),
    (Deal(DealType.RASPASY, tricks={A: 3, B: 3, C: 3}), Code.TRICKS_SUM),
])
def test_one_problem(deal, code):
    assert codes(deal) == [code]


def test_stalingrad():
    # §1.8: under stalingrad 6♠ must be whisted by both defenders
    rules = Rules.of("sochi", stalingrad=True)
    assert codes(game(B, "6S", {C: "whist", A: "pass"}, {B: 6, C: 2, A: 2}), rules=rules) == [Code.STALINGRAD]
    assert codes(game(B, "6S", {C: "whist", A: "whist"}, {B: 6, C: 2, A: 2}), rules=rules) == []
    assert codes(game(B, "6C", {C: "pass", A: "pass"}), rules=rules) == []


def test_every_problem_of_the_deal_is_listed_on_its_fields():
    problems = check(game(B, "7H", {C: "vist"}, {B: 7, C: 4, A: "x"}), THREE, SOCHI)
    assert [(p.code, p.field) for p in problems] == [(Code.BAD_WHIST, "whist"), (Code.BAD_WHIST, "whist")]
    assert [p.text(NAMES) for p in problems] == ["deal 1: C's word must be whist, pass or half, not 'vist'",
                                                 "deal 1: A defends: say whether he whists or passes"]


def test_problems_carry_the_number_of_the_deal_being_written():
    sheet = Sheet(3, deals=6, pulya=(0,) * 3, gora=(0,) * 3, whists=((0,) * 3,) * 3)
    problem, = check(Deal(DealType.RASPASY, tricks={A: 3, B: 3, C: 3}), sheet, SOCHI)
    assert problem.deal == 7 and problem.text(NAMES) == "deal 7: tricks add up to 9, a deal has 10"


# ---- four players: the dealer sits out, and his talon on raspasy (§1.1, §7.1, §12.4)


@pytest.mark.parametrize("deal", [
    game(A, "6S", {B: "pass", C: "pass"}),
    game(C, "6S", {D: "pass", A: "pass", B: "pass"}),
    game(C, "6S", {D: "whist", B: "pass"}, {C: 6, D: 2, B: 1, A: 1}),
    Deal(DealType.MISERE, A, tricks={A: 0}),
])
def test_the_dealer_who_sits_out_plays_no_part(deal):
    assert Code.INACTIVE_PLAYER in codes(deal, FOUR)


@pytest.mark.parametrize("tricks,expected", [
    ({B: 3, C: 3, D: 4}, []),  # the talon's tricks default to 0
    ({B: 3, C: 3, D: 2, A: 2}, []),
    ({B: 3, C: 2, D: 2, A: 3}, [Code.BAD_TRICKS]),  # the talon wins at most 2
    ({B: 3, C: 3, D: 3, A: 2}, [Code.TRICKS_SUM]),
    ({B: 3, C: 3, D: 2}, [Code.TRICKS_SUM]),
])
def test_talon_tricks_on_raspasy(tricks, expected):
    assert codes(Deal(DealType.RASPASY, tricks=tricks), FOUR) == expected


def test_talon_tricks_where_the_talon_stays_closed():
    # §14 raspasy_dealer pulya_one (Rostov): the dealer takes no tricks; a 0 may still be given
    deal = Deal(DealType.RASPASY, tricks={B: 3, C: 3, D: 3, A: 1})
    assert codes(deal, FOUR, Rules.of("rostov")) == [Code.BAD_TRICKS]
    assert codes(Deal(DealType.RASPASY, tricks={B: 3, C: 3, D: 4, A: 0}), FOUR, Rules.of("rostov")) == []


def test_a_count_of_the_dealer_who_sits_out_is_reported_not_added():
    deal = Deal(DealType.MISERE, B, tricks={B: 0, A: "x", C: 10})
    assert codes(deal, FOUR) == [Code.INACTIVE_PLAYER]


# ---- the raspasy exit and the end of the pulka (§7.4, §8.1)


@pytest.mark.parametrize("streak,level,ok", [
    (0, 6, True), (1, 6, True), (2, 6, False), (2, 7, True), (5, 6, False), (5, 7, True),
])
def test_raspasy_exit_6_7_7(streak, level, ok):
    # Leningrad: after 1, 2, 3+ raspasy in a row the lowest contract is 6, 7, 7; misère always may
    sheet = Sheet(3, deals=streak, pulya=(0,) * 3, gora=(0,) * 3, whists=((0,) * 3,) * 3, streak=streak)
    deal = game(sheet.active[0], f"{level}NT", dict.fromkeys(sheet.active[1:], "pass"))
    assert codes(deal, sheet, Rules.of("leningrad")) == ([] if ok else [Code.RASPASY_EXIT])
    assert codes(Deal(DealType.MISERE, sheet.active[0], tricks={sheet.active[0]: 0}), sheet,
                 Rules.of("leningrad")) == []


def test_no_deal_after_the_end():
    sheet = Sheet(3, deals=9, pulya=(10,) * 3, gora=(0,) * 3, whists=((0,) * 3,) * 3, finished=True)
    assert codes(Deal(DealType.RASPASY, tricks={A: 3, B: 3, C: 4}), sheet) == [Code.PULKA_FINISHED]
