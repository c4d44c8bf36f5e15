"""The size a paper sheet's table played (docs/files.md §4: `rules.pulya_size`, a §14 override): the paper
page and its keep take it (the preset's shown), the API reads it, and a sheet whose pulyas are all closed at
that size (docs/rules.md §8.1; under Leningrad's `total`, together n × the size) is a finished pulka when kept:
frozen as finished, counted so by the statistics and the ledger, its PDF drawing the size played."""

from __future__ import annotations

import re

import pytest

from ..conftest import snapshot, text
from ..pulkas.test_drawing import poppler

RU = {"Accept-Language": "ru"}
EN = {"Accept-Language": "en"}


def sheet_form(pulya: list[str], gora: list[str], preset: str = "sochi", size: str = "10", **extra: str) -> dict:
    names = ["Аня", "Борис", "Вера", "Гена"][:len(pulya)]
    form = {"preset": preset, "pulya_size": size, "whist_price": "1", "currency": "₽"}
    for i, name in enumerate(names):
        form |= {f"player_{i}": name, f"pulya_{i}": pulya[i], f"gora_{i}": gora[i]}
    return form | extra


def keep(client, form: dict, headers=RU):
    kept = client.post("/paper/keep", data=form, headers=headers)
    assert kept.status_code == 302, text(kept)[:500]
    return kept.headers["Location"].strip("/").split("/")[1]


def pdf_text(client, uid: str) -> str:
    response = client.get(f"/p/{uid}/pulka.pdf", headers=RU)
    assert response.status_code == 200
    return poppler("pdftotext", response.data)


def money_by_name(client) -> dict[str, float]:
    names = {p["id"]: p["name"] for p in client.get("/api/v1/players").json["players"]}
    ledger = client.get("/api/v1/ledger?currency=₽").json
    return {names[uid]: amount for uid, amount in ledger["balances"].items()}


# -- the sheet: Sochi, pulya 10, closed 10/10/10 ------------------------------------------


def test_a_sochi_sheet_of_pulya_10_closed_is_a_finished_pulka_of_10(client):
    # Gora 0/30/0 and no whists: Борис's 30 gora points are 10 whists each, a third of them owed to each of
    # the others (docs/rules.md §9.2): Аня +100, Борис −200, Вера +100; the pulya term is 0 (equal pulyas).
    uid = keep(client, sheet_form(["10", "10", "10"], ["0", "30", "0"]))
    pulka = client.get(f"/api/v1/pulkas/{uid}").json
    assert pulka["rules"]["pulya_size"] == 10 and pulka["overrides"]["pulya_size"] == 10
    assert pulka["finished"] is True and pulka["result"]["ending"] == "finished"
    page = text(client.get(f"/p/{uid}", headers=RU))
    assert "Сочи · пуля 10" in page and "пуля 20" not in page
    assert "Пулька расписана" in page
    # frozen like any finished pulka: no deal is written into it
    deal = client.post(f"/api/v1/pulkas/{uid}/deals", json={"type": "raspasy", "tricks": {"Аня": 4, "Борис": 3,
                                                                                         "Вера": 3}})
    assert (deal.status_code, deal.json["error"]["code"]) == (409, "pulka_frozen")
    # counted as finished: without `unfinished=1`, in the statistics and the ledger
    players = {p["name"]: p for p in client.get("/api/v1/players").json["players"]}
    assert {name: p["pulkas"] for name, p in players.items()} == {"Аня": 1, "Борис": 1, "Вера": 1}
    stats = client.get(f"/api/v1/players/{players['Аня']['id']}/stats").json
    assert (stats["pulkas"], stats["won"], stats["net"], stats["money"]) == (1, 1, {"sochi": 100}, {"₽": 100})
    assert money_by_name(client) == {"Аня": 100, "Борис": -200, "Вера": 100}
    # its PDF draws the pulya of 10 and says the pulka is over
    printed = pdf_text(client, uid)
    assert "пуля 10" in printed and "пуля 20" not in printed
    assert "не расписана" not in printed


def test_the_message_says_the_kept_sheet_is_finished(client):
    kept = client.post("/paper/keep", data=sheet_form(["10", "10", "10"], ["0", "30", "0"]), headers=EN,
                       follow_redirects=True)
    assert "every pulya on the sheet is closed, so the pulka is finished" in text(kept)


def test_the_paper_pdf_draws_the_size_played(app):
    response = app.test_client().post("/paper/pdf", data=sheet_form(["10", "10", "10"], ["0", "30", "0"]),
                                      headers=RU)
    assert response.status_code == 200
    printed = poppler("pdftotext", response.data)
    assert "пуля 10" in printed and "пуля 20" not in printed and "не расписана" not in printed


