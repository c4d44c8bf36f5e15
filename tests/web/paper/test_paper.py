"""The paper sheet on the web: POST /api/v1/settle (docs/files.md §4) and the page, both without an account."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.web.domain.paper import grid_field, sheet_of_form, value

from ..conftest import snapshot

MM = {"format": "pulya-sheet/1", "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi", "whist_price": 0.5},
      "pulya": {"Аня": 20, "Борис": 14, "Вера": 20}, "gora": {"Аня": 42, "Борис": 96, "Вера": 132},
      "whists": {"Аня": {"Борис": 170, "Вера": 60}, "Борис": {"Аня": 64, "Вера": 178},
                 "Вера": {"Аня": 88, "Борис": 95}}}

FORM = {"player_0": "Аня", "player_1": "Борис", "player_2": "Вера", "player_3": "", "preset": "sochi",
        "whist_price": "0,5", "currency": "₽", "pulya_0": "20", "pulya_1": "14", "pulya_2": "20",
        "gora_0": "42", "gora_1": "96", "gora_2": "132", "whists_0_1": "170", "whists_0_2": "60",
        "whists_1_0": "64", "whists_1_2": "178", "whists_2_0": "88", "whists_2_1": "95"}


def test_the_api_settles_without_an_account(app):
    anonymous = app.test_client()
    before = snapshot(app)
    response = anonymous.post("/api/v1/settle", json=MM)
    assert response.status_code == 200, response.json
    body = response.json
    assert body["format"] == "pulya-result/1" and body["settlement"]["amnesty"] == 42
    assert body["settlement"]["pairwise"]["Аня"] == {"Борис": 306, "Вера": 272}
    assert body["settlement"]["money"] == {"Аня": 289, "Борис": -61.5, "Вера": -227.5}
    assert snapshot(app) == before  # nothing is stored


@pytest.mark.parametrize("changes,status,code,field", [
    ({"pulya": {"Аня": -1, "Борис": 14, "Вера": 20}}, 422, "bad_number", "pulya.Аня"),
    ({"whists": {"Аня": {"Аня": 0}}}, 422, "self_whists", "whists.Аня.Аня"),
    ({"gora": {"Аня": 1, "Борис": 2, "Гена": 3}}, 422, "bad_number", "gora.Вера"),
    ({"gora": {"Аня": 1, "Борис": 2, "Вера": 3, "Гена": 3}}, 422, "unknown_player", "gora.Гена"),
    ({"extra": 1}, 400, "bad_format", "extra"),
])
def test_the_api_refuses_on_the_field(app, changes, status, code, field):
    response = app.test_client().post("/api/v1/settle", json=MM | changes)
    assert response.status_code == status
    assert (response.json["error"]["code"], response.json["error"]["field"]) == (code, field)


@pytest.mark.parametrize("body", ['{"gora": NaN}', "{not json", "[1]", '"text"'])
def test_the_api_never_answers_500(app, body):
    response = app.test_client().post("/api/v1/settle", data=body, content_type="application/json")
    assert 400 <= response.status_code < 500
    assert response.json["error"]["code"] in ("bad_json", "bad_format")


def test_the_api_wants_json(app):
    assert app.test_client().post("/api/v1/settle", data="x", content_type="text/plain").status_code == 415


def test_the_grid_is_the_format_object():
    data = sheet_of_form(FORM)
    assert data == {**MM, "currency": "₽"}


def test_values_as_players_type_them():
    assert [value(t) for t in ("12", "12,5", "−4", "+3", " 7 ", "1.25", "abc", "")] == \
        [12, 12.5, -4, 3, 7, 1.25, "abc", ""]


def test_an_empty_pulya_row_is_no_pulya_an_empty_gora_is_missing():
    form = FORM | {"pulya_0": "", "pulya_1": "", "pulya_2": "", "gora_1": ""}
    data = sheet_of_form(form)
    assert "pulya" not in data and data["gora"] == {"Аня": 42, "Вера": 132}


def test_a_files_field_is_named_as_the_grids():
    assert [grid_field(f, FORM) for f in ("gora.Аня", "whists.Борис.Вера", "pulya.Вера", "rules.whist_price",
                                          "rules.preset", "players", "format")] == \
        ["gora_0", "whists_1_2", "pulya_2", "whist_price", "preset", "players", ""]


def test_the_page_is_reachable_without_an_account(app):
    anonymous = app.test_client()
    login = anonymous.get("/login", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Посчитать бумажную пулю" in login
    page = anonymous.get("/paper")
    assert page.status_code == 200
    assert 'name="gora_0"' in page.get_data(as_text=True)


def test_the_page_settles_without_script(app):
    page = app.test_client().post("/paper", data=FORM, headers={"Accept-Language": "en"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Amnesty: the smallest gora, 42, is struck from every gora." in text
    assert "Борис&#39;s 54 gora points: 180 whists from each of the others" in text
    assert "Аня–Борис: 350 − 64 = 286; for the pulya +20: 306." in text
    assert "Вера pays Аня 227.50" in text


def test_the_page_in_russian(app):
    text = app.test_client().post("/paper", data=FORM, headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Амнистия: наименьшая гора, 42, списывается со всех гор." in text
    assert "Аня–Борис: 350 − 64 = 286; за пулю +20: 306." in text


@pytest.mark.parametrize("changes,field", [
    ({"pulya_1": "-3"}, "pulya_1"),
    ({"pulya_1": "14,5"}, "pulya_1"),
    ({"gora_2": ""}, "gora_2"),
    ({"whists_2_0": "много"}, "whists_2_0"),
    ({"player_2": "Аня"}, "players"),
    ({"whist_price": "-1"}, "whist_price"),
])
def test_a_mistake_is_refused_on_its_field(app, changes, field):
    page = app.test_client().post("/paper", data=FORM | changes, headers={"Accept-Language": "en"})
    assert 400 <= page.status_code < 500
    text = page.get_data(as_text=True)
    if field in ("players", "whist_price"):  # the message sits right after its own input (the names' after the last)
        at = text.index('name="player_3"' if field == "players" else f'name="{field}"')
        assert '<p class="error"' in text[at:at + 400]
    else:  # a cell of the grid is marked, and its message, under the grid, is tied to it
        cell = re.search(rf'<input [^>]*name="{field}"[^>]*>', text).group(0)
        assert 'aria-invalid="true"' in cell and f'aria-describedby="error-{field}"' in cell
        assert re.search(rf'<p class="error" role="alert" id="error-{field}">[^<]+</p>', text)
    assert "Amnesty" not in text


def test_every_mistake_is_marked_at_once(app):
    """Three wrong cells: the page marks all three, and the API lists all three besides the first (§3's)."""
    wrong = {"pulya_0": "-3", "gora_1": "abc", "whists_2_0": "много"}
    page = app.test_client().post("/paper", data=FORM | wrong, headers={"Accept-Language": "en"})
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    for field in wrong:
        cell = re.search(rf'<input [^>]*name="{field}"[^>]*>', text).group(0)
        assert 'aria-invalid="true"' in cell, field
        assert re.search(rf'<p class="error" role="alert" id="error-{field}">[^<]+</p>', text), field
    sheet = json.loads(json.dumps(MM))
    sheet["pulya"]["Аня"], sheet["gora"]["Борис"], sheet["whists"]["Вера"]["Аня"] = -3, "abc", "много"
    answer = app.test_client().post("/api/v1/settle", json=sheet)
    assert answer.status_code == 422 and answer.json["error"]["field"] == "pulya.Аня"
    assert [p["field"] for p in answer.json["problems"]] == ["pulya.Аня", "gora.Борис", "whists.Вера.Аня"]


def test_a_table_of_four(app):
    form = {"player_0": "A", "player_1": "B", "player_2": "C", "player_3": "D", "preset": "sochi",
            "gora_0": "0", "gora_1": "6", "gora_2": "0", "gora_3": "0"}
    text = app.test_client().post("/paper", data=form, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "B&#39;s 6 gora points: 15 whists from each of the others (6 × 10 ÷ 4)." in text


def test_the_openapi_document_lists_settle(app):
    document = app.test_client().get("/api/v1/openapi.json").json
    assert "post" in document["paths"]["/api/v1/settle"]
    json.dumps(document)


# -- a pulka going on from paper (docs/files.md §5) -------------------------------------------------

OPENING_FILE = {"format": "pulya/1", "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi"},
                "first_dealer": "Вера",
                "opening": {"pulya": {"Аня": 20, "Борис": 10, "Вера": 0}, "gora": {"Аня": 4.5, "Борис": 30},
                            "whists": {"Аня": {"Борис": 48}}},
                "deals": [{"type": "game", "declarer": "Аня", "contract": "6S",
                           "whist": {"Борис": "pass", "Вера": "pass"}}]}


def test_import_and_export_carry_the_opening(client):
    made = client.post("/api/v1/import", json=OPENING_FILE)
    assert made.status_code == 201, made.json
    uid = made.json["id"]
    exported = client.get(f"/api/v1/pulkas/{uid}/export").json
    assert exported["opening"]["pulya"] == OPENING_FILE["opening"]["pulya"]
    assert exported["opening"]["gora"] == {"Аня": 4.5, "Борис": 30, "Вера": 0}
    assert exported["opening"]["whists"]["Аня"] == {"Борис": 48, "Вера": 0}
    # Аня's pulya was closed on paper: her 6♠ helps Борис 10 → 12, for 10 whists a point
    settled = client.get(f"/api/v1/pulkas/{uid}/settlement").json
    from scorekeeper.files import pulyafile
    expected = pulyafile.result_json(pulyafile.parse(OPENING_FILE))
    assert expected["sheet"]["whists"]["Аня"]["Борис"] == 68
    assert [round(p["net"], 2) for p in settled["players"]] == list(expected["settlement"]["balance"].values())
    # the same table again starts afresh, without the paper
    again = client.post(f"/p/{uid}/again")
    assert again.status_code in (302, 303)
    fresh = again.headers["Location"].strip("/").split("/")[1]
    assert fresh != uid and "opening" not in client.get(f"/api/v1/pulkas/{fresh}/export").json


def test_a_logged_in_player_keeps_the_sheet_as_a_pulka(client):
    page = client.post("/paper", data=FORM).get_data(as_text=True)
    assert 'formaction="/paper/keep"' in page
    kept = client.post("/paper/keep", data=FORM | {"idempotency_key": "k1"})
    assert kept.status_code == 302
    uid = kept.headers["Location"].strip("/").split("/")[1]
    exported = client.get(f"/api/v1/pulkas/{uid}/export").json
    assert exported["deals"] == [] and exported["opening"]["gora"] == MM["gora"]
    assert exported["currency"] == "₽" and exported["first_dealer"] == "Аня"
    settled = client.get(f"/api/v1/pulkas/{uid}/settlement").json
    assert [p["net"] for p in settled["players"]] == [578, -123, -455]
    assert settled["amnesty"] == 42
    # sent again with its key, it is kept once
    assert client.post("/paper/keep", data=FORM | {"idempotency_key": "k1"}).headers["Location"] == kept.headers["Location"]
    assert [p["id"] for p in client.get("/api/v1/pulkas").json["pulkas"]] == [uid]


def test_keeping_refuses_a_pulya_above_its_size(client):
    page = client.post("/paper/keep", data=FORM | {"pulya_0": "25"}, headers={"Accept-Language": "en"})
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert re.search(r'<p class="error" role="alert" id="error-pulya_0">[^<]*above the 20 it closes at', text)
    assert client.get("/api/v1/pulkas").json["pulkas"] == []


def test_keeping_needs_an_account(app):
    anonymous = app.test_client()
    assert 'formaction="/paper/keep"' not in anonymous.post("/paper", data=FORM).get_data(as_text=True)
    assert anonymous.post("/paper/keep", data=FORM).status_code in (302, 401)


def test_the_api_creates_a_pulka_going_on_from_paper(client):
    body = {"players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi"}, "opening": OPENING_FILE["opening"]}
    made = client.post("/api/v1/pulkas", json=body)
    assert made.status_code == 201, made.json
    exported = client.get(f"/api/v1/pulkas/{made.json['id']}/export").json
    assert exported["opening"]["pulya"] == OPENING_FILE["opening"]["pulya"] and exported["deals"] == []


