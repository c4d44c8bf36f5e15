"""What the Python side writes speaks the request's language: refusals (the API keeps its codes and fields,
its messages follow Accept-Language), the deal form's problems, flashes, the sheet's lines and the
history's reasons (with Russian plurals), the CSV, the drawing, the new-pulka form's parameters and its
currency."""

from __future__ import annotations

import csv
import io
import html
import re

from scorekeeper.engine import PARAMETERS, Kind

from ..conftest import create, form_fields

RU, EN = {"Accept-Language": "ru"}, {"Accept-Language": "en"}
PLAYERS = ("Анна", "Борис", "Вера")
# Tricks missing for one defender: refused, on the field "tricks".
SHORT = {"type": "game", "declarer": "Анна", "contract": "6S", "whist": {"Борис": "whist", "Вера": "pass"},
         "tricks": {"Анна": 6, "Борис": 5}}


def text(response) -> str:
    return response.get_data(as_text=True)


def flashes(client, response) -> list[str]:
    """The messages the page a write led to shows (carried in its address, or flashed)."""
    page = text(client.get(response.headers["Location"], headers=RU))
    return [html.unescape(m) for m in re.findall(r'<p class="flash[^"]*" role="status">([^<]*)</p>', page)]


def test_a_refused_deal_keeps_its_code_and_field_and_speaks_the_callers_language(client):
    uid = create(client, PLAYERS)
    ru = client.post(f"/api/v1/pulkas/{uid}/deals", json=SHORT, headers=RU)
    en = client.post(f"/api/v1/pulkas/{uid}/deals", json=SHORT, headers=EN)
    plain = client.post(f"/api/v1/pulkas/{uid}/deals", json=SHORT)
    assert ru.status_code == en.status_code == plain.status_code == 422
    for key in ("code", "field", "deal"):
        assert ru.json["error"][key] == en.json["error"][key]
    assert ru.json["error"]["message"] == "сдача 1: Вера: укажите взятки"  # the same values: the deal, the name
    assert en.json["error"]["message"] == plain.json["error"]["message"] == "deal 1: enter Вера's tricks"
    assert [p["message"] for p in ru.json["problems"]] == ["Вера: укажите взятки"]


def test_a_web_refusal_speaks_russian_with_its_values(client):
    uid = create(client, PLAYERS)
    ru = client.post(f"/api/v1/pulkas/{uid}/undo", headers=RU)
    assert (ru.status_code, ru.json["error"]["code"]) == (409, "no_deals")
    assert ru.json["error"]["message"] == "нет сдачи, которую можно отменить"
    assert client.post(f"/api/v1/pulkas/{uid}/undo").json["error"]["message"] == "there is no deal to undo"
    stale = client.post(f"/api/v1/pulkas/{uid}/deals?version=99", json=SHORT, headers=RU)
    if stale.status_code == 409:
        assert "пулька изменилась" in stale.json["error"]["message"]
    missing = client.get("/api/v1/pulkas/nope", headers=RU)
    assert (missing.status_code, missing.json["error"]["message"]) == (404, "такой пульки нет")
    page = client.get("/no-such-page", headers=RU)
    assert page.status_code == 404 and "Такой страницы здесь нет." in text(page)


def test_the_deal_forms_problem_is_in_russian(client):
    uid = create(client, PLAYERS)
    misere = {"type": "misere", "declarer": "Анна", "tricks": {"Анна": 11}}
    page = client.post(f"/p/{uid}/deal", data=form_fields(misere, PLAYERS), headers=RU)
    assert page.status_code == 422
    assert "Анна: взятки — целое число от 0 до 10, а не 11" in text(page)
    assert "Анна: взятки" not in text(client.post(f"/p/{uid}/deal", data=form_fields(misere, PLAYERS)))


def test_the_flashes_of_a_saved_and_an_undone_deal_are_russian(client):
    uid = create(client, PLAYERS)
    deal = SHORT | {"tricks": {"Анна": 6, "Борис": 4}}
    saved = client.post(f"/p/{uid}/deal", data=form_fields(deal, PLAYERS), headers=RU)
    assert saved.status_code == 302
    said = flashes(client, saved)
    assert said[0].startswith("Сдача 1 записана: ") and "Анна: пуля +2" in said[0]
    assert "Борис → Анна: 8 вистов" in said[0]
    client.post(f"/p/{uid}/undo", headers=RU)
    restored = client.post(f"/p/{uid}/restore", headers=RU, data={
        "deal": '{"type": "raspasy", "tricks": {"Анна": 2, "Борис": 3, "Вера": 5}}'})
    assert restored.status_code == 302
    assert flashes(client, restored)[-1].startswith("Сдача 1 возвращена: Борис: гора +3")
    assert client.post(f"/p/{uid}/undo", headers=RU).status_code == 302  # the restored deal, undone again
    refused = client.post(f"/p/{uid}/undo", headers=RU)  # nothing left to undo: the refusal, as a message
    assert any("нет сдачи, которую можно отменить" in said for said in flashes(client, refused))


