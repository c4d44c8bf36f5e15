"""Backups restore whatever the club did: a player merged into a newer one (whose row has a higher id), chains of
merges whose ids interleave, merges undone and made again, reversals of payments, even a circle of merges left
by a race; from either backup form into either database, with every answer of the API as it was. A damaged
archive's references and keys are refused naming the table, the row and the column, never "opening the
database", and nothing is restored."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from scorekeeper.web.store.backup import BackupError, backup
from scorekeeper.web.store.models import Base
from scorekeeper.web.store.restore import restore

from ..conftest import BACKENDS, OWNER, SOCHI, add, create, signed_in
from .test_backup import ROUND_TRIPS, app_url, close, everything, new_database, open_app  # noqa: F401 - a fixture

GUEST = ("guest", "guest-password")


def _utc(found: object) -> object:
    """`found` with every moment as UTC with its zone: SQLite keeps none, and the API writes what it keeps."""
    if isinstance(found, dict):
        return {key: _moment(value) if (key == "at" or key.endswith("_at")) and isinstance(value, str) else _utc(value)
                for key, value in found.items()}
    if isinstance(found, list):
        return [_utc(value) for value in found]
    return found


def _moment(value: str) -> str:
    moment = datetime.fromisoformat(value)
    return (moment.astimezone(timezone.utc) if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).isoformat()


EVERY_PART = ("", "/deals", "/sheet", "/settlement", "/export", "/shares")


def answers(app, account: tuple[str, str] = OWNER, parts: tuple[str, ...] = EVERY_PART) -> dict[str, object]:
    """Every answer of the API an account reads: its pulkas and these `parts` of each (settings, deals, sheet,
    settlement, file, share links: the last the owner's alone), its circle (with and without
    unfinished pulkas) and each player's statistics (all pulkas counted), and its ledger in every currency.
    Asked in a session that is logged out after, so that reading leaves no row behind."""
    client = app.test_client()
    assert client.post("/login", data={"username": account[0], "password": account[1]}).status_code == 302
    seen: dict[str, object] = {}

    def read(path: str) -> dict:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code, response.get_data(as_text=True)[:300])
        seen[path] = _utc(response.json)
        return response.json

    for pulka in read("/api/v1/pulkas")["pulkas"]:
        for part in parts:
            read(f"/api/v1/pulkas/{pulka['id']}{part}")
    read("/api/v1/players")
    for player in read("/api/v1/players?unfinished=1")["players"]:
        read(f"/api/v1/players/{player['id']}/stats?unfinished=1")
    for currency in read("/api/v1/ledger")["currencies"]:
        read(f"/api/v1/ledger?currency={currency}")
    client.post("/logout")
    return seen


def the_club(app, parts: tuple[str, ...] = EVERY_PART) -> dict[str, dict[str, object]]:
    """Answers of both accounts the app has; the guest's pulkas are the owner's, each read once, as his."""
    return {"owner": answers(app, parts=parts), "guest": answers(app, GUEST, parts=())}


class Club:
    """The owner's client and his players' ids by name, taken while none is merged (the circle lists only
    those merged into nobody)."""

    def __init__(self, client):
        self.client = client
        self.ids = {p["name"]: p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]}

    def merge(self, gone: str, into: str) -> None:
        response = self.client.post(f"/api/v1/players/{self.ids[gone]}/merge", json={"into": self.ids[into]})
        assert response.status_code == 204, response.json

    def undo(self, name: str) -> None:
        assert self.client.delete(f"/api/v1/players/{self.ids[name]}/merge").status_code == 204

    def rename(self, name: str, new: str) -> None:
        assert self.client.patch(f"/api/v1/players/{self.ids[name]}", json={"name": new}).status_code == 200


def played(client, players: tuple[str, str, str], close: bool = True) -> str:
    """A pulka of the Sochi example under these names, closed: its obligations go to the ledger."""
    rename = dict(zip(SOCHI["players"], players))

    def named(deal: dict) -> dict:
        return {key: ({rename[k]: v for k, v in value.items()} if isinstance(value, dict)
                      else rename.get(value, value) if key == "declarer" else value) for key, value in deal.items()}

    pulka = create(client, players=players, currency="₽")
    for deal in SOCHI["deals"][:6]:
        assert add(client, pulka, named(deal)).status_code == 201
    if close:
        assert client.post(f"/api/v1/pulkas/{pulka}/close").status_code == 200
    return pulka


def a_club(app) -> Club:
    """Seven players at three tables, in the order their rows are made: Old, B, C (ids 1-3), New, E, F (4-6),
    Newest, H, I (7-9); a payment taken back, a share link another account opened."""
    client = signed_in(app)
    first = played(client, ("Old", "B", "C"))
    played(client, ("New", "E", "F"))
    played(client, ("Newest", "H", "I"), close=False)
    # between two who are merged into nobody in any story, so that no merge is across a payment (docs/club.md §1)
    found = Club(client).ids
    paid = client.post("/api/v1/ledger/payments", json={"from": found["B"], "to": found["I"], "amount": "1.25",
                                                        "currency": "₽"})
    assert paid.status_code == 201
    assert client.delete(f"/api/v1/ledger/payments/{paid.json['id']}").status_code == 200
    link = client.post(f"/api/v1/pulkas/{first}/shares", json={"role": "viewer"}).json
    signed_in(app, *GUEST)
    guest = app.test_client()
    assert guest.post("/login", data={"username": GUEST[0], "password": GUEST[1]}).status_code == 302
    assert guest.get(f"/s/{link['token']}").status_code == 302
    guest.post("/logout")
    return Club(client)


# Each ends with a player's row naming one with a higher id, but the control (newer into older).
STORIES = {
    "older into newer": lambda c: c.merge("Old", "New"),
    "newer into older (control: passed before)": lambda c: c.merge("New", "Old"),
    "a chain whose ids interleave": lambda c: (c.merge("Newest", "Old"), c.merge("Old", "New")),
    "two into the newest, one undone": lambda c: (c.merge("Old", "Newest"), c.merge("E", "Newest"), c.undo("E")),
    "undone and made the other way": lambda c: (c.merge("New", "Old"), c.undo("New"), c.merge("Old", "New")),
    "renamed after the merge": lambda c: (c.merge("C", "H"), c.rename("C", "Сева")),
}


def restored(source: str, target: str, suffix: str, original, new_database, tmp_path):  # noqa: F811
    file = tmp_path / f"backup{suffix}"
    done = backup(app_url(original), file)
    url = new_database(target)
    assert restore(url, file).rows == done.rows
    if source == target:
        assert everything(url) == everything(app_url(original))
    return open_app(url, tmp_path)


@pytest.mark.parametrize("story", STORIES)
@pytest.mark.parametrize("source, target, suffix", ROUND_TRIPS)
def test_a_club_that_merged_players_restores_as_it_was(story, source, target, suffix, new_database, tmp_path):  # noqa: F811
    original = open_app(new_database(source), tmp_path)
    STORIES[story](a_club(original))
    before = the_club(original)
    copy = restored(source, target, suffix, original, new_database, tmp_path)
    assert the_club(copy) == before
    # and the restored club goes on: a new player, merged into one restored
    client = signed_in(copy)
    played(client, ("Late", "B", "C"), close=False)
    Club(client).merge("Late", "F")
    close(original)
    close(copy)


@pytest.mark.parametrize("source, target, suffix", ROUND_TRIPS)
def test_a_circle_of_merges_a_race_left_restores_as_it_is(source, target, suffix, new_database, tmp_path):  # noqa: F811
    """Two opposite merges sent at once could leave X merged into Y and Y into X (issue 28): whatever the app
    makes of such a club, its backup holds it, and restores it row for row."""
    original = open_app(new_database(source), tmp_path)
    a_club(original)
    engine = create_engine(app_url(original))
    with engine.begin() as connection:
        connection.execute(text("UPDATE players SET merged_into_id = CASE name WHEN 'Old' THEN "
                                "(SELECT id FROM players WHERE name = 'New') ELSE "
                                "(SELECT id FROM players WHERE name = 'Old') END WHERE name IN ('Old', 'New')"))
    engine.dispose()
    file = tmp_path / f"backup{suffix}"
    backup(app_url(original), file)
    url = new_database(target)
    restore(url, file)
    if source == target:
        assert everything(url) == everything(app_url(original))
    else:
        assert {name: len(rows) for name, rows in everything(url).items()} == \
               {name: len(rows) for name, rows in everything(app_url(original)).items()}
        engine = create_engine(url)
        with engine.connect() as connection:
            circle = connection.execute(text("SELECT p.name, q.name FROM players p JOIN players q "
                                             "ON q.id = p.merged_into_id ORDER BY p.name")).all()
        engine.dispose()
        assert [tuple(row) for row in circle] == [("New", "Old"), ("Old", "New")]
    close(original)


@pytest.mark.parametrize("kind", BACKENDS)
def test_an_older_archive_with_a_merge_into_a_newer_player_restores(kind, new_database, tmp_path):  # noqa: F811
    """An archive of revision 0012 (before the accounts' count of deals and circle version, and the date a pulka
    was played) goes in at 0012 and is migrated."""
    original = open_app(new_database("sqlite"), tmp_path)
    a_club(original).merge("Old", "Newest")
    before = the_club(original)
    backup(app_url(original), tmp_path / "head.json.gz")
    document = json.loads(gzip.decompress((tmp_path / "head.json.gz").read_bytes())) | {"revision": "0012"}
    for name, later in (("accounts", "circle_version"), ("accounts", "deals"), ("pulkas", "played_on")):
        table = _table(document, name)  # the columns of 0014, 0013 and 0015
        at = table["columns"].index(later)
        table["columns"].pop(at)
        for row in table["rows"]:
            row.pop(at)
    url = new_database(kind)
    restore(url, _write(tmp_path, document))
    copy = open_app(url, tmp_path)
    assert the_club(copy) == before
    close(original)
    close(copy)


# -- a damaged archive's keys ------------------------------------------------------------------------------


@pytest.fixture
def document(tmp_path, new_database):  # noqa: F811 - the fixture imported above
    app = open_app(new_database("sqlite"), tmp_path)
    a_club(app).merge("Old", "New")
    backup(app_url(app), tmp_path / "good.json.gz")
    close(app)
    return json.loads(gzip.decompress((tmp_path / "good.json.gz").read_bytes()))


def _table(document, name):
    return next(table for table in document["tables"] if table["name"] == name)


def _write(tmp_path: Path, document) -> Path:
    path = tmp_path / "archive.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    return path


def _set(document, table: str, column: str, row: int, value) -> dict:
    found = _table(document, table)
    found["rows"][row - 1][found["columns"].index(column)] = value
    return document


def _row_of(document, table: str, column: str, value) -> int:
    found = _table(document, table)
    return next(number for number, row in enumerate(found["rows"], 1) if row[found["columns"].index(column)] == value)


def _value(document, table: str, column: str, row: int):
    found = _table(document, table)
    return found["rows"][row - 1][found["columns"].index(column)]


def _merged(document) -> int:
    """The row of the player merged into another."""
    found = _table(document, "players")
    at = found["columns"].index("merged_into_id")
    return next(number for number, row in enumerate(found["rows"], 1) if row[at] is not None)


def _reversal(document) -> int:
    return _row_of(document, "ledger_payments", "kind", "reversal")


def _taken_back_again(document) -> dict:
    """A second reversal of the payment the archive's reversal takes back."""
    payments = _table(document, "ledger_payments")
    again = dict(zip(payments["columns"], payments["rows"][_reversal(document) - 1]))
    again |= {"id": max(_value(document, "ledger_payments", "id", n) for n in range(1, len(payments["rows"]) + 1)) + 1,
              "uid": "another-uid"}
    payments["rows"].append([again[column] for column in payments["columns"]])
    return document


