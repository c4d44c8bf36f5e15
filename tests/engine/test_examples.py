"""docs/rules.md §10 worked examples and the §3/§5.3/§7/§8 tables, typed in from the document.

Every expected number here was typed from docs/rules.md (or worked out by hand from
§3/§14 where the document says "compute those from §3 and §14"), never copied
from program output.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from .helpers import dec, engine_deltas, num, run_engine
from .reference import replay as ref_replay

F = Fraction
ABC = ["A", "B", "C"]
ABCD = ["A", "B", "C", "D"]


def pulka(preset: str, deals: list[dict], players: list[str] | None = None, first_dealer: str | None = None,
          **rules) -> dict:
    data = {"format": "pulya/1", "players": players or ABC, "rules": {"preset": preset, **rules}, "deals": deals}
    if first_dealer:
        data["first_dealer"] = first_dealer
    return data


def score(data: dict) -> dict:
    result = run_engine(data)
    assert "error" not in result, result
    return result


def game(declarer, contract, whist=None, tricks=None, **extra):
    d = {"type": "game", "declarer": declarer, "contract": contract}
    if whist is not None:
        d["whist"] = whist
    if tricks is not None:
        d["tricks"] = tricks
    d.update(extra)
    return d


def misere(declarer, taken, **others):
    return {"type": "misere", "declarer": declarer, "tricks": {declarer: taken, **others}}


def raspasy(**tricks):
    return {"type": "raspasy", "tricks": tricks}


def sheet_of(result: dict) -> dict:
    s = result["sheet"]
    return {
        "pulya": {k: num(v) for k, v in s["pulya"].items()},
        "gora": {k: num(v) for k, v in s["gora"].items()},
        "whists": {a: {b: num(v) for b, v in row.items()} for a, row in s["whists"].items()},
    }


def deal_delta(result: dict, i: int) -> dict:
    """Net points of deal i (1-based) by (player, column, on)."""
    return engine_deltas(result)[i - 1]


def W(who, on, points):  # whists `who` writes on `on`
    return ((who, "whists", on), F(points))


def PU(who, points):
    return ((who, "pulya", None), F(points))


def GO(who, points):
    return ((who, "gora", None), F(points))


def entries(*items) -> dict:
    out: dict = {}
    for key, value in items:
        out[key] = out.get(key, F(0)) + value
    return {k: v for k, v in out.items() if v != 0}


# engine or reference: every typed-in example is checked against both (the reference must be right too)
IMPLS = ["engine", "reference"]


def run(impl: str, data: dict):
    """(final sheet, per-deal deltas, finished, settlement with Decimals) from the engine or the reference."""
    if impl == "engine":
        result = score(data)
        st = result["settlement"]
        settlement = {
            "balance": {k: dec(v) for k, v in st["balance"].items()},
            "money": {k: dec(v) for k, v in st["money"].items()},
            "transfers": [(t["from"], t["to"], dec(t["amount"])) for t in st["transfers"]],
        }
        return sheet_of(result), engine_deltas(result), result["finished"], settlement
    ref = ref_replay(data)
    res = ref.result()
    st = res["settlement"]
    settlement = {
        "balance": {k: v.quantize(Decimal("0.01")) for k, v in st["balance"].items()},
        "money": {k: v.quantize(Decimal("0.01")) for k, v in st["money"].items()},
        "transfers": [(t["from"], t["to"], t["amount"].quantize(Decimal("0.01"))) for t in st["transfers"]],
    }
    return res["sheet"], ref.named_deltas(), res["finished"], settlement


def D(x: str) -> Decimal:
    return Decimal(x)


# ------------------------------------------------------------------------------------------------
# §10: the ten deals D1-D10 (A, B, C clockwise, P = 10, whist price 0.5)

TEN_DEALS = [
    game("A", "7H", {"B": "whist", "C": "pass"}, {"A": 8, "B": 1, "C": 1}, open=True),  # D1
    game("B", "8D", {"A": "whist", "C": "whist"}, {"B": 6, "A": 3, "C": 1}),  # D2
    game("C", "6C", {"A": "whist", "B": "whist"}, {"C": 8, "A": 2, "B": 0}),  # D3
    game("C", "6H", {"A": "whist", "B": "pass"}, {"C": 5, "A": 3, "B": 2}),  # D4 (closed)
    raspasy(A=0, B=4, C=6),  # D5
    raspasy(A=3, B=0, C=7),  # D6
    game("C", "7S", {"A": "whist", "B": "pass"}, {"C": 7, "A": 2, "B": 1}),  # D7
    misere("A", 0),  # D8
    misere("B", 2),  # D9
    game("B", "9NT", {"C": "pass", "A": "pass"}),  # D10
]

SOCHI_DEALS = [
    entries(PU("A", 4), W("B", "A", 8)),  # Ex 1
    entries(GO("B", 12), W("A", "B", 12), W("C", "B", 12), W("A", "B", 18), W("C", "B", 6)),  # Ex 2
    entries(PU("C", 2), W("A", "C", 4), GO("B", 4)),  # Ex 3
    entries(GO("C", 2), W("A", "C", 2), W("B", "C", 2), W("A", "C", 10)),  # Ex 4
    entries(PU("A", 1), GO("B", 4), GO("C", 6)),  # Ex 5, #1
    entries(GO("A", 6), PU("B", 2), GO("C", 14)),  # Ex 5, #2
    entries(PU("C", 4), W("A", "C", 12)),  # Ex 6
    entries(PU("A", 5), PU("C", 4), W("A", "C", 40), PU("B", 1), W("A", "B", 10)),  # Ex 7
    entries(GO("B", 20)),  # Ex 8
    entries(PU("B", 7), GO("B", -1)),  # Ex 9: 3 + 8 = 11 -> 10, write-off 1
]


@pytest.mark.parametrize("impl", IMPLS)
def test_sochi_ten_deals_per_deal(impl):
    data = pulka("sochi", TEN_DEALS, pulya_size=10, whist_price=0.5)
    _, deltas, _, _ = run(impl, data)
    assert len(deltas) == 10
    for number, (got, expected) in enumerate(zip(deltas, SOCHI_DEALS), 1):
        assert got == expected, f"D{number}"


@pytest.mark.parametrize("impl", IMPLS)
def test_sochi_ten_deals_sheet_ex10(impl):
    data = pulka("sochi", TEN_DEALS, pulya_size=10, whist_price=0.5)
    sheet, _, finished, _ = run(impl, data)
    assert sheet == {
        "pulya": {"A": 10, "B": 10, "C": 10},
        "gora": {"A": 6, "B": 39, "C": 22},
        "whists": {"A": {"B": 40, "C": 68}, "B": {"A": 8, "C": 2}, "C": {"A": 0, "B": 18}},
    }
    assert finished is True


@pytest.mark.parametrize("impl", IMPLS)
def test_sochi_ten_deals_settlement_ex11(impl):
    data = pulka("sochi", TEN_DEALS, pulya_size=10, whist_price=0.5)
    _, _, _, st = run(impl, data)
    # Net 263 1/3, -214 2/3, -48 2/3
    assert st["balance"] == {"A": D("263.33"), "B": D("-214.67"), "C": D("-48.67")}
    assert st["money"] == {"A": D("131.67"), "B": D("-107.33"), "C": D("-24.34")}
    assert st["transfers"] == [("B", "A", D("107.33")), ("C", "A", D("24.34"))]


def test_sochi_ten_deals_file_in_repository_matches():
    """tests/data/sochi_examples.json is the same pulka: same sheet."""
    import json
    from .helpers import ROOT
    data = json.loads((ROOT / "tests" / "data" / "sochi_examples.json").read_text())
    sheet, _, finished, st = run("engine", data)
    assert sheet["gora"] == {"A": 6, "B": 39, "C": 22} and finished
    assert st["money"] == {"A": D("131.67"), "B": D("-107.33"), "C": D("-24.34")}


def test_sochi_ex7_codex_alternative_writeoff_only():
    """Ex 7, Кодекс alternative: no help; gora[A] := 6 - 5 = 1 after D8."""
    data = pulka("sochi", TEN_DEALS[:8], pulya_size=10, whist_price=0.5, overflow="writeoff")
    sheet, deltas, _, _ = run("engine", data)
    assert deltas[7] == entries(PU("A", 5), GO("A", -5))
    assert sheet["gora"]["A"] == 1
    assert sheet["pulya"] == {"A": 10, "B": 2, "C": 6}


# The same ten deals under Leningrad and Rostov, computed by hand from §3 and §14.
# Leningrad: pulka_end total -> no cap, D8 makes A 15; total 31 >= 30 after D10.
LENINGRAD_DEALS = [
    entries(PU("A", 4), W("B", "A", 16)),
    entries(GO("B", 24), W("A", "B", 24 + 36), W("C", "B", 24 + 12)),
    entries(PU("C", 2), W("A", "C", 8), GO("B", 4)),  # shortfall not doubled: 2 tricks x 2
    entries(GO("C", 4), W("A", "C", 4 + 10), W("B", "C", 4 + 10)),  # gentleman: 5 tricks x 4 / 2
    entries(PU("A", 1), GO("B", 8), GO("C", 12)),
    entries(GO("A", 12), PU("B", 2), GO("C", 28)),
    entries(PU("C", 4), W("A", "C", 24)),  # 7 after two raspasy: exit 6-7-7 ok
    entries(PU("A", 10)),
    entries(GO("B", 40)),
    entries(PU("B", 8)),
]

ROSTOV_DEALS = [
    entries(PU("A", 4), W("B", "A", 8)),
    entries(GO("B", 12), W("A", "B", 20 + 18), W("C", "B", 20 + 6)),  # consolation 10 per undertrick
    entries(PU("C", 2), W("A", "C", 4), GO("B", 2)),  # half-responsible: 2 tricks x 1
    entries(GO("C", 2), W("A", "C", 10 + 5), W("B", "C", 10 + 5)),  # gentleman
    entries(PU("A", 1), W("A", "B", 20), W("A", "C", 30)),  # raspasy in whists, A fewest
    entries(PU("B", 1), W("B", "A", 15), W("B", "C", 35)),
    entries(PU("C", 4), W("A", "C", 12)),
    entries(PU("A", 5), PU("C", 4), W("A", "C", 40), PU("B", 1), W("A", "B", 10)),
    entries(GO("B", 20)),
    entries(PU("B", 8)),
]


@pytest.mark.parametrize("impl", IMPLS)
def test_leningrad_ten_deals(impl):
    data = pulka("leningrad", TEN_DEALS, pulya_size=10, whist_price=0.5)
    sheet, deltas, finished, st = run(impl, data)
    for number, (got, expected) in enumerate(zip(deltas, LENINGRAD_DEALS), 1):
        assert got == expected, f"D{number}"
    assert sheet == {
        "pulya": {"A": 15, "B": 10, "C": 6},
        "gora": {"A": 12, "B": 76, "C": 44},
        "whists": {"A": {"B": 60, "C": 46}, "B": {"A": 16, "C": 14}, "C": {"A": 0, "B": 36}},
    }
    assert finished is True
    # Net = 1510/3, -1178/3, -332/3 (pulya term 20 x (p - 31/3))
    assert st["balance"] == {"A": D("503.33"), "B": D("-392.67"), "C": D("-110.67")}
    # exact money 251.666.., -196.333.., -55.333..: floors sum -0.02, equal remainders -> A, B
    assert st["money"] == {"A": D("251.67"), "B": D("-196.33"), "C": D("-55.34")}
    assert st["transfers"] == [("B", "A", D("196.33")), ("C", "A", D("55.34"))]


@pytest.mark.parametrize("impl", IMPLS)
def test_rostov_ten_deals(impl):
    data = pulka("rostov", TEN_DEALS, pulya_size=10, whist_price=0.5)
    sheet, deltas, finished, st = run(impl, data)
    for number, (got, expected) in enumerate(zip(deltas, ROSTOV_DEALS), 1):
        assert got == expected, f"D{number}"
    assert sheet == {
        "pulya": {"A": 10, "B": 10, "C": 10},
        "gora": {"A": 0, "B": 34, "C": 2},
        "whists": {"A": {"B": 68, "C": 101}, "B": {"A": 23, "C": 50}, "C": {"A": 0, "B": 26}},
    }
    assert finished is True
    assert st["balance"] == {"A": D("266.00"), "B": D("-241.00"), "C": D("-25.00")}
    assert st["money"] == {"A": D("133.00"), "B": D("-120.50"), "C": D("-12.50")}
    assert st["transfers"] == [("B", "A", D("120.50")), ("C", "A", D("12.50"))]


# ------------------------------------------------------------------------------------------------
# §10.4 extra examples

@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level,half", [
    ("sochi", 7, 4), ("rostov", 7, 4), ("leningrad", 7, 8),
    ("sochi", 6, 4), ("rostov", 6, 4), ("leningrad", 6, 8),
])
def test_ex34_half_whist_accepted(impl, preset, level, half):
    # A declares; B is A's left (first defender) and passes, C says half, B confirms pass
    data = pulka(preset, [game("A", f"{level}D", {"B": "pass", "C": "half"})], first_dealer="C")
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", 2 * (level - 5)), W("C", "A", half))


@pytest.mark.parametrize("impl", IMPLS)
def test_ex34_half_whist_retrieved(impl):
    # B answers whist after all: B single whister, C a passer; 7D made with 7, B 2, C 1 (Sochi)
    data = pulka("sochi", [game("A", "7D", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1})])
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", 4), W("B", "A", 12))


@pytest.mark.parametrize("impl", IMPLS)
def test_ex36_two_whisters_uneven_split_no_penalty(impl):
    data = pulka("sochi", [game("A", "6D", {"B": "whist", "C": "whist"}, {"A": 6, "B": 3, "C": 1})])
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", 2), W("B", "A", 6), W("C", "A", 2))


@pytest.mark.parametrize("impl", IMPLS)
def test_ex38_four_players_sochi_raspasy_talon(impl):
    data = pulka("sochi", [raspasy(A=3, B=0, C=5, D=2)], players=ABCD, first_dealer="D")
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("B", 1), GO("A", 3), GO("C", 5), GO("D", 2))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("progression,bonus_list,gora,bonus", [
    ([1, 2, 3], [1, 2, 3], 6, 3),  # cap 3
    ([1, 2, 3, 4], [1, 2, 3, 4], 8, 4),  # unbounded (up to 4)
])
def test_ex40_fourth_raspasy(impl, progression, bonus_list, gora, bonus):
    deals = [raspasy(A=3, B=3, C=4)] * 3 + [raspasy(A=2, B=0, C=8)]
    data = pulka("sochi", deals, pulya_size=50, raspasy_gora=progression, raspasy_zero_pulya=bonus_list)
    _, deltas, _, _ = run(impl, data)
    k = min(4, len(progression))
    assert deltas[3] == entries(GO("A", gora), PU("B", bonus), GO("C", 8 * progression[k - 1]))


# ------------------------------------------------------------------------------------------------
# §3 tables per preset

# level: (pulya, W/trick, remiz/u, cons/u, short/u, half-whist)
TABLES = {
    "sochi": {6: (2, 2, 2, 2, 2, 4), 7: (4, 4, 4, 4, 4, 4), 8: (6, 6, 6, 6, 6, None),
              9: (8, 8, 8, 8, 8, None), 10: (10, 10, 10, 10, 10, None)},
    "leningrad": {6: (2, 4, 4, 4, 2, 8), 7: (4, 8, 8, 8, 4, 8), 8: (6, 12, 12, 12, 6, None),
                  9: (8, 16, 16, 16, 8, None), 10: (10, 20, 20, 20, 10, None)},
    "rostov": {6: (2, 2, 2, 10, 1, 4), 7: (4, 4, 4, 10, 2, 4), 8: (6, 6, 6, 10, 3, None),
               9: (8, 8, 8, 10, 4, None), 10: (10, 10, 10, 10, 5, None)},
}
MISERE = {"sochi": 10, "leningrad": 20, "rostov": 10}
ROWS = [(preset, level) for preset in TABLES for level in TABLES[preset]]
OBLIG = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
BIG = dict(pulya_size=200, ten_checked=False)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level", ROWS)
def test_table_pulya_both_pass(impl, preset, level):
    pulya = TABLES[preset][level][0]
    data = pulka(preset, [game("A", f"{level}H", {"B": "pass", "C": "pass"})], first_dealer="C", **BIG)
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", pulya))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level", ROWS)
def test_table_whists_per_trick_two_whisters(impl, preset, level):
    pulya, wt, *_ = TABLES[preset][level]
    # made exactly; defenders take the rest, B at least his quota so nobody is short
    rest = 10 - level
    b, c = (rest + 1) // 2, rest // 2
    data = pulka(preset, [game("A", f"{level}S", {"B": "whist", "C": "whist"}, {"A": level, "B": b, "C": c})],
                 first_dealer="C", **BIG)
    _, deltas, _, _ = run(impl, data)
    expected = entries(PU("A", pulya), W("B", "A", wt * b), W("C", "A", wt * c))
    if b + c == 0:  # whisted 10 made: both took 0 -> the second whister (C, A's right) is short
        expected = entries(PU("A", pulya), GO("C", TABLES[preset][level][4]))
    assert deltas[0] == expected


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level", ROWS)
@pytest.mark.parametrize("u", [1, 2])
def test_table_remiz_and_consolation_two_whisters(impl, preset, level, u):
    _, wt, remiz, cons, *_ = TABLES[preset][level]
    a = level - u
    b = (10 - a + 1) // 2
    c = 10 - a - b
    data = pulka(preset, [game("A", f"{level}C", {"B": "whist", "C": "whist"}, {"A": a, "B": b, "C": c})],
                 first_dealer="C", **BIG)
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(GO("A", remiz * u), W("B", "A", cons * u + wt * b), W("C", "A", cons * u + wt * c))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level", ROWS)
def test_table_consolation_by_passer_and_single_whist_remiz(impl, preset, level):
    _, wt, remiz, cons, *_ = TABLES[preset][level]
    a = level - 1
    b, c = 10 - a - 1, 1  # B whists, C passes
    data = pulka(preset, [game("A", f"{level}NT", {"B": "whist", "C": "pass"}, {"A": a, "B": b, "C": c})],
                 first_dealer="C", **BIG)
    _, deltas, _, _ = run(impl, data)
    t = b + c
    if preset == "sochi":  # greedy
        trick_b, trick_c = F(wt * t), F(0)
    else:  # gentleman
        trick_b = trick_c = F(wt * t, 2)
    assert deltas[0] == entries(GO("A", remiz), W("B", "A", cons + trick_b), W("C", "A", cons + trick_c))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level", ROWS)
def test_table_shortfall_single_whister(impl, preset, level):
    pulya, wt, _, _, short, _ = TABLES[preset][level]
    q = OBLIG[level]
    t = q - 1  # one trick short; declarer takes the rest (made)
    a = 10 - t
    data = pulka(preset, [game("A", f"{level}H", {"B": "pass", "C": "whist"}, {"A": a, "B": 0, "C": t})],
                 first_dealer="C", **BIG)
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", pulya), W("C", "A", wt * t), GO("C", short))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset,level", [(p, lv) for p, lv in ROWS if lv in (6, 7)])
def test_table_half_whist(impl, preset, level):
    pulya, *_, half = TABLES[preset][level]
    data = pulka(preset, [game("A", f"{level}C", {"B": "pass", "C": "half"})], first_dealer="C")
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", pulya), W("C", "A", half))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset", TABLES)
@pytest.mark.parametrize("taken", [0, 1, 3])
def test_table_misere(impl, preset, taken):
    data = pulka(preset, [misere("A", taken)], pulya_size=50)
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == (entries(PU("A", 10)) if taken == 0 else entries(GO("A", MISERE[preset] * taken)))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("preset", TABLES)
def test_checked_ten(impl, preset):
    pulya, wt, remiz, cons, _, _ = TABLES[preset][10]
    made = pulka(preset, [game("A", "10NT", tricks={"A": 10, "B": 0, "C": 0})], pulya_size=50)
    assert run(impl, made)[1][0] == entries(PU("A", 10))
    # failed by 2: both defenders write consolation and whists for their own tricks; no shortfall
    failed = pulka(preset, [game("A", "10NT", tricks={"A": 8, "B": 2, "C": 0})], pulya_size=50)
    assert run(impl, failed)[1][0] == entries(GO("A", remiz * 2), W("B", "A", cons * 2 + wt * 2),
                                              W("C", "A", cons * 2))
    no_whists = pulka(preset, [game("A", "10NT", tricks={"A": 8, "B": 2, "C": 0})], pulya_size=50,
                      checked_ten_whists=False)
    assert run(impl, no_whists)[1][0] == entries(GO("A", remiz * 2), W("B", "A", cons * 2), W("C", "A", cons * 2))


@pytest.mark.parametrize("impl", IMPLS)
def test_checked_ten_four_players_dealer_consoles(impl):
    # D deals and sits out; A declares a checked 10 and takes 9
    data = pulka("sochi", [game("A", "10S", tricks={"A": 9, "B": 1, "C": 0})], players=ABCD, first_dealer="D",
                 pulya_size=50, consolation_by_passer=False)
    expected = entries(GO("A", 10), W("B", "A", 10 + 10), W("C", "A", 10), W("D", "A", 10))
    assert run(impl, data)[1][0] == expected
    data["rules"]["consolation_by_dealer"] = False
    assert run(impl, data)[1][0] == entries(GO("A", 10), W("B", "A", 20), W("C", "A", 10))


# ------------------------------------------------------------------------------------------------
# single-whister options (§4, §5.1, §14)

@pytest.mark.parametrize("impl", IMPLS)
def test_single_whist_made_each_own_shortfall_is_whisters(impl):
    # 6 made with 7; B (whist) 1, C (pass) 2: T = 3 < 4 -> B short 1; each writes his own tricks
    data = pulka("sochi", [game("A", "6H", {"B": "whist", "C": "pass"}, {"A": 7, "B": 1, "C": 2})],
                 single_whist_made="each_own", first_dealer="C")
    assert run(impl, data)[1][0] == entries(PU("A", 2), W("B", "A", 2), W("C", "A", 4), GO("B", 2))
    data["rules"]["single_whist_made"] = "whister_all"
    assert run(impl, data)[1][0] == entries(PU("A", 2), W("B", "A", 6), GO("B", 2))


@pytest.mark.parametrize("impl", IMPLS)
def test_consolation_by_passer_off_and_dealer_at_four(impl):
    # 4 players, D deals; A 7S, B whists, C passes, A takes 5 -> u = 2 (Sochi, greedy)
    deals = [game("A", "7S", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})]
    data = pulka("sochi", deals, players=ABCD, first_dealer="D")
    assert run(impl, data)[1][0] == entries(GO("A", 8), W("B", "A", 8 + 20), W("C", "A", 8), W("D", "A", 8))
    data["rules"]["consolation_by_passer"] = False
    assert run(impl, data)[1][0] == entries(GO("A", 8), W("B", "A", 28), W("D", "A", 8))
    data["rules"]["consolation_by_dealer"] = False
    assert run(impl, data)[1][0] == entries(GO("A", 8), W("B", "A", 28))


@pytest.mark.parametrize("impl", IMPLS)
def test_consolation_min_and_factor(impl):
    # max(consolation_factor x p, consolation_min) per undertrick: 6 (p=2), factor 3, min 5 -> 6; 7 -> 12
    d6 = pulka("sochi", [game("A", "6S", {"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2})],
               consolation_factor=3, consolation_min=7)
    assert run(impl, d6)[1][0] == entries(GO("A", 2), W("B", "A", 7 + 6), W("C", "A", 7 + 4))
    d7 = pulka("sochi", [game("A", "7S", {"B": "whist", "C": "whist"}, {"A": 6, "B": 2, "C": 2})],
               consolation_factor=3, consolation_min=7)
    assert run(impl, d7)[1][0] == entries(GO("A", 4), W("B", "A", 12 + 8), W("C", "A", 12 + 8))


# ------------------------------------------------------------------------------------------------
# §5.3 responsibility of two whisters

# A declares, B = first defender (A's left), C = second defender (A's right)
@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("level,b,c,personal,capped", [
    (6, 3, 0, (0, 2), (0, 1)),
    (6, 0, 3, (2, 0), (1, 0)),
    (6, 2, 1, (0, 1), (0, 1)),
    (6, 1, 1, (1, 1), (1, 1)),
    (6, 2, 0, (0, 2), (0, 2)),
    (6, 0, 0, (2, 2), (2, 2)),
    (6, 4, 0, (0, 0), (0, 0)),
    (6, 3, 1, (0, 0), (0, 0)),
    (7, 1, 0, (0, 1), (0, 1)),
    (7, 0, 0, (1, 1), (1, 1)),
    (7, 2, 0, (0, 0), (0, 0)),
])
@pytest.mark.parametrize("split", ["personal", "capped"])
@pytest.mark.parametrize("preset", ["sochi", "rostov"])
def test_two_whisters_shortfall(impl, level, b, c, personal, capped, split, preset):
    a = 10 - b - c
    data = pulka(preset, [game("A", f"{level}D", {"B": "whist", "C": "whist"}, {"A": a, "B": b, "C": c})],
                 first_dealer="C", shortfall_split=split)
    p = 2 * (level - 5)
    sp = F(p) if preset == "sochi" else F(p, 2)
    pen = personal if split == "personal" else capped
    expected = entries(PU("A", p), W("B", "A", p * b), W("C", "A", p * c), GO("B", pen[0] * sp), GO("C", pen[1] * sp))
    assert run(impl, data)[1][0] == expected


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("level", [8, 9])
@pytest.mark.parametrize("mode,b_pen,c_pen", [
    ("second_whister", 0, 1), ("split", F(1, 2), F(1, 2)), ("both", 1, 1),
])
@pytest.mark.parametrize("preset", ["sochi", "rostov", "leningrad"])
def test_q1_responsible(impl, level, mode, b_pen, c_pen, preset):
    data = pulka(preset, [game("A", f"{level}H", {"B": "whist", "C": "whist"}, {"A": 10, "B": 0, "C": 0})],
                 first_dealer="C", q1_responsible=mode)
    p = 2 * (level - 5)
    sp = F(p) if preset != "rostov" else F(p, 2)
    assert run(impl, data)[1][0] == entries(PU("A", p), GO("B", b_pen * sp), GO("C", c_pen * sp))


@pytest.mark.parametrize("impl", IMPLS)
def test_second_whister_is_declarers_right_at_four(impl):
    # 4 players, B deals and sits out; C declares; active C, D, A: C's left = D, C's right = A
    data = pulka("sochi", [game("C", "8S", {"D": "whist", "A": "whist"}, {"C": 10, "D": 0, "A": 0})],
                 players=ABCD, first_dealer="B")
    assert run(impl, data)[1][0] == entries(PU("C", 6), GO("A", 6))


# ------------------------------------------------------------------------------------------------
# §7 raspasy: streaks, exits, Rostov whists

@pytest.mark.parametrize("impl", IMPLS)
def test_sochi_streak_progression_and_reset_by_made_game(impl):
    r = raspasy(A=2, B=3, C=5)
    deals = [r, r, r, r, game("A", "6S", {"B": "pass", "C": "pass"}), r]
    _, deltas, _, _ = run(impl, pulka("sochi", deals, pulya_size=50))
    for i, k in enumerate([1, 2, 3, 3]):
        assert deltas[i] == entries(GO("A", 2 * k), GO("B", 3 * k), GO("C", 5 * k))
    assert deltas[5] == entries(GO("A", 2), GO("B", 3), GO("C", 5))


@pytest.mark.parametrize("impl", IMPLS)
def test_leningrad_progression_2_4_6(impl):
    r = raspasy(A=0, B=3, C=7)
    _, deltas, _, _ = run(impl, pulka("leningrad", [r, r, r, r], pulya_size=50))
    for i, k in enumerate([1, 2, 3, 3]):
        assert deltas[i] == entries(PU("A", k), GO("B", 3 * 2 * k), GO("C", 7 * 2 * k))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("exit_on,k_after", [("made", 2), ("any", 1)])
def test_failed_game_keeps_streak_unless_any(impl, exit_on, k_after):
    deals = [raspasy(A=2, B=3, C=5),
             game("B", "6S", {"C": "whist", "A": "whist"}, {"B": 5, "C": 3, "A": 2}),  # failed
             raspasy(A=2, B=3, C=5)]
    _, deltas, _, _ = run(impl, pulka("sochi", deals, pulya_size=50, raspasy_exit_on=exit_on))
    assert deltas[2] == entries(GO("A", 2 * k_after), GO("B", 3 * k_after), GO("C", 5 * k_after))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("first,k_after", [(misere("B", 0), 1), (misere("B", 1), 2),
                                           (game("B", "7S", {"C": "pass", "A": "half"}), 1)])
def test_misere_and_half_whist_against_streak(impl, first, k_after):
    deals = [raspasy(A=2, B=3, C=5), first, raspasy(A=2, B=3, C=5)]
    _, deltas, _, _ = run(impl, pulka("sochi", deals, pulya_size=50))
    assert deltas[2] == entries(GO("A", 2 * k_after), GO("B", 3 * k_after), GO("C", 5 * k_after))


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("tie,share", [("split", F(1, 2)), ("full", F(1))])
def test_rostov_tie_for_fewest(impl, tie, share):
    data = pulka("rostov", [raspasy(A=2, B=2, C=6)], raspasy_tie=tie)
    assert run(impl, data)[1][0] == entries(W("A", "C", 30 * share), W("B", "C", 30 * share))


@pytest.mark.parametrize("impl", IMPLS)
def test_rostov_fewest_writes_for_every_trick_of_the_others(impl):
    data = pulka("rostov", [raspasy(A=1, B=4, C=5)], raspasy_whists_per_trick=7)
    assert run(impl, data)[1][0] == entries(W("A", "B", 28), W("A", "C", 35))


@pytest.mark.parametrize("impl", IMPLS)
def test_rostov_four_players_dealer_pulya_one(impl):
    data = pulka("rostov", [raspasy(A=0, B=4, C=6)], players=ABCD, first_dealer="D")
    assert run(impl, data)[1][0] == entries(PU("A", 1), PU("D", 1), W("A", "B", 20), W("A", "C", 30))


# ------------------------------------------------------------------------------------------------
# §8 overflow: help order, write-off, several pulya writes in one deal

@pytest.mark.parametrize("impl", IMPLS)
def test_help_largest_first_then_writeoff(impl):
    # P = 5: A 4 (made 7 earlier), B 3? build: A +4, C +2, then A misère +10 -> surplus 9:
    # C needs 3 (largest unfinished), B needs 5, remaining 1 written off A's gora
    deals = [game("A", "7S", {"B": "pass", "C": "pass"}), game("C", "6S", {"A": "pass", "B": "pass"}),
             misere("A", 0)]
    data = pulka("sochi", deals, pulya_size=5)
    sheet, deltas, finished, _ = run(impl, data)
    assert deltas[2] == entries(PU("A", 1), PU("C", 3), W("A", "C", 30), PU("B", 5), W("A", "B", 50), GO("A", -1))
    assert finished is True


@pytest.mark.parametrize("impl", IMPLS)
def test_help_ties_nearest_clockwise_from_helper(impl):
    # four players, everyone else at 0: B writes 6 with P = 2 -> C (next clockwise) first, then D, then A
    deals = [game("B", "8S", {"C": "pass", "D": "pass"})]  # A deals and sits out
    data = pulka("sochi", deals, players=ABCD, pulya_size=2, help_whists_per_point=7)
    _, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("B", 2), PU("C", 2), W("B", "C", 14), PU("D", 2), W("B", "D", 14))
    # the dealer who sits out (A) was not helped since the surplus ran out; with 8 he is
    deals = [game("B", "9S", {"C": "pass", "D": "pass"})]
    _, deltas, finished, _ = run(impl, pulka("sochi", deals, players=ABCD, pulya_size=2))
    assert deltas[0] == entries(PU("B", 2), PU("C", 2), W("B", "C", 20), PU("D", 2), W("B", "D", 20),
                                PU("A", 2), W("B", "A", 20))
    assert finished is True


@pytest.mark.parametrize("impl", IMPLS)
def test_writeoff_gora_per_point_and_negative_gora(impl):
    data = pulka("sochi", [misere("A", 0)], pulya_size=4, overflow="writeoff", writeoff_gora_per_point=2)
    sheet, deltas, _, _ = run(impl, data)
    assert deltas[0] == entries(PU("A", 4), GO("A", -12))
    assert sheet["gora"]["A"] == -12


@pytest.mark.parametrize("impl", IMPLS)
def test_several_zero_trick_writes_in_order(impl):
    # P = 1; deal 2 is dealt by B, first hand C, then A, then B; k = 2 -> bonus 2 each.
    # A (first zero-trick writer): 1 to own pulya, 1 helps B (tie with C at 0, B nearer clockwise);
    # then B: already closed, 1 helps C, 1 written off B's gora.
    deals = [raspasy(A=3, B=3, C=4), raspasy(A=0, B=0, C=10)]
    data = pulka("sochi", deals, pulya_size=1)
    sheet, deltas, finished, _ = run(impl, data)
    assert deltas[1] == entries(PU("A", 1), PU("B", 1), W("A", "B", 10), PU("C", 1), W("B", "C", 10),
                                GO("B", -1), GO("C", 20))
    assert finished is True
    assert sheet["gora"] == {"A": 3, "B": 2, "C": 24}


@pytest.mark.parametrize("impl", IMPLS)
def test_four_players_dealer_pulya_one_written_last(impl):
    # Rostov, P = 1. Deal 1 dealt by D: A 0 -> A +1 (closed), D +1 (closed).
    # Deal 2 dealt by A (active B, C, D): B 0 -> B +1 (closed); then dealer A +1: surplus helps C.
    deals = [raspasy(A=0, B=4, C=6), raspasy(B=0, C=5, D=5)]
    data = pulka("rostov", deals, players=ABCD, first_dealer="D", pulya_size=1)
    sheet, deltas, finished, _ = run(impl, data)
    assert deltas[1] == entries(PU("B", 1), PU("C", 1), W("A", "C", 10), W("B", "C", 25), W("B", "D", 25))
    assert finished is True


@pytest.mark.parametrize("impl", IMPLS)
def test_pulka_end_total_no_cap(impl):
    data = pulka("leningrad", [misere("A", 0), misere("B", 0)], pulya_size=5)
    sheet, deltas, finished, _ = run(impl, data)
    assert sheet["pulya"] == {"A": 10, "B": 10, "C": 0}
    assert finished is True  # 20 >= 3 x 5
    data = pulka("leningrad", [misere("A", 0)], pulya_size=5)
    assert run(impl, data)[2] is False
