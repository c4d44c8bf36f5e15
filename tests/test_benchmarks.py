"""The benchmark scripts still run against today's app, at a tiny size: they measure nothing here (speed is
read from their full runs, never asserted), but a change that breaks one (a new access rule, a new limit)
fails here instead of being found when someone wants a figure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"
TINY = {
    "engine.py": ["--deals", "200", "--repeat", "1"],
    "web.py": ["--requests", "3", "--seconds", "0.2", "--clients", "2"],
    "pdf.py": ["10", "1", "--pdfs", "2", "--pdf-deals", "30"],
    "memory.py": ["--deals", "60", "--versions", "3"],
    "live.py": ["--tables", "2", "--phones", "2", "--seconds", "8", "--every", "1"],
    "contention.py": ["--writers", "3", "--deals", "6"],
    "replay.py": ["--deals", "200", "--repeat", "1"],
    "home.py": ["--pulkas", "2", "--deals", "20", "--clients", "2", "--seconds", "1"],
    "ledger.py": ["--players", "4", "8", "--repeat", "1"],
    "ledger_page.py": ["--pulkas", "3", "--payments", "5", "--players", "4", "--repeat", "2"],
    "players.py": ["--pulkas", "4", "--deals", "20", "--repeat", "2"],
    "write_cost.py": ["--tables", "2", "--writes", "20"],
    "club_load.py": ["--pulkas", "4", "--payments", "20", "--seconds", "0.5", "--idle", "0.3", "--readers", "2",
                     "--anonymous", "1"],
    "draw.py": ["--sizes", "9x3x3", "6x4x2", "--seeds", "1", "--standings", "8"],
}


def test_every_benchmark_is_listed():
    assert {path.name for path in BENCHMARKS.glob("*.py")} - {"generate.py"} == set(TINY)


@pytest.mark.parametrize("script", sorted(TINY))
def test_the_benchmark_runs(script, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {"TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *TINY[script]], capture_output=True, text=True,
                          timeout=240, env=env, cwd=BENCHMARKS.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
