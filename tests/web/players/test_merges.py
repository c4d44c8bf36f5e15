"""Merging, exactly (docs/club.md §1) through the API and the database, on each backend: a player's group is he
and everyone merged into him; a merge is refused across a shared pulka, a payment, a circle or an earlier merge;
the merges of one circle take effect one at a time, however many are sent at once; and an undone merge gives
back the figures of before it, to the cent. The same rules on the use case alone are in test_player_rules.py.

The tables are the issue's: P (X, N, Z) and Q (Y, U, V), each the Sochi example of docs/rules.md §10 played to
its end (seat 0 wins), and R (W, Z, V)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from scorekeeper.web.store.models import PlayerRow

from ..conftest import create, snapshot
from ..ledger.test_ledger import book, evening, ids


@pytest.fixture
def club(client):
    evening(client, ("X", "N", "Z"), 1, "₽")
    evening(client, ("Y", "U", "V"), 1, "₽")
    evening(client, ("W", "Z", "V"), 1, "₽")
    return ids(client)


def merge(client, gone, into):
    return client.post(f"/api/v1/players/{gone}/merge", json={"into": into})


def refused(app, client, gone, into) -> str:
    before = snapshot(app)
    response = merge(client, gone, into)
    assert (response.status_code, response.json["error"]["field"]) == (400, "into"), response.json
    assert snapshot(app) == before
    return response.json["error"]["message"]


SEATS = "the two sat at one table in a pulka: they are two players"
PAID = "payments stand between the two in the ledger: they are two players"


def test_the_issues_merge_n_into_y_then_x_into_y_is_refused(app, client, club):
    obligations = book(client)["obligations"]
    assert merge(client, club["N"], club["Y"]).status_code == 204
    assert refused(app, client, club["X"], club["Y"]) == SEATS  # X and N sat in P: Y would hold two seats
    assert refused(app, client, club["Z"], club["Y"]) == SEATS
    # nobody against himself, Z against Y in the one pulka they shared (P, through N), and every obligation kept
    y = client.get(f"/api/v1/players/{club['Y']}/stats").json
    assert y["pulkas"] == 2 and club["Y"] not in [row["opponent"]["id"] for row in y["head_to_head"]]
    z = client.get(f"/api/v1/players/{club['Z']}/stats").json
    assert [row["pulkas"] for row in z["head_to_head"] if row["opponent"]["id"] == club["Y"]] == [1]
    after = book(client)
    assert len(after["obligations"]) == len(obligations) == 6
    assert sum(o["amount"] for o in after["obligations"]) == sum(o["amount"] for o in obligations)


@pytest.mark.parametrize("gone, into", [("X", "Y"), ("Y", "X"), ("Z", "U"), ("U", "Z")])
def test_a_payment_between_the_two_keeps_them_two_and_the_ledger_answers(app, client, club, gone, into):
    paid = client.post("/api/v1/ledger/payments", json={"from": club["X"] if gone in "XY" else club["Z"],
                                                        "to": club["Y"] if gone in "XY" else club["U"],
                                                        "amount": 5, "currency": "₽"})
    assert paid.status_code == 201, paid.json
    assert refused(app, client, club[gone], club[into]) == PAID
    assert client.delete(f"/api/v1/ledger/payments/{paid.json['id']}").status_code in (200, 201)
    assert refused(app, client, club[gone], club[into]) == PAID  # taken back, it still stands (a row never goes)
    assert client.get("/api/v1/ledger").status_code == 200


def test_a_payment_with_a_member_of_the_group_keeps_them_two(app, client, club):
    assert client.post("/api/v1/ledger/payments", json={"from": club["W"], "to": club["Y"], "amount": 5,
                                                        "currency": "₽"}).status_code == 201
    assert merge(client, club["W"], club["X"]).status_code == 204  # X's group: X, W
    assert refused(app, client, club["X"], club["Y"]) == PAID
    assert refused(app, client, club["Y"], club["X"]) == PAID


@pytest.mark.parametrize("first, then", [(("X", "Y"), ("Y", "X")), (("X", "Y"), ("X", "Y")),
                                         (("W", "X"), ("Y", "W")), (("X", "Y"), ("X", "U"))])
def test_no_circle_and_no_second_merge(app, client, club, first, then):
    assert merge(client, club[first[0]], club[first[1]]).status_code == 204
    refused(app, client, club[then[0]], club[then[1]])


def test_two_opposite_merges_sent_at_once_end_with_one_done_and_never_a_circle(app, client):
    """Each run: X into Y and Y into X from two threads let go together (a barrier), on the app's threads and
    its database: one 204, one 400, and one of the two merged into the other, whichever won."""
    runs = 6
    for run in range(runs):
        create(client, players=(f"X{run}", f"a{run}", f"b{run}"))
        create(client, players=(f"Y{run}", f"c{run}", f"d{run}"))
    who = ids(client)
    for run in range(runs):
        x, y = who[f"X{run}"], who[f"Y{run}"]
        answers = at_once(app, client, [(f"/api/v1/players/{x}/merge", {"into": y}),
                                        (f"/api/v1/players/{y}/merge", {"into": x})])
        assert sorted(answers) == [204, 400], (run, answers)
        with app.extensions["scorekeeper"].db.Session() as session:
            rows = {p.uid: p for p in session.scalars(select(PlayerRow).where(PlayerRow.uid.in_((x, y))))}
            into = {uid: row.merged_into_id for uid, row in rows.items()}
            winner = x if answers[0] == 204 else y
            loser = y if winner == x else x
            assert into[loser] is None and into[winner] == rows[loser].id
        listed = [p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]]
        assert loser in listed and winner not in listed


def at_once(app, client, requests) -> list[int]:
    """The status of each POST, all sent at one moment from threads of their own, as the signed-in client."""
    start = threading.Barrier(len(requests))
    answers: list[int] = [0] * len(requests)

    def send(i: int, path: str, body: dict) -> None:
        mine = app.test_client()
        mine.environ_base.update(client.environ_base)
        start.wait(timeout=30)
        answers[i] = mine.post(path, json=body).status_code

    threads = [threading.Thread(target=send, args=(i, *request)) for i, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def figures(client) -> tuple:
    """What the caller reads of his circle: the players, each one's statistics, the ledger."""
    listed = client.get("/api/v1/players").json["players"]
    stats = {p["id"]: client.get(f"/api/v1/players/{p['id']}/stats").json for p in listed}
    return listed, stats, book(client)


