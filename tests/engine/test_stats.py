"""engine/stats.py: players across pulkas (CLUB.md §1-§2): deals by role on pulkas worked by hand, and their
identities over generated pulkas."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Column, Contract, Deal, DealType, Roles, Rules, Strain, paper_sheet, replay, roles
from scorekeeper.engine.contracts import LEVELS
from scorekeeper.engine.deals import defenders, seats_in_play
from scorekeeper.engine.stats import Declarer, Defender, Misere, Raspasy
from scorekeeper.pulyafile import loads

from .generate import generate

SOCHI = Rules.of("sochi", pulya_size=100)
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def game(declarer: int, level: int, whist: dict[int, str] | None, tricks: dict[int, int] | None = None,
         strain: Strain = Strain.SPADES) -> Deal:
    return Deal(DealType.GAME, declarer, Contract(level, strain), whist, tricks)


def misere(declarer: int, tricks: dict[int, int]) -> Deal:
    return Deal(DealType.MISERE, declarer, tricks=tricks)


def raspasy(tricks: dict[int, int]) -> Deal:
    return Deal(DealType.RASPASY, tricks=tricks)


def declared(*games: tuple[int, int, int, int]) -> tuple[Declarer, ...]:
    """Declarer counts by level from (level, declared, played, made); the other levels none."""
    given = {level: Declarer(level, *counts) for level, *counts in games}
    return tuple(given.get(level, Declarer(level)) for level in LEVELS)


# Three players, dealer 0 first: deal k is dealt by (k − 1) % 3, first hand after him.
EVENING = [
    game(1, 6, {2: "pass", 0: "pass"}),  # both pass: made, not played
    game(2, 7, {0: "whist", 1: "pass"}, {2: 5, 0: 3, 1: 2}),  # remiz by 2, one whister: the defence took 5 ≥ 2
    game(0, 6, {1: "whist", 2: "pass"}, {0: 7, 1: 2, 2: 1}),  # made; the lone whister's defence took 3 of 4: short
    game(1, 7, {2: "pass", 0: "half"}),  # an accepted half-whist: made, not played
    misere(2, {2: 0}),  # made
    misere(0, {0: 2, 1: 4, 2: 4}),  # failed
    raspasy({1: 0, 2: 6, 0: 4}),  # 1 takes none
    game(2, 10, None, {2: 9, 0: 1, 1: 0}, Strain.NO_TRUMP),  # the checked ten, one down: nobody's word
    game(0, 8, {1: "whist", 2: "whist"}, {0: 10, 1: 0, 2: 0}),  # the defence took none: the second whister, 2, answers
]


def test_an_evening_by_hand():
    seats = roles(replay(SOCHI, 3, EVENING))
    assert seats[0] == Roles(9, declared((6, 1, 1, 1), (8, 1, 1, 1)), Misere(1, 0), Defender(1, 1, 1, 0),
                             Raspasy(1, 4, 0))
    assert seats[1] == Roles(9, declared((6, 1, 0, 1), (7, 1, 0, 1)), Misere(), Defender(2, 1, 0, 1),
                             Raspasy(1, 0, 1))
    assert seats[2] == Roles(9, declared((7, 1, 1, 0), (10, 1, 1, 0)), Misere(1, 1), Defender(1, 3, 0, 1),
                             Raspasy(1, 6, 0))
    assert [seats[2].at(level).remiz for level in LEVELS] == [0, 1, 0, 0, 1]


def test_a_six_made_with_one_whister_who_took_his_four():
    # 7 + 3: the lone whister's defence took 3 of its 4 (short); 6 + 4: not short, and the passer never is
    short = roles(replay(SOCHI, 3, [game(1, 6, {2: "whist", 0: "pass"}, {1: 7, 2: 2, 0: 1})]))
    assert (short[2].defender, short[0].defender) == (Defender(whist=1, short=1), Defender(pass_=1))
    full = roles(replay(SOCHI, 3, [game(1, 6, {2: "whist", 0: "pass"}, {1: 6, 2: 2, 0: 2})]))
    assert full[2].defender == Defender(whist=1)
    assert full[1].at(6) == Declarer(6, 1, 1, 1)


def test_a_whister_is_short_only_where_the_deal_wrote_gora_on_him():
    # §5.3 both whisters on an 8 take none: under q1_responsible both, each answers; at shortfall_factor 0 neither
    deal = game(0, 8, {1: "whist", 2: "whist"}, {0: 10, 1: 0, 2: 0})
    both = roles(replay(Rules.of("sochi", q1_responsible="both"), 3, [deal], first_dealer=2))
    assert [r.defender.short for r in both] == [0, 1, 1]
    none = roles(replay(Rules.of("sochi", shortfall_factor=0), 3, [deal], first_dealer=2))
    assert [r.defender for r in none] == [Defender(), Defender(whist=1), Defender(whist=1)]


def test_a_whisted_ten_has_words_and_a_checked_one_none():
    ten = game(0, 10, {1: "whist", 2: "pass"}, {0: 10, 1: 0, 2: 0})
    whisted = roles(replay(Rules.of("sochi", ten_checked=False), 3, [ten], first_dealer=2))
    assert whisted[0].at(10) == Declarer(10, 1, 1, 1)
    assert (whisted[1].defender, whisted[2].defender) == (Defender(whist=1, short=1), Defender(pass_=1))
    checked = roles(replay(SOCHI, 3, [game(0, 10, None, {0: 10, 1: 0, 2: 0})], first_dealer=2))
    assert checked[0].at(10) == Declarer(10, 1, 1, 1)  # a checked ten is always played
    assert [r.defender for r in checked] == [Defender()] * 3


def test_four_players_the_dealer_sitting_out_is_not_active():
    # Deal 1: dealer 0 sits out, his talon took 2 (Sochi): they are nobody's raspasy tricks. Deal 2: dealer 1 out.
    deals = [raspasy({1: 3, 2: 0, 3: 5, 0: 2}), game(3, 6, {0: "pass", 2: "pass"})]
    seats = roles(replay(SOCHI, 4, deals))
    assert [r.deals for r in seats] == [1, 1, 2, 2]
    assert [r.raspasy for r in seats] == [Raspasy(), Raspasy(1, 3, 0), Raspasy(1, 0, 1), Raspasy(1, 5, 0)]
    assert seats[3].at(6) == Declarer(6, 1, 0, 1)
    assert seats[1].defender == Defender() and seats[0].defender == seats[2].defender == Defender(pass_=1)


def test_a_pulka_begun_on_paper_counts_only_its_own_deals():
    opening = paper_sheet(3, (4, 2, 0), (10, 0, 6), {(0, 1): 30}, SOCHI)
    seats = roles(replay(SOCHI, 3, EVENING[:2], start=opening))
    assert [r.deals for r in seats] == [2, 2, 2]
    assert roles(replay(SOCHI, 3, [], start=opening)) == (Roles(),) * 3


def test_roles_add_and_none_is_zero():
    a, b = roles(replay(SOCHI, 3, EVENING[:4])), roles(replay(SOCHI, 3, EVENING[4:], first_dealer=1))
    whole = roles(replay(SOCHI, 3, EVENING))
    assert tuple(x + y for x, y in zip(a, b)) == whole
    assert whole[0] + Roles() == Roles() + whole[0] == whole[0]
    assert sum(whole, Roles()).deals == 27


def test_roles_stored_and_read_back():
    for seat in roles(replay(SOCHI, 3, EVENING)):
        stored = seat.stored()
        assert Roles.read(json.loads(json.dumps(stored))) == seat
    assert Roles.read(Roles().stored()) == Roles()
    assert Roles().stored() == {
        "deals": 0,
        "declarer": {**{str(level): {"declared": 0, "played": 0, "made": 0} for level in LEVELS},
                     "misere": {"declared": 0, "made": 0}},
        "defender": {"whist": 0, "pass": 0, "half": 0, "short": 0},
        "raspasy": {"deals": 0, "tricks": 0, "zero": 0},
    }


def _changed(data: dict, path: tuple[str, ...], value: object) -> dict:
    out = json.loads(json.dumps(data))
    at = out
    for key in path[:-1]:
        at = at[key]
    if value is KeyError:
        del at[path[-1]]
    else:
        at[path[-1]] = value
    return out


@pytest.mark.parametrize("path,value", [
    (("deals",), -1), (("deals",), True), (("deals",), 1.0), (("deals",), "3"), (("deals",), KeyError),
    (("extra",), 1), (("declarer", "11"), {"declared": 0, "played": 0, "made": 0}), (("declarer", "6"), [0, 0, 0]),
    (("declarer", "6", "remiz"), 0), (("defender", "pass"), None), (("raspasy", "zero"), KeyError),
    # counts no deals give
    (("declarer", "7", "made"), 5), (("declarer", "7", "played"), 5), (("declarer", "7", "made"), 0),
    (("declarer", "misere", "made"), 3), (("defender", "short"), 3), (("raspasy", "tricks"), 41),
    (("raspasy", "zero"), 5),
])
def test_reading_anything_else_is_a_value_error(path, value):
    stored = Roles(20, declared((7, 4, 3, 2)), Misere(2, 1), Defender(2, 1, 1, 1), Raspasy(5, 30, 1)).stored()
    assert Roles.read(stored).stored() == stored
    with pytest.raises(ValueError):
        Roles.read(_changed(stored, path, value))
    with pytest.raises(ValueError):
        Roles.read([stored])
    with pytest.raises(ValueError):
        Roles.read(_changed(stored, ("deals",), 14))  # 4 + 2 + 4 + 5 roles in 14 deals


# -- generated pulkas -------------------------------------------------------------------------------------

def _pulka(rng: random.Random):
    data = generate(rng, max_deals=rng.choice([0, 5, 20, 60]))
    return loads(json.dumps(data))


pulkas_ = st.integers(0, 2**32 - 1).map(lambda seed: _pulka(random.Random(seed)))


@SETTINGS
@given(pulkas_)
def test_the_roles_of_a_pulka_add_up_to_its_deals(pulka):
    result = pulka.replay()
    seats = roles(result)
    rules, n = pulka.rules, len(pulka.players)
    total = sum(seats, Roles())
    kinds = [r.deal.type for r in result.results]
    games = [r for r in result.results if r.deal.type is DealType.GAME]
    assert total.deals == 3 * len(result.results)
    for seat in range(n):  # active in every deal but those he dealt, with four
        assert seats[seat].deals == sum(n == 3 or r.dealer != seat for r in result.results)
        assert seats[seat].possible
    for level in LEVELS:
        at = [r for r in games if r.deal.contract.level == level]
        assert total.at(level).declared == len(at)
        assert total.at(level).played == sum(r.deal.played(rules) for r in at)
        # a remiz is a game that wrote gora on its declarer; a made game never does (a write-off takes it away)
        before = [result.sheet_before(r.number).gora[r.deal.declarer] for r in at]
        assert total.at(level).remiz == sum(r.sheet.gora[r.deal.declarer] > was for r, was in zip(at, before))
    misere = [r for r in result.results if r.deal.type is DealType.MISERE]
    assert total.misere.declared == len(misere)
    # a failed misère writes gora on its declarer; a made one never does (a write-off takes it away)
    assert total.misere.made == sum(r.sheet.gora[r.deal.declarer] <= result.sheet_before(r.number).gora[r.deal.declarer]
                                    for r in misere)
    defended = [r for r in games if not rules.checked_ten(r.deal.contract)]
    d = total.defender
    assert d.whist + d.pass_ + d.half == 2 * len(defended)
    assert d.half == sum("half" in r.deal.whist.values() for r in defended)
    # short: read from the deal's own lines, a whister's gora
    assert d.short == len({(r.number, e.player) for r in defended for e in r.entries if e.column is Column.GORA
                           and e.player != r.deal.declarer and r.deal.whist[e.player] == "whist"})
    rasp = [r for r in result.results if r.deal.type is DealType.RASPASY]
    assert total.raspasy.deals == 3 * kinds.count(DealType.RASPASY)
    assert total.raspasy.tricks == sum(r.deal.tricks.get(s, 0) for r in rasp for s in seats_in_play(n, r.dealer))
    assert total.raspasy.zero == sum(not r.deal.tricks.get(s, 0) for r in rasp for s in seats_in_play(n, r.dealer))
    for r in games:  # the declarer's two defenders are those with a word
        if r.deal.whist is not None:
            assert set(r.deal.whist) == set(defenders(seats_in_play(n, r.dealer), r.deal.declarer))
    for seat in seats:
        assert Roles.read(json.loads(json.dumps(seat.stored()))) == seat
