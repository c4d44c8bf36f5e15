"""scorekeeper/pulyafile.py: the pulya/1 file as docs/files.md §1 and §3 describe it."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper.files.pulyafile import FileError, dumps, loads, parse, result_json, to_json


def pulka(**top) -> dict:
    return {"format": "pulya/1", "players": ["A", "B", "C"], "rules": {"preset": "sochi"}, "deals": []} | top


def error(data: dict) -> tuple[str, str, str]:
    with pytest.raises(FileError) as caught:
        parse(data)
    problem = caught.value.problem
    return problem.code.value, problem.field, caught.value.message


@pytest.mark.parametrize("rules,code,field", [
    ("sochi", "bad_format", "rules"),
    ({"pulya_size": 10}, "bad_format", "rules.preset"),
    ({"preset": 7}, "unknown_preset", "rules.preset"),
    ({"preset": "sochi", "pulya": 10}, "unknown_parameter", "rules.pulya"),
    ({"preset": "sochi", "pulya_size": 0}, "bad_parameter", "rules.pulya_size"),
    ({"preset": "kiev", "pulya_size": 0}, "unknown_preset", "rules.preset"),  # the first code in §3's order
])
def test_rules_problems_are_reported_on_the_rules_field(rules, code, field):
    assert error(pulka(rules=rules))[:2] == (code, field)


def test_halves_are_json_numbers():
    # docs/rules.md §14: q1_responsible split makes halves, kept exact as JSON numbers such as 1.5.
    # Rostov 8 made, both whisters took nothing: the short trick costs 0.5 × 6 = 3, split 1.5 each
    data = pulka(rules={"preset": "rostov", "q1_responsible": "split"}, first_dealer="C", deals=[
        {"type": "game", "declarer": "A", "contract": "8H", "whist": {"B": "whist", "C": "whist"},
         "tricks": {"A": 10, "B": 0, "C": 0}}])
    gora = result_json(parse(data))["sheet"]["gora"]
    assert gora == {"A": 0, "B": 1.5, "C": 1.5} and json.dumps(gora) == '{"A": 0, "B": 1.5, "C": 1.5}'


# ---- name, currency, started: describing the pulka, not scored (docs/files.md §1)

DESCRIBED = {"name": "Friday at Vera's", "currency": "₽", "started": "2026-11-29T19:30:00+03:00"}
DEALS = [{"type": "raspasy", "tricks": {"A": 0, "B": 4, "C": 6}},
         {"type": "game", "declarer": "C", "contract": "6S", "whist": {"A": "pass", "B": "pass"}}]


def test_name_currency_and_started_are_read():
    read = parse(pulka(**DESCRIBED))
    assert (read.name, read.currency) == ("Friday at Vera's", "₽")
    assert read.started == datetime(2026, 11, 29, 19, 30, tzinfo=timezone(timedelta(hours=3)))


def test_they_are_optional():
    read = parse(pulka())
    assert (read.name, read.currency, read.started) == (None, None, None)


@pytest.mark.parametrize("key,value", [
    ("name", "x" * 80), ("name", "Ночь"), ("currency", ""), ("currency", "EUR"), ("currency", "12345678"),
    ("started", "2026-11-29T19:30:00Z"), ("started", "2026-11-29T19:30:00.250-05:30"),
])
def test_values_in_their_domain(key, value):
    assert getattr(parse(pulka(**{key: value})), key) is not None


@pytest.mark.parametrize("key,value", [
    ("name", ""), ("name", "   "), ("name", "x" * 81), ("name", 5), ("name", None), ("name", ["Friday"]),
    ("currency", "x" * 9), ("currency", None), ("currency", 1),
    ("started", "2026-11-29T19:30:00"),  # no offset
    ("started", "2026-11-29"),  # a date, not a date-time
    ("started", "2026-13-01T19:30:00+03:00"), ("started", "last Friday"), ("started", 1764433800), ("started", None),
])
def test_a_wrong_type_length_or_format_is_bad_format_on_that_field(key, value):
    assert error(pulka(**{key: value}))[:2] == ("bad_format", key)


def test_replay_ignores_them():
    assert result_json(parse(pulka(deals=DEALS, **DESCRIBED))) == result_json(parse(pulka(deals=DEALS)))


def test_written_when_set_and_read_back():
    read = parse(pulka(deals=DEALS, **DESCRIBED))
    data = to_json(read)
    assert {key: data[key] for key in DESCRIBED} == DESCRIBED
    assert parse(data) == read and dumps(loads(dumps(read))) == dumps(read)
    assert set(to_json(parse(pulka(deals=DEALS)))) == {"format", "players", "first_dealer", "rules", "deals"}


def test_the_result_settles_with_the_amnesty_and_the_pairwise_table():
    """docs/rules.md §10's Sochi example (docs/files.md §2, §4): the smallest gora is 6; A wins 142 from B and 121⅓
    from C; the table is antisymmetric and each row sums to its player's balance."""
    from pathlib import Path

    file = loads((Path(__file__).parent / "data" / "sochi_examples.json").read_text())
    settlement = result_json(file, file.replay())["settlement"]
    assert settlement["amnesty"] == 6
    pairwise = settlement["pairwise"]
    assert pairwise["A"] == {"B": 142, "C": 121.33} and pairwise["C"]["B"] == 72.67
    assert all(pairwise[x][y] == -pairwise[y][x] for x in "ABC" for y in "ABC" if x != y)
    # Each pair is rounded on its own: a row's sum is its balance to within a cent a pair (exact in the engine).
    assert all(abs(sum(pairwise[x].values()) - settlement["balance"][x]) <= 0.02 for x in "ABC")