# (what is changed, the refusal's words): each a row of the archive the restore reads, however it is ordered
BROKEN = {
    "a merge into a player the archive lacks": (
        lambda d: _set(d, "players", "merged_into_id", _merged(d), 10**6),
        lambda d: f"table players, row {_merged(d)}, column merged_into_id: names a row of table players that the "
                  f"backup does not hold"),
    "a seat of a player the archive lacks": (
        lambda d: _set(d, "pulka_players", "player_id", 2, 10**6),
        lambda d: "table pulka_players, row 2, column player_id: names a row of table players that the backup does "
                  "not hold"),
    "a reversal of a payment the archive lacks": (
        lambda d: _set(d, "ledger_payments", "reverses_id", _reversal(d), 10**6),
        lambda d: f"table ledger_payments, row {_reversal(d)}, column reverses_id: names a row of table "
                  f"ledger_payments that the backup does not hold"),
    "a link opened of a link the archive lacks": (
        lambda d: _set(d, "pulka_access", "share_id", 1, "gone"),
        lambda d: "table pulka_access, row 1, column share_id: names a row of table shares that the backup does "
                  "not hold"),
    "a pulka of an account the archive lacks": (
        lambda d: _set(d, "pulkas", "owner_id", 3, 10**6),
        lambda d: "table pulkas, row 3, column owner_id: names a row of table accounts that the backup does not "
                  "hold"),
    "two players with one public id": (
        lambda d: _set(d, "players", "uid", 5, _value(d, "players", "uid", 2)),
        lambda d: "table players, row 5, column uid: the same as row 2's, where the database keeps each once"),
    "two rows with one id": (
        lambda d: _set(d, "players", "id", 4, 1),
        lambda d: "table players, row 4, column id: the same as row 1's, where the database keeps each once"),
    "two seats of one player in a pulka": (
        lambda d: _set(d, "pulka_players", "player_id", 2, _value(d, "pulka_players", "player_id", 1)),
        lambda d: "table pulka_players, row 2, column pulka_id, player_id: the same as row 1's, where the database "
                  "keeps each once"),
    "one payment taken back twice": (
        lambda d: _taken_back_again(d),
        lambda d: f"table ledger_payments, row {len(_table(d, 'ledger_payments')['rows'])}, column reverses_id: "
                  f"the same as row {_reversal(d)}'s, where the database keeps each once"),
    "two administrators": (
        lambda d: _set(d, "accounts", "is_admin", 2, True),
        lambda d: "the backup's table accounts breaks a rule of the database ("),
}


@pytest.mark.parametrize("kind", BACKENDS)
@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_reference_or_key_is_refused_naming_where(kind, case, document, new_database, tmp_path):  # noqa: F811
    change, words = BROKEN[case]
    broken = change(json.loads(json.dumps(document)))
    url = new_database(kind)
    with pytest.raises(BackupError) as refused:
        restore(url, _write(tmp_path, broken))
    line = str(refused.value)
    assert words(broken) in line, line
    assert "cannot open the database" not in line and "\n" not in line
    assert {name: rows for name, rows in everything(url).items() if rows and name != "alembic_version"} == {}


def test_the_references_a_restore_fills_in_last_may_be_empty():
    """A column that refers to its own table's rows (or to a table loaded after it) goes in empty and is filled in once every row is in
    (store.restore): it must be one that may be empty, of a table with a primary key to find the row again."""
    order = Base.metadata.sorted_tables
    for table in order:
        for reference in table.foreign_key_constraints:
            if order.index(reference.referred_table) >= order.index(table):  # itself, or a circle of tables
                assert table.primary_key.columns, table.name
                assert all(table.columns[c].nullable for c in reference.column_keys), (table.name, reference.column_keys)
