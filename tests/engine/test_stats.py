"""Players across pulkas (docs/club.md §1-§2; engine roles, records, figures, career, and files/statsfile's JSON):
deals by role on pulkas worked by hand, the sums over records, and their identities over generated pulkas."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import date, timedelta
from pathlib import Path
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    Column, Contract, Deal, DealType, Filter, Record, Roles, Rules, Strain, merged, paper_sheet, player_stats, replay,
    roles, running, running_pair, standings,
)
from scorekeeper.engine.contracts import LEVELS
from scorekeeper.engine.deals import defenders, seats_in_play
from scorekeeper.engine.career import Career, career, pulka_lines, rivals
from scorekeeper.engine.roles import DealLine, DealRole, Declarer, Defender, Misere, Raspasy, deal_lines
from scorekeeper.files.statsfile import read_roles, stats_json, stored_roles
from scorekeeper.files.pulyafile import loads

from .generate import generate

F, D = Fraction, Decimal
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
        stored = stored_roles(seat)
        assert read_roles(json.loads(json.dumps(stored))) == seat
    assert read_roles(stored_roles(Roles())) == Roles()
    assert stored_roles(Roles()) == {
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
    stored = stored_roles(Roles(20, declared((7, 4, 3, 2)), Misere(2, 1), Defender(2, 1, 1, 1), Raspasy(5, 30, 1)))
    assert stored_roles(read_roles(stored)) == stored
    with pytest.raises(ValueError):
        read_roles(_changed(stored, path, value))
    with pytest.raises(ValueError):
        read_roles([stored])
    with pytest.raises(ValueError):
        read_roles(_changed(stored, ("deals",), 14))  # 4 + 2 + 4 + 5 roles in 14 deals


# -- records, by hand ----------------------------------------------------------------------------------

HALF = F(1, 2)
JAN, FEB, MAR = date(2024, 1, 10), date(2024, 2, 10), date(2024, 3, 10)
ZERO3 = ((F(0),) * 3,) * 3


def record(players: tuple[str, ...], net: tuple[Fraction, ...], preset: str = "sochi", started: date = JAN,
           currency: str = "₽", finished: bool = True, pairwise: tuple[tuple[Fraction, ...], ...] | None = None,
           price: Fraction = HALF, deals: int = 10) -> Record[str]:
    """A record whose pairwise form is the one of equal shares unless given: i wins (net_i − net_j)/n from j."""
    n = len(players)
    pairwise = pairwise or tuple(tuple(F(0) if i == j else (net[i] - net[j]) / n for j in range(n)) for i in range(n))
    money = tuple(D(str(round(float(x * price), 2))) for x in net)
    return Record(preset, currency, started, finished, players, net, money, pairwise, (Roles(deals),) * n)


EX11 = (F(790, 3), F(-644, 3), F(-146, 3))  # docs/rules.md §10 Ex 11: +263⅓, −214⅔, −48⅔ (its pairwise form)
EX11_PAIRWISE = ((F(0), F(142), F(364, 3)), (F(-142), F(0), F(-218, 3)), (F(-364, 3), F(218, 3), F(0)))
RECORDS = [
    record(("a", "b", "c"), EX11, pairwise=EX11_PAIRWISE),
    record(("a", "c", "d"), (F(-40), F(10), F(30)), preset="leningrad", started=FEB),
    record(("b", "a", "c", "d"), (F(5), F(-5), F(0), F(0)), started=MAR, currency="€", finished=False),
]


def test_a_player_over_his_pulkas_as_the_api_gives_it():
    stats = player_stats("a", RECORDS)
    assert (stats.pulkas, stats.won, stats.lost, stats.deals) == (2, 1, 1, 20)
    assert stats.net == {"sochi": F(790, 3), "leningrad": F(-40)}
    assert stats.money == {"₽": D("131.67") + D("-20.00")}
    names = {"a": "Аня", "b": "Борис", "c": "Вера", "d": "Глеб"}
    data = stats_json(stats, names)
    assert json.loads(json.dumps(data)) == data
    zero = {"declared": 0, "played": 0, "made": 0, "remiz": 0}
    # −50/3 and −70/3 rounded half away from zero
    assert data == {
        "player": {"id": "a", "name": "Аня"}, "pulkas": 2, "won": 1, "lost": 1, "deals": 20,
        "net": {"sochi": 263.33, "leningrad": -40}, "money": {"₽": 111.67},
        "declarer": {"6": zero, "7": zero, "8": zero, "9": zero, "10": zero, "misere": {"declared": 0, "made": 0}},
        "defender": {"whist": 0, "pass": 0, "half": 0, "short": 0},
        "raspasy": {"deals": 0, "tricks": 0, "zero": 0},
        "head_to_head": [
            {"opponent": {"id": "c", "name": "Вера"}, "pulkas": 2, "net": {"sochi": 121.33, "leningrad": -16.67}},
            {"opponent": {"id": "b", "name": "Борис"}, "pulkas": 1, "net": {"sochi": 142}},
            {"opponent": {"id": "d", "name": "Глеб"}, "pulkas": 1, "net": {"leningrad": -23.33}},
        ],
    }
    assert isinstance(data["net"]["leningrad"], int)
    assert json.dumps(data["net"]) == '{"sochi": 263.33, "leningrad": -40}'
    assert stats_json(stats, names.__getitem__) == data


def test_the_unfinished_pulka_counts_when_asked():
    stats = player_stats("a", RECORDS, Filter(unfinished=True))
    assert (stats.pulkas, stats.won, stats.lost) == (3, 1, 2)
    assert stats.money == {"₽": D("111.67"), "€": D("-2.50")}
    assert [(h.opponent, h.pulkas) for h in stats.head_to_head] == [("c", 3), ("b", 2), ("d", 2)]
    assert stats.head_to_head[1].net == {"sochi": 142 + F(-10, 4)}  # Σ pairwise, never (a − b)/2


@pytest.mark.parametrize("f,pulkas", [
    (Filter(start=FEB), 1), (Filter(end=JAN), 1), (Filter(start=JAN, end=JAN), 1), (Filter(start=MAR), 0),
    (Filter(preset="leningrad"), 1), (Filter(players=4), 0), (Filter(players=4, unfinished=True), 1),
    (Filter(currency="€", unfinished=True), 1), (Filter(with_=frozenset("d")), 1),
    (Filter(with_=frozenset("bd"), unfinished=True), 1), (Filter(with_=frozenset("bcd")), 0),
])
def test_filters(f, pulkas):
    assert player_stats("a", RECORDS, f).pulkas == pulkas


def test_standings_per_preset_and_currency():
    table = {s.player: s for s in standings(RECORDS, Filter(unfinished=True), floor=2)}
    assert list(table) == ["a", "b", "c", "d"]
    a = table["a"]
    assert (a.pulkas, a.won, a.lost, a.provisional) == (3, 1, 2, False)
    assert a.per_pulka == {"sochi": (F(790, 3) - 5) / 2, "leningrad": F(-40)}
    assert a.per_deal == {"sochi": (F(790, 3) - 5) / 20, "leningrad": F(-4)}
    assert a.money == {"₽": D("111.67"), "€": D("-2.50")}
    assert table["d"].provisional is False and table["b"].pulkas == 2
    assert [s.provisional for s in standings(RECORDS, floor=2)] == [False, True, False, True]


def test_per_deal_leaves_out_a_preset_kept_on_paper():
    line, = (s for s in standings([record(("a", "b", "c"), EX11, deals=0)]) if s.player == "a")
    assert line.per_pulka == {"sochi": F(790, 3)} and line.per_deal == {}


def test_running_totals_in_date_order():
    later_first = [RECORDS[2], RECORDS[1], RECORDS[0], record(("a", "b", "c"), (F(10), F(-10), F(0)), started=MAR)]
    run = running("a", later_first)
    assert run.net == {"leningrad": ((FEB, F(-40)),), "sochi": ((JAN, F(790, 3)), (MAR, F(790, 3) + 10))}
    assert run.money["₽"] == ((JAN, D("131.67")), (FEB, D("111.67")), (MAR, D("116.67")))
    assert running_pair("a", "b", later_first, Filter(unfinished=True)) == {
        "sochi": ((JAN, F(142)), (MAR, F(142) - F(10, 4)), (MAR, F(142) - F(10, 4) + F(20, 3)))}
    assert running_pair("b", "d", later_first) == {}


def test_a_players_pulkas_the_latest_first_with_his_mates_and_what_he_won_from_each():
    lines = pulka_lines("a", RECORDS, Filter(unfinished=True))
    assert [line.record.started for line in lines] == [MAR, FEB, JAN]
    assert [line.mates for line in lines] == [("b", "c", "d"), ("c", "d"), ("b", "c")]
    assert [line.net for line in lines] == [F(-5), F(-40), F(790, 3)]
    assert lines[2].against("b") == F(142) and lines[2].against("c") == F(364, 3)
    assert lines[1].against("d") == F(-70, 3)  # (−40 − 30)/3
    assert [line.deals for line in lines] == [10, 10, 10]


def test_a_players_evenings_form_and_runs():
    """a's pulkas, the latest first: won, won, lost, won, won, won, even (two of them on one date)."""
    nets = [F(1), F(2), F(-1), F(3), F(1), F(4), F(0)]
    days = [MAR, MAR, FEB, FEB, JAN, JAN, JAN]
    records = [dataclasses.replace(record(("a", "b", "c"), (n, -n, F(0)), started=d), minutes=m)
               for n, d, m in zip(reversed(nets), reversed(days), range(7))]
    assert career(pulka_lines("a", records)) == Career(3, JAN, MAR, 21, (1, 1, -1, 1, 1, 1, 0), 2, 3)
    assert career(pulka_lines("b", records)).streak == -2
    assert career(pulka_lines("c", records)) == Career(3, JAN, MAR, 21, (0,) * 7, 0, 0)
    assert career(()) == Career(0, None, None, 0, (), 0, 0)


