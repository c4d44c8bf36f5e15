"""Running the real engine / CLI on a pulka dict and comparing with the reference."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from scorekeeper.files.pulyafile import FileError, loads, result_json

from .reference import Reference, replay

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def run_engine(data: dict[str, Any] | str) -> dict[str, Any]:
    """The engine's result_json, or {"error": {...}} for an invalid file."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    try:
        return result_json(loads(text))
    except FileError as error:
        return error.to_json()


def run_cli(data: dict[str, Any] | str | bytes, args: tuple[str, ...] = ("--json",)) -> subprocess.CompletedProcess:
    if isinstance(data, dict):
        data = json.dumps(data, ensure_ascii=False)
    if isinstance(data, str):
        data = data.encode("utf-8")
    return subprocess.run(
        [PYTHON, "-m", "scorekeeper.cli", "replay", "-", *args],
        input=data, capture_output=True, cwd=ROOT, timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def num(value: Any) -> Fraction:
    """A JSON number from the engine as an exact Fraction (halves are exact floats)."""
    assert isinstance(value, (int, float)) and not isinstance(value, bool), value
    return Fraction(value) if isinstance(value, int) else Fraction(Decimal(repr(value)))


def dec(value: Any) -> Decimal:
    assert isinstance(value, (int, float)) and not isinstance(value, bool), value
    return Decimal(repr(value)).quantize(Decimal("0.01"))


def engine_deltas(result: dict[str, Any]) -> list[dict[tuple, Fraction]]:
    """Per deal: net points by (player, column, on)."""
    out = []
    for deal in result["deals"]:
        totals: dict[tuple, Fraction] = {}
        for e in deal["entries"]:
            key = (e["player"], e["column"], e.get("on"))
            totals[key] = totals.get(key, Fraction(0)) + num(e["points"])
        out.append({k: v for k, v in totals.items() if v != 0})
    return out


def differences(data: dict[str, Any], result: dict[str, Any], ref: Reference | None = None,
                deltas: bool = True) -> list[str]:
    """Every way the engine's result differs from the reference (empty list: agreement)."""
    if "error" in result:
        return [f"engine rejected a valid pulka: {result['error']}"]
    ref = ref or replay(copy.deepcopy(data))
    expected = ref.result()
    diffs = []
    if result["finished"] is not expected["finished"]:
        diffs.append(f"finished: engine {result['finished']} reference {expected['finished']}")
    sheet, exp_sheet = result["sheet"], expected["sheet"]
    for column in ("pulya", "gora"):
        got = {k: num(v) for k, v in sheet[column].items()}
        if got != exp_sheet[column]:
            diffs.append(f"{column}: engine {_show(got)} reference {_show(exp_sheet[column])}")
    got_w = {a: {b: num(v) for b, v in row.items()} for a, row in sheet["whists"].items()}
    if got_w != exp_sheet["whists"]:
        diffs.append(f"whists: engine {_show(got_w)} reference {_show(exp_sheet['whists'])}")
    st, exp_st = result["settlement"], expected["settlement"]
    for key in ("balance", "money"):
        got = {k: dec(v) for k, v in st[key].items()}
        if got != exp_st[key]:
            diffs.append(f"{key}: engine {_show(got)} reference {_show(exp_st[key])}")
    got_t = [(t["from"], t["to"], dec(t["amount"])) for t in st["transfers"]]
    exp_t = [(t["from"], t["to"], t["amount"]) for t in exp_st["transfers"]]
    if got_t != exp_t:
        diffs.append(f"transfers: engine {got_t} reference {exp_t}")
    if deltas and not diffs:
        got_d = engine_deltas(result)
        exp_d = ref.named_deltas()
        for i, (g, e) in enumerate(zip(got_d, exp_d), 1):
            if g != e:
                diffs.append(f"deal {i} entries: engine {_show(g)} reference {_show(e)}")
                break
        if len(got_d) != len(exp_d):
            diffs.append(f"number of deals: engine {len(got_d)} reference {len(exp_d)}")
    return diffs


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Fraction):
        return str(value)
    return str(value)


# -- shrinking -----------------------------------------------------------------------------------


def _valid_for_reference(data: dict[str, Any]) -> bool:
    """Cheap structural re-check after a shrink step: the engine must still accept it."""
    return "error" not in run_engine(data)


def shrink(data: dict[str, Any], fails: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """A smaller pulka that still fails: shortest failing prefix, then drop deals and overrides."""
    best = copy.deepcopy(data)
    # shortest failing prefix
    for length in range(len(best["deals"]) + 1):
        candidate = dict(best, deals=best["deals"][:length])
        if fails(candidate):
            best = copy.deepcopy(candidate)
            break
    changed = True
    while changed:
        changed = False
        for i in range(len(best["deals"]) - 1, -1, -1):
            candidate = copy.deepcopy(best)
            del candidate["deals"][i]
            if _valid_for_reference(candidate) and fails(candidate):
                best, changed = candidate, True
                break
        for key in [k for k in best["rules"] if k != "preset"]:
            candidate = copy.deepcopy(best)
            del candidate["rules"][key]
            if _valid_for_reference(candidate) and fails(candidate):
                best, changed = candidate, True
                break
        if "first_dealer" in best:
            candidate = copy.deepcopy(best)
            del candidate["first_dealer"]
            if _valid_for_reference(candidate) and fails(candidate):
                best, changed = candidate, True
    return best


def engine_fails(data: dict[str, Any]) -> bool:
    return bool(differences(data, run_engine(data)))
