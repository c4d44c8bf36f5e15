"""A pulka through the JSON API: made, read, listed, its sheet and settlement, its rules fixed by the first
deal, its file, removed; the engine's codes in 4xx bodies and nothing stored on a refusal."""

from __future__ import annotations

import json

import pytest

from ..conftest import SOCHI, add, create, snapshot, sochi


def names(client) -> list[str]:
    """The names of the caller's circle (GET /api/v1/players lists them as objects: docs/club.md §2)."""
    return [player["name"] for player in client.get("/api/v1/players").json["players"]]


def test_create_and_read_pulka(client):
    response = client.post("/api/v1/pulkas", json={
        "name": "Friday", "players": ["Anna", "Boris", "Vera", "Gleb"], "first_dealer": "Vera",
        "rules": {"preset": "leningrad", "pulya_size": 30, "stalingrad": True}, "currency": "₽"})
    assert response.status_code == 201
    body = response.json
    assert response.headers["Location"] == f"/api/v1/pulkas/{body['id']}"
    assert body["players"] == ["Anna", "Boris", "Vera", "Gleb"]
    assert body["first_dealer"] == "Vera"
    assert body["overrides"] == {"preset": "leningrad", "pulya_size": 30, "stalingrad": True}
    assert body["rules"]["whist_factor"] == 2 and body["rules"]["pulka_end"] == "total"
    assert body["next"] == {"n": 1, "dealer": "Vera", "first_hand": "Gleb", "active": ["Gleb", "Anna", "Boris"],
                            "sitting_out": "Vera", "least_level": 6}
    assert body["version"] == 1 and body["deals"] == 0 and not body["frozen"]
    assert client.get(f"/api/v1/pulkas/{body['id']}").json == body
    listed = client.get("/api/v1/pulkas").json["pulkas"]
    assert [(p["name"], p["deals"]) for p in listed] == [("Friday", 0)]
    assert names(client) == ["Anna", "Boris", "Gleb", "Vera"]


def test_players_are_reused_across_pulkas(app, client):
    create(client, ["Anna", "Boris", "Vera"])
    create(client, ["Vera", "Anna", "Gleb"])
    assert names(client) == ["Anna", "Boris", "Gleb", "Vera"]
    assert len(snapshot(app)["players"]) == 4


@pytest.mark.parametrize(("body", "status", "code", "field"), [
    ({"players": ["A", "B"]}, 422, "bad_players", "players"),
    ({"players": ["A", "B", "A"]}, 422, "bad_players", "players"),
    ({"players": ["A", "B", ""]}, 422, "bad_players", "players"),
    ({"players": ["A", "B", "C", "D", "E"]}, 422, "bad_players", "players"),
    ({"players": ["A", "B", "x" * 41]}, 422, "bad_players", "players"),
    ({"players": ["A", "B", "C"], "first_dealer": "Z"}, 422, "bad_players", "first_dealer"),
    ({"players": ["A", "B", "C"], "rules": {"preset": "moscow"}}, 422, "unknown_preset", "rules.preset"),
    ({"players": ["A", "B", "C"], "rules": {"preset": "sochi", "bogus": 1}}, 422, "unknown_parameter", "rules.bogus"),
    ({"players": ["A", "B", "C"], "rules": {"preset": "sochi", "pulya_size": 0}}, 422, "bad_parameter",
     "rules.pulya_size"),
    ({"players": ["A", "B", "C"], "rules": {"preset": "sochi", "raspasy_exit": [6, 9, 7]}}, 422, "bad_parameter",
     "rules.raspasy_exit"),
    ({"players": ["A", "B", "C"], "rules": {"preset": "sochi", "whist_price": "0.12345"}}, 422, "bad_parameter",
     "rules.whist_price"),
    ({"players": ["A", "B", "C"], "rules": "sochi"}, 400, "bad_format", "rules"),
    ({"players": ["A", "B", "C"], "colour": "red"}, 400, "bad_format", "colour"),
    ({"players": ["A", "B", "C"], "name": "n" * 81}, 400, "bad_format", "name"),
])
def test_create_pulka_refused(app, client, body, status, code, field):
    before = snapshot(app)
    response = client.post("/api/v1/pulkas", json=body)
    assert response.status_code == status
    assert response.json["error"]["code"] == code
    assert response.json["error"]["field"] == field
    assert response.json["error"]["message"]
    assert snapshot(app) == before


def test_malformed_bodies(app, client):
    before = snapshot(app)
    response = client.post("/api/v1/pulkas", data="{not json", content_type="application/json")
    assert (response.status_code, response.json["error"]["code"]) == (400, "bad_json")
    response = client.post("/api/v1/pulkas", data="players=A", content_type="application/x-www-form-urlencoded")
    assert (response.status_code, response.json["error"]["code"]) == (415, "unsupported_media_type")
    response = client.post("/api/v1/pulkas", json=["A", "B", "C"])
    assert (response.status_code, response.json["error"]["code"]) == (400, "bad_format")
    assert snapshot(app) == before


