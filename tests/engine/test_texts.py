"""The engine's texts: each declared once, filled in with values, and written in English exactly as
the engine wrote it before its texts became templates.

english_texts.json holds pulka files (every error case of test_errors.py and generated pulkas that
between them make the engine write every text it has) with the English the engine wrote for them
then: the reasons of every deal, or every problem of the deal that fails. `python -m
tests.engine.test_texts` writes the English of the current engine into it: only for a deliberate
change of wording.
"""

from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine import (
    CHOICE_TITLES, PARAMETERS, Contract, Deal, DealType, PulkaError, Rules, RulesError, Seat, Strain, Text, all_texts,
    quoted,
    replay,
)
from scorekeeper.engine.scoring import MISERE_TOOK, PULYA_FITS
from scorekeeper.engine.sheet import Sheet
from scorekeeper.engine.validation import check
from scorekeeper.files.pulyafile import FileError, loads

from .generate import generate
from .test_draw import refusal_texts as table_refusals
from .test_event_terms import refusal_texts as term_refusals

GOLDEN = Path(__file__).with_name("english_texts.json")
SAMPLES = json.loads(GOLDEN.read_text(encoding="utf-8"))
DECLARED = {text.msgid: text for text in all_texts()}


def written(file: str) -> list[Text]:
    """The texts the engine writes for a pulka file: the problems of its rules, or every problem of its
    failing deal, or the reasons of all its deals; none when the file layer refuses the file itself."""
    try:
        data = json.loads(file)
    except ValueError:
        return []
    if isinstance(data, dict) and "rules" in data:
        try:
            Rules.from_dict(data["rules"])
        except RulesError as error:
            return [p.full for p in error.problems]
    try:
        pulka = loads(file)
    except FileError:
        pulka = None
    if pulka is None:  # the file layer's own problem, or one of a deal before the one it cannot read
        return []
    try:
        result = replay(pulka.rules, len(pulka.players), pulka.deals, pulka.first_dealer)
    except PulkaError as error:
        return [p.full for p in error.problems]
    return [e.reason for r in result.results for e in r.entries]


def english(file: str) -> dict[str, Any]:
    """What english_texts.json holds for a file."""
    try:
        pulka = loads(file)
    except FileError as error:
        return {"error": error.message}
    names = pulka.players
    try:
        result = replay(pulka.rules, len(names), pulka.deals, pulka.first_dealer)
    except PulkaError as error:
        return {"problems": [[p.text(names), p.message.text(names)] for p in error.problems]}
    return {"deals": [[e.text(names) for e in r.entries] for r in result.results]}


def parameters() -> list[list[str]]:
    return [[p.name, p.meaning.text(()), p.domain.text(())] for p in PARAMETERS]


def msgids(text: Text) -> set[str]:
    """The msgids of a text and of the texts among its values."""
    return {text.msgid}.union(*(msgids(v) for _, v in text.values if isinstance(v, Text)))


# The two problems no pulka file can reach: the file layer refuses first.
def _five_players() -> list[Text]:
    with pytest.raises(PulkaError) as caught:
        replay(Rules.of("sochi"), 5, [])
    return [p.full for p in caught.value.problems]


def _no_declarer() -> list[Text]:
    deal = Deal(DealType.GAME, None, Contract(6, Strain.SPADES), {1: "pass", 2: "pass"})
    return [p.full for p in check(deal, Sheet.empty(3), Rules.of("sochi"))]


# -- English as before ------------------------------------------------------------------------------


@pytest.mark.parametrize("sample", SAMPLES["files"], ids=[s["name"] for s in SAMPLES["files"]])
def test_english_is_unchanged(sample):
    assert english(sample["file"]) == sample["english"]


def test_parameters_english_is_unchanged():
    assert parameters() == SAMPLES["parameters"]


def test_problems_no_file_reaches():
    assert [t.text(()) for t in _five_players()] == ["a pulka has 3 or 4 players"]
    assert [t.text("ABC") for t in _no_declarer()] == ["deal 1: the declarer must be one of the players"]


