"""The statistics and the ledger are kept per process by the circle versions they were read at (store.circles):
every change of what a caller may read moves one on, so what a process kept is never shown after such a
change. Each test reads through one app (its caches warm), changes something, and reads again: the answers
must be those of a second app on the same database that has kept nothing (another process, just started)."""

from __future__ import annotations

import json

import pytest

from ..conftest import DATA, SOCHI, add, make_app, signed_in
from ..ledger.test_ledger import _renamed, evening, ids

CLUB = DATA / "club"


def read(client, player=None) -> tuple:
    """The caller's players, one player's statistics and the seat CSV, and the ledger."""
    listed = client.get("/api/v1/players").json
    stats = client.get(f"/api/v1/players/{player}/stats").json if player else None
    seats = client.get("/players.csv").get_data(as_text=True)
    return listed, stats, seats, client.get("/api/v1/ledger?currency=₽").json


@pytest.fixture
def fresh(database_url, tmp_path):
    """What a second app on the same database (another process, that has kept nothing yet) answers `read`."""
    def answers(client, player=None) -> tuple:
        app = make_app(database_url, tmp_path / "fresh")
        other = app.test_client()
        other.environ_base.update(client.environ_base)
        try:
            return read(other, player)
        finally:
            app.extensions["scorekeeper"].db.engine.dispose()
    return answers


def test_a_link_revoked_then_another_opened_at_equal_versions_shows_the_new_table(app, client, fresh):
    """The issue's: H opens A's link to A-1, A revokes it, H opens A's link to A-3; both frozen at one version,
    and H's own pulka the newest, so that every aggregate of the pulkas H reads is the same."""
    first = evening(client, ("A1", "B1", "C1"), 1, "₽")
    third = evening(client, ("A3", "B3", "C3"), 1, "₽")
    h = signed_in(app, "h", "h-password")
    evening(h, ("H", "I", "J"), 1, "₽")
    browser = app.test_client()
    browser.post("/login", data={"username": "h", "password": "h-password"})
    link = client.post(f"/api/v1/pulkas/{first}/shares", json={"role": "viewer"}).json
    assert browser.get(f"/s/{link['token']}").status_code == 302
    before = read(h)
    assert {p["name"] for p in before[0]["players"]} == {"A1", "B1", "C1", "H", "I", "J"}
    assert client.delete(f"/api/v1/pulkas/{first}/shares/{link['id']}").status_code == 204
    token = client.post(f"/api/v1/pulkas/{third}/shares", json={"role": "viewer"}).json["token"]
    assert browser.get(f"/s/{token}").status_code == 302
    after = read(h)
    assert {p["name"] for p in after[0]["players"]} == {"A3", "B3", "C3", "H", "I", "J"}
    assert third in after[2] and first not in after[2]
    assert {o["pulka"] for o in after[3]["obligations"]} >= {third} and \
        first not in {o["pulka"] for o in after[3]["obligations"]}
    assert after == fresh(h)


def test_merges_then_an_undo_show_one_state_in_the_list_and_the_ledger(client, fresh):
    """The issue's: merge W into Y, X into Y, undo W's: the list and the ledger both show X merged, W not."""
    evening(client, ("W", "A", "B"), 1, "₽")
    evening(client, ("X", "C", "D"), 1, "₽")
    evening(client, ("Y", "E", "F"), 1, "₽")
    who = ids(client)
    read(client)
    assert client.post(f"/api/v1/players/{who['W']}/merge", json={"into": who["Y"]}).status_code == 204
    read(client)
    assert client.post(f"/api/v1/players/{who['X']}/merge", json={"into": who["Y"]}).status_code == 204
    read(client)
    assert client.delete(f"/api/v1/players/{who['W']}/merge").status_code == 204
    listed, _, _, ledger = after = read(client)
    assert {p["name"] for p in listed["players"]} == {"W", "Y", "A", "B", "C", "D", "E", "F"}
    assert who["W"] in ledger["balances"] and who["X"] not in ledger["balances"]
    assert after == fresh(client)


