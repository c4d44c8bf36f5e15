"""docs/files.md §3 error contract: every code with a minimal file, the ordering rule, exit status 2,
one line on stderr, never a traceback (also for random garbage, via hypothesis)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import cli

from .generate import generate
from .helpers import run_cli, run_engine

CODES = [
    "bad_json", "bad_format", "bad_players", "unknown_preset", "unknown_parameter", "bad_parameter",
    "unknown_player", "inactive_player", "bad_contract", "bad_whist", "half_whist_not_allowed", "stalingrad",
    "tricks_missing", "tricks_unexpected", "bad_tricks", "tricks_sum", "raspasy_exit", "pulka_finished",
]
ABC = ["A", "B", "C"]
ABCD = ["A", "B", "C", "D"]


def base(*deals, players=None, **rules):
    return {"format": "pulya/1", "players": players or ABC, "rules": {"preset": "sochi", **rules},
            "deals": list(deals)}


def with_(data, **changes):
    out = copy.deepcopy(data)
    for key, value in changes.items():
        if value is DELETE:
            out.pop(key, None)
        else:
            out[key] = value
    return out


DELETE = object()
PASS2 = {"B": "pass", "C": "pass"}
G6 = {"type": "game", "declarer": "A", "contract": "6H", "whist": {"B": "whist", "C": "pass"},
      "tricks": {"A": 6, "B": 3, "C": 1}}  # A declares; B is A's left with the default dealer
RASP = {"type": "raspasy", "tricks": {"A": 2, "B": 3, "C": 5}}


def g(**changes):
    out = copy.deepcopy(G6)
    for key, value in changes.items():
        if value is DELETE:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def rasp(**tricks):
    return {"type": "raspasy", "tricks": tricks}


# (id, file text or dict, expected code, expected deal)
CASES = [
    # bad_json
    ("json-truncated", '{"format": "pulya/1"', "bad_json", None),
    ("json-empty", "", "bad_json", None),
    ("json-garbage", "not json at all", "bad_json", None),
    ("json-not-utf8", b"\xff\xfe{\x00", "bad_json", None),
    # bad_format
    ("format-list", [], "bad_format", None),
    ("format-string", "just a string", "bad_format", None),
    ("format-missing-deals", with_(base(), deals=DELETE), "bad_format", None),
    ("format-missing-players", with_(base(), players=DELETE), "bad_format", None),
    ("format-missing-rules", with_(base(), rules=DELETE), "bad_format", None),
    ("format-missing-format", with_(base(), format=DELETE), "bad_format", None),
    ("format-misspelt-key", with_(base(), dealz=[]), "bad_format", None),
    ("format-wrong-version", with_(base(), format="pulya/2"), "bad_format", None),
    ("format-deals-not-list", with_(base(), deals={}), "bad_format", None),
    ("format-rules-not-object", with_(base(), rules="sochi"), "bad_format", None),
    ("format-no-preset", with_(base(), rules={"pulya_size": 10}), "bad_format", None),
    ("format-deal-not-object", base("game"), "bad_format", 1),
    ("format-unknown-type", base({"type": "bomb"}), "bad_format", 1),
    ("format-type-list", base({"type": ["game"]}), "bad_format", 1),
    ("format-type-object", base({"type": {"game": 1}}), "bad_format", 1),
    ("format-type-number", base({"type": 1}), "bad_format", 1),
    ("format-no-type", base({"tricks": {"A": 2, "B": 3, "C": 5}}), "bad_format", 1),
    ("format-unknown-deal-key", base(g(note="x")), "bad_format", 1),
    ("format-open-not-bool", base(g(open="yes")), "bad_format", 1),
    ("format-whist-not-object", base(g(whist=["whist", "pass"])), "bad_format", 1),
    ("format-tricks-not-object", base(g(tricks=[6, 3, 1])), "bad_format", 1),
    ("format-missing-declarer", base(g(declarer=DELETE)), "bad_format", 1),
    ("format-misere-contract", base({"type": "misere", "declarer": "A", "contract": "6S", "tricks": {"A": 0}}),
     "bad_format", 1),
    ("format-raspasy-declarer", base({"type": "raspasy", "declarer": "A", "tricks": RASP["tricks"]}),
     "bad_format", 1),
    # bad_players
    ("players-two", base(players=["A", "B"]), "bad_players", None),
    ("players-five", base(players=["A", "B", "C", "D", "E"]), "bad_players", None),
    ("players-duplicate", base(players=["A", "B", "A"]), "bad_players", None),
    ("players-empty-name", base(players=["A", "", "C"]), "bad_players", None),
    ("players-long-name", base(players=["A", "B", "x" * 41]), "bad_players", None),
    ("players-not-string", base(players=["A", "B", 3]), "bad_players", None),
    ("players-not-list", base(players="ABC"), "bad_players", None),
    ("players-unknown-first-dealer", with_(base(), first_dealer="Z"), "bad_players", None),
    # unknown_preset
    ("preset-moscow", base(preset="moscow"), "unknown_preset", None),
    ("preset-capital", base(preset="Sochi"), "unknown_preset", None),
    ("preset-number", base(preset=7), "unknown_preset", None),
    # unknown_parameter
    ("parameter-unknown", base(pulya=10), "unknown_parameter", None),
    ("parameter-misspelt", base(pulya_sise=10), "unknown_parameter", None),
    # bad_parameter
    *[(f"parameter-{name}-{value!r}", base(**{name: value}), "bad_parameter", None) for name, value in [
        ("pulya_size", 0), ("pulya_size", 1001), ("pulya_size", "10"), ("pulya_size", 10.5), ("pulya_size", True),
        ("whist_price", -1), ("whist_price", 0.12345), ("whist_price", "abc"), ("whist_price", None),
        ("pulya_point_whists", -1), ("gora_point_whists", 2.5), ("whist_factor", 0), ("remiz_factor", 0),
        ("consolation_factor", -1), ("consolation_min", -1), ("consolation_by_passer", "yes"),
        ("consolation_by_dealer", 1), ("single_whist_made", "greedy"), ("single_whist_remiz", "whister_all"),
        ("shortfall_factor", 0.25), ("shortfall_factor", 2), ("shortfall_split", "half"),
        ("q1_responsible", "first_whister"), ("half_whist", [8]), ("half_whist", 6), ("half_whist", [6, 6]),
        ("stalingrad", "false"), ("ten_checked", None), ("checked_ten_whists", 0), ("misere_gora_per_trick", 0),
        ("raspasy_scoring", "pulya"), ("raspasy_gora", []), ("raspasy_gora", [0]), ("raspasy_gora", 1),
        ("raspasy_zero_pulya", [-1]), ("raspasy_whists_per_trick", 0), ("raspasy_tie", "half"),
        ("raspasy_exit", [6, 6]), ("raspasy_exit", [5, 6, 6]), ("raspasy_exit", [6, 6, 9]),
        ("raspasy_exit", [6, 6, 6, 6]), ("raspasy_exit_on", "never"), ("raspasy_dealer", "none"),
        ("pulka_end", "first_closed"), ("overflow", "help"), ("help_whists_per_point", -10),
        ("writeoff_gora_per_point", 0),
    ]],
    # unknown_player
    ("player-declarer", base(g(declarer="Z")), "unknown_player", 1),
    ("player-declarer-number", base(g(declarer=7)), "unknown_player", 1),
    ("player-declarer-null", base(g(declarer=None)), "unknown_player", 1),
    ("player-whist", base(g(whist={"B": "whist", "Z": "pass"})), "unknown_player", 1),
    ("player-tricks", base(g(tricks={"A": 6, "B": 3, "Z": 1})), "unknown_player", 1),
    ("player-misere", base({"type": "misere", "declarer": "Q", "tricks": {"Q": 0}}), "unknown_player", 1),
    ("player-raspasy", base(rasp(A=2, B=3, c=5)), "unknown_player", 1),
    # inactive_player: with 4 players and no first_dealer, A deals the first deal and sits out
    ("inactive-declarer", base({"type": "game", "declarer": "A", "contract": "6S",
                                "whist": {"B": "pass", "C": "pass"}}, players=ABCD), "inactive_player", 1),
    ("inactive-whist", base({"type": "game", "declarer": "B", "contract": "6S",
                             "whist": {"C": "pass", "A": "pass"}}, players=ABCD), "inactive_player", 1),
    ("inactive-game-tricks", base({"type": "game", "declarer": "B", "contract": "6S",
                                   "whist": {"C": "whist", "D": "pass"},
                                   "tricks": {"B": 6, "C": 2, "D": 1, "A": 1}}, players=ABCD), "inactive_player", 1),
    ("inactive-misere", base({"type": "misere", "declarer": "A", "tricks": {"A": 0}}, players=ABCD),
     "inactive_player", 1),
    ("inactive-misere-tricks", base({"type": "misere", "declarer": "B", "tricks": {"B": 0, "A": 5, "C": 5}},
                                    players=ABCD), "inactive_player", 1),
    ("inactive-misere-tricks-not-a-count", base({"type": "misere", "declarer": "B",
                                                 "tricks": {"B": 0, "A": "x", "C": 5}}, players=ABCD),
     "inactive_player", 1),
    # bad_contract
    *[(f"contract-{c!r}", base(g(contract=c)), "bad_contract", 1)
      for c in ["5S", "11S", "6X", "6", "S6", "", "10N", "6 S", 6, None, ["6", "S"]]],
    # bad_whist
    ("whist-missing", base(g(whist=DELETE)), "bad_whist", 1),
    ("whist-one-defender", base(g(whist={"B": "whist"})), "bad_whist", 1),
    ("whist-declarer-named", base(g(whist={"A": "pass", "B": "whist"})), "bad_whist", 1),
    ("whist-three", base(g(whist={"A": "pass", "B": "whist", "C": "pass"})), "bad_whist", 1),
    ("whist-word", base(g(whist={"B": "vist", "C": "pass"})), "bad_whist", 1),
    ("whist-word-case", base(g(whist={"B": "Whist", "C": "pass"})), "bad_whist", 1),
    ("whist-word-number", base(g(whist={"B": 1, "C": "pass"})), "bad_whist", 1),
    ("whist-checked-ten", base({"type": "game", "declarer": "A", "contract": "10NT",
                                "whist": {"B": "whist", "C": "whist"}, "tricks": {"A": 10, "B": 0, "C": 0}}),
     "bad_whist", 1),
    # half_whist_not_allowed  (A declares, B first defender, C second)
    ("half-on-8", base(g(contract="8S", whist={"B": "pass", "C": "half"}, tricks=DELETE)),
     "half_whist_not_allowed", 1),
    ("half-by-first", base(g(whist={"B": "half", "C": "pass"}, tricks=DELETE)), "half_whist_not_allowed", 1),
    ("half-beside-whist", base(g(whist={"B": "whist", "C": "half"})), "half_whist_not_allowed", 1),
    ("half-half", base(g(whist={"B": "half", "C": "half"}, tricks=DELETE)), "half_whist_not_allowed", 1),
    ("half-not-in-rules", base(g(whist={"B": "pass", "C": "half"}, tricks=DELETE), half_whist=[7]),
     "half_whist_not_allowed", 1),
    ("half-none-allowed", base(g(contract="7S", whist={"B": "pass", "C": "half"}, tricks=DELETE), half_whist=[]),
     "half_whist_not_allowed", 1),
    ("half-on-whisted-ten", base(g(contract="10S", whist={"B": "pass", "C": "half"}, tricks=DELETE),
                                 ten_checked=False), "half_whist_not_allowed", 1),
    # stalingrad
    ("stalingrad-one-whist", base(g(contract="6S"), stalingrad=True), "stalingrad", 1),
    ("stalingrad-both-pass", base(g(contract="6S", whist=PASS2, tricks=DELETE), stalingrad=True), "stalingrad", 1),
    ("stalingrad-half", base(g(contract="6S", whist={"B": "pass", "C": "half"}, tricks=DELETE), stalingrad=True),
     "stalingrad", 1),
    # tricks_missing
    ("tricks-missing-game", base(g(tricks=DELETE)), "tricks_missing", 1),
    ("tricks-missing-two-whist", base(g(whist={"B": "whist", "C": "whist"}, tricks=DELETE)), "tricks_missing", 1),
    ("tricks-missing-checked-ten", base({"type": "game", "declarer": "A", "contract": "10H"}), "tricks_missing", 1),
    ("tricks-missing-misere", base({"type": "misere", "declarer": "A"}), "tricks_missing", 1),
    ("tricks-missing-misere-declarer", base({"type": "misere", "declarer": "A", "tricks": {"B": 5, "C": 5}}),
     "tricks_missing", 1),
    ("tricks-missing-raspasy", base({"type": "raspasy"}), "tricks_missing", 1),
    ("tricks-missing-raspasy-player", base(rasp(A=4, B=6)), "tricks_missing", 1),
    ("tricks-missing-game-player", base(g(tricks={"A": 6, "B": 4})), "tricks_missing", 1),
    # tricks_unexpected
    ("tricks-unexpected-both-pass", base(g(whist=PASS2)), "tricks_unexpected", 1),
    ("tricks-unexpected-half", base(g(whist={"B": "pass", "C": "half"})), "tricks_unexpected", 1),
    # bad_tricks
    ("tricks-negative", base(g(tricks={"A": 7, "B": 4, "C": -1})), "bad_tricks", 1),
    ("tricks-eleven", base(rasp(A=11, B=0, C=-1)), "bad_tricks", 1),
    ("tricks-float", base(rasp(A=2.5, B=2.5, C=5)), "bad_tricks", 1),
    ("tricks-string", base(g(tricks={"A": "6", "B": 3, "C": 1})), "bad_tricks", 1),
    ("tricks-bool", base(rasp(A=True, B=4, C=5)), "bad_tricks", 1),
    ("tricks-null", base(rasp(A=None, B=5, C=5)), "bad_tricks", 1),
    ("tricks-misere-eleven", base({"type": "misere", "declarer": "A", "tricks": {"A": 11}}), "bad_tricks", 1),
    ("tricks-talon-three", base(rasp(B=3, C=2, D=2, A=3), players=ABCD), "bad_tricks", 1),
    ("tricks-talon-pulya-one", base(rasp(B=3, C=3, D=3, A=1), players=ABCD, preset="rostov"), "bad_tricks", 1),
    # tricks_sum
    ("sum-game-11", base(g(tricks={"A": 7, "B": 3, "C": 1})), "tricks_sum", 1),
    ("sum-game-9", base(g(tricks={"A": 6, "B": 2, "C": 1})), "tricks_sum", 1),
    ("sum-raspasy", base(rasp(A=3, B=3, C=3)), "tricks_sum", 1),
    ("sum-misere-all-three", base({"type": "misere", "declarer": "A", "tricks": {"A": 0, "B": 5, "C": 6}}),
     "tricks_sum", 1),
    ("sum-talon", base(rasp(B=3, C=3, D=4, A=1), players=ABCD), "tricks_sum", 1),
    ("sum-talon-missing", base(rasp(B=3, C=3, D=2), players=ABCD), "tricks_sum", 1),
    # raspasy_exit
    ("exit-7", base(RASP, {"type": "game", "declarer": "B", "contract": "6NT", "whist": {"C": "pass", "A": "pass"}},
                    raspasy_exit=[7, 7, 7]), "raspasy_exit", 2),
    ("exit-8-after-3", base(RASP, RASP, RASP, {"type": "game", "declarer": "A", "contract": "7NT",
                                                "whist": PASS2}, raspasy_exit=[6, 7, 8]), "raspasy_exit", 4),
    # pulka_finished: P = 1, A makes a 6 (+2: 1 own, 1 helps B), then C's 6 closes C
    ("finished", base({"type": "game", "declarer": "A", "contract": "6S", "whist": PASS2},
                      {"type": "game", "declarer": "C", "contract": "6S", "whist": {"A": "pass", "B": "pass"}},
                      RASP, pulya_size=1), "pulka_finished", 3),
    ("finished-total", base({"type": "misere", "declarer": "A", "tricks": {"A": 0}}, RASP,
                            preset="leningrad", pulya_size=3), "pulka_finished", 2),
]


@pytest.fixture(scope="module")
def tmpdir_module():
    with tempfile.TemporaryDirectory() as d:
        yield d


def as_bytes(data) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, str) and not data.startswith('"'):
        if data in ("", "not json at all") or data.startswith("{"):
            return data.encode()
    return json.dumps(data, ensure_ascii=False).encode()


def run_main(raw: bytes, json_flag: bool = True, directory: str | None = None) -> tuple[int, str, str]:
    """The CLI's main() in process (fast), on a temporary file."""
    fd, path = tempfile.mkstemp(suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(["replay", path] + (["--json"] if json_flag else []))
        return rc, out.getvalue(), err.getvalue()
    finally:
        os.unlink(path)


def check_error_output(rc: int, out: str, err: str, json_flag: bool = True) -> dict | None:
    assert rc == 2, (rc, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    assert err.endswith("\n") and err.count("\n") == 1 and err.strip(), repr(err)
    if not json_flag:
        assert out == ""
        return None
    data = json.loads(out)
    assert set(data) == {"error"}
    error = data["error"]
    assert set(error) == {"deal", "field", "code", "message"}, error
    assert error["code"] in CODES
    assert isinstance(error["message"], str) and error["message"] and "\n" not in error["message"]
    assert error["deal"] is None or (isinstance(error["deal"], int) and error["deal"] >= 1)
    assert isinstance(error["field"], str)
    return error


def test_every_code_has_a_case():
    assert {code for _, _, code, _ in CASES} == set(CODES)


@pytest.mark.parametrize("name,data,code,deal", CASES, ids=[c[0] for c in CASES])
def test_error_code(name, data, code, deal):
    rc, out, err = run_main(as_bytes(data))
    error = check_error_output(rc, out, err)
    assert (error["code"], error["deal"]) == (code, deal), error
    if deal is not None:
        assert f"deal {deal}" in error["message"] and f"deal {deal}" in err, error["message"]


@pytest.mark.parametrize("name,data,code,deal", CASES[::9], ids=[c[0] for c in CASES[::9]])
def test_error_code_via_subprocess(name, data, code, deal):
    proc = run_cli(as_bytes(data))
    error = check_error_output(proc.returncode, proc.stdout.decode(), proc.stderr.decode())
    assert (error["code"], error["deal"]) == (code, deal)
    proc = run_cli(as_bytes(data), args=())
    check_error_output(proc.returncode, proc.stdout.decode(), proc.stderr.decode(), json_flag=False)


def test_missing_file():
    buf_out, buf_err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf_out), contextlib.redirect_stderr(buf_err):
        rc = cli.main(["replay", "/nonexistent/pulka.json", "--json"])
    check_error_output(rc, buf_out.getvalue(), buf_err.getvalue())


# ---- ordering: first deal with a problem; first code in table order; outside-deal problems first

ORDER_CASES = [
    ("later-deal-worse-code", base(g(), g(tricks={"A": 7, "B": 3, "C": 1}), g(declarer="Z")), "tricks_sum", 2),
    ("two-codes-one-deal", base(g(declarer="Z", contract="5S")), "unknown_player", 1),
    ("contract-before-tricks", base(g(contract="11S", tricks={"A": 7, "B": 3, "C": 1})), "bad_contract", 1),
    ("format-before-tricks", base(g(note=1, tricks={"A": 7, "B": 3, "C": 1})), "bad_format", 1),
    ("whist-before-tricks-missing", base(g(whist={"B": "vist", "C": "pass"}, tricks=DELETE)), "bad_whist", 1),
    ("half-before-tricks-unexpected", base(g(contract="8S", whist={"B": "pass", "C": "half"})),
     "half_whist_not_allowed", 1),
    ("stalingrad-before-exit", base(RASP, {"type": "game", "declarer": "B", "contract": "6S",
                                           "whist": {"C": "whist", "A": "pass"}, "tricks": {"B": 6, "C": 2, "A": 2}},
                                    stalingrad=True, raspasy_exit=[7, 7, 7]), "stalingrad", 2),
    ("bad-tricks-before-sum", base(rasp(A=-1, B=3, C=5)), "bad_tricks", 1),
    ("inactive-before-whist", base({"type": "game", "declarer": "A", "contract": "6S",
                                    "whist": {"B": "pass", "C": "pass"}}, players=ABCD), "inactive_player", 1),
    ("rules-rule-deals-later-deal", base(rasp(A=3, B=3, C=3), {"type": "bomb"}), "tricks_sum", 1),
    ("earlier-rule-problem-before-later-format", base(g(), rasp(A=3, B=3, C=3), {"type": "game"}),
     "tricks_sum", 2),
    ("top-level-before-deals", base(g(declarer="Z"), pulya=3), "unknown_parameter", None),
    ("top-format-before-players", {"format": "pulya/1", "players": ["A"], "rules": {"preset": "sochi"}},
     "bad_format", None),
    ("players-before-preset", base(players=["A", "A", "B"], preset="kiev"), "bad_players", None),
    ("preset-before-deals", base(g(declarer="Z"), preset="kiev"), "unknown_preset", None),
    ("unknown-before-bad-parameter", base(pulya_size=0, foo=1), "unknown_parameter", None),
    ("sum-before-finished", base({"type": "game", "declarer": "A", "contract": "6S", "whist": PASS2},
                                 {"type": "game", "declarer": "C", "contract": "6S",
                                  "whist": {"A": "pass", "B": "pass"}},
                                 rasp(A=3, B=3, C=3), pulya_size=1), "tricks_sum", 3),
    ("format-before-finished", base({"type": "game", "declarer": "A", "contract": "6S", "whist": PASS2},
                                    {"type": "game", "declarer": "C", "contract": "6S",
                                     "whist": {"A": "pass", "B": "pass"}},
                                    {"type": "foo"}, pulya_size=1), "bad_format", 3),
    ("exit-before-finished", base({"type": "game", "declarer": "A", "contract": "6S", "whist": PASS2},
                                  {"type": "game", "declarer": "C", "contract": "6S",
                                   "whist": {"A": "pass", "B": "pass"}},
                                  RASP, pulya_size=1), "pulka_finished", 3),
]


@pytest.mark.parametrize("name,data,code,deal", ORDER_CASES, ids=[c[0] for c in ORDER_CASES])
def test_error_order(name, data, code, deal):
    assert_reported(data, code, deal)


def assert_reported(data: dict, code: str, deal: int | None) -> None:
    """The file is refused with `code` at `deal`, per the error contract."""
    rc, out, err = run_main(as_bytes(data))
    error = check_error_output(rc, out, err)
    assert (error["code"], error["deal"]) == (code, deal), error


def test_nothing_partially_scored():
    """One bad deal at the end: no result at all."""
    data = base(g(), g(), g(tricks={"A": 7, "B": 3, "C": 1}))
    result = run_engine(data)
    assert set(result) == {"error"}


# ---- random garbage: never a traceback, always exit 0 with a result or 2 with one error

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["A", "B", "C", "D", "game", "misere", "raspasy", "whist", "pass", "half", "6S", "10NT",
                       "sochi", "pulya/1", ""]) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "players", "rules", "deals", "type", "declarer", "contract", "whist",
                         "tricks", "open", "preset", "A", "B", "C", "first_dealer", "pulya_size"]) | st.text(max_size=3),
        children, max_size=5),
    max_leaves=15,
)