def test_the_samples_show_every_text():
    shown = {p.meaning.msgid for p in PARAMETERS} | {p.title.msgid for p in PARAMETERS if p.title}
    shown |= {m for p in PARAMETERS for m in msgids(p.domain)}
    shown |= {text.msgid for choices in CHOICE_TITLES.values() for text in choices.values()}  # the form's options
    for text in _five_players() + _no_declarer() + term_refusals() + table_refusals():  # an event's refusals too
        shown |= msgids(text)
    for sample in SAMPLES["files"]:
        shown = shown.union(*map(msgids, written(sample["file"])))
    assert set(DECLARED) - shown == set()


# -- every text declared once -------------------------------------------------------------------------


def test_every_text_written_is_declared():
    """Texts written on the samples and on random pulkas are all the declared ones: no template is made at run time."""
    files = [s["file"] for s in SAMPLES["files"]]
    files += [json.dumps(generate(random.Random(seed)), ensure_ascii=False) for seed in range(60)]
    stack = _five_players() + _no_declarer() + [text for file in files for text in written(file)]
    while stack:
        text = stack.pop()
        declared = DECLARED.get(text.msgid)
        assert declared is not None and (declared.plural, declared.count) == (text.plural, text.count), text
        stack += [v for _, v in text.values if isinstance(v, Text)]


def test_templates_have_only_named_placeholders():
    for text in all_texts():
        for template in filter(None, (text.msgid, text.plural)):
            opened = template.split("{")[1:]
            assert template.count("{") == template.count("}") == len(opened), template
            for part in opened:
                name, close, _ = part.partition("}")
                assert close and name.isidentifier(), template


def test_texts_are_found_once_each():
    assert len(all_texts()) == len(DECLARED)
    assert all(not text.values for text in all_texts())


# -- the Text type ------------------------------------------------------------------------------------------


def test_a_text_takes_exactly_its_values():
    with pytest.raises(ValueError, match="takes"):
        MISERE_TOOK(player=Seat(0), count=1)
    with pytest.raises(ValueError, match="takes"):
        MISERE_TOOK(player=Seat(0), count=1, per=10, extra=1)
    with pytest.raises(ValueError, match="whole number"):
        MISERE_TOOK(player=Seat(0), count=Fraction(1, 2), per=10)
    with pytest.raises(ValueError, match="already"):
        MISERE_TOOK(player=Seat(0), count=1, per=10)(player=Seat(1), count=2, per=10)
    with pytest.raises(ValueError, match="go together"):
        Text("{count} trick", "{count} tricks")
    with pytest.raises(ValueError, match="same placeholders"):
        Text("{count} trick", "{n} tricks", "count")


def test_the_count_chooses_the_english_form():
    assert [MISERE_TOOK(player=Seat(1), count=n, per=10).text(["Anna", "Boris"]) for n in (1, 2, 21)] == [
        "Boris took 1 trick on misère: gora 1 × 10",
        "Boris took 2 tricks on misère: gora 2 × 10",
        "Boris took 21 tricks on misère: gora 21 × 10",
    ]


def test_values_are_written_at_the_edge():
    inner = MISERE_TOOK(player=Seat(0), count=3, per=Fraction(5, 2))
    text = PULYA_FITS(reason=inner, fits=Decimal("0.5"), points=Fraction(-1, 3), size=Fraction(7, 1))
    assert text.text(["{0}"]) == "{0} took 3 tricks on misère: gora 3 × 2½ (0.5 of -⅓ fit: the pulya closes at 7)"
    assert quoted("x{0}" * 20) == "'x{0}x{0}x{0}x{0}x{0}x{0}x{0}x{0}x{0}..."


def _regenerate() -> None:
    for sample in SAMPLES["files"]:
        sample["english"] = english(sample["file"])
    SAMPLES["parameters"] = parameters()
    GOLDEN.write_text(json.dumps(SAMPLES, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    _regenerate()
    print(f"wrote {GOLDEN}", file=sys.stderr)
