"""Differential test: thousands of generated valid pulkas, engine vs the independent reference.

In process (`loads` + `result_json`) and through the real CLI (`python -m scorekeeper.cli
replay - --json`). On a mismatch the smallest failing pulka found by shrinking is printed.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from .generate import generate
from .helpers import differences, engine_fails, run_cli, run_engine, shrink

CHUNKS = 8
PER_CHUNK = 500  # 4000 pulkas in process
CLI_RUNS = 120


def _report(failures: list[tuple[int, dict, list[str]]], fails=engine_fails) -> str:
    lines = [f"{len(failures)} generated pulkas disagree with the reference"]
    for seed, data, diffs in failures[:3]:
        small = shrink(data, fails)
        lines.append(f"--- seed {seed}: {diffs[0]}")
        lines.append("smallest failing pulka:")
        lines.append(json.dumps(small, ensure_ascii=False))
        lines.extend("  " + d for d in differences(small, run_engine(small)))
    return "\n".join(lines)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_engine_matches_reference(chunk):
    failures = []
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        data = generate(random.Random(seed))
        diffs = differences(data, run_engine(data))
        if diffs:
            failures.append((seed, data, diffs))
    assert not failures, _report(failures)


def _finished_pulkas(count: int, offset: int) -> list[tuple[int, dict]]:
    out = []
    seed = offset
    while len(out) < count:
        out.append((seed, generate(random.Random(seed), max_deals=200)))
        seed += 1
    return out


def test_engine_matches_reference_long_pulkas():
    """Pulkas played to the end (up to 200 deals), all presets, 3 and 4 players."""
    failures = []
    for seed, data in _finished_pulkas(300, 10**6):
        diffs = differences(data, run_engine(data))
        if diffs:
            failures.append((seed, data, diffs))
    assert not failures, _report(failures)


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov"])
@pytest.mark.parametrize("n", [3, 4])
def test_engine_matches_reference_pure_presets(preset, n):
    """The presets as they are (no overrides): the acceptance-test setting."""
    failures = []
    for seed in range(150):
        data = generate(random.Random(seed + 7 * 10**6), n=n, preset=preset, p_override=0.0)
        diffs = differences(data, run_engine(data))
        if diffs:
            failures.append((seed, data, diffs))
    assert not failures, _report(failures)


def _cli_check(seed: int) -> tuple[int, dict, list[str]] | None:
    data = generate(random.Random(seed + 5 * 10**6))
    proc = run_cli(data)
    problems = []
    if proc.returncode != 0:
        problems.append(f"exit status {proc.returncode}, stderr {proc.stderr.decode()!r}")
    else:
        if proc.stderr:
            problems.append(f"stderr on success: {proc.stderr.decode()!r}")
        result = json.loads(proc.stdout)
        if result.get("format") != "pulya-result/1" or result.get("players") != data["players"]:
            problems.append("not a pulya-result/1 object for these players")
        problems += differences(data, result)
        # the CLI prints what the library computes
        if result != json.loads(json.dumps(run_engine(data), ensure_ascii=False)):
            problems.append("CLI output differs from result_json")
    return (seed, data, problems) if problems else None


def test_cli_matches_reference():
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f for f in pool.map(_cli_check, range(CLI_RUNS)) if f]
    assert not failures, _report(failures)


def test_cli_human_output_runs():
    data = generate(random.Random(42), max_deals=30)
    proc = run_cli(data, args=())
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    for name in data["players"]:
        assert name in out