@pytest.mark.parametrize("opening,code,field", [
    ({"pulya": {"Аня": 21}}, "bad_opening", "opening.pulya.Аня"),
    ({"whists": {"Аня": {"Аня": 1}}}, "self_whists", "opening.whists.Аня.Аня"),
    ({"gora": {"Гена": 1}}, "unknown_player", "opening.gora.Гена"),
    (None, "bad_format", "opening"),
])
def test_the_api_refuses_a_bad_opening(app, client, opening, code, field):
    before = snapshot(app)
    made = client.post("/api/v1/pulkas", json={"players": ["Аня", "Борис", "Вера"], "opening": opening})
    assert made.status_code in (400, 422)
    assert (made.json["error"]["code"], made.json["error"]["field"]) == (code, field)
    assert snapshot(app) == before


@pytest.mark.parametrize("opening,code,field", [
    ({"whists": {"Аня": {"Аня": "x"}}}, "bad_number", "opening.whists.Аня.Аня"),
    ({"whists": {"Аня": {"Аня": 0}}, "gora": {"Борис": "x"}}, "bad_number", "opening.gora.Борис"),
    ({"pulya": {"Аня": 21}, "whists": {"Аня": {"Аня": 1}}}, "self_whists", "opening.whists.Аня.Аня"),
    ({"gora": {"Гена": 1}, "pulya": {"Аня": 21}}, "bad_opening", "opening.pulya.Аня"),
])
def test_of_an_openings_two_faults_the_api_answers_the_first_in_the_order(app, client, opening, code, field):
    """docs/files.md §3 and §5: bad_number, self_whists, bad_opening, unknown_player, whichever comes first."""
    before = snapshot(app)
    made = client.post("/api/v1/pulkas", json={"players": ["Аня", "Борис", "Вера"], "opening": opening})
    assert made.status_code in (400, 422)
    assert (made.json["error"]["code"], made.json["error"]["field"]) == (code, field)
    assert snapshot(app) == before