def _assert_contract(raw: bytes):
    rc, out, err = run_main(raw)
    if rc == 0:
        result = json.loads(out)
        assert result["format"] == "pulya-result/1"
        assert err == ""
    else:
        check_error_output(rc, out, err)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_garbage_json_values(value):
    _assert_contract(json.dumps(value).encode())


def _mutate(rng: random.Random, node, value):
    """Replace one random sub-value of a JSON tree by `value`."""
    paths = []

    def walk(n, path):
        paths.append(path)
        if isinstance(n, dict):
            for k, v in n.items():
                walk(v, path + [k])
        elif isinstance(n, list):
            for i, v in enumerate(n):
                walk(v, path + [i])

    walk(node, [])
    path = rng.choice(paths[1:]) if len(paths) > 1 else []
    if not path:
        return value
    target = node
    for step in path[:-1]:
        target = target[step]
    if isinstance(target, dict) and rng.random() < 0.2:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return node


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), json_values)
def test_mutated_pulkas_never_crash(seed, value):
    rng = random.Random(seed)
    data = generate(rng, max_deals=rng.choice([1, 3, 10]))
    _assert_contract(json.dumps(_mutate(rng, data, value), ensure_ascii=False).encode())


# Values from the file must never be taken for message templates (a brace in a name or word).
BRACE_CASES = [
    ("brace-whist-word", base(g(whist={"B": "{}", "C": "pass"})), "bad_whist", 1),
    ("brace-whist-word-index", base(g(whist={"B": "{5}", "C": "pass"})), "bad_whist", 1),
    ("brace-declarer", base(g(declarer="{9}")), "unknown_player", 1),
    ("brace-declarer-key", base(g(declarer="{seat}")), "unknown_player", 1),
    ("brace-declarer-object", base(g(declarer={})), "unknown_player", 1),
    ("brace-contract", base(g(contract="{0}{}")), "bad_contract", 1),
    ("brace-tricks-key", base(rasp(A=2, B=3, **{"{1}": 5})), "unknown_player", 1),
    ("brace-tricks-value", base(rasp(A=2, B=3, C="{}")), "bad_tricks", 1),
    ("brace-type", base({"type": "{}"}), "bad_format", 1),
    ("brace-deal-key", base(g(**{"{0}": 1})), "bad_format", 1),
    ("brace-first-dealer", with_(base(), first_dealer="{0}"), "bad_players", None),
    ("brace-parameter", base(**{"{0}": 1}), "unknown_parameter", None),
    ("brace-preset", base(preset="{}"), "unknown_preset", None),
]


