"""Names that differ only by invisible characters (docs/club.md §1): a name empty once its Unicode category Cf
characters are taken out, or one that differs from another only by them, is refused wherever a name enters:
a new pulka (page and API), an import, a pulka's settings, a paper sheet settled or kept (422 bad_players, on
the players), a rename (400, on the name), and a merge that would seat two such names at one table (400, on
`into`). Nothing is stored by a refused request."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text as sql

from scorekeeper.web.domain.names import name_fault, newcomers_fault, seated_fault, shown, visible
from scorekeeper.web.domain.players import Merge, Rename
from scorekeeper.web.domain.refusals import Refused
from scorekeeper.web.services import players as player_service

from ..conftest import SOCHI, create, signed_in, snapshot, text
from ..fakes import FakePlayers

# Zero-width space, byte order mark (zero-width no-break space), left-to-right and right-to-left marks, soft
# hyphen, word joiner: each of Unicode's category Cf, none of them shown.
INVISIBLE = ["\u200b", "\ufeff", "\u200e", "\u200f", "\u00ad", "\u2060"]
RU = {"Accept-Language": "ru"}


def refused_players(response, language_text: str | None = None) -> None:
    assert response.status_code == 422, response.get_data(as_text=True)[:300]
    assert (response.json["error"]["code"], response.json["error"]["field"]) == ("bad_players", "players")
    if language_text is not None:
        assert language_text in response.json["error"]["message"]


# -- the rule -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mark", INVISIBLE + ["\u200c", "\u200d", "\u202a", "\u2066"])
def test_invisible_is_unicode_category_cf(mark):
    assert visible(f"А{mark}ня{mark}") == "Аня"
    assert shown(f"Аня{mark}") == f"Аня⟨U+{ord(mark):04X}⟩"


def test_a_name_that_shows_something_of_its_own_stands():
    assert visible("Анна Петровна") == "Анна Петровна"
    assert name_fault("Аня", ["Аня", "Борис"]) is None  # the same name is the same player, not a look-alike
    assert name_fault("👩\u200d💻", ["👩💻"]) is not None  # alike but for the joiner
    assert name_fault("👩\u200d💻", ["Аня"]) is None  # a joiner inside an emoji belongs there
    assert seated_fault(["Аня", "Борис", "Вера\u200b"]) is None
    assert newcomers_fault(["Аня\u200b"], ["Аня\u200b", "Аня"]) is None  # held already: it enters nothing


@pytest.mark.parametrize("mark", INVISIBLE)
def test_the_rule_in_english(mark):
    assert name_fault(mark).text(()) == (
        f"the name ⟨U+{ord(mark):04X}⟩ is only invisible characters (zero-width spaces or joiners, byte order marks, "
        "direction marks, soft hyphens): a name needs something that shows")
    assert seated_fault(["Аня", "Борис", f"Аня{mark}"]).text(()) == (
        f"the name Аня⟨U+{ord(mark):04X}⟩ differs from Аня only by invisible characters (zero-width spaces or "
        "joiners, byte order marks, direction marks, soft hyphens): they would read as one name")
    assert name_fault(f" {mark} ") is not None and name_fault(mark * 3) is not None


# -- a new pulka ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mark", INVISIBLE)
@pytest.mark.parametrize("name", ["{m}", "{m}{m}{m}", "{m} {m}"])
def test_a_new_pulka_refuses_a_name_of_nothing_but_invisible_characters(app, client, mark, name):
    before = snapshot(app)
    response = client.post("/api/v1/pulkas", json={"players": ["Борис", name.format(m=mark), "Вера"]})
    refused_players(response, "only invisible characters")
    assert snapshot(app) == before


@pytest.mark.parametrize("mark", INVISIBLE)
@pytest.mark.parametrize("spelling", ["Аня{m}", "{m}Аня", "А{m}ня", "{m}Аня{m}"])
def test_a_new_pulka_refuses_two_names_alike_but_for_invisible_characters(app, client, mark, spelling):
    before = snapshot(app)
    response = client.post("/api/v1/pulkas", json={"players": ["Аня", "Борис", spelling.format(m=mark)]})
    refused_players(response, "differs from Аня only by invisible characters")
    assert snapshot(app) == before


@pytest.mark.parametrize("mark", INVISIBLE)
def test_a_new_pulka_refuses_a_name_alike_one_of_the_circle(app, client, mark):
    create(client, players=("Аня", "Борис", "Вера"))
    before = snapshot(app)
    response = client.post("/api/v1/pulkas", json={"players": [f"Аня{mark}", "Борис", "Гена"]})
    refused_players(response, f"Аня⟨U+{ord(mark):04X}⟩ differs from Аня, a player of your circle")
    assert snapshot(app) == before
    # the same names as before are the same players: the table plays again
    assert client.post("/api/v1/pulkas", json={"players": ["Аня", "Борис", "Гена"]}).status_code == 201
    assert [p["name"] for p in client.get("/api/v1/players?unfinished=1").json["players"]] == \
        ["Аня", "Борис", "Вера", "Гена"]


def test_the_refusal_in_russian(client):
    create(client, players=("Аня", "Борис", "Вера"))
    response = client.post("/api/v1/pulkas", json={"players": ["Аня\u200b", "Борис", "Вера"]}, headers=RU)
    refused_players(response, "имя Аня⟨U+200B⟩ отличается от имени Аня, игрока вашего круга, только невидимыми "
                              "символами")
    response = client.post("/api/v1/pulkas", json={"players": ["\ufeff", "Борис", "Вера"]}, headers=RU)
    refused_players(response, "имя ⟨U+FEFF⟩ состоит только из невидимых символов")
    response = client.post("/api/v1/pulkas", json={"players": ["Гена", "Гена\u00ad", "Вера"]}, headers=RU)
    refused_players(response, "имя Гена⟨U+00AD⟩ отличается от имени Гена только невидимыми символами")


def test_a_name_shared_with_the_caller_is_of_his_circle(app, client):
    """A pulka of another account's, shared with the caller by a link he opened, brings its names into his
    circle: a look-alike of one of them is refused to him, not to the one who never saw it."""
    other = signed_in(app, "other", "other-password")
    theirs = create(other, players=("Гена", "Дима", "Женя"))
    token = other.post(f"/api/v1/pulkas/{theirs}/shares", json={"role": "viewer"}).json["token"]
    lookalike = {"players": ["Гена\u2060", "Борис", "Вера"]}
    third = signed_in(app, "third", "third-password")
    assert third.post("/api/v1/pulkas", json=lookalike).status_code == 201  # nobody has shared Гена with him
    browser = app.test_client()
    browser.post("/login", data={"username": "owner", "password": "owner-password"})
    assert browser.get(f"/s/{token}").status_code == 302
    refused_players(client.post("/api/v1/pulkas", json=lookalike), "Гена⟨U+2060⟩ differs from Гена")


@pytest.mark.parametrize("mark", INVISIBLE)
def test_the_new_pulka_page_refuses_on_the_players(app, client, mark):
    from ..pulkas.test_pulka_pages import new_pulka_form

    create(client, players=("Anna", "Boris", "Vera"))
    before = snapshot(app)
    response = client.post("/new", data=new_pulka_form(player2=f"Vera{mark}"))
    assert response.status_code == 422
    assert f"the name Vera⟨U+{ord(mark):04X}⟩ differs from Vera, a player of your circle" in text(response)
    response = client.post("/new", data=new_pulka_form(player1=mark))
    assert response.status_code == 422 and "is only invisible characters" in text(response)
    assert snapshot(app) == before


def test_the_settings_refuse_a_look_alike_before_the_first_deal(app, client):
    pulka = create(client, players=("Аня", "Борис", "Вера"))
    before = snapshot(app)
    refused_players(client.patch(f"/api/v1/pulkas/{pulka}", json={"players": ["Аня\u200e", "Борис", "Вера"]}))
    refused_players(client.patch(f"/api/v1/pulkas/{pulka}", json={"players": ["Аня", "Борис", "Борис\u200f"]}))
    assert snapshot(app) == before
    renamed = client.patch(f"/api/v1/pulkas/{pulka}", json={"players": ["Аня", "Борис", "Гена"]})
    assert renamed.status_code == 200, renamed.json


# -- an import ------------------------------------------------------------------------------------


def _file(players: list[str]) -> dict:
    """docs/rules.md §10's pulka (A, B, C) with the players named `players`."""
    data = json.dumps(SOCHI)
    for old, new in zip("ABC", players):
        data = data.replace(f'"{old}"', json.dumps(new))
    return json.loads(data)


