"""A pulka's pages and forms, as a phone at the table uses them (without JavaScript): the list, a new pulka,
its settings, its settlement, its files, removing it, and every page's header."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.engine import PARAMETERS

from ..conftest import SOCHI, add, create, snapshot, sochi, text


def test_index_lists_pulkas(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "No pulka yet" in text(response)
    sochi(client, 3)
    sochi(client)
    page = text(client.get("/"))
    # Compact: the evening (a day's pulkas), each name, where it stands and who leads; no list of players.
    assert re.search(r"Evening of \d{1,2} [A-Z][a-z]+ \d{4} Pulka of A, B, C finished at \d{1,2}:\d\d · A won "
                     r"\+263⅓ Again Pulka of A, B, C deal 4 · A leads \+99⅓ Again", page)
    create(client)
    assert "Pulka of A, B, C not started Again" in text(client.get("/"))
    assert 'aria-label="Same players again: Pulka of A, B, C"' in client.get("/").get_data(as_text=True)


def test_the_list_groups_a_days_pulkas_as_one_evening_in_russian(client):
    sochi(client, 3)
    sochi(client, 2)
    client.post("/language", data={"language": "ru"})
    page = text(client.get("/", headers={"Accept-Language": "ru"}))
    assert len(re.findall(r"Вечер \d{1,2} (?:января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|"
                          r"ноября|декабря) \d{4}", page)) == 1  # the month in the genitive, one heading for both


def test_same_players_again(client):
    """One tap makes the table's next pulka with the same players, seats, rules and currency, and opens it: the
    first dealer follows on from the last deal, the name says which of the evening it is."""
    pulka_id = create(client, ["Anna", "Boris", "Vera", "Gleb"], rules={"preset": "rostov", "pulya_size": 30},
                      first_dealer="Vera", currency="€", name="Friday")
    add(client, pulka_id, {"type": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Gleb": 3}})
    response = client.post(f"/p/{pulka_id}/again")
    assert response.status_code == 302
    new_id = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    assert new_id != pulka_id
    old, new = (client.get(f"/api/v1/pulkas/{uid}").json for uid in (pulka_id, new_id))
    same = ("players", "currency", "rules", "overrides")
    assert {key: new[key] for key in same} == {key: old[key] for key in same}
    assert (new["name"], new["first_dealer"]) == ("Friday, 2", "Gleb")  # Vera dealt deal 1: Gleb deals next
    assert new["deals"] == 0 and old["deals"] == 1
    assert "A new pulka for the same table: Gleb deals first." in text(client.get(f"/p/{new_id}"))
    third = client.post(f"/p/{new_id}/again", data={"first_dealer": "Boris"}).headers["Location"]
    third = client.get(f"/api/v1/pulkas/{third.split('?')[0].rsplit('/', 1)[1]}").json
    assert (third["name"], third["first_dealer"]) == ("Friday, 3", "Boris")  # chosen
    refused = client.post(f"/p/{new_id}/again", data={"first_dealer": "Nobody"})
    assert refused.status_code == 400 and "the first dealer is one of the players" in text(refused)


# -- a new pulka ----------------------------------------------------------------------------------


def new_pulka_form(**fields) -> dict:
    form = {"player0": "Anna", "player1": "Boris", "player2": "Vera", "player3": "", "first_dealer": "0",
            "preset": "sochi", "shown_preset": "sochi", "pulya_size": "20", "whist_price": "1", "currency": "₽",
            "name": "Friday"}
    from scorekeeper.engine import PRESETS
    from scorekeeper.web.edge.forms import ADVANCED, field_value

    for p in ADVANCED:
        value = field_value(p, getattr(PRESETS["sochi"], p.name))
        if value is not False:
            form[f"p_{p.name}"] = value
    return form | fields


def test_new_pulka_form_shows_every_parameter_with_the_preset_value(client):
    response = client.get("/new")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for p in PARAMETERS:
        assert p.name in html, p.name
    assert 'name="p_raspasy_gora" value="1, 2, 3"' in html
    assert 'name="p_pulya_point_whists" value="10"' in html
    assert re.search(r'name="p_ten_checked" value="y" data-param="ten_checked" checked', html)
    assert '<option value="greedy" selected>' in html


def test_create_pulka_with_the_form(app, client):
    response = client.post("/new", data=new_pulka_form(pulya_size="10", whist_price="0,5", p_whist_factor="2"))
    assert response.status_code == 302
    pulka_id = response.headers["Location"].rsplit("/", 1)[1]
    pulka = client.get(f"/api/v1/pulkas/{pulka_id}").json
    assert pulka["overrides"] == {"preset": "sochi", "pulya_size": 10, "whist_price": 0.5, "whist_factor": 2}
    assert pulka["players"] == ["Anna", "Boris", "Vera"] and pulka["currency"] == "₽" and pulka["name"] == "Friday"
    page = text(client.get(response.headers["Location"]))
    assert "Anna deals first" in page
    assert "Deal 1 · Anna deals · first hand Boris" in page


def test_choosing_another_preset_without_javascript_takes_that_preset(client):
    # The advanced fields still show Sochi's values; only the preset chip changed.
    client.post("/new", data=new_pulka_form(preset="leningrad"))
    pulka = client.get("/api/v1/pulkas").json["pulkas"][0]
    overrides = client.get(f"/api/v1/pulkas/{pulka['id']}").json["overrides"]
    assert overrides == {"preset": "leningrad"}


@pytest.mark.parametrize(("fields", "message"), [
    ({"player2": ""}, "a pulka has 3 or 4 players"),
    ({"player2": "Anna"}, "two players have the same name"),
    ({"first_dealer": "3"}, "the first dealer must be one of the players"),
    ({"preset": "moscow"}, "unknown preset"),
    ({"pulya_size": "zero"}, "pulya_size must be an integer from 1 to 1000, not &#39;zero&#39;"),
    ({"whist_price": "-1"}, "whist_price must be a number from 0 to 10000 with at most 4 decimals"),
    ({"p_raspasy_exit": "6, 9, 7"}, "raspasy_exit must be a list of 3 integers from 6 to 8"),
    ({"p_single_whist_remiz": "rude"}, "single_whist_remiz must be one of greedy, gentleman"),
])
def test_new_pulka_refused(app, client, fields, message):
    before = snapshot(app)
    response = client.post("/new", data=new_pulka_form(**fields))
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert 'class="error"' in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_settings_before_and_after_the_first_deal(app, client):
    pulka_id = create(client)
    page = client.get(f"/p/{pulka_id}/settings")
    assert page.status_code == 200 and 'value="A"' in page.get_data(as_text=True)
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    response = client.post(f"/p/{pulka_id}/settings", data=new_pulka_form(
        player0="A", player1="B", player2="C", player3="D", preset="rostov", shown_preset="rostov",
        version=str(version), **{"p_single_whist_remiz": "gentleman", "p_shortfall_factor": "0.5",
                                 "p_consolation_min": "10", "p_raspasy_scoring": "whists", "p_raspasy_gora": "1",
                                 "p_raspasy_zero_pulya": "1", "p_raspasy_dealer": "pulya_one"}))
    assert response.status_code == 302
    pulka = client.get(f"/api/v1/pulkas/{pulka_id}").json
    assert pulka["overrides"] == {"preset": "rostov"} and pulka["players"] == ["A", "B", "C", "D"]

    assert add(client, pulka_id, {"type": "raspasy", "tricks": {"B": 3, "C": 3, "D": 4}}).status_code == 201
    page = text(client.get(f"/p/{pulka_id}/settings"))
    assert "fixed since the first deal" in page
    before = snapshot(app)
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    response = client.post(f"/p/{pulka_id}/settings", data={"name": "Late night", "currency": "€",
                                                            "version": str(version), "preset": "sochi"})
    assert response.status_code == 302
    pulka = client.get(f"/api/v1/pulkas/{pulka_id}").json
    assert (pulka["name"], pulka["currency"], pulka["overrides"]) == ("Late night", "€", {"preset": "rostov"})
    assert snapshot(app) != before


# -- settlement, files ----------------------------------------------------------------------------


def test_settlement_page(client):
    pulka_id = sochi(client)
    page = text(client.get(f"/p/{pulka_id}/settlement"))
    assert "B pays A 107.33" in page and "C pays A 24.34" in page
    assert "A +263⅓ +131.67" in page and "B −214⅔ −107.33" in page
    assert "Sum 0 0.00 ✓" in page
    assert "The smallest gora, 6 , is struck from every gora. Gora left: A 0, B 33, C 16." in page
    assert "writes on A 0, B 110, C 53⅓ whists" in page
    assert "A — 142 121⅓ 263⅓" in page and "B −142 — −72⅔ −214⅔" in page and "C −121⅓ 72⅔ — −48⅔" in page


def test_settlement_of_an_unfinished_pulka(client):
    pulka_id = sochi(client, 1)
    page = text(client.get(f"/p/{pulka_id}/settlement"))
    assert "not finished" in page
    # A: pulya 4 → (4 − 4/3) × 10 / … : the engine's figures, shown as they are.
    settlement = client.get(f"/api/v1/pulkas/{pulka_id}/settlement").json
    names = [p["name"] for p in settlement["players"]]
    for t in settlement["transfers"]:
        assert f"{t['from']} pays {t['to']} {t['amount']:.2f}" in page
    assert names == ["A", "B", "C"] and settlement["sum_money"] == 0


def test_export_import_and_csv(app, client):
    pulka_id = sochi(client)
    exported = client.get(f"/p/{pulka_id}/export")
    assert exported.headers["Content-Disposition"].startswith("attachment; filename=")
    from io import BytesIO

    response = client.post("/import", data={"file": (BytesIO(exported.data), "friday.pulya.json"), "name": ""},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/p/{new_id}/export").data == exported.data  # the file's own name is kept
    nameless = json.dumps(SOCHI).encode()  # a file without a name is named after the file
    response = client.post("/import", data={"file": (BytesIO(nameless), "friday.pulya.json"), "name": ""},
                           content_type="multipart/form-data")
    assert client.get(f"/api/v1/pulkas/{response.headers['Location'].rsplit('/', 1)[1]}").json["name"] == "friday"

    data = client.get(f"/p/{pulka_id}/protocol.csv").get_data()
    assert data.startswith(b"\xef\xbb\xbf")  # the byte order mark: a spreadsheet reads it as UTF-8
    csv = data.decode("utf-8-sig").splitlines()
    assert csv[0] == "deal,dealer,type,declarer,contract,whist,open,tricks,player,column,on,points,reason"
    assert "2,B,game,B,8D,C:whist A:whist,,B:6 A:3 C:1,B,gora,,12,B is remiz by 2 on 8♦: gora 2 × 6" in csv
    assert csv[-1].startswith("10,A,game,B,9NT,C:pass A:pass,,,B,gora,,-1,")


def test_import_refused(app, client):
    before = snapshot(app)
    response = client.post("/import", data={"text": '{"format": "pulya/1"}'})
    assert response.status_code == 400 and "the key &#39;deals&#39; is missing" in response.get_data(as_text=True)
    response = client.post("/import", data={"text": ""})
    assert response.status_code == 400 and "Choose a pulka file" in text(response)
    bad = SOCHI | {"deals": SOCHI["deals"][:2] + [{"type": "raspasy", "tricks": {"A": 5, "B": 5, "C": 5}}]}
    import json

    response = client.post("/import", data={"text": json.dumps(bad)})
    assert response.status_code == 422 and "deal 3: tricks add up to 15, a deal has 10" in text(response)
    assert snapshot(app) == before


def test_remove_a_pulka(app, client):
    pulka_id = sochi(client, 2)
    assert "Delete Pulka of A, B, C?" in text(client.get(f"/p/{pulka_id}/remove"))
    response = client.post(f"/p/{pulka_id}/remove")
    assert response.status_code == 302
    assert client.get(f"/p/{pulka_id}").status_code == 404


# -- every page -----------------------------------------------------------------------------------


def test_every_page_heads_with_the_callers_own_links(client):
    """The header names the account on every page it can open: a page's own name (a macro, a variable) never
    takes the place of base.html's `who` (the deal form's macro once did, and showed «<Macro 'who'>»)."""
    uid = sochi(client, 3)
    pages = ["/", "/new", "/import", "/paper", "/players", "/ledger", "/account", "/admin", f"/p/{uid}",
             f"/p/{uid}/deal", f"/p/{uid}/history", f"/p/{uid}/settlement", f"/p/{uid}/settings",
             f"/p/{uid}/shares", f"/p/{uid}/deals/1/edit", f"/p/{uid}/deals/3/delete", f"/p/{uid}/close",
             f"/p/{uid}/remove"]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        head = re.search(r'<span class="who">(.*?)</span>', response.get_data(as_text=True), re.S)
        assert head and 'href="/ledger"' in head.group(1) and ">owner</a>" in head.group(1), path
