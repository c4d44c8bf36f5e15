"""scorekeeper/pulyafile.py: the pulya/1 file as FORMAT.md §1 and §3 describe it."""

from __future__ import annotations

import json

import pytest

from scorekeeper.pulyafile import FileError, parse, result_json


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
    # rules.md §14: q1_responsible split makes halves, kept exact as JSON numbers such as 1.5.
    # Rostov 8 made, both whisters took nothing: the short trick costs 0.5 × 6 = 3, split 1.5 each
    data = pulka(rules={"preset": "rostov", "q1_responsible": "split"}, first_dealer="C", deals=[
        {"type": "game", "declarer": "A", "contract": "8H", "whist": {"B": "whist", "C": "whist"},
         "tricks": {"A": 10, "B": 0, "C": 0}}])
    gora = result_json(parse(data))["sheet"]["gora"]
    assert gora == {"A": 0, "B": 1.5, "C": 1.5} and json.dumps(gora) == '{"A": 0, "B": 1.5, "C": 1.5}'
