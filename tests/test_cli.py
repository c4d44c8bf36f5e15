"""The `scorekeeper` command as a player runs it: files in, sheet and settlement out."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.pulyafile import dumps, loads

EXAMPLES = Path(__file__).parent / "data" / "sochi_examples.json"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorekeeper.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_human_output_shows_sheet_balances_and_transfers():
    done = run("replay", str(EXAMPLES))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # rules.md §10, Ex 10 and Ex 11
    assert any(line.split()[:3] == ["B", "10", "39"] for line in lines)
    assert "The pulka is finished." in done.stdout
    assert "B pays A 107.33" in done.stdout
    assert "C pays A 24.34" in done.stdout


def test_json_output_from_standard_input():
    done = run("replay", "-", "--json", stdin=EXAMPLES.read_text())
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["format"] == "pulya-result/1"
    assert result["settlement"]["money"] == {"A": 131.67, "B": -107.33, "C": -24.34}
    assert [d["n"] for d in result["deals"]] == list(range(1, 11))
    assert all(entry["reason"] for deal in result["deals"] for entry in deal["entries"])


@pytest.mark.parametrize("text, code", [
    ("{not json", "bad_json"),
    ('{"format": "pulya/1"}', "bad_format"),
])
def test_errors_are_one_line_and_status_2(text, code):
    done = run("replay", "-", "--json", stdin=text)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == code
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_missing_file_is_an_error_not_a_traceback(tmp_path):
    done = run("replay", str(tmp_path / "nope.json"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "nope.json" in done.stderr


def test_export_import_export_is_identical():
    first = dumps(loads(EXAMPLES.read_text()))
    assert dumps(loads(first)) == first
