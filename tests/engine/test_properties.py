"""Property tests (hypothesis) over generated valid pulkas."""

from __future__ import annotations

import copy
import json
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.files.pulyafile import loads

from .generate import generate, pulkas
from .helpers import dec, engine_deltas, run_cli, run_engine
from .reference import Reference

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---- settlement sums ---------------------------------------------------------------------------


@SETTINGS
@given(pulkas())
def test_balances_and_money_sum_to_zero(data):
    pulka = loads(json.dumps(data))
    settlement = pulka.settle()
    assert sum(settlement.net) == 0
    result = run_engine(data)
    money = [dec(v) for v in result["settlement"]["money"].values()]
    balance = [dec(v) for v in result["settlement"]["balance"].values()]
    assert sum(money) == Decimal("0.00")
    n = len(data["players"])
    assert abs(sum(balance)) <= Decimal("0.005") * n
    price_ = Fraction(Decimal(str(pulka.rules.whist_price)))
    for m, net in zip(money, settlement.net):
        assert abs(Fraction(m) - Fraction(net) * price_) < Fraction(1, 100)
    # the transfers settle the money with at most n - 1 positive payments
    left = dict(zip(data["players"], money))
    transfers = result["settlement"]["transfers"]
    assert len(transfers) <= n - 1
    for t in transfers:
        amount = dec(t["amount"])
        assert amount > 0 and t["from"] != t["to"]
        left[t["from"]] += amount
        left[t["to"]] -= amount
    assert all(v == 0 for v in left.values())


# ---- renaming and rotating ------------------------------------------------------------------------


def _rename(data: dict, mapping: dict[str, str]) -> dict:
    out = copy.deepcopy(data)
    out["players"] = [mapping[p] for p in data["players"]]
    if "first_dealer" in out:
        out["first_dealer"] = mapping[out["first_dealer"]]
    for deal in out["deals"]:
        if "declarer" in deal:
            deal["declarer"] = mapping[deal["declarer"]]
        for key in ("whist", "tricks"):
            if key in deal:
                deal[key] = {mapping[k]: v for k, v in deal[key].items()}
    return out


def _strip_reasons(result: dict) -> dict:
    out = copy.deepcopy(result)
    for deal in out["deals"]:
        for e in deal["entries"]:
            e.pop("reason")
    return out


