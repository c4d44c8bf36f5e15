"""Sheets settled in published sources, read as `pulya-sheet/1` files (docs/files.md §4) and settled (docs/rules.md §9,
§15): other calculators' tests, two pages of rules and the Кодекс (tests/data/paper_published.json: where each
comes from, what it says, and why the exact answer differs where it does: cut to whole whists, ÷(n − 1), the
pulya left out, the whists' sign lost)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from scorekeeper.files import sheetfile
from scorekeeper.engine import settle

CASES = json.loads((Path(__file__).parent / "data" / "paper_published.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_a_published_sheet_settles_as_its_source_says(case):
    paper = sheetfile.parse(case["sheet"])
    s = settle(paper.sheet, paper.rules)
    exact = tuple(Fraction(v) for v in case["balance"])
    assert s.net == exact
    if "gora_whists" in case:
        assert s.gora_whists == tuple(Fraction(v) for v in case["gora_whists"])
    printed = sheetfile.result_json(paper)["settlement"]["balance"]
    assert all(abs(Fraction(str(printed[name])) - v) <= Fraction(1, 200) for name, v in zip(paper.players, exact))
    assert sum(s.money) == 0