def test_sochi_sheet_and_settlement(client):
    pulka_id = sochi(client)
    sheet = client.get(f"/api/v1/pulkas/{pulka_id}/sheet").json
    assert sheet["finished"] is True and sheet["next"] is None and sheet["deals"] == 10
    rows = {row["name"]: row for row in sheet["table"]}
    assert [rows[p]["pulya"] for p in "ABC"] == [10, 10, 10]
    assert [rows[p]["gora"] for p in "ABC"] == [6, 39, 22]
    assert rows["B"]["gora_chain"] == [12, 16, 20, 40, 39]
    assert rows["A"]["pulya_chain"] == [4, 5, 10]
    assert {w["on"]: w["total"] for w in rows["A"]["whists"]} == {"B": 40, "C": 68}
    assert {w["on"]: w["chain"] for w in rows["A"]["whists"]} == {"B": [30, 40], "C": [4, 16, 28, 68]}
    assert [rows[p]["money"] for p in "ABC"] == [131.67, -107.33, -24.34]
    assert [rows[p]["balance"] for p in "ABC"] == [263.33, -214.67, -48.67]
    assert sheet["last"]["pulya_closed"] == ["B"] and sheet["last"]["finished"] is True

    settlement = client.get(f"/api/v1/pulkas/{pulka_id}/settlement").json
    assert settlement["amnesty"] == 6
    assert settlement["gora_left"] == [0, 33, 16]
    assert settlement["gora_whists"][1] == 110
    assert settlement["gora_whists"][2] == pytest.approx(160 / 3)
    assert settlement["pairwise"][0][1] == 142
    assert settlement["pairwise"][1][2] == pytest.approx(-218 / 3)
    assert settlement["transfers"] == [{"from": "B", "to": "A", "amount": 107.33},
                                       {"from": "C", "to": "A", "amount": 24.34}]
    assert settlement["sum_money"] == 0 and settlement["sum_net"] == 0


def test_rules_frozen_after_first_deal(app, client):
    pulka_id = create(client)
    response = client.patch(f"/api/v1/pulkas/{pulka_id}", json={
        "rules": {"preset": "rostov", "pulya_size": 15}, "players": ["A", "B", "C", "D"], "first_dealer": "D"})
    assert response.status_code == 200
    assert response.json["overrides"] == {"preset": "rostov", "pulya_size": 15}
    assert response.json["players"] == ["A", "B", "C", "D"] and response.json["first_dealer"] == "D"
    assert add(client, pulka_id, {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}).status_code == 201
    before = snapshot(app)
    response = client.patch(f"/api/v1/pulkas/{pulka_id}", json={"rules": {"preset": "sochi"}})
    assert (response.status_code, response.json["error"]["code"]) == (409, "rules_frozen")
    assert snapshot(app) == before
    response = client.patch(f"/api/v1/pulkas/{pulka_id}", json={"name": "Renamed", "currency": "€"})
    assert response.status_code == 200 and (response.json["name"], response.json["currency"]) == ("Renamed", "€")


def test_export_import_round_trip(app, client):
    pulka_id = sochi(client, 9)
    client.patch(f"/api/v1/pulkas/{pulka_id}", json={"name": "Пятница", "currency": "₽"})
    assert add(client, pulka_id, SOCHI["deals"][9]).status_code == 201
    exported = client.get(f"/api/v1/pulkas/{pulka_id}/export").data
    started = json.loads(exported)["started"]
    assert started.endswith("+00:00")  # docs/files.md §1: a date-time with its offset
    assert json.loads(exported) == json.loads(json.dumps(SOCHI)) | {
        "first_dealer": "A", "name": "Пятница", "currency": "₽", "started": started}
    response = client.post("/api/v1/import", data=exported, content_type="application/json")
    assert response.status_code == 201 and response.json["name"] == "Пятница" and response.json["deals"] == 10
    again = client.get(f"/api/v1/pulkas/{response.json['id']}/export").data
    assert again == exported  # nothing lost: name, currency and start time travel with the file
    assert client.get(f"/api/v1/pulkas/{response.json['id']}/sheet").json["table"][1]["gora"] == 39
    renamed = client.post("/api/v1/import?name=Again", data=exported, content_type="application/json").json
    assert (renamed["name"], renamed["currency"]) == ("Again", "₽")


def test_import_refused(app, client):
    before = snapshot(app)
    response = client.post("/api/v1/import", data="nope", content_type="application/json")
    assert (response.status_code, response.json["error"]["code"]) == (400, "bad_json")
    bad = json.loads(json.dumps(SOCHI))
    bad["deals"][2]["tricks"]["C"] = 9
    response = client.post("/api/v1/import", json=bad)
    error = response.json["error"]
    assert response.status_code == 422
    assert (error["code"], error["deal"], error["field"]) == ("tricks_sum", 3, "tricks")
    assert error["message"] == "deal 3: tricks add up to 11, a deal has 10"
    response = client.post("/api/v1/import", data=json.dumps(SOCHI), content_type="text/plain")
    assert response.status_code == 415
    assert snapshot(app) == before


def test_missing_things_are_404_and_wrong_methods_405(client):
    assert client.get("/api/v1/pulkas/99").status_code == 404
    assert client.get("/api/v1/pulkas/99").json["error"]["code"] == "not_found"
    pulka_id = create(client)
    assert client.get(f"/api/v1/pulkas/{pulka_id}/deals/1").status_code == 404
    assert client.put(f"/api/v1/pulkas/{pulka_id}/deals/1", json={"type": "raspasy"}).status_code == 404
    assert client.get("/api/v1/nothing").json["error"]["code"] == "not_found"
    response = client.put("/api/v1/pulkas")
    assert response.status_code == 405 and response.json["error"]["code"] == "method_not_allowed"


def test_delete_pulka(app, client):
    pulka_id = sochi(client, 3)
    assert client.delete(f"/api/v1/pulkas/{pulka_id}").status_code == 204
    assert client.get(f"/api/v1/pulkas/{pulka_id}").status_code == 404
    rows = snapshot(app)
    assert rows["deals"] == [] and rows["pulka_players"] == [] and len(rows["players"]) == 3


def test_parameters_are_the_engines(client):
    from scorekeeper.engine import PARAMETERS

    body = client.get("/api/v1/parameters").json
    assert [p["name"] for p in body["parameters"]] == [p.name for p in PARAMETERS]
    assert body["presets"]["leningrad"]["raspasy_exit"] == [6, 7, 7]
