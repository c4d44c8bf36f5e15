"""A pulka's end (docs/club.md §1): a pulka that finishes, or that its owner closes, keeps its result and takes
no write until its owner reopens it; both ends and the reopening are recorded."""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction

import pytest
from sqlalchemy import text

from scorekeeper.files import pulyafile
from scorekeeper.engine import settle

from ..conftest import SOCHI, add, signed_in, snapshot, sochi

LAST = SOCHI["deals"][-1]
WRITES = [  # every write a frozen pulka refuses, as (method, path after the pulka, body)
    ("POST", "/deals", SOCHI["deals"][0]),
    ("PUT", "/deals/1", SOCHI["deals"][0]),
    ("DELETE", "/deals/10", None),
    ("POST", "/undo", None),
    ("PATCH", "", {"name": "Renamed"}),
]


def _settlement():
    file = pulyafile.parse(SOCHI)
    return settle(file.replay().sheet, file.rules)


def test_the_last_deal_freezes_the_pulka_with_its_settlement(client):
    pulka = sochi(client, 9)
    assert client.get(f"/api/v1/pulkas/{pulka}").json["result"] is None
    assert add(client, pulka, LAST).status_code == 201
    result = client.get(f"/api/v1/pulkas/{pulka}").json["result"]
    assert result["ending"] == "finished" and result["by"] == "" and result["engine"]
    datetime.fromisoformat(result["at"])
    # what it keeps is the settlement of docs/rules.md §15, exactly
    settlement = client.get(f"/api/v1/pulkas/{pulka}/settlement").json
    expected = _settlement()
    assert [Fraction(p["net"]).limit_denominator(1000) for p in settlement["players"]] == list(expected.net)


@pytest.mark.parametrize("method, path, body", WRITES)
def test_a_frozen_pulka_refuses_every_write_and_stores_nothing(app, client, method, path, body):
    pulka = sochi(client)
    before = snapshot(app)
    response = client.open(f"/api/v1/pulkas/{pulka}{path}", method=method, json=body)
    assert response.status_code == 409 and response.json["error"]["code"] == "pulka_frozen"
    assert "reopen" in response.json["error"]["message"]
    assert snapshot(app) == before


def test_the_owner_closes_an_unfinished_pulka_as_it_stands_and_reopens_it(app, client):
    pulka = sochi(client, 4)
    closed = client.post(f"/api/v1/pulkas/{pulka}/close")
    assert closed.status_code == 200, closed.json
    assert (closed.json["result"]["ending"], closed.json["result"]["by"]) == ("closed", "owner")
    assert closed.json["finished"] is False
    assert add(client, pulka, SOCHI["deals"][4]).json["error"]["code"] == "pulka_frozen"
    # closing twice: the pulka is frozen already
    assert client.post(f"/api/v1/pulkas/{pulka}/close").json["error"]["code"] == "pulka_frozen"
    reopened = client.post(f"/api/v1/pulkas/{pulka}/reopen", json={"version": closed.json["version"]})
    assert reopened.status_code == 200 and reopened.json["result"] is None
    assert add(client, pulka, SOCHI["deals"][4]).status_code == 201
    assert client.post(f"/api/v1/pulkas/{pulka}/reopen").json["error"]["code"] == "pulka_open"
    with app.extensions["scorekeeper"].db.engine.connect() as connection:
        events = connection.execute(text("SELECT what, by FROM pulka_events ORDER BY id")).all()
    assert [tuple(e) for e in events] == [("closed", "owner"), ("reopened", "owner")]


def test_a_reopened_finished_pulka_takes_a_correction_and_freezes_again(client):
    pulka = sochi(client)
    client.post(f"/api/v1/pulkas/{pulka}/reopen")
    assert client.put(f"/api/v1/pulkas/{pulka}/deals/10", json=LAST).status_code == 200
    assert client.get(f"/api/v1/pulkas/{pulka}").json["result"]["ending"] == "finished"


def test_only_the_owner_closes_and_reopens(app, client):
    pulka = sochi(client, 4)
    scorer = client.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": "scorer"}).json["token"]
    link = app.test_client()
    link.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {scorer}"
    assert link.post(f"/api/v1/pulkas/{pulka}/close").status_code == 403
    other = signed_in(app, "other", "other-password")
    assert other.post(f"/api/v1/pulkas/{pulka}/close").status_code == 404
    assert client.get(f"/api/v1/pulkas/{pulka}").json["result"] is None


def test_a_stale_version_does_not_close(client):
    pulka = sochi(client, 4)
    version = client.get(f"/api/v1/pulkas/{pulka}").json["version"]
    add(client, pulka, SOCHI["deals"][4])
    response = client.post(f"/api/v1/pulkas/{pulka}/close", json={"version": version})
    assert response.json["error"]["code"] == "version_conflict"


def test_an_imported_finished_pulka_is_frozen_and_keeps_its_offset(client):
    file = SOCHI | {"started": "2026-11-20T23:40:00-05:00"}
    imported = client.post("/api/v1/import", json=file)
    assert imported.status_code == 201 and imported.json["result"]["ending"] == "finished"
    exported = client.get(f"/api/v1/pulkas/{imported.json['id']}/export").json
    assert exported["started"] == "2026-11-20T23:40:00-05:00"