def test_rival_and_nemesis_from_the_floor_of_shared_pulkas():
    """c beat a in two of their three pulkas (by the pairwise balance); b only in one of his three."""
    records = [record(("a", "b", "c"), (F(-6), F(-6), F(12)), started=JAN),
               record(("a", "b", "c"), (F(-6), F(0), F(6)), started=FEB),
               record(("a", "b", "c"), (F(6), F(-3), F(-3)), started=MAR),
               record(("a", "d", "e"), (F(-6), F(6), F(0)), started=MAR)]
    stats, lines = player_stats("a", records), pulka_lines("a", records)
    found = rivals(stats, lines, floor=3)
    assert found.rival is not None and found.rival.opponent == "b"  # 3 shared, as c: the first shared first
    assert (found.nemesis, found.beaten, found.shared) == ("c", 2, 3)
    assert rivals(stats, lines, floor=4) == type(found)(None, None, 0, 0)  # d beat him, but only once shared
    kings = rivals(player_stats("c", records), pulka_lines("c", records), floor=3)
    assert kings.nemesis == "a" and kings.beaten == 1  # a beat c in March only


def test_merging_two_spellings():
    records = [record(("a", "b", "c"), EX11), record(("A", "b", "d"), (F(3), F(-3), F(0)), started=FEB)]
    together = merged(records, "a", "A")
    assert [r.players for r in together] == [("a", "b", "c"), ("a", "b", "d")]
    assert player_stats("a", together).net == {"sochi": F(790, 3) + 3}
    with pytest.raises(ValueError):
        merged(records, "b", "c")
    assert merged(records, "a", "zed") == tuple(records)


