"""engine/rules.py: the §14 parameter table, the presets, and rules built from a dict."""

from __future__ import annotations

import json
import random
from enum import StrEnum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    PARAMETER, PARAMETERS, PRESETS, Code, Contract, Kind, Preset, Problem, Rules, RulesError, Strain,
)

from .generate import random_overrides
from .reference import PRESETS as TYPED_PRESETS

# docs/rules.md §14, the domain column of every choice parameter, in the table's order
CHOICES = {
    "single_whist_made": ["whister_all", "each_own"],
    "single_whist_remiz": ["greedy", "gentleman"],
    "shortfall_split": ["personal", "capped"],
    "q1_responsible": ["second_whister", "split", "both"],
    "raspasy_scoring": ["gora", "whists"],
    "raspasy_tie": ["split", "full"],
    "raspasy_exit_on": ["made", "any"],
    "raspasy_dealer": ["talon", "pulya_one"],
    "pulka_end": ["all_closed", "total"],
    "overflow": ["help_then_writeoff", "writeoff"],
}


def test_the_parameters_are_those_of_section_14():
    assert [p.name for p in PARAMETERS] == list(TYPED_PRESETS["sochi"])


@pytest.mark.parametrize("preset", list(Preset))
def test_presets_are_the_section_14_columns(preset):
    # reference.PRESETS is the §14 table typed in by hand; JSON makes 0.5 and Fraction(1, 2) alike
    assert Rules.of(preset).to_dict() == {"preset": preset.value} | json.loads(json.dumps(
        TYPED_PRESETS[preset.value], default=float))


def test_every_choice_parameter_is_a_str_enum_with_the_section_14_domain():
    assert {p.name for p in PARAMETERS if p.kind is Kind.CHOICE} == set(CHOICES)
    for name, values in CHOICES.items():
        parameter = PARAMETER[name]
        enum = type(parameter.choices[0])
        assert issubclass(enum, StrEnum) and parameter.choices == tuple(enum)
        assert [c.value for c in parameter.choices] == values
        for preset in PRESETS.values():
            assert isinstance(getattr(preset, name), enum)


def test_a_choice_read_from_json_is_the_member_and_written_back_as_the_same_string():
    rules = Rules.from_dict({"preset": "sochi", "pulka_end": "total", "raspasy_tie": "full"})
    assert rules.pulka_end is type(PARAMETER["pulka_end"].choices[0])("total")
    data = rules.overrides()
    assert data == {"preset": "sochi", "pulka_end": "total", "raspasy_tie": "full"}
    assert all(type(value) is str for value in data.values())
    assert '"pulka_end": "total"' in json.dumps(rules.to_dict())


# ---- Rules.from_dict: one entry point, every problem (docs/files.md §1, §3)


def problems(data: object) -> list[tuple[Code, str]]:
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(data)
    assert all(isinstance(p, Problem) and p.deal is None for p in caught.value.problems)
    return [(p.code, p.field) for p in caught.value.problems]


def test_from_dict_takes_the_preset_and_overrides():
    rules = Rules.from_dict({"preset": "leningrad", "pulya_size": 30, "whist_price": 0.5, "half_whist": [7]})
    assert rules == Rules.of("leningrad", pulya_size=30, whist_price=0.5, half_whist=[7])
    assert (rules.preset, rules.pulya_size, str(rules.whist_price), rules.half_whist) == ("leningrad", 30, "0.5", (7,))
    assert rules.pulka_end == PRESETS[Preset.LENINGRAD].pulka_end


@pytest.mark.parametrize("data", [None, [], "sochi", 7, [("preset", "sochi")]])
def test_rules_that_are_not_an_object_are_bad_format(data):
    assert problems(data) == [(Code.BAD_FORMAT, "")]


def test_a_missing_preset_is_bad_format_on_preset():
    assert problems({}) == [(Code.BAD_FORMAT, "preset")]
    assert problems({"pulya_size": 10}) == [(Code.BAD_FORMAT, "preset")]


