"""scorekeeper/pulyafile.py: the pulya/1 file as FORMAT.md §1 and §3 describe it."""

from __future__ import annotations

import pytest

from scorekeeper.pulyafile import FileError, parse


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