# -- generated pulkas -------------------------------------------------------------------------------------

KEYS = ["p1", "p2", "p3", "p4", "p5", "p6"]


def _pulka(rng: random.Random):
    data = generate(rng, max_deals=rng.choice([0, 5, 20, 60]))
    return loads(json.dumps(data))


def _records(seed: int) -> list[Record[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(rng.randint(1, 6)):
        pulka = _pulka(rng)
        players = tuple(rng.sample(KEYS, len(pulka.players)))
        started = date(2024, 1, 1) + timedelta(days=rng.randint(0, 90))
        out.append(Record.of(players, pulka.replay(), started, rng.choice(["₽", "€"]), closed=rng.random() < 0.5))
    return out


records_ = st.integers(0, 2**32 - 1).map(_records)
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
        assert read_roles(json.loads(json.dumps(stored_roles(seat)))) == seat


def _flat(roles_: Roles) -> list[int]:
    data = stored_roles(roles_)
    return [data["deals"], *(v for part in data["declarer"].values() for v in part.values()),
            *data["defender"].values(), *data["raspasy"].values()]


def _summed(*dicts):
    out: dict = {}
    for d in dicts:
        for key, value in d.items():
            out[key] = out[key] + value if key in out else value
    return out


@SETTINGS
@given(records_, st.booleans())
def test_sums_over_records(records, unfinished):
    f = Filter(unfinished=unfinished)
    for record in records:
        for i, row in enumerate(record.pairwise):
            assert sum(row) == record.net[i]
    stats = {key: player_stats(key, records, f) for key in KEYS}
    counted = [r for r in records if f.admits(r)]
    assert sum(s.pulkas for s in stats.values()) == sum(len(r.players) for r in counted)
    for key, s in stats.items():
        mine = [r for r in counted if key in r.players]
        assert s.pulkas == len(mine) and s.won + s.lost <= s.pulkas
        assert s.deals == sum(r.roles[r.seat(key)].deals for r in mine)
        assert s.roles == sum((r.roles[r.seat(key)] for r in mine), Roles())
        # his net is what he won from each opponent, preset by preset
        assert _summed(*(h.net for h in s.head_to_head)) == s.net
        for h in s.head_to_head:
            theirs = next(x for x in stats[h.opponent].head_to_head if x.opponent == key)
            assert theirs.pulkas == h.pulkas
            assert theirs.net == {preset: -net for preset, net in h.net.items()}
        json.dumps(stats_json(s, str.upper))
        chart = running(key, records, f)
        assert {p: line[-1][1] for p, line in chart.net.items()} == s.net
        assert {c: line[-1][1] for c, line in chart.money.items()} == s.money
        for h in s.head_to_head:
            assert {p: line[-1][1] for p, line in running_pair(key, h.opponent, records, f).items()} == h.net
    lines = standings(records, f, floor=2)
    assert [line.player for line in lines] == [k for k in dict.fromkeys(p for r in counted for p in r.players)]
    for line in lines:
        s = stats[line.player]
        assert (line.pulkas, line.won, line.lost, line.net, line.money) == (s.pulkas, s.won, s.lost, s.net, s.money)
        assert sum(line.deals_in.values()) == s.deals and line.provisional == (s.pulkas < 2)


narrower = st.sampled_from(["start", "end", "preset", "players", "currency", "with", "finished"])


@SETTINGS
@given(records_, narrower, st.sampled_from(KEYS), st.sampled_from(KEYS))
def test_a_narrower_filter_never_counts_more(records, narrow, player, other):
    wide: Filter[str] = Filter(unfinished=True)
    tight = {
        "start": Filter(start=date(2024, 2, 1), unfinished=True), "end": Filter(end=date(2024, 2, 1), unfinished=True),
        "preset": Filter(preset="sochi", unfinished=True), "players": Filter(players=3, unfinished=True),
        "currency": Filter(currency="€", unfinished=True), "with": Filter(with_=frozenset({other}), unfinished=True),
        "finished": Filter(),
    }[narrow]
    a, b = player_stats(player, records, wide), player_stats(player, records, tight)
    assert b.pulkas <= a.pulkas and b.won <= a.won and b.lost <= a.lost
    assert all(x <= y for x, y in zip(_flat(b.roles), _flat(a.roles)))
    assert set(b.net) <= set(a.net) and set(b.money) <= set(a.money)
    shared = {h.opponent: h.pulkas for h in a.head_to_head}
    assert all(h.pulkas <= shared[h.opponent] for h in b.head_to_head)


@SETTINGS
@given(records_, st.integers(0, 90), st.sampled_from(KEYS))
def test_two_date_ranges_add_up_to_their_union(records, split, player):
    start, end = date(2024, 1, 1), date(2024, 3, 31)
    mid = start + timedelta(days=split)
    whole = player_stats(player, records, Filter(start=start, end=end, unfinished=True))
    early = player_stats(player, records, Filter(start=start, end=mid, unfinished=True))
    late = player_stats(player, records, Filter(start=mid + timedelta(days=1), end=end, unfinished=True))
    assert (whole.pulkas, whole.won, whole.lost) == (early.pulkas + late.pulkas, early.won + late.won,
                                                     early.lost + late.lost)
    assert whole.roles == early.roles + late.roles
    assert whole.net == _summed(early.net, late.net) and whole.money == _summed(early.money, late.money)
    pulkas = _summed(*({h.opponent: h.pulkas} for s in (early, late) for h in s.head_to_head))
    assert {h.opponent: h.pulkas for h in whole.head_to_head} == pulkas


@SETTINGS
@given(records_, st.sampled_from(KEYS), st.sampled_from(KEYS))
def test_merged_stats_are_the_two_players_added(records, into, gone):
    if into == gone:
        return
    if any(into in r.players and gone in r.players for r in records):
        with pytest.raises(ValueError):
            merged(records, into, gone)
        return
    f: Filter[str] = Filter(unfinished=True)
    a, b = player_stats(into, records, f), player_stats(gone, records, f)
    m = player_stats(into, merged(records, into, gone), f)
    assert (m.pulkas, m.won, m.lost) == (a.pulkas + b.pulkas, a.won + b.won, a.lost + b.lost)
    assert m.roles == a.roles + b.roles
    assert m.net == _summed(a.net, b.net) and m.money == _summed(a.money, b.money)
    assert player_stats(gone, merged(records, into, gone), f).pulkas == 0
    assert ({h.opponent: h.pulkas for h in m.head_to_head}
            == _summed(*({h.opponent: h.pulkas} for s in (a, b) for h in s.head_to_head)))


@SETTINGS
@given(records_)
def test_a_players_pulkas_add_up_to_his_figures_and_each_pairwise_row_to_its_balance(records):
    for player in sorted({p for r in records for p in r.players}):
        stats, lines = player_stats(player, records), pulka_lines(player, records)
        assert len(lines) == stats.pulkas
        total: dict[str, Fraction] = {}
        for line in lines:
            total[line.record.preset] = total.get(line.record.preset, F(0)) + line.net
            assert sum(line.against(p) for p in line.mates) == line.net
        assert total == stats.net
        found = rivals(stats, lines, floor=2)
        assert found.beaten <= found.shared
        assert found.nemesis is None or found.beaten >= 1


def test_what_each_deal_moved_by_role_adds_up_to_the_pulka():
    """docs/rules.md §10 D1: A's 7♥ (pulya 4), B whists (8 on A), C passes; p̄ = 4/3, pulya point 10 whists:
    A −8 + 10(4 − 4/3) = +56/3, B 8 − 40/3 = −16/3, C −40/3."""
    result = loads((Path(__file__).parents[1] / "data" / "sochi_examples.json").read_text()).replay()
    lines = deal_lines(result)
    assert lines[:3] == (DealLine(1, 0, DealRole.DECLARER, F(56, 3)), DealLine(1, 1, DealRole.WHIST, F(-16, 3)),
                         DealLine(1, 2, DealRole.PASS, F(-40, 3)))
    assert [line.role for line in lines if line.number == 5] == [DealRole.RASPASY] * 3
    assert [line.role for line in lines if line.number == 8] == [DealRole.DECLARER, DealRole.DEFENDER,
                                                                 DealRole.DEFENDER]  # A's misère
    for seat, net in enumerate(EX11):
        assert sum(line.moved for line in lines if line.seat == seat) == net


@SETTINGS
@given(pulkas_)
def test_the_deals_of_a_pulka_move_its_balances_and_each_deal_sums_to_zero(pulka):
    result = pulka.replay()
    lines = deal_lines(result)
    assert len(lines) == len(result.results) * len(pulka.players)
    for number in range(1, len(result.results) + 1):
        assert sum(line.moved for line in lines if line.number == number) == 0
    if result.results:
        dealer_out = [line for line in lines if line.role is DealRole.OUT]
        assert len(dealer_out) == (len(result.results) if len(pulka.players) == 4 else 0)