def _map_names(value, mapping):
    if isinstance(value, dict):
        return {mapping.get(k, k) if isinstance(k, str) else k: _map_names(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_names(v, mapping) for v in value]
    if isinstance(value, str):
        return mapping.get(value, value)
    return value


@SETTINGS
@given(pulkas(), st.randoms(use_true_random=False))
def test_renaming_players_permutes_the_result(data, rnd):
    new = [f"Player {i}" for i in range(len(data["players"]))]
    rnd.shuffle(new)
    mapping = dict(zip(data["players"], new))
    before = _strip_reasons(run_engine(data))
    after = _strip_reasons(run_engine(_rename(data, mapping)))
    assert "error" not in before and "error" not in after
    before.pop("rules"), after.pop("rules")
    assert _map_names(before, mapping) == after


@SETTINGS
@given(pulkas(), st.integers(1, 3))
def test_rotating_seats_permutes_the_result(data, shift):
    n = len(data["players"])
    rotated = copy.deepcopy(data)
    rotated["players"] = data["players"][shift % n:] + data["players"][:shift % n]
    rotated["first_dealer"] = data.get("first_dealer", data["players"][0])
    a, b = run_engine(data), run_engine(rotated)
    assert "error" not in a and "error" not in b
    assert a["finished"] == b["finished"]
    assert a["sheet"]["pulya"] == b["sheet"]["pulya"]
    assert a["sheet"]["gora"] == b["sheet"]["gora"]
    assert a["sheet"]["whists"] == b["sheet"]["whists"]
    assert a["settlement"]["balance"] == b["settlement"]["balance"]
    assert engine_deltas(a) == engine_deltas(b)
    assert [d["dealer"] for d in a["deals"]] == [d["dealer"] for d in b["deals"]]
    # money may differ only by the tie-break of a cent
    for name in data["players"]:
        assert abs(dec(a["settlement"]["money"][name]) - dec(b["settlement"]["money"][name])) <= Decimal("0.01")


# ---- generated valid pulkas validate; a prefix replays to a prefix -----------------------------------


@SETTINGS
@given(pulkas())
def test_generated_pulkas_validate(data):
    result = run_engine(data)
    assert "error" not in result, result
    assert len(result["deals"]) == len(data["deals"])
    assert [d["n"] for d in result["deals"]] == list(range(1, len(data["deals"]) + 1))


@SETTINGS
@given(pulkas(), st.randoms(use_true_random=False))
def test_prefix_replay_is_prefix_of_history(data, rnd):
    assume(data["deals"])
    m = rnd.randint(0, len(data["deals"]))
    full = loads(json.dumps(data)).replay()
    prefix_data = dict(data, deals=data["deals"][:m])
    prefix = loads(json.dumps(prefix_data)).replay()
    assert len(prefix.results) == m
    for a, b in zip(prefix.results, full.results):
        assert a.entries == b.entries
        assert (a.sheet.pulya, a.sheet.gora, a.sheet.whists) == (b.sheet.pulya, b.sheet.gora, b.sheet.whists)
    if m:
        s, t = prefix.sheet, full.results[m - 1].sheet
        assert (s.pulya, s.gora, s.whists, s.finished) == (t.pulya, t.gora, t.whists, t.finished)
    full_json, prefix_json = run_engine(data), run_engine(prefix_data)
    assert prefix_json["deals"] == full_json["deals"][:m]


# ---- a valid deal mutated to break exactly one rule ----------------------------------------------------


BREAKABLE = ["bad_format", "unknown_player", "inactive_player", "bad_contract", "bad_whist",
             "half_whist_not_allowed", "stalingrad", "tricks_missing", "tricks_unexpected", "bad_tricks",
             "tricks_sum", "raspasy_exit", "pulka_finished"]


def _state_before(data: dict, i: int) -> Reference:
    ref = Reference(data)
    for deal in data["deals"][:i]:
        ref.apply(deal)
    return ref


def _played(ref: Reference, deal: dict) -> bool:
    if deal["type"] != "game":
        return True
    if "whist" not in deal:
        return True  # checked ten
    return "whist" in deal["whist"].values()


def break_rule(data: dict, code: str, rng: random.Random) -> tuple[dict, int] | None:
    """Mutate one deal of a valid pulka (and cut the deals after it) so that exactly `code` applies."""
    deals = data["deals"]
    if code == "pulka_finished":
        ref = _state_before(data, len(deals))
        if not ref.finished:
            return None
        act = [ref.players[s] for s in ref.active()]
        out = copy.deepcopy(data)
        out["deals"].append({"type": "raspasy", "tricks": {act[0]: 3, act[1]: 3, act[2]: 4}})
        return out, len(deals) + 1
    order = list(range(len(deals)))
    rng.shuffle(order)
    for i in order:
        ref = _state_before(data, i)
        deal = copy.deepcopy(deals[i])
        kind = deal["type"]
        names = ref.players
        act = [names[s] for s in ref.active()]
        out = copy.deepcopy(data)
        out["deals"] = out["deals"][:i]
        if code == "bad_format":
            deal[rng.choice(["comment", "Tricks", "contracts", "bid"])] = "x"
        elif code == "unknown_player":
            if kind == "raspasy":
                key = rng.choice(list(deal["tricks"]))
                deal["tricks"]["Nobody"] = deal["tricks"].pop(key)
            else:
                deal["declarer"] = "Nobody"
        elif code == "inactive_player":
            if ref.n != 4 or kind == "raspasy":
                continue
            deal["declarer"] = names[ref.dealer()]
        elif code == "bad_contract":
            if kind != "game":
                continue
            deal["contract"] = rng.choice(["5NT", "11S", "6Z", "7", "NT", 8, None, "6s "])
        elif code == "bad_whist":
            if kind != "game":
                continue
            if "whist" not in deal:  # checked ten
                first, second = (names[s] for s in ref.defenders(ref.seat[deal["declarer"]]))
                deal["whist"] = {first: "whist", second: "whist"}
            elif rng.random() < 0.5 and _played(ref, deal):
                del deal["whist"]
            else:
                key = rng.choice(list(deal["whist"]))
                deal["whist"][key] = rng.choice(["vist", "PASS", "", "half-whist"])
        elif code == "half_whist_not_allowed":
            if kind != "game" or "whist" not in deal:
                continue
            first, second = (names[s] for s in ref.defenders(ref.seat[deal["declarer"]]))
            deal["whist"] = {first: "half", second: "pass"}  # by the first defender
            deal.pop("tricks", None)
            deal.pop("open", None)
        elif code == "stalingrad":
            if any(d["type"] == "game" and d["contract"] == "6S" for d in out["deals"]):
                continue
            declarer = rng.choice(act)
            first, second = (names[s] for s in ref.defenders(ref.seat[declarer]))
            deal = {"type": "game", "declarer": declarer, "contract": "6S",
                    "whist": {first: "whist", second: "pass"}, "tricks": {declarer: 6, first: 2, second: 2}}
            out["rules"] = dict(out["rules"], stalingrad=True)
        elif code == "tricks_missing":
            if not _played(ref, deal):
                continue
            del deal["tricks"]
        elif code == "tricks_unexpected":
            if _played(ref, deal):
                continue
            first, second = (names[s] for s in ref.defenders(ref.seat[deal["declarer"]]))
            deal["tricks"] = {deal["declarer"]: 6, first: 2, second: 2}
        elif code == "bad_tricks":
            if not _played(ref, deal):
                continue
            key = rng.choice([k for k in deal["tricks"] if k in act])
            deal["tricks"][key] = rng.choice([-1, 11, str(deal["tricks"][key]), deal["tricks"][key] + 0.5, None])
        elif code == "tricks_sum":
            if not _played(ref, deal) or (kind == "misere" and len(deal["tricks"]) == 1):
                continue
            key = rng.choice([k for k in deal["tricks"] if k in act and deal["tricks"][k] < 10])
            deal["tricks"][key] += 1
        elif code == "raspasy_exit":
            low = ref.exit_minimum()
            if kind != "game" or low == 6 or "whist" not in deal:
                continue
            if "half" in deal["whist"].values() and low - 1 not in ref.r["half_whist"]:
                continue
            deal["contract"] = f"{low - 1}NT"
        out["deals"].append(deal)
        return out, i + 1
    return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from(BREAKABLE))