@pytest.mark.parametrize("mark", INVISIBLE)
def test_an_import_refuses_look_alikes_in_the_file_and_in_the_circle(app, client, mark):
    assert client.post("/api/v1/import", json=_file(["Аня", "Борис", "Вера"])).status_code == 201
    before = snapshot(app)
    refused_players(client.post("/api/v1/import", json=_file(["Гена", f"Гена{mark}", "Дима"])), "differs from Гена")
    refused_players(client.post("/api/v1/import", json=_file([f"{mark}Борис", "Гена", "Дима"])),
                    "differs from Борис, a player of your circle")
    refused_players(client.post("/api/v1/import", json=_file([mark, "Гена", "Дима"])), "only invisible characters")
    assert snapshot(app) == before


# -- a paper sheet --------------------------------------------------------------------------------

SHEET = {"format": "pulya-sheet/1", "players": ["Аня", "Борис", "Вера"], "rules": {"preset": "sochi"},
         "gora": {"Аня": 4, "Борис": 30, "Вера": 0}}


def _sheet(players: list[str]) -> dict:
    return SHEET | {"players": players, "gora": dict(zip(players, SHEET["gora"].values()))}


@pytest.mark.parametrize("mark", INVISIBLE)
def test_settling_a_sheet_refuses_look_alikes_without_an_account(app, mark):
    anonymous = app.test_client()
    refused_players(anonymous.post("/api/v1/settle", json=_sheet(["Аня", f"Аня{mark}", "Вера"])), "differs from Аня")
    refused_players(anonymous.post("/api/v1/settle", json=_sheet(["Аня", "Борис", mark])), "only invisible")
    form = {"player_0": "Аня", "player_1": f"А{mark}ня", "player_2": "Вера", "preset": "sochi",
            "gora_0": "4", "gora_1": "30", "gora_2": "0"}
    page = anonymous.post("/paper", data=form, headers={"Accept-Language": "en"})
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    at = html.index('name="player_3"')
    assert '<p class="error"' in html[at:at + 400] and "differs from Аня only by invisible characters" in html
    assert "Amnesty" not in html


