"""The `scorekeeper` command as a player runs it: files in, sheet and settlement out."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper import cli
from scorekeeper.files.pulyafile import PulkaFile, dumps, loads, result_json

EXAMPLES = Path(__file__).parent / "data" / "sochi_examples.json"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorekeeper.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_human_output_shows_sheet_balances_and_transfers():
    done = run("replay", str(EXAMPLES))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # docs/rules.md §10, Ex 10 and Ex 11
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


def test_version():
    done = run("--version")
    assert done.returncode == 0 and done.stdout == f"scorekeeper {scorekeeper.__version__}\n"


def test_json_output_is_the_result_object_exactly():
    done = run("replay", "-", "--json", stdin=EXAMPLES.read_text())
    assert done.stdout == json.dumps(result_json(loads(EXAMPLES.read_text())), ensure_ascii=False) + "\n"


@pytest.mark.parametrize("flag", [(), ("--json",)])
def test_the_pulka_is_replayed_and_settled_once(monkeypatch, capsys, flag):
    calls = {"replay": 0, "settle": 0}
    for name in calls:
        def counted(self, *args, _name=name, _method=getattr(PulkaFile, name)):
            calls[_name] += 1
            return _method(self, *args)
        monkeypatch.setattr(PulkaFile, name, counted)
    assert cli.main(["replay", str(EXAMPLES), *flag]) == 0
    assert calls == {"replay": 1, "settle": 1}
    assert capsys.readouterr().out


def test_numbers_are_written_as_on_the_pages():
    # Rostov 8 made with two whisters who took nothing, q1_responsible split: 1½ gora each (§5.3, §14)
    data = {"format": "pulya/1", "players": ["A", "B", "C"], "first_dealer": "C",
            "rules": {"preset": "rostov", "q1_responsible": "split"},
            "deals": [{"type": "game", "declarer": "A", "contract": "8H", "whist": {"B": "whist", "C": "whist"},
                       "tricks": {"A": 10, "B": 0, "C": 0}}]}
    done = run("replay", "-", stdin=json.dumps(data))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:3] for line in done.stdout.splitlines()[3:6]}
    assert rows == {"A": ["6", "0"], "B": ["0", "1½"], "C": ["0", "1½"]}
    # Net_B = 10 × (1 − 1½) + 10 × (0 − 2) = −25 (§15): a minus sign, as on the pages
    assert ["B", "−25.00", "−25.00"] in [line.split() for line in done.stdout.splitlines()]


def test_an_unreadable_path_with_braces_stays_one_line(tmp_path):
    done = run("replay", str(tmp_path / "{0}.json"))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "{0}.json" in done.stderr and "Traceback" not in done.stderr


# -- settle: a paper sheet (docs/files.md §4) ------------------------------------------

PAPER = {"format": "pulya-sheet/1", "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi", "whist_price": 0.5},
         "pulya": {"Аня": 20, "Борис": 14, "Вера": 20}, "gora": {"Аня": 42, "Борис": 96, "Вера": 132},
         "whists": {"Аня": {"Борис": 170, "Вера": 60}, "Борис": {"Аня": 64, "Вера": 178},
                    "Вера": {"Аня": 88, "Борис": 95}}}


def test_settle_tells_the_steps_as_paper_does(tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(PAPER, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "settle", str(path)], capture_output=True,
                          timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr
    assert "the smallest gora, 42, is struck from every gora" in out
    assert "Борис's 54 gora points: 180 whists from each of the others" in out
    assert "Аня–Борис: 350 − 64 = 286; for the pulya +20: 306." in out
    assert "Аня: +578 whists, +289.00." in out
    assert "Вера pays Аня 227.50." in out and "Борис pays Аня 61.50." in out


def test_settle_speaks_russian_when_asked_or_when_the_locale_is_russian(tmp_path, monkeypatch):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(PAPER, ensure_ascii=False), encoding="utf-8")
    asked = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "settle", str(path), "--lang", "ru"],
                           capture_output=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    out = asked.stdout.decode("utf-8")
    assert asked.returncode == 0, asked.stderr
    assert "Амнистия: наименьшая гора, 42, списывается со всех гор." in out
    assert "Борис: в горе 54, каждый из остальных пишет висты: 180 (54 × 10 ÷ 3)." in out
    assert "Аня–Борис: 350 − 64 = 286; за пулю +20: 306." in out
    assert "Аня: в вистах +578, в деньгах +289,00." in out  # a decimal comma
    assert "Вера → Аня: 227,50." in out and "Кто кому платит:" in out
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    from_locale = subprocess.run([sys.executable, "-m", "scorekeeper.cli", "settle", str(path)],
                                 capture_output=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert from_locale.stdout == asked.stdout


def test_replay_speaks_russian_and_an_unknown_language_is_english(capsys):
    assert cli.main(["replay", str(EXAMPLES), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Пулька: A, B, C. Правила: Сочи, пуля 10, цена виста 0,5; 10 сдач\n")
    assert "Пулька расписана." in out and "B → A: 107,33." in out
    assert cli.main(["replay", str(EXAMPLES), "--lang", "xx"]) == 0
    assert "B pays A 107.33." in capsys.readouterr().out


def test_settle_json_is_the_result_object(capsys):
    import io

    sys_stdin = sys.stdin
    try:
        sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(PAPER).encode()))
        assert cli.main(["settle", "-", "--json"]) == 0
    finally:
        sys.stdin = sys_stdin
    result = json.loads(capsys.readouterr().out)
    assert result["settlement"]["pairwise"]["Аня"] == {"Борис": 306, "Вера": 272}
    assert result["settlement"]["amnesty"] == 42


@pytest.mark.parametrize("changes,code,field", [
    ({"pulya": {"Аня": -1, "Борис": 14, "Вера": 20}}, "bad_number", "pulya.Аня"),
    ({"whists": {"Аня": {"Аня": 0}}}, "self_whists", "whists.Аня.Аня"),
])
def test_settle_refuses_on_the_field(changes, code, field):
    done = run("settle", "-", "--json", stdin=json.dumps(PAPER | changes))
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] | {"message": ""} == {"deal": None, "field": field, "code": code, "message": ""}
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_reader_that_stops_early_is_no_traceback(tmp_path):
    """`scorekeeper replay FILE --json | head -c 100`: the reader goes away; the command stops quietly."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    from generate import long_pulka

    path = tmp_path / "long.json"
    path.write_text(dumps(long_pulka(deals=3000)), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "replay", str(path), "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.read(100)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 1 and "Traceback" not in stderr, stderr