@pytest.mark.parametrize("preset", ["moscow", "Sochi", "", 7, None, True, [], ["sochi"], {"sochi": 1}, 1.5])
def test_a_preset_that_is_not_one_of_the_three_is_unknown_whatever_its_type(preset):
    assert problems({"preset": preset}) == [(Code.UNKNOWN_PRESET, "preset")]


def test_every_problem_is_listed_in_key_order():
    data = {"preset": "kiev", "pulya": 3, "pulya_size": 0, "stalingrad": "no", "whist_price": 1}
    assert problems(data) == [(Code.UNKNOWN_PRESET, "preset"), (Code.UNKNOWN_PARAMETER, "pulya"),
                              (Code.BAD_PARAMETER, "pulya_size"), (Code.BAD_PARAMETER, "stalingrad")]


def test_messages_are_safe_templates():
    with pytest.raises(RulesError) as caught:
        Rules.from_dict({"preset": "{0}", "{1}": 1, "pulya_size": "{}"})
    texts = [p.text(()) for p in caught.value.problems]
    assert texts == ["unknown preset '{0}': use sochi, leningrad or rostov", "unknown rule parameter '{1}'",
                     "pulya_size must be an integer from 1 to 1000, not '{}'"]


# ---- round trips


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return Rules.from_dict(random_overrides(rng, draw(st.sampled_from(list(Preset))).value, 0.5))


@settings(max_examples=200, deadline=None)
@given(any_rules())
def test_from_dict_reads_back_to_dict_and_overrides(rules):
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict(rules.overrides()) == rules
    assert Rules.from_dict(json.loads(json.dumps(rules.overrides()))) == rules


# ---- facts the rules decide


@pytest.mark.parametrize("ten_checked", [True, False])
def test_checked_ten_is_a_ten_under_ten_checked(ten_checked):
    # §1.9, §14 ten_checked: the 10 is checked or whisted by agreement; no other level is ever checked
    rules = Rules.of("sochi", ten_checked=ten_checked)
    assert [rules.checked_ten(Contract(level, Strain.HEARTS)) for level in range(6, 11)] == \
        [False, False, False, False, ten_checked]
    assert rules.checked_ten(Contract(10, Strain.NO_TRUMP)) is ten_checked
    assert rules.checked_ten(None) is False


# ---- every value is bounded


def test_every_number_and_list_parameter_is_bounded():
    # An unbounded parameter lets a file or a form make the engine compute with numbers of any size
    # (whist_price 1e40, pulya_size 10**9) or lists of any length.
    for p in PARAMETERS:
        if p.kind in (Kind.INT, Kind.INT_LIST, Kind.MONEY):
            assert p.high is not None and p.low <= p.high, p.name
        if p.kind is Kind.INT_LIST:
            assert p.length or p.most, p.name


@pytest.mark.parametrize("name, value", [
    ("whist_price", 1e40), ("whist_price", 10_001), ("pulya_size", 10**9), ("pulya_point_whists", 10**30),
    ("raspasy_gora", [1] * 100_000), ("raspasy_zero_pulya", [0] * 21), ("help_whists_per_point", 1001),
])
def test_values_beyond_the_bounds_are_refused(name, value):
    with pytest.raises(RulesError) as caught:
        Rules.of("sochi", **{name: value})
    assert [(p.code, p.field) for p in caught.value.problems] == [(Code.BAD_PARAMETER, name)]


def test_the_bounds_admit_every_preset():
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules


def test_equal_rules_share_one_table_of_terms_and_other_rules_have_their_own():
    """Every pulka read from the database brings a Rules of its own: the table scoring reads (§4, §5) is
    worked out once for all that are alike, and is each one's own table, value for value."""
    sochi, again = Rules.of("sochi"), Rules.from_dict({"preset": "sochi"})
    assert sochi is not again and sochi.terms is again.terms
    doubled = Rules.of("sochi", whist_factor=2)
    assert doubled.terms is not sochi.terms
    for key, terms in doubled.terms.items():
        assert terms.per_trick == 2 * sochi.terms[key].per_trick and terms.price == sochi.terms[key].price