@pytest.mark.parametrize("mark", INVISIBLE)
def test_keeping_a_sheet_refuses_a_look_alike_of_the_circle(app, client, mark):
    create(client, players=("Аня", "Борис", "Вера"))
    before = snapshot(app)
    form = {"player_0": f"Аня{mark}", "player_1": "Гена", "player_2": "Дима", "preset": "sochi",
            "gora_0": "4", "gora_1": "30", "gora_2": "0", "idempotency_key": f"k{ord(mark)}"}
    page = client.post("/paper/keep", data=form, headers={"Accept-Language": "en"})
    assert page.status_code == 422
    assert f"the name Аня⟨U+{ord(mark):04X}⟩ differs from Аня, a player of your circle" in text(page)
    assert snapshot(app) == before


# -- a rename -------------------------------------------------------------------------------------


def _ids(client) -> dict[str, str]:
    return {p["name"]: p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]}


@pytest.mark.parametrize("mark", INVISIBLE)
def test_a_rename_refuses_a_name_of_nothing_that_shows(app, client, mark):
    create(client, players=("Аня", "Борис", "Вера"))
    before = snapshot(app)
    for name in (mark, mark * 2, f"{mark} {mark}"):
        response = client.patch(f"/api/v1/players/{_ids(client)['Борис']}", json={"name": name})
        assert (response.status_code, response.json["error"]["field"]) == (400, "name")
        assert "only invisible characters" in response.json["error"]["message"]
    assert snapshot(app) == before


@pytest.mark.parametrize("mark", INVISIBLE)
def test_a_rename_refuses_a_look_alike_of_another_player_of_the_circle(app, client, mark):
    create(client, players=("Аня", "Борис", "Вера"))
    create(client, players=("Гена", "Дима", "Женя"))  # another table: still one circle
    ids = _ids(client)
    before = snapshot(app)
    for name, other in ((f"Аня{mark}", "Аня"), (f"{mark}Гена", "Гена")):
        response = client.patch(f"/api/v1/players/{ids['Борис']}", json={"name": name})
        assert (response.status_code, response.json["error"]["field"]) == (400, "name")
        assert f"differs from {other}, a player of your circle, only by invisible characters" in \
            response.json["error"]["message"]
    assert snapshot(app) == before
    # his own name is no other player's: a mark added or taken out of it is a rename like any
    assert client.patch(f"/api/v1/players/{ids['Аня']}", json={"name": f"Аня{mark}"}).status_code == 200
    assert client.patch(f"/api/v1/players/{ids['Аня']}", json={"name": "Аня"}).json["name"] == "Аня"