def test_breaking_one_rule_reports_that_rule(seed, code):
    rng = random.Random(seed)
    data = generate(rng, max_deals=200 if code == "pulka_finished" else rng.choice([1, 5, 20, 40]))
    broken = break_rule(data, code, rng)
    assume(broken is not None)
    mutated, number = broken
    result = run_engine(mutated)
    assert "error" in result, f"{code} not detected in deal {number}: {json.dumps(mutated, ensure_ascii=False)}"
    error = result["error"]
    assert (error["code"], error["deal"]) == (code, number), (error, json.dumps(mutated["deals"][-1]))


@pytest.mark.parametrize("code", BREAKABLE)
def test_breaking_one_rule_via_cli(code):
    for seed in range(200):
        rng = random.Random(seed)
        data = generate(rng, max_deals=200 if code == "pulka_finished" else 10)
        broken = break_rule(data, code, rng)
        if broken:
            break
    assert broken, f"no pulka to break {code}"
    mutated, number = broken
    proc = run_cli(mutated)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and "Traceback" not in err
    error = json.loads(proc.stdout)["error"]
    assert (error["code"], error["deal"]) == (code, number)


# ---- the generator covers what the differential test needs ---------------------------------------------


def test_generator_covers_the_deal_kinds():
    seen = set()
    for seed in range(400):
        data = generate(random.Random(seed))
        for deal in data["deals"]:
            if deal["type"] == "game":
                seen.add("checked ten" if "whist" not in deal else "/".join(sorted(deal["whist"].values())))
            else:
                seen.add(deal["type"])
            if deal["type"] == "misere":
                seen.add("misere made" if deal["tricks"][deal["declarer"]] == 0 else "misere failed")
        if len(data["players"]) == 4:
            seen.add("four players")
            rules = Reference(data).r
            if rules["raspasy_scoring"] == "whists" and rules["raspasy_dealer"] == "talon" and any(
                    deal["type"] == "raspasy" and len(deal["tricks"]) == 4 for deal in data["deals"]):
                seen.add("talon tricks in whists")
    assert seen >= {"checked ten", "pass/pass", "pass/whist", "whist/whist", "half/pass", "misere",
                    "misere made", "misere failed", "raspasy", "four players", "talon tricks in whists"}