def test_a_pulka_deleted_and_another_imported_in_its_row_is_read_anew(client, fresh):
    """SQLite gives the newest row's id to the next row once it is deleted: the same id, the same version, the
    same players, another result (the whist price doubled)."""
    friday = json.loads((CLUB / "friday.json").read_text())
    uid = client.post("/api/v1/import", json=friday).json["id"]
    anya = ids(client)["Аня"]
    money = read(client, anya)[1]["money"]["₽"]
    assert client.delete(f"/api/v1/pulkas/{uid}").status_code == 204
    friday["rules"]["whist_price"] = 1
    again = client.post("/api/v1/import", json=friday).json["id"]
    after = read(client, anya)
    assert after[1]["money"]["₽"] == pytest.approx(2 * money) and again in after[2] and uid not in after[2]
    assert after == fresh(client, anya)


def _rename(client, who, uid):
    assert client.patch(f"/api/v1/players/{who['A']}", json={"name": "Alya"}).status_code == 200


def _close(client, who, uid):
    going = evening(client, ("A", "B", "C"), 1, "₽", deals=4)
    read(client)
    assert client.post(f"/api/v1/pulkas/{going}/close").status_code == 200


def _reopen(client, who, uid):
    assert client.post(f"/api/v1/pulkas/{uid}/reopen").status_code == 200


def _finish(client, who, uid):
    going = evening(client, ("A", "B", "C"), 1, "₽", deals=9)
    read(client)
    assert add(client, going, _renamed(SOCHI["deals"][9], dict(zip("ABC", "ABC")))).status_code == 201


def _create(client, who, uid):
    assert client.post("/api/v1/import", json=json.loads((CLUB / "friday.json").read_text())).status_code == 201


def _delete(client, who, uid):
    assert client.delete(f"/api/v1/pulkas/{uid}").status_code == 204


def _merge_and_undo(client, who, uid):
    other = evening(client, ("Anya", "D", "E"), 1, "₽")
    assert other
    who = ids(client)
    read(client)
    assert client.post(f"/api/v1/players/{who['Anya']}/merge", json={"into": who["A"]}).status_code == 204
    read(client)
    assert client.delete(f"/api/v1/players/{who['Anya']}/merge").status_code == 204


def _pay(client, who, uid):
    assert client.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["A"], "amount": 3,
                                                        "currency": "₽"}).status_code == 201


@pytest.mark.parametrize("change", [_rename, _close, _reopen, _finish, _create, _delete, _merge_and_undo, _pay],
                         ids=lambda change: change.__name__.strip("_"))
def test_every_change_of_the_circle_is_read_at_once(client, fresh, change):
    uid = evening(client, ("A", "B", "C"), 1, "₽")
    who = ids(client)
    read(client, who["A"])
    change(client, who, uid)
    assert read(client, who["A"]) == fresh(client, who["A"])


def test_a_change_written_by_another_process_is_read_at_once(client, database_url, tmp_path, fresh):
    """The versions are read from the database: a merge and its undo written through a second app (another
    process) are seen by the first, whose caches are warm."""
    evening(client, ("W", "A", "B"), 1, "₽")
    evening(client, ("X", "C", "D"), 1, "₽")
    evening(client, ("Y", "E", "F"), 1, "₽")
    who = ids(client)
    other_app = make_app(database_url, tmp_path / "other")
    other = other_app.test_client()
    other.environ_base.update(client.environ_base)
    for path, method in ((f"/api/v1/players/{who['W']}/merge", "post"), (f"/api/v1/players/{who['X']}/merge", "post"),
                         (f"/api/v1/players/{who['W']}/merge", "delete")):
        read(client, who["Y"])
        answer = other.post(path, json={"into": who["Y"]}) if method == "post" else other.delete(path)
        assert answer.status_code == 204
        assert read(client, who["Y"]) == fresh(client, who["Y"])
    other_app.extensions["scorekeeper"].db.engine.dispose()
