"""Every CSV the app serves is sent as its rows are written, never built as one string, and stays complete however
long the lists its pages show a page at a time: the ledger's (every obligation and payment, in the ledger's order,
and who owes), the circle's, a player's, a player's deals and a pulka's protocol. Each file comes in pieces of
about edge.presenting.PIECE characters (made small here), which put together are the file."""

from __future__ import annotations

import csv
import io

import pytest

from scorekeeper.web.edge import presenting

from ..conftest import kept_sheet, make_app, signed_in, sochi

SIZE = 3
PIECE = 200


@pytest.fixture
def club(database_url, tmp_path):
    """A club with more of every row than a page holds: the Sochi example (10 deals, A wins; no currency), 2 × SIZE
    kept sheets (B owes A 1 ₽, 2 ₽, …) and 2 × SIZE + 1 payments of 1 ₽ from B to A."""
    app = make_app(database_url, tmp_path, PAGE_ROWS=SIZE)
    client = signed_in(app)
    uid = sochi(client)
    for k in range(2 * SIZE):
        kept_sheet(client, whists=k + 1)
    who = {p["name"]: p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]}
    for k in range(2 * SIZE + 1):
        made = client.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["A"], "amount": "1",
                                                             "currency": "₽", "note": f"n{k}"})
        assert made.status_code == 201
    yield client, uid, who
    app.extensions["scorekeeper"].db.engine.dispose()


def rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8").removeprefix("\ufeff"))))


def streamed(client, url: str) -> tuple[list[bytes], bytes]:
    """The file's pieces as the app sends them, and the file as a buffered client gets it."""
    response = client.get(url, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/csv" and response.is_streamed
    pieces = [piece for piece in response.iter_encoded() if piece]
    response.close()
    return pieces, client.get(url).get_data()


@pytest.mark.parametrize("url", ["/ledger.csv?currency=₽", "/players.csv", "/players/{A}.csv",
                                 "/players/{A}/deals.csv", "/p/{uid}/protocol.csv"])
def test_every_csv_comes_in_pieces_that_make_the_whole_file(club, monkeypatch, url):
    client, uid, who = club
    monkeypatch.setattr(presenting, "PIECE", PIECE)
    pieces, whole = streamed(client, url.format(uid=uid, A=who["A"]))
    longest = max(len(line.encode()) for line in whole.decode().splitlines(keepends=True))
    assert b"".join(pieces) == whole and whole.startswith("\ufeff".encode())
    assert len(pieces) >= 2 and all(len(piece) < 3 * (PIECE + longest) for piece in pieces)


def test_the_ledgers_file_has_every_row_in_the_ledgers_order_though_its_page_shows_three(club):
    client, _, who = club
    found = rows(client.get("/ledger.csv?currency=₽").get_data())
    assert [row[5] for row in found if row[0] == "obligation"] == [f"{k}.00" for k in range(2 * SIZE, 0, -1)]
    assert [row[15] for row in found if row[0] == "payment"] == [f"n{k}" for k in range(2 * SIZE, -1, -1)]
    # B owes 1 + 2 + … + 6 ₽ less the 7 paid; the Sochi example is in no currency, a ledger of its own
    assert [(row[1], row[5]) for row in found if row[0] == "owed"] == [(who["B"], "14.00")]


def test_the_circles_files_have_every_pulka_though_the_standings_page_is_shorter(club):
    client, uid, who = club
    seats = rows(client.get("/players.csv").get_data())[1:]
    assert len(seats) == 3 * (2 * SIZE + 1)  # every seat of every counted pulka
    mine = rows(client.get(f"/players/{who['A']}.csv").get_data())[1:]
    assert len(mine) == 2 * SIZE + 1 and mine[-1][1] == uid  # the latest first: the Sochi example last
    deals = rows(client.get(f"/players/{who['A']}/deals.csv").get_data())[1:]
    assert {row[1] for row in deals} == {uid}  # the kept sheets have no deals
    assert len(deals) == client.get(f"/api/v1/players/{who['A']}/stats").json["deals"]
    protocol = rows(client.get(f"/p/{uid}/protocol.csv").get_data())[1:]
    assert sorted({int(row[0]) for row in protocol}) == list(range(1, 11))
