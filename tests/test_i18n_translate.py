"""The engine's texts in Russian: a catalog entry for every declared text, and problems and reasons
written with it as players write them."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from scorekeeper.engine import Contract, Deal, DealType, PulkaError, Rules, RulesError, Seat, Strain, Word, all_texts
from scorekeeper.engine import replay as replay_deals
from scorekeeper.engine.scoring import HELP_WHISTS, MISERE_TOOK, RASPASY_GORA_NTH
from scorekeeper.i18n.translate import catalog_path, render, template, translations

NAMES = ("Анна", "Борис", "Вера")
ANNA, BORIS, VERA = range(3)
PLURAL_FORMS = ("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
                "? 1 : 2);")


@pytest.fixture(scope="module")
def catalog():
    with catalog_path("ru").open("rb") as po:
        return read_po(po, locale="ru", domain="engine")


def _fields(template: str) -> set[str]:
    return {part.partition("}")[0] for part in template.split("{")[1:]}


def test_the_catalog_has_the_russian_plural_rule(catalog):
    headers = dict(catalog.mime_headers)
    assert headers["Plural-Forms"] == PLURAL_FORMS and headers["Language"] == "ru"
    assert catalog.num_plurals == 3


def test_every_engine_text_has_a_russian_translation(catalog):
    for text in all_texts():
        message = catalog.get(text.msgid)
        assert message is not None, f"no Russian for {text.msgid!r}"
        assert not message.fuzzy, text.msgid
        if text.plural is None:
            assert isinstance(message.string, str) and message.string, text.msgid
            forms = [message.string]
        else:
            assert message.id == (text.msgid, text.plural), text.msgid
            forms = list(message.string)
            assert len(forms) == 3 and all(forms), f"a plural form of {text.msgid!r} is empty"
        for form in forms:
            # a translation may leave a value out, never use one the text does not have
            assert _fields(form) <= _fields(text.msgid), (text.msgid, form)
            assert form.count("{") == form.count("}") == len(form.split("{")) - 1, form


def test_the_catalog_holds_no_text_the_engine_no_longer_writes(catalog):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}
    assert ids == {text.msgid for text in all_texts()}
    assert {m.id for m in template() if m.id} == {m.id for m in catalog if m.id}


def test_problems_in_russian():
    rules = Rules.of("sochi")
    raspasy = Deal(DealType.RASPASY, tricks={ANNA: 4, BORIS: 4, VERA: 4})
    game = Deal(DealType.GAME, BORIS, Contract(7, Strain.HEARTS), {VERA: Word.PASS, ANNA: Word.PASS})
    with pytest.raises(PulkaError) as caught:
        replay_deals(rules, 3, [game, raspasy])
    assert [render(p.full, NAMES, "ru") for p in caught.value.problems] == [
        "сдача 2: взяток в сумме 12, а в сдаче их 10"]
    assert render(caught.value.problems[0].message, NAMES, "ru") == "взяток в сумме 12, а в сдаче их 10"

    half = Deal(DealType.GAME, ANNA, Contract(8, Strain.NO_TRUMP), {BORIS: Word.HALF, VERA: Word.PASS})
    with pytest.raises(PulkaError) as caught:
        replay_deals(rules, 3, [half])
    assert [render(p.full, NAMES, "ru") for p in caught.value.problems] == [
        "сдача 1: Борис — первый вистующий: полвиста говорит только второй, Вера",
        "сдача 1: по этим правилам полвиста бывает на 6 и 7, а не на 8",
    ]

    with pytest.raises(PulkaError) as caught:
        replay_deals(rules, 3, [Deal(DealType.RASPASY, tricks={ANNA: 3, BORIS: 3, VERA: 4}),
                                Deal(DealType.GAME, BORIS, Contract(6, Strain.NO_TRUMP), {VERA: "vist"})])
    assert [render(p.full, NAMES, "ru") for p in caught.value.problems] == [
        "сдача 2: Вера: сказать можно вист, пас или полвиста (whist, pass, half), а не 'vist'",
        "сдача 2: Анна — вистующий: укажите, вист или пас",
    ]

    with pytest.raises(RulesError) as caught:
        Rules.of("sochi", pulya_size=0, raspasy_exit=[6])
    assert [render(p.full, (), "ru") for p in caught.value.problems] == [
        "pulya_size — это целое число от 1 до 1000, а не 0",
        "raspasy_exit — это список из 3 целых чисел от 6 до 8, а не [6]",
    ]


def test_reasons_in_russian():
    rules = Rules.of("sochi")
    deals = [
        # Вера whists alone and writes for both defenders' 3 tricks
        Deal(DealType.GAME, BORIS, Contract(7, Strain.HEARTS), {VERA: Word.WHIST, ANNA: Word.PASS},
             {BORIS: 7, VERA: 2, ANNA: 1}),
        Deal(DealType.MISERE, VERA, tricks={VERA: 2}),
        Deal(DealType.GAME, ANNA, Contract(10, Strain.NO_TRUMP), None, {ANNA: 8, BORIS: 1, VERA: 1}),
        Deal(DealType.RASPASY, tricks={ANNA: 0, BORIS: 4, VERA: 6}),
        Deal(DealType.RASPASY, tricks={ANNA: 1, BORIS: 4, VERA: 5}),
    ]
    result = replay_deals(rules, 3, deals)
    lines = [[render(e.reason, NAMES, "ru") for e in r.entries] for r in result.results]
    assert lines == [
        ["Борис: сыграно 7♥, в пулю +4",
         "Вера пишет висты за себя и за пасовавшего, Борис играет 7♥: 3 взятки × 4"],
        ["Вера: на мизере 2 взятки, в гору 2 × 10"],
        ["Анна: 10БК без 2, в гору 2 × 10",
         "Борис пишет консоляцию, Анна без 2: 2 × 10",
         "Вера пишет консоляцию, Анна без 2: 2 × 10",
         "Борис пишет висты, Анна играет 10БК с проверкой: 1 взятка × 10",
         "Вера пишет висты, Анна играет 10БК с проверкой: 1 взятка × 10"],
        ["Борис: на распасах 4 взятки, в гору 4 × 1",
         "Вера: на распасах 6 взяток, в гору 6 × 1",
         "Анна: на распасах ни одной взятки, в пулю +1"],
        ["Вера: на 2-х распасах 5 взяток, в гору 5 × 2",
         "Анна: на 2-х распасах 1 взятка, в гору 1 × 2",
         "Борис: на 2-х распасах 4 взятки, в гору 4 × 2"],
    ]
    # English is the same text without a catalog
    assert [render(e.reason, NAMES, "en") for e in result.results[0].entries] == [
        e.text(NAMES) for e in result.results[0].entries] == [
        "Борис made 7♥: pulya +4", "Вера writes whists on Борис: 3 tricks × 4 on 7♥, whisting alone for both hands"]


@pytest.mark.parametrize("n, tricks", [(1, "1 взятка"), (2, "2 взятки"), (5, "5 взяток"), (11, "11 взяток"),
                                       (21, "21 взятка"), (22, "22 взятки"), (25, "25 взяток")])
def test_tricks_take_the_russian_plural_forms(n, tricks):
    assert render(MISERE_TOOK(player=Seat(BORIS), count=n, per=10), NAMES, "ru") == \
        f"Борис: на мизере {tricks}, в гору {n} × 10"
    assert render(RASPASY_GORA_NTH(player=Seat(ANNA), count=n, per=3, k=2), NAMES, "ru") == \
        f"Анна: на 2-х распасах {tricks}, в гору {n} × 3"


@pytest.mark.parametrize("n, whists", [(1, "1 вист"), (2, "2 виста"), (5, "5 вистов"), (11, "11 вистов"),
                                       (21, "21 вист"), (22, "22 виста"), (25, "25 вистов")])
def test_whists_take_the_russian_plural_forms(n, whists):
    text = HELP_WHISTS(helper=Seat(ANNA), player=Seat(VERA), given=2, per=n)
    assert render(text, NAMES, "ru") == f"Анна отдаёт 2 в пулю, получает Вера: 2 × {whists}"
    assert text.text(NAMES) == f"Анна helps Вера with 2 pulya: 2 × {n} whists"


def test_a_locale_finds_its_language_and_english_is_the_msgids():
    text = MISERE_TOOK(player=Seat(VERA), count=3, per=10)
    assert {render(text, NAMES, locale) for locale in ("ru", "ru_RU", "ru-RU", "RU")} == {
        "Вера: на мизере 3 взятки, в гору 3 × 10"}
    assert {render(text, NAMES, locale) for locale in ("en", "de", "")} == {"Вера took 3 tricks on misère: gora 3 × 10"}
    assert translations("ru_RU") is translations("ru_RU")  # read once
