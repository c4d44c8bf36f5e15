"""One strict reader for every number and every short text (issue 29), the same for the pages, the API and the
files: a number is ASCII digits with one decimal separator ('.' or ','), a sign only where the field takes
one ('-' or '−'), within the field's range and step; a short text (a pulka's name, a currency, a note, a link's
label, a player's name) is one line of characters that show, trimmed of its spaces, never emptied by its
reading. Every variant below is refused at every entry point with a 4xx naming its field, and nothing is stored.

Before this reader a payment of "١٢", "１２", "1_000" or "1e3" was stored as 12, 12, 1000 and 1000; a paper
sheet's cell took other scripts' digits and spaces inside ("1 000"); a currency held U+202E, U+200F or U+FEFF,
and "\\u2028" was stored as ""."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from scorekeeper.web.domain.ledger import payment_currency, read_amount
from scorekeeper.web.domain.paper import value
from scorekeeper.web.domain.reading import number_text, read_number, read_text, text_fault
from scorekeeper.web.domain.refusals import Refused

from ..conftest import SOCHI, create, snapshot, text
from ..ledger.test_ledger import evening, ids

# -- the variants -----------------------------------------------------------------------------------

# Numbers as Python's int() and Decimal() take them and a person never means them.
NOT_NUMBERS = {
    "arabic-indic digits": "١٢", "eastern arabic-indic digits": "۱۲", "fullwidth digits": "１２",
    "devanagari digits": "१२", "bengali digits": "১২", "superscript digits": "¹²", "subscript digits": "₁₂",
    "underscore": "1_000", "exponent": "1e3", "capital exponent": "1E3", "signed exponent": "12e+0",
    "not a number": "NaN", "infinity": "Infinity", "minus infinity": "-Infinity", "hexadecimal": "0x10",
    "space inside": "1 000", "no-break space inside": "1\u00a0000", "thin space inside": "1\u2009000",
    "two separators": "1.2.3", "both separators": "1,000.50", "combining mark": "12\u0301",
    "right-to-left override": "\u202e12", "right-to-left mark": "12\u200f", "zero-width space": "1\u200b2",
    "line separator": "12\u2028", "paragraph separator": "12\u2029", "byte order mark": "\ufeff12",
    "two signs": "--12", "en dash": "\u201312", "words": "twelve", "separator alone": ".",
}
# Characters no short text holds, a player's name neither.
NEVER_SHOWN = {
    "bell": "\x07", "tab": "\t", "line feed": "\n", "next line (C1)": "\x85", "line separator": "\u2028",
    "paragraph separator": "\u2029", "left-to-right embedding": "\u202a", "pop directional formatting": "\u202c",
    "right-to-left override": "\u202e", "left-to-right isolate": "\u2066", "pop directional isolate": "\u2069",
    "hangul filler": "\u3164", "braille blank": "\u2800", "noncharacter": "\uffff",
}
# Unicode's format characters (Cf): refused in every short text but a player's name, which docs/club.md §1
# lets hold them inside a name that shows and reads as no other.
FORMAT = {
    "zero-width space": "\u200b", "zero-width non-joiner": "\u200c", "zero-width joiner": "\u200d",
    "left-to-right mark": "\u200e", "right-to-left mark": "\u200f", "byte order mark": "\ufeff",
    "soft hyphen": "\u00ad", "word joiner": "\u2060", "tag letter": "\U000e0041",
}
ANY_HIDDEN = NEVER_SHOWN | {f"format: {k}": v for k, v in FORMAT.items()}


def code(char: str) -> str:
    return f"⟨U+{ord(char):04X}⟩"


# -- the readers on their own -------------------------------------------------------------------------


@pytest.mark.parametrize("typed", NOT_NUMBERS.values(), ids=NOT_NUMBERS.keys())
def test_no_reader_takes_a_number_people_do_not_write(typed):
    assert number_text(typed) is None and number_text(typed, signed=True) is None
    assert value(typed) == typed.strip(" ")  # the paper sheet's cell stays text, for its field's refusal
    for read in (lambda: read_amount(typed), lambda: read_number(typed, "count", low=-100)):
        with pytest.raises(Refused):
            read()


@pytest.mark.parametrize("typed, number", [
    ("12", 12), ("12.5", Decimal("12.5")), ("12,5", Decimal("12.5")), (" 7 ", 7), ("0,50", Decimal("0.5")),
    (".5", Decimal("0.5")), ("5.", 5), ("007", 7),
])
def test_numbers_as_people_write_them(typed, number):
    assert number_text(typed) == number
    assert number_text("-" + typed.strip()) is None  # a sign only where the field takes one
    assert number_text("-" + typed.strip(), signed=True) == number_text("\u2212" + typed.strip(), signed=True) == -number


def test_a_number_of_json_is_a_number_and_a_bool_is_not():
    assert read_amount(12) == Decimal("12.00") and read_amount(12.5) == Decimal("12.50")
    assert read_amount("1000000000") == Decimal("1000000000.00")
    assert read_number(-3, "offset", low=-5, high=5) == -3 and read_number("−3", "offset", low=-5, high=5) == -3
    for wrong in (True, False, None, [12], {"n": 12}, float("nan"), float("inf"), "12.001", 0, "0", -1, 10**9 + 0.01):
        with pytest.raises(Refused) as refused:
            read_amount(wrong)
        assert refused.value.field == "amount"
    for wrong in (True, 3.0, "3.0", "+3", "-1", 2**31):
        with pytest.raises(Refused):
            read_number(wrong, "version")


@pytest.mark.parametrize("char", ANY_HIDDEN.values(), ids=ANY_HIDDEN.keys())
@pytest.mark.parametrize("where", ["{c}", "E{c}R", "EUR{c}", "{c}EUR"])
def test_no_short_text_holds_a_character_that_does_not_show(char, where):
    typed = where.format(c=char)
    with pytest.raises(Refused) as refused:
        read_text(typed, "currency", 8)
    assert refused.value.field == "currency" and code(char) in refused.value.message
    if char in NEVER_SHOWN.values():  # nor a player's name
        assert text_fault(typed, "players", 40, name=True) is not None


def test_a_short_text_is_trimmed_never_emptied():
    assert read_text("  EUR ", "currency", 8) == "EUR"
    assert read_text("", "currency", 8) == "" and read_text("   ", "currency", 8) == ""  # blank: none given
    assert read_text("Пятница у Бориса", "name", 80) == "Пятница у Бориса"
    assert read_text("Ёлка", "name", 80) == "Ёлка" and read_text("Е\u0308лка", "name", 80) == "Е\u0308лка"
    for wrong in ("\u2028", " \u2028 ", "\u0301EUR", "x" * 9, 12, None):
        with pytest.raises(Refused):
            read_text(wrong, "currency", 8)
    assert text_fault("   ", "players", 40, name=True) is not None  # a name is never blank


def test_a_payment_currency_is_one_of_the_ledger_or_a_new_one_never_a_known_one_written_otherwise():
    known = {"EUR", "₽", ""}
    assert payment_currency("EUR", known) == "EUR" and payment_currency("", known) == ""
    assert payment_currency("$", known) == "$"  # a loan in dollars opens the dollars' ledger
    assert payment_currency("K\u010d", {"Kc\u030c"}) == "Kc\u030c"  # one currency in another normal form
    for alike in ("eur", "Eur", "ＥＵＲ"):
        with pytest.raises(Refused) as refused:
            payment_currency(alike, known)
        assert refused.value.field == "currency" and "write «EUR»" in refused.value.message


# -- numbers, at every entry point -----------------------------------------------------------------


def _unfinished(client) -> dict[str, str]:
    """An evening in roubles, unfinished: its players are the owner's, its currency his pulkas'."""
    evening(client, "ABC", 3, "₽", deals=2)
    return ids(client)


def _finished(client) -> dict[str, str]:
    """An evening in roubles played to its end: its balances make a settle-up of several payments."""
    evening(client, "ABC", 3, "₽")
    return ids(client)


def _payment(who, **changes) -> dict[str, object]:
    return {"from": who["B"], "to": who["A"], "amount": "12", "currency": "₽", "note": ""} | changes


def _pay_api(client, who, field, typed):
    return client.post("/api/v1/ledger/payments", json=_payment(who, **{field: typed}))


def _pay_page(client, who, field, typed):
    return client.post("/ledger", data={"action": "pay", **_payment(who, **{field: typed})})


def _settle_up_api(client, who, field, typed):
    return client.post("/api/v1/ledger/settle-up", json={"currency": "₽", field: typed})


def _settle_up_page(client, who, field, typed):
    return client.post("/ledger", data={"action": "settle", "currency": "₽", field: typed})


# (set-up, send, field): every place a number of the ledger enters
NUMBER_ENTRIES = {"payment API": (_unfinished, _pay_api, "amount"), "payment page": (_unfinished, _pay_page, "amount"),
                  "settle-up API": (_finished, _settle_up_api, "cash"),
                  "settle-up page": (_finished, _settle_up_page, "cash")}


def refused_on(response, field: str, status: int = 400) -> str:
    """A refusal naming `field` (the JSON error's field, or the page's message about it); its message."""
    assert response.status_code == status, response.get_data(as_text=True)[:400]
    if response.is_json:
        assert response.json["error"]["field"] == field, response.json
        return response.json["error"]["message"]
    assert field in text(response), text(response)[:400]
    return text(response)


@pytest.mark.parametrize("entry", NUMBER_ENTRIES, ids=NUMBER_ENTRIES)
def test_a_number_people_do_not_write_is_refused_by_the_ledger(app, client, entry):
    set_up, send, field = NUMBER_ENTRIES[entry]
    who = set_up(client)
    before = snapshot(app)
    for name, typed in NOT_NUMBERS.items():
        refused_on(send(client, who, field, typed), field)
        assert snapshot(app) == before, name


def test_a_number_people_write_is_recorded(client):
    who = _unfinished(client)
    for typed, amount in [("12", 12), ("12,50", 12.5), (" 12.5 ", 12.5), (12, 12), (12.5, 12.5), ("0.01", 0.01)]:
        paid = _pay_api(client, who, "amount", typed)
        assert (paid.status_code, paid.json["amount"]) == (201, amount)


def _paper_form(cell: str, typed: str) -> dict[str, str]:
    form = {"player_0": "Аня", "player_1": "Борис", "player_2": "Вера", "preset": "sochi", "currency": "₽",
            "gora_0": "4", "gora_1": "30", "gora_2": "0", "whists_0_1": "12", "pulya_0": "10", "pulya_1": "4",
            "pulya_2": "10", "idempotency_key": "paper"}
    return form | {cell: typed}


@pytest.mark.parametrize("cell, right", [("gora_1", "−4"), ("whists_0_1", "12,5"), ("pulya_2", "8"),
                                         ("whist_price", "0,5")])
def test_a_paper_sheets_cell_takes_only_a_number_people_write(app, client, cell, right):
    before = snapshot(app)
    for name, typed in NOT_NUMBERS.items():
        for path in ("/paper", "/paper/keep"):
            page = client.post(path, data=_paper_form(cell, typed), headers={"Accept-Language": "en"})
            html = page.get_data(as_text=True)
            on_it = f'id="error-{cell}"' in html if cell != "whist_price" else "whist_price must be" in text(page)
            assert page.status_code == 422 and on_it and "Amnesty" not in html, (name, path, text(page)[:600])
    assert snapshot(app) == before
    kept = client.post("/paper/keep", data=_paper_form(cell, right))  # the cell as people write it is kept
    assert kept.status_code == 302, text(kept)[:400]


# -- short texts, at every entry point -------------------------------------------------------------


def _nothing(client) -> None:
    return None


def _a_pulka(client) -> str:
    return create(client, players=("Anna", "Boris", "Vera"))


def _create_api(client, ctx, field, typed):
    body = {"players": ["Аня", "Борис", "Вера"], "currency": "₽", "name": "Пятница"}
    return client.post("/api/v1/pulkas", json=body | {field: typed})


def _create_page(client, ctx, field, typed):
    from ..pulkas.test_pulka_pages import new_pulka_form
    return client.post("/new", data=new_pulka_form(**{field: typed}))


def _settings_api(client, uid, field, typed):
    return client.patch(f"/api/v1/pulkas/{uid}", json={field: typed})


def _settings_page(client, uid, field, typed):
    from ..pulkas.test_pulka_pages import new_pulka_form
    return client.post(f"/p/{uid}/settings", data=new_pulka_form(**{field: typed}))


def _import_api(client, ctx, field, typed):
    return client.post("/api/v1/import", json=SOCHI | {field: typed})


def _import_page(client, ctx, field, typed):
    return client.post("/import", data={"text": json.dumps(SOCHI | {field: typed})})


def _import_named(client, ctx, field, typed):
    return client.post("/api/v1/import", query_string={field: typed}, json=SOCHI)


def _import_page_named(client, ctx, field, typed):
    return client.post("/import", data={"text": json.dumps(SOCHI), field: typed})


def _paper_api(client, ctx, field, typed):
    sheet = {"format": "pulya-sheet/1", "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi"},
             "gora": {"Аня": 4, "Борис": 30, "Вера": 0}}
    return client.post("/api/v1/settle", json=sheet | {field: typed})


def _paper_kept(client, ctx, field, typed):
    return client.post("/paper/keep", data=_paper_form(field, typed), headers={"Accept-Language": "en"})


def _share_api(client, uid, field, typed):
    return client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer", field: typed})


def _share_page(client, uid, field, typed):
    return client.post(f"/p/{uid}/shares", data={"role": "viewer", field: typed})


# (set-up, send, field, status): every place a title, a currency, a note or a link's label enters
TEXT_ENTRIES = {
    "new pulka API: name": (_nothing, _create_api, "name", 400),
    "new pulka API: currency": (_nothing, _create_api, "currency", 400),
    "new pulka page: name": (_nothing, _create_page, "name", 400),
    "new pulka page: currency": (_nothing, _create_page, "currency", 400),
    "settings API: name": (_a_pulka, _settings_api, "name", 400),
    "settings API: currency": (_a_pulka, _settings_api, "currency", 400),
    "settings page: name": (_a_pulka, _settings_page, "name", 400),
    "settings page: currency": (_a_pulka, _settings_page, "currency", 400),
    "import API: the file's name": (_nothing, _import_api, "name", 400),
    "import API: the file's currency": (_nothing, _import_api, "currency", 400),
    "import API: the name asked for": (_nothing, _import_named, "name", 400),
    "import page: the file's name": (_nothing, _import_page, "name", 400),
    "import page: the file's currency": (_nothing, _import_page, "currency", 400),
    "import page: the name typed": (_nothing, _import_page_named, "name", 400),
    "paper sheet API: name": (_nothing, _paper_api, "name", 400),
    "paper sheet API: currency": (_nothing, _paper_api, "currency", 400),
    "paper sheet kept: currency": (_nothing, _paper_kept, "currency", 400),
    "share link API: label": (_a_pulka, _share_api, "label", 400),
    "share link page: label": (_a_pulka, _share_page, "label", 400),
    "payment API: currency": (_unfinished, _pay_api, "currency", 400),
    "payment API: note": (_unfinished, _pay_api, "note", 400),
    "payment page: currency": (_unfinished, _pay_page, "currency", 400),
    "payment page: note": (_unfinished, _pay_page, "note", 400),
}
PLACES = ("{c}", "E{c}R", "{c}EUR", "EUR{c}")


@pytest.mark.parametrize("entry", TEXT_ENTRIES, ids=TEXT_ENTRIES)
def test_a_text_with_a_character_that_does_not_show_is_refused_everywhere(app, client, entry):
    set_up, send, field, status = TEXT_ENTRIES[entry]
    ctx = set_up(client)
    before = snapshot(app)
    for (name, char), place in zip(ANY_HIDDEN.items(), PLACES * len(ANY_HIDDEN)):
        typed = place.format(c=char)
        message = refused_on(send(client, ctx, field, typed), field, status)
        # A file's name of a blank alone is its format's refusal ("name must be text of 1 to 80 characters").
        assert code(char) in message or not typed.strip(), (name, message)
        assert snapshot(app) == before, name
    refused_on(send(client, ctx, field, "\u0301EUR"), field, status)  # a mark on nothing
    assert snapshot(app) == before


# Where a player's name enters: a new pulka (API and page), its settings, an import, a paper sheet, a rename.
def _players_api(client, ctx, typed):
    return client.post("/api/v1/pulkas", json={"players": ["Аня", typed, "Вера"]})


def _players_page(client, ctx, typed):
    from ..pulkas.test_pulka_pages import new_pulka_form
    return client.post("/new", data=new_pulka_form(player1=typed))


def _players_settings(client, uid, typed):
    return client.patch(f"/api/v1/pulkas/{uid}", json={"players": ["Anna", typed, "Vera"]})


def _players_import(client, ctx, typed):
    return client.post("/api/v1/import", json=json.loads(json.dumps(SOCHI).replace('"B"', json.dumps(typed))))


def _players_paper(client, ctx, typed):
    return client.post("/paper/keep", data=_paper_form("player_1", typed), headers={"Accept-Language": "en"})


def _rename_api(client, who, typed):
    return client.patch(f"/api/v1/players/{who['B']}", json={"name": typed})


NAME_ENTRIES = {"new pulka API": (_nothing, _players_api, "players", 422),
                "new pulka page": (_nothing, _players_page, "players", 422),
                "settings API": (_a_pulka, _players_settings, "players", 422),
                "import API": (_nothing, _players_import, "players", 422),
                "paper sheet kept": (_nothing, _players_paper, "players", 422),
                "rename API": (_unfinished, _rename_api, "name", 400)}


@pytest.mark.parametrize("entry", NAME_ENTRIES, ids=NAME_ENTRIES)
def test_a_name_with_a_character_no_name_holds_is_refused_everywhere(app, client, entry):
    set_up, send, field, status = NAME_ENTRIES[entry]
    ctx = set_up(client)
    before = snapshot(app)
    for (name, char), place in zip(NEVER_SHOWN.items(), ("Бо{c}рис", "Борис{c}") * len(NEVER_SHOWN)):
        response = send(client, ctx, place.format(c=char))
        assert response.status_code == status, (name, text(response)[:400])
        message = response.json["error"]["message"] if response.is_json else text(response)
        assert code(char) in message and (not response.is_json or response.json["error"]["field"] == field), name
        assert snapshot(app) == before, name


def test_the_rename_page_refuses_in_words(client):
    who = _unfinished(client)
    response = client.post(f"/players/{who['B']}", data={"action": "rename", "name": "Бо\u202eрис"},
                           headers={"Accept-Language": "en"}, follow_redirects=True)
    assert "the name Бо⟨U+202E⟩рис holds ⟨U+202E⟩" in text(response)
    assert sorted(ids(client)) == ["A", "B", "C"]


def test_a_line_separator_alone_is_refused_not_stored_as_nothing(app, client):
    who = _unfinished(client)
    before = snapshot(app)
    for response in (_pay_api(client, who, "currency", "\u2028"), _pay_api(client, who, "note", "\u2028"),
                     _create_api(client, None, "currency", "\u2028"), _create_api(client, None, "name", "\u2029")):
        assert response.status_code == 400 and "⟨U+202" in response.json["error"]["message"], response.json
    assert snapshot(app) == before


def test_spaces_around_a_text_are_trimmed(client):
    who = _unfinished(client)
    paid = _pay_api(client, who, "note", "  наличными ")
    assert paid.status_code == 201 and paid.json["note"] == "наличными"
    made = _create_api(client, None, "currency", " EUR ")
    assert made.status_code == 201 and made.json["currency"] == "EUR"
    renamed = client.patch(f"/api/v1/players/{who['C']}", json={"name": "  Гена "})
    assert renamed.status_code == 200 and renamed.json["name"] == "Гена"


# -- a payment's currency ----------------------------------------------------------------------------


@pytest.mark.parametrize("send", [_pay_api, _pay_page], ids=["API", "page"])
def test_a_payment_in_a_currency_of_the_ledger_written_otherwise_is_refused(app, client, send):
    evening(client, "ABC", 3, "EUR", deals=2)
    who = ids(client)
    before = snapshot(app)
    for typed in ("eur", "Eur", "ＥＵＲ"):
        message = refused_on(send(client, who, "currency", typed), "currency")
        assert "write «EUR»" in message, typed
        assert snapshot(app) == before
    paid = _pay_api(client, who, "currency", "EUR")
    assert paid.status_code == 201 and paid.json["currency"] == "EUR"
    assert client.get("/api/v1/ledger").json["currencies"] == ["EUR"]  # one ledger, not two
