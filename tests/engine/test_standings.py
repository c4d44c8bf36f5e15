"""engine/tournament/points.py and standings.py: a table's result as round points under each scheme, byes, and
the standings of docs/tournament.md §4. Values worked by hand from the contract; properties over generated rounds
(the order tables finish in changes nothing, a table's places add up to the points list)."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournament import (
    Band, EventStanding, RoundResult, Scheme, Scoring, Tiebreak, banded, bye_points, event_standings, lots_order,
    round_points, rounded, table_points,
)

F = Fraction
WHISTS = Scoring(Scheme.WHISTS)
BANDS = Scoring(Scheme.BANDS, bands=(Band(F(200), F(1)), Band(F(650), F(1, 10)), Band(None, F(0))))
PLACES = Scoring(Scheme.PLACES, three=(F(2), F(1), F(0)), four=(F(3), F(2), F(1), F(0)))
ALL = (Tiebreak.WHISTS, Tiebreak.BEST_ROUND, Tiebreak.LOTS)


# -- a table's points ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("balance", "points"), [
    (300, 210),  # 200 × 1 + 100 × 0.1
    (1000, 245),  # 200 + 450 × 0.1 + 350 × 0
    (-120, -120),  # inside the first band, with its sign
    (200, 200), (650, 245), (0, 0), (-300, -210),
    (F(401, 2), F(4001, 20)),  # 200.5: 200 + 0.5 × 0.1
])
def test_bands_as_the_contract_works_them(balance, points):
    assert banded(BANDS, F(balance)) == points


def test_whists_are_the_balance_itself():
    assert table_points(WHISTS, {"A": F(50), "B": F(-20), "C": F(-30)}) == {"A": 50, "B": -20, "C": -30}


def test_places_share_tied_places_equally():
    # two tied for 2nd at a four with 3-2-1-0: (2 + 1) / 2 = 1.5 each
    assert table_points(PLACES, {"A": F(40), "B": F(0), "C": F(0), "D": F(-40)}) == \
        {"A": 3, "B": F(3, 2), "C": F(3, 2), "D": 0}
    # three tied for first at a four: (3 + 2 + 1) / 3
    assert table_points(PLACES, {"A": F(10), "B": F(10), "C": F(10), "D": F(-30)}) == \
        {"A": 2, "B": 2, "C": 2, "D": 0}
    # a table of three reads the "3" points
    assert table_points(PLACES, {"A": F(-5), "B": F(10), "C": F(-5)}) == {"A": F(1, 2), "B": 2, "C": F(1, 2)}


def test_the_bonus_goes_to_each_balance_of_0_or_more():
    bonus = Scoring(Scheme.PLACES, three=PLACES.three, four=PLACES.four, bonus_positive=F(1, 2))
    assert table_points(bonus, {"A": F(40), "B": F(0), "C": F(-1), "D": F(-39)}) == \
        {"A": F(7, 2), "B": F(5, 2), "C": 1, "D": 0}


def test_a_bye_scores_0_or_the_mean_of_the_places():
    assert bye_points(WHISTS, 4) == bye_points(BANDS, 3) == 0
    assert bye_points(PLACES, 4) == F(3, 2)  # (3 + 2 + 1 + 0) / 4
    assert bye_points(PLACES, 3) == 1  # (2 + 1 + 0) / 3


@pytest.mark.parametrize(("value", "shown"), [
    (F(17, 8), "2.13"), (F(-17, 8), "-2.13"), (F(1, 3), "0.33"), (F(2, 3), "0.67"), (F(-1, 200), "-0.01"),
    (F(1, 200), "0.01"), (F(-1, 201), "0.00"), (F(412), "412.00"), (F(8, 1) + F(1, 2), "8.50"), (F(0), "0.00"),
])
def test_rounded_half_away_from_zero_to_2_decimals(value, shown):
    assert rounded(value) == Decimal(shown) and str(rounded(value)) == shown


# -- standings -----------------------------------------------------------------------------------------------

# Five at tables of four, places 3-2-1-0, one sitting out each round. Worked by hand:
#   round 1: A +60 B +20 C −20 D −60 (3, 2, 1, 0); E sits out: 1.5
#   round 2: E +40 A 0 B 0 C −40 (3; A and B tied 2nd: 1.5 each; 0); D sits out: 1.5
#   points A 4.5, E 4.5, B 3.5, D 1.5, C 1; whists A 60, E 40, B 20, C −60, D −60
ROUNDS = [
    RoundResult(({"A": F(60), "B": F(20), "C": F(-20), "D": F(-60)},), ("E",)),
    RoundResult(({"E": F(40), "A": F(0), "B": F(0), "C": F(-40)},), ("D",)),
]
ENTRANTS = ["A", "B", "C", "D", "E"]


def test_the_standings_worked_by_hand():
    rows = event_standings(ENTRANTS, ROUNDS, PLACES, 4, ALL, seed=1)
    assert rows == (
        EventStanding(1, "A", F(9, 2), F(60), 2, 0, F(3), (F(3), F(3, 2))),
        EventStanding(2, "E", F(9, 2), F(40), 1, 1, F(3), (F(3, 2), F(3))),  # equal points, fewer whists
        EventStanding(3, "B", F(7, 2), F(20), 2, 0, F(2), (F(2), F(3, 2))),
        EventStanding(4, "D", F(3, 2), F(-60), 1, 1, F(3, 2), (F(0), F(3, 2))),  # a bye's points are his best
        EventStanding(5, "C", F(1), F(-60), 2, 0, F(1), (F(1), F(0))),
    )


def test_only_the_rounds_given_count():
    rows = event_standings(ENTRANTS, ROUNDS[:1], PLACES, 4, ALL, seed=1)
    assert [(r.player, r.points, r.results) for r in rows] == [
        ("A", 3, (3,)), ("B", 2, (2,)), ("E", F(3, 2), (F(3, 2),)), ("C", 1, (1,)), ("D", 0, (0,))]


def test_best_round_first_makes_a_and_e_share_first():
    rows = event_standings(ENTRANTS, ROUNDS, PLACES, 4, [Tiebreak.BEST_ROUND], seed=1)
    assert [(r.rank, r.player) for r in rows] == [(1, "A"), (1, "E"), (3, "B"), (4, "D"), (5, "C")]


def test_players_equal_on_everything_share_a_rank_and_the_next_counts_them():
    # whists: two tables of three with the same balances; A and D, B and E, C and F equal on points and whists
    rounds = [RoundResult(({"A": F(30), "B": F(0), "C": F(-30)}, {"D": F(30), "E": F(0), "F": F(-30)}))]
    rows = event_standings(list("ABCDEF"), rounds, WHISTS, 3, [Tiebreak.WHISTS, Tiebreak.BEST_ROUND], seed=1)
    assert [(r.rank, r.player) for r in rows] == [(1, "A"), (1, "D"), (3, "B"), (3, "E"), (5, "C"), (5, "F")]


def test_lots_leave_no_tie_and_are_drawn_once_from_the_seed():
    rounds = [RoundResult(({"A": F(30), "B": F(0), "C": F(-30)}, {"D": F(30), "E": F(0), "F": F(-30)}))]
    rows = event_standings(list("ABCDEF"), rounds, WHISTS, 3, ALL, seed=7)
    lots = lots_order(list("ABCDEF"), 7)
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    for high, low in zip(rows[::2], rows[1::2]):  # each pair of equals in the order of their lots
        assert lots[high.player] < lots[low.player]
    # a late entrant draws his own lot: the others' order stays
    later = lots_order(list("ABCDEFG"), 7)
    assert sorted("ABCDEF", key=later.__getitem__) == sorted("ABCDEF", key=lots.__getitem__)
    assert len({tuple(sorted("ABCDEF", key=lots_order(list("ABCDEF"), seed).__getitem__)) for seed in range(20)}) > 1


def test_tiebreaks_in_the_order_given():
    # C first with 1 + 3; A 3 + 0 (whists 50 − 100, best round 3) and B 2 + 1 (whists 20 − 10, best round 2)
    rounds = [RoundResult(({"A": F(50), "B": F(20), "C": F(-30), "D": F(-40)},)),
              RoundResult(({"C": F(80), "E": F(30), "B": F(-10), "A": F(-100)},))]
    by_whists = event_standings(list("ABCDE"), rounds, PLACES, 4, [Tiebreak.WHISTS, Tiebreak.BEST_ROUND], seed=1)
    by_best = event_standings(list("ABCDE"), rounds, PLACES, 4, [Tiebreak.BEST_ROUND, Tiebreak.WHISTS], seed=1)
    assert [(r.rank, r.player, r.points) for r in by_whists][:3] == [(1, "C", 4), (2, "B", 3), (3, "A", 3)]
    assert [(r.rank, r.player, r.points) for r in by_best][:3] == [(1, "C", 4), (2, "A", 3), (3, "B", 3)]


def test_a_late_entrant_and_one_who_withdrew_have_no_result_for_those_rounds():
    rounds = [RoundResult(({"A": F(10), "B": F(0), "C": F(-10)},)),
              RoundResult(({"A": F(10), "B": F(0), "D": F(-10)},))]  # C withdrew, D entered
    rows = {r.player: r for r in event_standings(list("ABCD"), rounds, WHISTS, 3, ALL, seed=1)}
    assert rows["C"].results == (F(-10), None) and rows["C"].rounds == 1
    assert rows["D"].results == (None, F(-10)) and rows["D"].rounds == 1
    assert set(rows) == set("ABCD")


def test_an_entrant_who_never_played_has_no_row():
    rows = event_standings(list("ABCD"), ROUNDS[:0] + [RoundResult(({"A": F(1), "B": F(0), "C": F(-1)},))],
                           WHISTS, 3, ALL, seed=1)
    assert [r.player for r in rows] == ["A", "B", "C"]


def test_a_player_twice_in_a_round_is_an_error():
    with pytest.raises(ValueError):
        round_points(RoundResult(({"A": F(1), "B": F(0), "C": F(-1)},), ("A",)), WHISTS, 3)
    with pytest.raises(ValueError):
        event_standings(["A", "B"], [RoundResult(({"A": F(1), "B": F(0), "C": F(-1)},))], WHISTS, 3, ALL, 1)


# -- properties ----------------------------------------------------------------------------------------------

SCHEMES = st.sampled_from([WHISTS, BANDS, PLACES, Scoring(Scheme.PLACES, three=(F(5), F(2), F(-1)),
                                                          four=(F(4), F(4), F(1, 2), F(0)), bonus_positive=F(3, 2))])


@st.composite
def results(draw: st.DrawFn) -> tuple[list[str], list[RoundResult[str]]]:
    """Rounds of tables of 3 and 4 with balances that sum to 0 (often tied), some players sitting out."""
    n = draw(st.integers(3, 14))
    entrants = [f"P{i}" for i in range(n)]
    rounds = []
    for _ in range(draw(st.integers(1, 4))):
        order = draw(st.permutations(entrants))
        tables, start = [], 0
        while n - start >= 3:
            size = draw(st.sampled_from([3, 4])) if n - start >= 7 or n - start == 4 else 3
            size = min(size, n - start)
            members = order[start:start + size]
            cents = [draw(st.sampled_from([0, 10, -10, 25, 300, -650, 1001]) | st.integers(-2000, 2000))
                     for _ in members[1:]]
            balances = [F(c, draw(st.sampled_from([1, 2, 3]))) for c in cents]
            tables.append(dict(zip(members, [-sum(balances, F(0)), *balances])))
            start += size
        rounds.append(RoundResult(tuple(tables), tuple(order[start:])))
    return entrants, rounds


@settings(max_examples=150, deadline=None)
@given(results(), SCHEMES, st.permutations(list(Tiebreak)), st.integers(), st.randoms(use_true_random=False))
def test_the_order_tables_finish_in_changes_nothing(data, scoring, tiebreaks, seed, rng):
    entrants, rounds = data
    standings = event_standings(entrants, rounds, scoring, 4, tiebreaks, seed)
    shuffled = [RoundResult(tuple(dict(rng.sample(list(t.items()), len(t))) for t in rng.sample(list(r.tables),
                                                                                                   len(r.tables))),
                            tuple(rng.sample(list(r.byes), len(r.byes)))) for r in rounds]
    assert event_standings(entrants, shuffled, scoring, 4, tiebreaks, seed) == standings


@settings(max_examples=150, deadline=None)
@given(results(), SCHEMES, st.lists(st.sampled_from(list(Tiebreak)), unique=True), st.integers())
def test_the_rows_add_up_and_rank_by_points_then_tiebreaks(data, scoring, tiebreaks, seed):
    entrants, rounds = data
    rows = event_standings(entrants, rounds, scoring, 4, tiebreaks, seed)
    for row in rows:
        assert row.points == sum(r for r in row.results if r is not None)
        assert row.best_round == max(r for r in row.results if r is not None)
        assert row.rounds + row.byes == sum(r is not None for r in row.results)
        assert row.whists == sum((t[row.player] for r in rounds for t in r.tables if row.player in t), F(0))
    # ranks: 1 + the rows strictly ahead; points never rise down the table
    for i, row in enumerate(rows):
        assert row.rank == 1 + sum(other.rank < row.rank for other in rows)
        assert row.rank == (rows[i - 1].rank if i and _equal(rows[i - 1], row, tiebreaks) else i + 1)
        if i:
            assert rows[i - 1].points >= row.points
    if Tiebreak.LOTS in tiebreaks:
        assert [r.rank for r in rows] == list(range(1, len(rows) + 1))


def _equal(a: EventStanding[str], b: EventStanding[str], tiebreaks: list[Tiebreak]) -> bool:
    values = {Tiebreak.WHISTS: lambda r: r.whists, Tiebreak.BEST_ROUND: lambda r: r.best_round,
              Tiebreak.LOTS: lambda r: r.player}
    return a.points == b.points and all(values[t](a) == values[t](b) for t in tiebreaks)


@settings(max_examples=200, deadline=None)
@given(results(), SCHEMES)
def test_a_tables_points_add_up_to_its_points_list_and_bonuses(data, scoring):
    _, rounds = data
    for played in rounds:
        for table in played.tables:
            points = table_points(scoring, table)
            if scoring.scheme is Scheme.PLACES:
                bonuses = scoring.bonus_positive * sum(b >= 0 for b in table.values())
                assert sum(points.values()) == sum(scoring.place_points(len(table))) + bonuses
                # a higher balance never scores less
                for p in table:
                    for q in table:
                        if table[p] > table[q]:
                            assert points[p] >= points[q]
            elif scoring.scheme is Scheme.WHISTS:
                assert points == table
            else:
                assert all(abs(points[p]) <= abs(table[p]) and points[p] * table[p] >= 0 for p in table)


def test_standings_of_a_shuffled_event_by_hand():
    # The worked example again, its tables' players listed in another order.
    rng = random.Random(3)
    shuffled = [RoundResult(tuple(dict(rng.sample(list(t.items()), len(t))) for t in r.tables), r.byes)
                for r in ROUNDS]
    assert event_standings(ENTRANTS, shuffled, PLACES, 4, ALL, 1) == \
        event_standings(ENTRANTS, ROUNDS, PLACES, 4, ALL, 1)