def _whists(client, uid: int, tricks: int) -> str:
    """Борис whists alone on Анна's 6♠ and takes `tricks`: the line of the whists he writes."""
    deal = {"type": "game", "declarer": "Анна", "contract": "6S", "whist": {"Борис": "whist", "Вера": "pass"},
            "tricks": {"Анна": 10 - tricks, "Борис": tricks, "Вера": 0}}
    answer = client.post(f"/api/v1/pulkas/{uid}/deals", json=deal, headers=RU)
    assert answer.status_code == 201, answer.json
    return next(line for line in answer.json["summary"] if "вист" in line)


def test_the_sheets_lines_and_the_historys_reasons_are_russian_with_the_right_plurals(client):
    uid = create(client, PLAYERS, rules={"preset": "sochi", "pulya_size": 50, "whist_price": 0.5,
                                         "whist_factor": 1, "single_whist_made": "each_own"})
    # A lone whister writes for his own tricks: 2, 4 and 8 whists on 6♠ (worth 2 a trick in Sochi).
    lines = [_whists(client, uid, tricks) for tricks in (1, 2, 4)]
    counts = [int(re.search(r": (\d+) вист", line).group(1)) for line in lines]
    forms = dict(zip(counts, lines))
    for count, line in forms.items():
        word = "вист" if count % 10 == 1 and count % 100 != 11 else (
            "виста" if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14) else "вистов")
        assert line == f"Борис → Анна: {count} {word}"
    english = client.get(f"/api/v1/pulkas/{uid}/deals/1").json["summary"]
    assert any(re.fullmatch(r"Борис: \d+ whists? on Анна", line) for line in english)
    history = text(client.get(f"/p/{uid}/history", headers=RU))
    assert "Анна 6♠: Борис вист, Вера пас; взятки: Анна 9, Борис 1, Вера 0" in history  # the deal, described
    assert "Анна: сыграно 6♠, в пулю +2" in history  # a reason, from the engine's catalog
    raspasy = client.post(f"/api/v1/pulkas/{uid}/deals", headers=RU, json={
        "type": "raspasy", "tricks": {"Анна": 1, "Борис": 2, "Вера": 7}}).json
    reasons = [entry["reason"] for entry in raspasy["entries"]]
    assert "Анна: на распасах 1 взятка, в гору 1 × 1" in reasons
    assert "Борис: на распасах 2 взятки, в гору 2 × 1" in reasons
    assert "Вера: на распасах 7 взяток, в гору 7 × 1" in reasons
    assert raspasy["text"] == "Распасы: Анна 1, Борис 2, Вера 7"
    misere = client.post(f"/api/v1/pulkas/{uid}/deals", headers=RU, json={
        "type": "misere", "declarer": "Борис", "tricks": {"Борис": 0}}).json
    assert misere["text"] == "Борис: мизер, 0 взяток"


def test_the_whists_words_for_1_2_and_5(app):
    from scorekeeper.engine import Column
    from scorekeeper.web.views.deals import line

    names = PLAYERS
    with app.test_request_context(headers=RU):
        said = [line(names, 1, Column.WHISTS, count, 0, "ru") for count in (1, 2, 5, 21)]
        assert said == ["Борис → Анна: 1 вист", "Борис → Анна: 2 виста", "Борис → Анна: 5 вистов",
                        "Борис → Анна: 21 вист"]
    with app.test_request_context():
        assert line(names, 1, Column.WHISTS, 1, 0, "en") == "Борис: 1 whist on Анна"


def test_the_csv_and_the_drawing_speak_russian(client):
    uid = create(client, PLAYERS)
    client.post(f"/api/v1/pulkas/{uid}/deals", json={"type": "raspasy", "tricks": {"Анна": 2, "Борис": 3,
                                                                                    "Вера": 5}})
    rows = list(csv.reader(io.StringIO(text(client.get(f"/p/{uid}/protocol.csv", headers=RU)).lstrip("\ufeff"))))
    assert rows[0] == ["сдача", "сдающий", "тип", "разыгрывающий", "игра", "вист", "в светлую", "взятки", "игрок",
                       "графа", "на кого", "очки", "причина"]
    assert rows[1][2] == "распасы" and rows[1][9] == "гора"
    english = list(csv.reader(io.StringIO(text(client.get(f"/p/{uid}/protocol.csv")).lstrip("\ufeff"))))
    assert english[0][:3] == ["deal", "dealer", "type"] and english[1][2] == "raspasy"
    sheet = text(client.get(f"/p/{uid}", headers=RU))
    assert 'aria-label="Лист пули: Анна, Борис, Вера"' in sheet
    assert 'aria-label="Pulya sheet: Анна, Борис, Вера"' in text(client.get(f"/p/{uid}", headers=EN))