def test_a_kept_sheet_has_the_pages_of_any_pulka(client):
    kept = client.post("/paper/keep", data=FORM)
    uid = kept.headers["Location"].strip("/").split("/")[1]
    for path in (f"/p/{uid}", f"/p/{uid}/history", f"/p/{uid}/settlement", f"/p/{uid}/export"):
        assert client.get(path).status_code == 200, path
    history = client.get(f"/p/{uid}/history", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Where the paper ended" in history
    assert "Борис: pulya 14, gora 96; 64 whists on Аня, 178 whists on Вера" in history
    sheet = client.get(f"/api/v1/pulkas/{uid}/sheet").json
    assert sheet["deals"] == 0
    pdf = client.get(f"/p/{uid}/pulka.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_new_pulka_offers_to_start_from_a_sheet(client):
    page = client.get("/new", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert 'href="/paper"' in page and "Начали на бумаге?" in page


def test_the_pdf_of_a_paper_sheet(app):
    from ..pulkas.test_drawing import poppler

    response = app.test_client().post("/paper/pdf", data=FORM, headers={"Accept-Language": "ru"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    text = poppler("pdftotext", response.data)
    assert "Амнистия" in text and "286" in text and "227,50" in text


def test_a_kept_sheet_is_dealt_next_by_whom_the_table_says(client):
    kept = client.post("/paper/keep", data=FORM | {"first_dealer": "2"})
    uid = kept.headers["Location"].strip("/").split("/")[1]
    assert client.get(f"/api/v1/pulkas/{uid}").json["next"]["dealer"] == "Вера"


def test_the_api_answers_what_settle_json_prints(app):
    from scorekeeper.files import sheetfile

    assert app.test_client().post("/api/v1/settle", json=MM).json == sheetfile.result_json(sheetfile.parse(MM))


def test_the_result_is_exact_with_money_to_the_cent(app):
    form = {"player_0": "A", "player_1": "B", "player_2": "C", "preset": "sochi", "whist_price": "1",
            "gora_0": "1", "gora_1": "0", "gora_2": "0"}
    text = app.test_client().post("/paper", data=form, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "−6⅔" in text and "3⅓" in text  # exact whists: ḡ = ⅓
    assert "−6.66" in text and "3.33" in text  # the cent that rounding leaves goes to the earliest seat


def test_the_drawing_starts_each_chain_with_the_paper(client):
    kept = client.post("/paper/keep", data=FORM)
    uid = kept.headers["Location"].strip("/").split("/")[1]
    chains = client.get(f"/api/v1/pulkas/{uid}/sheet").json
    assert json.dumps(chains, ensure_ascii=False).count("132") >= 1
    page = client.get(f"/p/{uid}").get_data(as_text=True)
    assert ">132<" in page and ">178<" in page