@pytest.mark.parametrize("preset,pulya,gora,ending,net", [
    # four at the table, each pulya closed at 10: Борис's 40 gora points, 10 whists each, a quarter to each
    ("sochi", ["10", "10", "10", "10"], ["0", "40", "0", "0"], "finished", [100, -300, 100, 100]),
    # Rostov ends as Sochi does, when every pulya is closed
    ("rostov", ["10", "10", "10"], ["0", "30", "0"], "finished", [100, -200, 100]),
    # Leningrad ends when the pulyas together reach 3 × 10, uncapped; a pulya point is 20 whists:
    # Аня +20·(2 + 4)/3 = +40, Борис +20·(−2 + 2)/3 = 0, Вера −40
    ("leningrad", ["12", "10", "8"], ["0", "0", "0"], "finished", [40, 0, -40]),
    # a pulya not closed at 10: closed by hand as it stands, not finished
    ("sochi", ["10", "10", "8"], ["0", "0", "0"], "closed", None),
])
def test_kept_sheets_end_as_their_size_says(client, preset, pulya, gora, ending, net):
    uid = keep(client, sheet_form(pulya, gora, preset))
    pulka = client.get(f"/api/v1/pulkas/{uid}").json
    assert pulka["rules"]["pulya_size"] == 10 and pulka["rules"]["preset"] == preset
    assert pulka["result"]["ending"] == ending and pulka["finished"] is (ending == "finished")
    title = {"sochi": "Сочи", "rostov": "Ростов", "leningrad": "Ленинград"}[preset]
    assert f"{title} · пуля 10" in text(client.get(f"/p/{uid}", headers=RU))
    if net is not None:
        settled = client.get(f"/api/v1/pulkas/{uid}/settlement").json
        assert [p["net"] for p in settled["players"]] == net
        counted = {p["name"]: p["pulkas"] for p in client.get("/api/v1/players").json["players"]}
        assert set(counted.values()) == {1}


def test_a_sheet_written_down_from_its_size(client):
    """Counting down from 10 to 0, a row of zeros is every pulya closed at 10."""
    uid = keep(client, sheet_form(["0", "0", "0"], ["0", "30", "0"], pulya_counts_down="1"))
    pulka = client.get(f"/api/v1/pulkas/{uid}").json
    assert pulka["result"]["ending"] == "finished"
    assert client.get(f"/api/v1/pulkas/{uid}/export").json["opening"]["pulya"] == {"Аня": 10, "Борис": 10,
                                                                                  "Вера": 10}


# -- the form and the API -------------------------------------------------------------------------


def test_the_page_shows_the_presets_size(client):
    html = client.get("/paper").get_data(as_text=True)
    field = re.search(r'<input [^>]*name="pulya_size"[^>]*>', html).group(0)
    assert 'value="20"' in field  # Sochi's
    assert "data-sizes=" in field and "&#34;leningrad&#34;: 20" in field


def test_an_empty_size_is_the_presets(client):
    uid = keep(client, sheet_form(["10", "10", "10"], ["0", "30", "0"], size=""))
    pulka = client.get(f"/api/v1/pulkas/{uid}").json
    assert pulka["rules"]["pulya_size"] == 20 and pulka["result"]["ending"] == "closed"


def test_a_pulya_above_the_size_played_is_refused_when_kept(app, client):
    before = snapshot(app)
    page = client.post("/paper/keep", data=sheet_form(["11", "10", "10"], ["0", "30", "0"]), headers=EN)
    assert page.status_code == 422
    assert re.search(r'<p class="error" role="alert" id="error-pulya_0">[^<]*above the 10 it closes at',
                     page.get_data(as_text=True))
    assert snapshot(app) == before


@pytest.mark.parametrize("size", ["0", "1001", "abc", "-5", "10,5"])
@pytest.mark.parametrize("path", ["/paper", "/paper/keep", "/paper/pdf"])
def test_a_size_out_of_range_is_refused_on_its_field(app, client, size, path):
    before = snapshot(app)
    page = client.post(path, data=sheet_form(["10", "10", "10"], ["0", "30", "0"], size=size), headers=EN)
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    at = html.index('name="pulya_size"')
    assert '<p class="error"' in html[at:at + 600] and "pulya_size must be an integer from 1 to 1000" in html
    assert snapshot(app) == before


SHEET = {"format": "pulya-sheet/1", "players": ["Аня", "Борис", "Вера"],
         "rules": {"preset": "sochi", "pulya_size": 10}, "pulya_counts_down": True,
         "pulya": {"Аня": 0, "Борис": 2, "Вера": 10}, "gora": {"Аня": 0, "Борис": 30, "Вера": 0}}


def test_the_api_reads_the_size_played(app):
    body = app.test_client().post("/api/v1/settle", json=SHEET).json
    assert body["rules"]["pulya_size"] == 10
    assert body["sheet"]["pulya"] == {"Аня": 10, "Борис": 8, "Вера": 0}  # written down from 10
    absent = app.test_client().post("/api/v1/settle", json=SHEET | {"rules": {"preset": "rostov"}}).json
    assert absent["rules"]["pulya_size"] == 20 and absent["sheet"]["pulya"] == {"Аня": 20, "Борис": 18, "Вера": 10}


@pytest.mark.parametrize("size", [0, 1001, "10", 10.5, None])
def test_the_api_refuses_a_size_out_of_range_naming_it(app, size):
    response = app.test_client().post("/api/v1/settle", json=SHEET | {"rules": {"preset": "sochi", "pulya_size": size}})
    assert response.status_code == 422
    assert response.json["error"]["field"] == "rules.pulya_size"
    assert "pulya_size" in response.json["error"]["message"]


def test_the_api_keeps_a_sheet_of_10_finished(client):
    """The API keeps a sheet as a pulka going on from it (docs/files.md §5): closed at 10, it is finished."""
    made = client.post("/api/v1/pulkas", json={
        "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi", "pulya_size": 10},
        "opening": {"pulya": {"Аня": 10, "Борис": 10, "Вера": 10}, "gora": {"Борис": 30}}})
    assert made.status_code == 201, made.json
    pulka = client.get(f"/api/v1/pulkas/{made.json['id']}").json
    assert pulka["finished"] is True and pulka["result"]["ending"] == "finished"