def test_the_migration_freezes_the_pulkas_that_finished_before(tmp_path):
    from scorekeeper.web.store.db import Database, upgrade
    from scorekeeper.web.store.deals import deal_values

    database = Database(f"sqlite:///{tmp_path / 'old.sqlite'}")
    upgrade(database.engine, "0008")
    file = pulyafile.parse(SOCHI)
    with database.engine.begin() as connection:
        connection.execute(text("INSERT INTO accounts (id, username, username_key, password_hash, is_admin, disabled, "
                                "session_epoch, created_at) VALUES (1, 'o', 'o', 'x', 1, 0, 1, '2026-11-01')"))
        for pulka_id, deals in ((1, file.deals), (2, file.deals[:3])):
            finished = len(deals) == 10
            connection.execute(text(
                "INSERT INTO pulkas (id, uid, table_uid, owner_id, name, rules, currency, first_dealer, version, "
                "created_at, updated_at, standing) VALUES (:id, :uid, :uid, 1, 'p', :rules, '', 0, 1, '2026-11-01', "
                "'2026-11-01', :standing)"), {"id": pulka_id, "uid": f"u{pulka_id}", "rules": '{"preset": "sochi", '
                                              '"pulya_size": 10, "whist_price": 0.5}',
                                              "standing": f'{{"finished": {str(finished).lower()}}}'})
            for seat, name in enumerate("ABC"):
                connection.execute(text("INSERT OR IGNORE INTO players (id, owner_id, name) VALUES (:id, 1, :name)"),
                                   {"id": seat + 1, "name": name})
                connection.execute(text("INSERT INTO pulka_players (pulka_id, seat, player_id) VALUES (:p, :s, :id)"),
                                   {"p": pulka_id, "s": seat, "id": seat + 1})
            for number, deal in enumerate(deals, 1):
                values = deal_values(deal)
                connection.execute(text(
                    "INSERT INTO deals (pulka_id, position, type, declarer, contract, whist, tricks, open, created_at) "
                    "VALUES (:p, :n, :type, :declarer, :contract, :whist, :tricks, :open, '2026-11-01')"),
                    {"p": pulka_id, "n": number, **values,
                     **{key: json.dumps(values[key]) for key in ("whist", "tricks") if values[key] is not None}})
    database.upgrade()
    with database.engine.connect() as connection:
        found = dict(connection.execute(text("SELECT uid, result IS NOT NULL FROM pulkas")).all())
        events = connection.execute(text("SELECT pulka_id, what FROM pulka_events")).all()
    assert found == {"u1": 1, "u2": 0} and [tuple(e) for e in events] == [(1, "finished")]
    database.engine.dispose()


def test_the_pages_close_after_a_confirmation_and_reopen(client):
    pulka = sochi(client, 4)
    assert "/close" in client.get(f"/p/{pulka}/settlement").get_data(as_text=True)
    confirm = client.get(f"/p/{pulka}/close").get_data(as_text=True)
    assert "Close the pulka" in confirm and "missing pulya points" in confirm
    closed = client.post(f"/p/{pulka}/close", data={}, follow_redirects=True).get_data(as_text=True)
    assert "Closed by owner at" in closed and "Reopen to change it" in closed
    assert f"/p/{pulka}/deal" not in closed  # nothing to enter on a closed pulka
    reopened = client.post(f"/p/{pulka}/reopen", data={}, follow_redirects=True).get_data(as_text=True)
    assert "Reopened" in reopened and "Enter deal 5" in reopened


def test_a_page_write_on_a_frozen_pulka_says_why_on_the_sheet(client):
    pulka = sochi(client)
    page = client.post(f"/p/{pulka}/undo", data={}, follow_redirects=True).get_data(as_text=True)
    assert "its owner reopens it" in page
    assert client.get(f"/api/v1/pulkas/{pulka}").json["deals"] == 10


def test_stats_verify_lists_a_stored_result_the_engine_would_write_otherwise_and_changes_nothing(tmp_path):
    from ..conftest import make_app
    from ..system.test_cli_db import run

    url = f"sqlite:///{tmp_path / 'verify.sqlite'}"
    app = make_app(url, tmp_path)
    client = signed_in(app)
    pulka = sochi(client)
    sochi(client, 4)  # not frozen: not checked
    app.extensions["scorekeeper"].db.engine.dispose()
    done = run("stats", "verify", "--url", url)
    assert done.returncode == 0 and "1 frozen pulka checked, 0 would be settled otherwise" in done.stdout
    engine = app.extensions["scorekeeper"].db.engine
    with engine.begin() as connection:
        stored = json.loads(connection.execute(text("SELECT result FROM pulkas WHERE uid = :u"), {"u": pulka}).scalar())
        stored["net"][0] = "263"  # as if an older engine had scored A otherwise
        connection.execute(text("UPDATE pulkas SET result = :r WHERE uid = :u"), {"r": json.dumps(stored), "u": pulka})
    done = run("stats", "verify", "--url", url)
    assert done.returncode == 1 and pulka in done.stdout and "kept A 263" in done.stdout and "now A 790/3" in done.stdout
    with engine.connect() as connection:
        assert json.loads(connection.execute(text("SELECT result FROM pulkas WHERE uid = :u"),
                                             {"u": pulka}).scalar())["net"][0] == "263"
    engine.dispose()


def test_the_list_says_when_a_pulka_ended_in_its_own_time(client):
    imported = client.post("/api/v1/import", json=SOCHI | {"started": "2026-11-20T23:40:00+03:00"}).json
    ended = datetime.fromisoformat(imported["result"]["at"]).astimezone(
        datetime.fromisoformat("2026-11-20T23:40:00+03:00").tzinfo)
    page = client.get("/", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert f"закончили в {ended.hour}:{ended.minute:02d}" in page
