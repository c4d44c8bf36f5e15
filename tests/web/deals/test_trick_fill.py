"""The tricks one count tells (10 − the rest, 0 for the others when one hand took all 10), one rule on both
sides: the server's (scorekeeper/web/domain/deals.py, fill_tricks: the form sent without JavaScript) and the
browser's (static/js/tricks.js, fillTricks: the form as it is tapped), each run on every case of
tests/data/trick_fill.json.

A case: the hands' counts in seating order ("counts": a number, null for a blank, a string for text the form
sent that is not a number, which the server keeps for the engine to name), the talon's count ("talon": null
without one), what the rule makes of them ("filled") and why. The correction of a count that no longer adds
up depends on which hand was tapped when: the deal form's (static/js/deal.js), tested in browser/test_browser.py."""

from __future__ import annotations

import json

import pytest

from scorekeeper.web.domain.deals import _tricks, fill_tricks

from ..browser.test_browser import live, page  # noqa: F401  (fixtures)
from ..conftest import DATA

CASES = json.loads((DATA / "trick_fill.json").read_text(encoding="utf-8"))


def test_the_cases_cover_the_rule():
    assert len(CASES) >= 15
    for case in CASES:
        assert set(case) == {"counts", "talon", "filled", "why"} and len(case["filled"]) == len(case["counts"])
    assert {len(case["counts"]) for case in CASES} == {3}  # three hands in play, with three players or four
    assert any(case["talon"] is None for case in CASES) and any(case["talon"] is not None for case in CASES)
    assert any(case["filled"] == case["counts"] for case in CASES)  # left alone
    assert any(isinstance(count, str) for case in CASES for count in case["counts"])  # text


@pytest.mark.parametrize("case", CASES, ids=[case["why"] for case in CASES])
def test_the_server_fills_in_each_case(case):
    assert fill_tricks(case["counts"], case["talon"]) == case["filled"], case["why"]


@pytest.mark.parametrize("case", CASES, ids=[case["why"] for case in CASES])
def test_the_form_without_javascript_fills_in_each_case(case):
    """The same through the form's fields as they are posted (t<seat>, '' for a blank), the talon's as the
    dealer's who sits out; what is left blank is not in the deal."""
    seats = tuple(range(len(case["counts"])))
    talon_seat = len(seats) if case["talon"] is not None else None
    fields = {f"t{seat}": "" if count is None else str(count) for seat, count in zip(seats, case["counts"])}
    if talon_seat is not None:
        fields[f"t{talon_seat}"] = str(case["talon"])
    expected = {seat: count for seat, count in zip(seats, case["filled"]) if count is not None}
    if case["talon"] not in (None, 0):
        expected[talon_seat] = case["talon"]
    assert _tricks(fields, seats, talon_seat) == (expected or None), case["why"]


@pytest.mark.browser
def test_the_browser_fills_in_each_case(live, page):  # noqa: F811
    """static/js/tricks.js imported as the pages import it (a module, under the Content-Security-Policy)."""
    app, base, client = live
    page.goto(f"{base}/login")
    filled = page.evaluate("""async (cases) => {
        const { fillTricks } = await import("/static/js/tricks.js");
        return cases.map((c) => fillTricks(c.counts, c.talon));
    }""", CASES)
    wrong = [(case["why"], case["filled"], got) for case, got in zip(CASES, filled, strict=True)
             if got != case["filled"]]
    assert wrong == []