@pytest.mark.parametrize("steps", [
    [("merge", "X", "Y"), ("undo", "X"), ("same", "before")],
    # a chain W → X → Y, the middle one undone: X comes back with W, then W alone
    [("merge", "W", "X"), ("keep", "W in X"), ("merge", "X", "Y"), ("undo", "X"), ("same", "W in X"),
     ("undo", "W"), ("same", "before")],
    # the same chain, the first one undone: X stays Y's
    [("merge", "X", "Y"), ("keep", "X in Y"), ("undo", "X"), ("merge", "W", "X"), ("merge", "X", "Y"),
     ("undo", "W"), ("same", "X in Y"), ("undo", "X"), ("same", "before")],
], ids=["one", "the middle one of a chain", "the first one of a chain"])
def test_an_undone_merge_gives_back_the_figures_of_before_it_exactly(client, club, steps):
    assert client.post("/api/v1/ledger/payments", json={"from": club["Z"], "to": club["U"], "amount": 7.5,
                                                        "currency": "₽"}).status_code == 201
    kept = {"before": figures(client)}
    for step, *names in steps:
        if step == "merge":
            assert merge(client, club[names[0]], club[names[1]]).status_code == 204
            assert figures(client) != kept["before"]
        elif step == "undo":
            assert client.delete(f"/api/v1/players/{club[names[0]]}/merge").status_code == 204
        elif step == "keep":
            kept[names[0]] = figures(client)
        else:
            assert figures(client) == kept[names[0]], names[0]


def test_the_migration_adds_the_circle_version_and_breaks_each_circle_stored_before(database_url):
    """Before merges were serialised two opposite ones could both be kept: 0014 undoes, in each circle, the
    merge of its newest player; chains stay as they were."""
    from sqlalchemy import text

    from scorekeeper.web.store.db import Database, upgrade

    database = Database(database_url)
    upgrade(database.engine, "0013")
    into = {1: 2, 2: 1, 3: 4, 4: 5, 5: 3, 6: 7, 8: 8}  # two circles (1-2, 3-4-5), a chain (6 → 7), one into himself
    with database.engine.begin() as connection:
        connection.execute(text("INSERT INTO accounts (id, username, username_key, password_hash, is_admin, "
                                "disabled, session_epoch, created_at) VALUES (1, 'o', 'o', 'x', :t, :f, 1, "
                                "'2026-11-01')"), {"t": True, "f": False})
        for player in range(1, 9):
            connection.execute(text("INSERT INTO players (id, uid, owner_id, name) VALUES (:id, :uid, 1, :name)"),
                               {"id": player, "uid": f"u{player}", "name": f"P{player}"})
        for player, target in into.items():
            connection.execute(text("UPDATE players SET merged_into_id = :to WHERE id = :id"),
                               {"id": player, "to": target})
    database.upgrade()
    with database.engine.connect() as connection:
        assert dict(connection.execute(text("SELECT id, merged_into_id FROM players")).all()) == \
            {1: 2, 2: None, 3: 4, 4: 5, 5: None, 6: 7, 7: None, 8: None}
        assert connection.execute(text("SELECT circle_version FROM accounts")).scalar() == 0
    database.engine.dispose()