@pytest.mark.parametrize("name,data,code,deal", BRACE_CASES, ids=[c[0] for c in BRACE_CASES])
def test_braces_in_values_are_not_templates(name, data, code, deal):
    assert_reported(data, code, deal)


def test_unknown_player_message_names_the_value_verbatim():
    # a message that names someone else ("A is not one of the players") would mislead the user
    rc, out, err = run_main(as_bytes(base(g(declarer="Z{0}"))))
    error = check_error_output(rc, out, err)
    assert error["code"] == "unknown_player"
    assert "Z{0}" in error["message"], error["message"]


@pytest.mark.parametrize("text", [
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "pulya_size": NaN}, "deals": []}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "whist_price": Infinity}, '
    '"deals": []}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi"}, "deals": '
    '[{"type": "raspasy", "tricks": {"A": NaN, "B": 5, "C": 5}}]}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "whist_price": 1e400}, "deals": []}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "pulya_size": 1e3}, "deals": []}',
    '[' * 100000,
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "whist_price": 1e24}, '
    '"deals": [{"type": "misere", "declarer": "A", "tricks": {"A": 1}}]}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "whist_price": 1e30}, "deals": []}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi"}, "deals": '
    '[{"type": "raspasy", "tricks": {"A": [{"": null}], "B": 5, "C": 5}}]}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi"}, "deals": '
    '[{"type": "game", "declarer": "A", "contract": "6S", "whist": {"B": {}, "C": "pass"}}]}',
    '{"format": "pulya/1", "players": ["A","B","C"], "rules": {"preset": "sochi", "whist_price": "1e-2"}, '
    '"deals": []}',
], ids=["nan-parameter", "infinity-price", "nan-tricks", "price-1e400", "pulya-size-1e3", "deep-nesting",
        "price-1e24", "price-1e30", "tricks-list-of-dict", "whist-word-object", "price-string-exponent"])
def test_odd_json_never_crashes(text):
    _assert_contract(text.encode())