def test_the_new_pulka_form_names_every_parameter_in_russian(client):
    page = text(client.get("/new", headers=RU))
    for name in ("Консоляция от спасовавшего", "Сталинград", "Полвиста", "Очки сверх пули"):
        assert name in page
    assert "консоляцию пишет и спасовавший" in page  # a meaning, from the engine's catalog
    visible = re.sub(r"<[^>]*>", " ", page)  # the words a player sees, not the fields' names
    assert not [p.name for p in PARAMETERS if re.search(rf"\b{p.name}\b", visible)]
    english = text(client.get("/new"))
    assert "Consolation by the passer" in english and "a defender who passed writes consolation too" in english


def test_the_new_pulka_form_says_each_choice_in_words(client):
    """A choice parameter's options are the players' words; the code is only the value sent."""
    options = lambda page: {value: html.unescape(label) for value, label in  # noqa: E731
                            re.findall(r'<option value="(\w+)"[^>]*>([^<]+)</option>', page)}
    ru, en = options(text(client.get("/new", headers=RU))), options(text(client.get("/new")))
    assert (ru["whister_all"], ru["greedy"], ru["gentleman"]) == (
        "вистующий пишет за обоих", "жлобский: всё вистующему", "джентльменский: пополам")
    assert (en["whister_all"], en["talon"], en["help_then_writeoff"]) == (
        "the whister writes for both", "the talon's tricks are the dealer's", "help, then write off gora")
    choices = [c for p in PARAMETERS if p.kind is Kind.CHOICE for c in p.choices]
    assert set(ru) >= {c.value for c in choices} and not [c for c in choices if ru[c.value] == c.value]


def test_the_api_lists_the_parameters_by_title_in_the_callers_language(client):
    ru = {p["name"]: p for p in client.get("/api/v1/parameters", headers=RU).json["parameters"]}
    assert ru["stalingrad"]["title"] == "Сталинград" and ru["stalingrad"]["meaning"] == "на 6♠ вистуют оба («Сталинград»)"
    en = {p["name"]: p for p in client.get("/api/v1/parameters").json["parameters"]}
    assert en["pulya_size"]["title"] == "Pulya size"


def test_a_new_pulkas_currency_follows_the_language(client):
    assert 'name="currency" value="₽"' in text(client.get("/new", headers=RU))
    assert 'name="currency" value=""' in text(client.get("/new"))  # English: no sign unless the table sets one
    made = client.post("/api/v1/pulkas", json={"players": list(PLAYERS)}, headers=RU).json
    assert made["currency"] == "₽"
    assert client.post("/api/v1/pulkas", json={"players": list(PLAYERS)}).json["currency"] == ""


def test_a_deal_or_file_that_is_not_pulya_1_is_refused_in_russian(client):
    uid = create(client, PLAYERS)
    ru = client.post(f"/api/v1/pulkas/{uid}/deals", json={"type": "misere", "declarer": "Дима"}, headers=RU).json
    assert (ru["error"]["code"], ru["error"]["field"]) == ("unknown_player", "declarer")
    assert ru["error"]["message"] == "сдача 1: 'Дима' — не из игроков"
    en = client.post(f"/api/v1/pulkas/{uid}/deals", json={"type": "misere", "declarer": "Дима"}).json
    assert en["error"]["message"] == "deal 1: 'Дима' is not one of the players"
    same = client.post("/api/v1/pulkas", json={"players": ["A", "A", "B"]}, headers=RU).json["error"]
    assert (same["code"], same["message"]) == ("bad_players", "у двух игроков одно и то же имя")


def test_a_new_pulka_without_a_name_is_named_in_the_callers_language(client):
    made = client.post("/api/v1/pulkas", json={"players": list(PLAYERS)}, headers=RU).json
    assert made["name"] == "Пулька: Анна, Борис, Вера"
    assert client.post("/api/v1/pulkas", json={"players": list(PLAYERS)}).json["name"] == "Pulka of Анна, Борис, Вера"
