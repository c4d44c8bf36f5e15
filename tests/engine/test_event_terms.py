"""engine/tournament/terms.py: an event's terms read from its JSON, and each refusal of docs/tournament.md §2 on the
top-level key it names."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from scorekeeper.engine import Text
from scorekeeper.engine.tournament import (
    DEFAULT_TIEBREAKS, Band, DrawMethod, EventRefusal, EventTerms, RefusalCode, Scheme, Scoring, Tiebreak,
)
from scorekeeper.i18n.translate import render

F = Fraction

# docs/tournament.md §2's example event, as JSON reads it.
EXAMPLE = json.loads("""
{"name": "Кубок клуба, декабрь", "date": "2026-12-12",
 "players": ["Аня", "Борис", "Вера", "Гриша", "Дима", "Егор", "Жора", "Зоя"],
 "rules": {"preset": "leningrad", "pulka_end": "none"},
 "table_size": 4, "rounds": 4,
 "draw": "fewest_repeats",
 "scoring": {"scheme": "places", "points": {"3": [2, 1, 0], "4": [3, 2, 1, 0]},
             "bonus_positive": 0},
 "tiebreaks": ["whists", "best_round", "lots"],
 "seed": 20261212}
""")
BANDS = {"scheme": "bands", "bands": [[200, 1], [650, 0.1], [None, 0]]}


def test_the_example_event():
    assert EventTerms.of(EXAMPLE) == EventTerms(
        4, 4, DrawMethod.FEWEST_REPEATS,
        Scoring(Scheme.PLACES, three=(F(2), F(1), F(0)), four=(F(3), F(2), F(1), F(0)), bonus_positive=F(0)),
        (Tiebreak.WHISTS, Tiebreak.BEST_ROUND, Tiebreak.LOTS), 20261212)


def test_bands_are_exact():
    # 0.1 is read as one tenth, not as the float nearest it
    assert EventTerms.of(EXAMPLE | {"scoring": BANDS}).scoring == Scoring(
        Scheme.BANDS, bands=(Band(F(200), F(1)), Band(F(650), F(1, 10)), Band(None, F(0))))


def test_defaults_tiebreaks_and_seed():
    data = {k: v for k, v in EXAMPLE.items() if k not in ("tiebreaks", "seed")}
    terms = EventTerms.of(data | {"scoring": {"scheme": "whists"}, "draw": "swiss"})
    assert terms.tiebreaks == DEFAULT_TIEBREAKS == (Tiebreak.WHISTS, Tiebreak.BEST_ROUND, Tiebreak.LOTS)
    assert terms.seed is None
    assert terms.scoring == Scoring(Scheme.WHISTS)
    assert terms.draw is DrawMethod.SWISS


def test_places_without_a_bonus_give_none():
    scoring = {"scheme": "places", "points": {"3": [2, 1, 0], "4": [3, 2, 1, 0]}}
    assert EventTerms.of(EXAMPLE | {"scoring": scoring}).scoring.bonus_positive == 0


def test_tiebreaks_may_be_any_order_or_none():
    assert EventTerms.of(EXAMPLE | {"tiebreaks": ["lots", "whists"]}).tiebreaks == (Tiebreak.LOTS, Tiebreak.WHISTS)
    assert EventTerms.of(EXAMPLE | {"tiebreaks": []}).tiebreaks == ()


@pytest.mark.parametrize("scoring", [
    {"scheme": "whists"}, BANDS,
    {"scheme": "places", "points": {"3": [2, 1, 0], "4": [3, 2, 1, 0]}, "bonus_positive": 0.5},
    {"scheme": "places", "points": {"3": [3, 1.5, 0], "4": [4, 2.5, 1, 0]}, "bonus_positive": 1},
])
def test_a_scheme_reads_back_as_given(scoring):
    assert EventTerms.of(EXAMPLE | {"scoring": scoring}).scoring.json() == scoring


# Each refusal of §2 (but the players', read with their names elsewhere): the change to the example, the field
# it names, the message's template.
REFUSALS = [
    ({"table_size": 5}, "table_size", "table_size must be 3 or 4"),
    ({"table_size": "4"}, "table_size", "table_size must be 3 or 4"),
    ({"table_size": True}, "table_size", "table_size must be 3 or 4"),
    ({"table_size": None}, "table_size", "table_size must be 3 or 4"),
    ({"rounds": 0}, "rounds", "1 to 30 rounds"),
    ({"rounds": 31}, "rounds", "1 to 30 rounds"),
    ({"rounds": 4.0}, "rounds", "1 to 30 rounds"),
    ({"draw": "random"}, "draw", "the draw is"),
    ({"draw": None}, "draw", "the draw is"),
    ({"scoring": "places"}, "scoring", "scoring must be an object"),
    ({"scoring": {"scheme": "elo"}}, "scoring", "the scoring scheme is"),
    ({"scoring": {"points": {}}}, "scoring", "the scoring scheme is"),
    ({"scoring": {"scheme": "whists", "bands": []}}, "scoring", "is not one of them"),
    ({"scoring": {"scheme": "places", "points": {"4": [3, 2, 1, 0]}}}, "scoring", "points must give"),
    ({"scoring": {"scheme": "places", "points": {"3": [2, 1, 0], "4": [3, 2, 1, 0], "5": [1] * 5}}}, "scoring",
     "points must give"),
    ({"scoring": {"scheme": "places", "points": {"3": [2, 1, 0], "4": [3, 2, 1]}}}, "scoring", "must be 4 numbers"),
    ({"scoring": {"scheme": "places", "points": {"3": [2, 1], "4": [3, 2, 1, 0]}}}, "scoring", "must be 3 numbers"),
    ({"scoring": {"scheme": "places", "points": {"3": [2, 1, "0"], "4": [3, 2, 1, 0]}}}, "scoring",
     "must be 3 numbers"),
    ({"scoring": {"scheme": "places", "points": {"3": [2, 1, 0], "4": [3, 2, 1, 0]}, "bonus_positive": "1"}},
     "scoring", "bonus_positive must be a number"),
    ({"scoring": {"scheme": "bands"}}, "scoring", "bands must be a list"),
    ({"scoring": {"scheme": "bands", "bands": []}}, "scoring", "bands must be a list"),
    ({"scoring": {"scheme": "bands", "bands": [[200, 1, 0], [None, 0]]}}, "scoring", "bands must be a list"),
    ({"scoring": {"scheme": "bands", "bands": [[650, 1], [200, 0.1], [None, 0]]}}, "scoring", "above 0 that increase"),
    ({"scoring": {"scheme": "bands", "bands": [[200, 1], [200, 0.1], [None, 0]]}}, "scoring", "above 0 that increase"),
    ({"scoring": {"scheme": "bands", "bands": [[0, 1], [None, 0]]}}, "scoring", "must be numbers above 0"),
    ({"scoring": {"scheme": "bands", "bands": [[None, 1], [200, 0]]}}, "scoring", "must be numbers above 0"),
    ({"scoring": {"scheme": "bands", "bands": [[None, 1], [None, 0]]}}, "scoring", "must be numbers above 0"),
    ({"scoring": {"scheme": "bands", "bands": [[200, 1], [650, 0.1]]}}, "scoring", "last band's limit must be null"),
    ({"scoring": {"scheme": "bands", "bands": [[200, 1.5], [None, 0]]}}, "scoring", "from 0 to 1"),
    ({"scoring": {"scheme": "bands", "bands": [[200, 1], [None, -0.1]]}}, "scoring", "from 0 to 1"),
    ({"scoring": {"scheme": "bands", "bands": [[200, None], [None, 0]]}}, "scoring", "from 0 to 1"),
    ({"tiebreaks": ["whists", "elo"]}, "tiebreaks", "is not whists, best_round or lots"),
    ({"tiebreaks": ["lots", "lots"]}, "tiebreaks", "listed twice"),
    ({"tiebreaks": "lots"}, "tiebreaks", "must be a list"),
    ({"seed": 1.5}, "seed", "whole number"),
    ({"seed": "20261212"}, "seed", "whole number"),
    ({"seed": False}, "seed", "whole number"),
]


@pytest.mark.parametrize(("change", "field", "words"), REFUSALS)
def test_a_term_that_is_not_one_is_refused_on_its_key(change, field, words):
    with pytest.raises(EventRefusal) as refused:
        EventTerms.of(EXAMPLE | change)
    assert refused.value.field == field
    assert refused.value.code is RefusalCode.BAD_REQUEST
    assert words in refused.value.message.text(())
    assert render(refused.value.message, (), "ru") != refused.value.message.text(())  # Russian too


def test_the_first_bad_term_in_the_contracts_order_is_named():
    with pytest.raises(EventRefusal) as refused:
        EventTerms.of(EXAMPLE | {"seed": "x", "rounds": 0, "draw": "x"})
    assert refused.value.field == "rounds"


def refusal_texts() -> list[Text]:
    """The texts the refusals above write (tests/engine/test_texts.py: every declared text is shown)."""
    texts = []
    for change, _, _ in REFUSALS:
        try:
            EventTerms.of(EXAMPLE | change)
        except EventRefusal as refused:
            texts.append(refused.message)
    return texts