def test_a_rename_refuses_a_look_alike_of_a_name_shared_with_the_caller(app, client):
    create(client, players=("Аня", "Борис", "Вера"))
    other = signed_in(app, "other", "other-password")
    theirs = create(other, players=("Гена", "Дима", "Женя"))
    token = other.post(f"/api/v1/pulkas/{theirs}/shares", json={"role": "viewer"}).json["token"]
    borya = _ids(client)["Борис"]
    browser = app.test_client()
    browser.post("/login", data={"username": "owner", "password": "owner-password"})
    assert browser.get(f"/s/{token}").status_code == 302
    response = client.patch(f"/api/v1/players/{borya}", json={"name": "Дима\ufeff"}, headers=RU)
    assert (response.status_code, response.json["error"]["field"]) == (400, "name")
    assert "имя Дима⟨U+FEFF⟩ отличается от имени Дима, игрока вашего круга" in response.json["error"]["message"]


def test_the_player_page_refuses_the_rename_in_words(client):
    create(client, players=("Аня", "Борис", "Вера"))
    response = client.post(f"/players/{_ids(client)['Борис']}", data={"action": "rename", "name": "Вера\u200b"},
                           headers={"Accept-Language": "en"}, follow_redirects=True)
    assert "the name Вера⟨U+200B⟩ differs from Вера, a player of your circle" in text(response)
    assert [p["name"] for p in _ids_list(client)] == ["Аня", "Борис", "Вера"]


def _ids_list(client) -> list[dict]:
    return client.get("/api/v1/players?unfinished=1").json["players"]


# -- a merge where the names meet -------------------------------------------------------------------


def _legacy(app, old: str, new: str) -> None:
    """A name as a circle could hold it before the rule: written into the database directly."""
    with app.extensions["scorekeeper"].db.engine.begin() as connection:
        connection.execute(sql("UPDATE players SET name = :new WHERE name = :old"), {"new": new, "old": old})


@pytest.mark.parametrize("mark", INVISIBLE)
def test_a_merge_that_would_seat_two_look_alikes_at_one_table_is_refused(app, client, mark):
    create(client, players=("Аня", "Борис", "Вера"))
    create(client, players=("Анна", "Гена", "Дима"))
    _legacy(app, "Гена", f"Аня{mark}")  # Гена's seat now reads «Аня» beside Анна and Дима
    ids = _ids(client)
    before = snapshot(app)
    for gone in ("Анна", "Дима"):
        response = client.post(f"/api/v1/players/{ids[gone]}/merge", json={"into": ids["Аня"]})
        assert (response.status_code, response.json["error"]["field"]) == (400, "into")
        assert f"Аня would sit at one table with Аня⟨U+{ord(mark):04X}⟩" in response.json["error"]["message"]
    assert snapshot(app) == before
    # the remedy stands: the look-alike merged into the one he is, as two spellings of one player
    assert client.post(f"/api/v1/players/{ids[f'Аня{mark}']}/merge", json={"into": ids["Аня"]}).status_code == 204


def test_the_merge_rule_on_the_use_case_alone():
    circle = FakePlayers({"anna": {"p1"}, "boris": {"p1", "p2"}, "anya": {"p3"}, "vera": {"p2", "p3"}})
    circle.names["vera"] = "ANNA\u200b"  # from before the rule: Vera's seats read as Anna
    with pytest.raises(Refused) as error:
        player_service.merge(circle, 1, Merge("anya", "anna"))  # Anya sat with Vera at p3
    assert error.value.field == "into" and circle.into["anya"] is None
    assert "ANNA would sit at one table with ANNA⟨U+200B⟩" in error.value.message
    with pytest.raises(Refused) as error:
        player_service.rename(circle, 1, Rename("boris", "\u2060ANYA"))
    assert error.value.field == "name" and circle.names["boris"] == "BORIS"
    player_service.merge(circle, 1, Merge("vera", "anna"))  # the remedy
    assert circle.into["vera"] == "anna"
