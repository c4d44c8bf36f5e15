"""Backups: every row of every table comes back from either kind of backup file, into either database,
and the app reads the same sheets; an SQLite copy is consistent while the server writes."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import threading
import uuid
from datetime import date, datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import (JSON, Boolean, Column, Date, DateTime, Float, Integer, LargeBinary, MetaData, String, Table,
                        Text, cast, create_engine, insert, select, text)
from sqlalchemy.engine import make_url

from scorekeeper.web.store.backup import BackupError, backup, dump
from scorekeeper.web.store.restore import load, restore
from scorekeeper.web.store.db import normalize_url

from ..conftest import BACKENDS, OWNER, SOCHI, add, create, make_app, signed_in

PAIRS = [(a, b) for a in BACKENDS for b in BACKENDS]
# An archive from either database into either; an SQLite copy (of SQLite only) into either.
ROUND_TRIPS = [(a, b, ".json.gz") for a, b in PAIRS] + [("sqlite", b, ".sqlite") for b in BACKENDS]


@pytest.fixture
def new_database(tmp_path):
    """A function that makes a fresh, empty database of either kind and returns its URL."""
    schemas: list[str] = []

    def new(kind: str) -> str:
        if kind == "sqlite":
            return f"sqlite:///{tmp_path / f'{uuid.uuid4().hex[:8]}.sqlite'}"
        schemas.append(f"test_{uuid.uuid4().hex[:16]}")
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schemas[-1]}"'))
        # A session time zone other than UTC: a time must not move on its way between the databases.
        options = f"-csearch_path={schemas[-1]} -ctimezone=Asia/Kolkata"
        return make_url(base).update_query_dict({"options": options}).render_as_string(hide_password=False)

    base = normalize_url(os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://unused/"))
    admin = create_engine(base)
    yield new
    if schemas:
        with admin.begin() as connection:
            for schema in schemas:
                connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def open_app(url: str, tmp_path: Path):
    return make_app(url, tmp_path / uuid.uuid4().hex[:8])


def close(app) -> None:
    app.extensions["scorekeeper"].db.engine.dispose()


def fill(app) -> None:
    """Something in every table the app has: pulkas of three and four, edited, undone, renamed, deleted."""
    client = signed_in(app)
    sochi = create(client)
    for deal in SOCHI["deals"]:
        assert add(client, sochi, deal).status_code == 201
    four = create(client, players=("Аня", "Борис", "Вера", "Глеб"), name="пятница",
                  rules={"preset": "leningrad", "pulya_size": 20, "whist_price": 1}, currency="₽")
    for tricks in ({"Борис": 2, "Вера": 4, "Глеб": 4}, {"Аня": 3, "Вера": 3, "Глеб": 4},
                   {"Аня": 1, "Борис": 5, "Глеб": 4}):  # the dealer sits out
        assert add(client, four, {"type": "raspasy", "tricks": tricks}).status_code == 201
    assert client.post(f"/api/v1/pulkas/{four}/undo", headers={"Idempotency-Key": "undo-1"}).status_code == 200
    assert client.patch(f"/api/v1/pulkas/{four}", json={"name": "суббота"}).status_code == 200
    # Entered afterwards: the day it was played (a column of its own, which the round trip must carry too).
    assert client.patch(f"/api/v1/pulkas/{four}", json={"played_on": "2026-11-28"}).json["played_on"] == "2026-11-28"
    gone = create(client, players=("X", "Y", "Z"))
    assert client.delete(f"/api/v1/pulkas/{gone}").status_code == 204  # ids with a gap
    assert client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:4]}).status_code == 201
    # Accounts, tokens, a share link another account opened, a failed log-in.
    link = client.post(f"/api/v1/pulkas/{sochi}/shares", json={"role": "viewer", "label": "Вера"}).json
    signed_in(app, "vera", "a long password")
    browser = app.test_client()
    browser.post("/login", data={"username": "vera", "password": "a long password"})
    assert browser.get(f"/s/{link['token']}").status_code == 302
    assert browser.post("/login", data={"username": "vera", "password": "wrong password"}).status_code == 401
    # The ledger: the closed pulka's obligations, a payment between two of its players, and a taken back one.
    assert client.post(f"/api/v1/pulkas/{four}/close").status_code == 200
    anya, boris = sorted(p["id"] for p in client.get("/api/v1/ledger?currency=₽").json["players"])[:2]
    paid = client.post("/api/v1/ledger/payments", json={"from": anya, "to": boris, "amount": "2.50", "currency": "₽",
                                                        "note": "наличными"})
    assert paid.status_code == 201
    assert client.delete(f"/api/v1/ledger/payments/{paid.json['id']}").status_code == 200
    empty = [name for name, rows in everything(app_url(app)).items() if not rows]
    # A new table must be filled here too, so that the round trip below covers it.
    assert empty == [], f"fill() writes nothing into {empty}"


def app_url(app) -> str:
    return app.extensions["scorekeeper"].db.url


def everything(url: str) -> dict[str, list[tuple]]:
    """Every row of every table the database has (found by reflection), JSON columns as the stored text; not
    the access generation, which counts changes (a log-out's too) for the server processes, and is not data."""
    engine = create_engine(url)
    metadata = MetaData()
    with engine.connect() as connection:
        metadata.reflect(connection)
        found = {table.name: sorted(tuple(row) for row in connection.execute(
            select(*(cast(c, Text) if isinstance(c.type, JSON) else c for c in table.columns))))
            for table in metadata.sorted_tables if table.name != "generations"}
    engine.dispose()
    return found


def sheets(app) -> dict[str, object]:
    """What the app answers about every pulka: the list, and each one's settings, deals, sheet, money, file
    (asked in a logged-in session, logged out after: a new token would be a new row)."""
    client = app.test_client()
    assert client.post("/login", data={"username": OWNER[0], "password": OWNER[1]}).status_code == 302
    listed = client.get("/api/v1/pulkas").json
    for pulka in listed["pulkas"]:
        # The API writes SQLite's times without their zone (SQLite keeps none); they are UTC.
        moment = datetime.fromisoformat(pulka["updated_at"])
        pulka["updated_at"] = (moment.astimezone(timezone.utc) if moment.tzinfo
                               else moment.replace(tzinfo=timezone.utc)).isoformat()
    seen: dict[str, object] = {"pulkas": listed}
    for pulka in listed["pulkas"]:
        for part in ("", "/deals", "/sheet", "/settlement", "/export"):
            response = client.get(f"/api/v1/pulkas/{pulka['id']}{part}")
            assert response.status_code == 200
            seen[pulka["id"] + part] = response.json
    client.post("/logout")  # its session, kept on the server, ends: no row of the visit remains
    return seen


def still_writable(app) -> None:
    """New rows get fresh ids after a restore (PostgreSQL's sequences moved past the restored ids)."""
    client = signed_in(app)
    pulka = create(client, players=("A", "B", "New"))
    assert add(client, pulka, {"type": "raspasy", "tricks": {"A": 3, "B": 3, "New": 4}}).status_code == 201


@pytest.mark.parametrize("source, target, suffix", ROUND_TRIPS)
def test_round_trip_is_lossless(source, target, suffix, new_database, tmp_path):
    original = open_app(new_database(source), tmp_path)
    fill(original)
    file = tmp_path / f"backup{suffix}"
    done = backup(app_url(original), file)
    assert done.kind == ("archive" if suffix == ".json.gz" else "SQLite copy")
    assert done.tables == len(everything(app_url(original)))  # all but alembic_version (and `everything` the generations)
    assert oct(file.stat().st_mode & 0o777) == "0o600"

    restored_url = new_database(target)
    assert restore(restored_url, file).rows == done.rows
    restored = open_app(restored_url, tmp_path)
    assert sheets(restored) == sheets(original)
    if source == target:
        assert everything(restored_url) == everything(app_url(original))
    else:  # and back: the second database kept every value the first one had
        back_url = new_database(source)
        backup(restored_url, tmp_path / "back.json.gz")
        restore(back_url, tmp_path / "back.json.gz")
        assert everything(back_url) == everything(app_url(original))
    still_writable(restored)
    close(original)
    close(restored)


def sample_table(metadata: MetaData) -> Table:
    return Table("sample", metadata, Column("id", Integer, primary_key=True), Column("flag", Boolean),
                 Column("at", DateTime(timezone=True)), Column("naive", DateTime), Column("day", Date),
                 Column("doc", JSON), Column("nullable_doc", JSON(none_as_null=True)), Column("ratio", Float),
                 Column("blob", LargeBinary), Column("words", String(40)))


SAMPLES = [
    {"id": 1, "flag": True, "at": datetime(2026, 3, 1, 23, 59, 59, 999999, tzinfo=timezone.utc),
     "naive": datetime(2026, 3, 1, 12, 0), "day": date(2026, 2, 28), "doc": {"b": [1, 2.5, None], "a": "ё"},
     "nullable_doc": None, "ratio": 0.1, "blob": b"\x00\xff", "words": "Вера's \"quote\"\n"},
    {"id": 7, "flag": False, "at": None, "naive": None, "day": None, "doc": None, "nullable_doc": {"k": False},
     "ratio": -1e300, "blob": b"", "words": ""},
]


def sample_database(url: str, rows=()) -> Table:
    engine = create_engine(url)
    metadata = MetaData()
    table = sample_table(metadata)
    with engine.begin() as connection:
        metadata.create_all(connection)
        connection.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)"))
        connection.execute(text("INSERT INTO alembic_version VALUES ('sample')"))
        if rows:
            connection.execute(insert(table), list(rows))
    engine.dispose()
    return table


@pytest.mark.parametrize("source, target", PAIRS)
def test_values_of_every_kind_round_trip_exactly(source, target, new_database):
    """JSON null apart from SQL NULL and its keys in order, time zones, booleans, bytes: whatever a
    later table may hold."""
    first, second, third = new_database(source), new_database(target), new_database(source)
    sample_database(first, SAMPLES)
    sample_database(second)
    sample_database(third)
    for origin, destination in ((first, second), (second, third)):
        engine = create_engine(origin)
        with engine.connect() as connection:
            document = json.loads(json.dumps(dump(connection, origin)))  # as the archive stores it
        engine.dispose()
        engine = create_engine(destination)
        with engine.begin() as connection:
            assert load(connection, document["tables"]) == (1, 2)
        engine.dispose()
    assert everything(third) == everything(first)
    [stored] = [row for row in everything(first)["sample"] if row[0] == 1]
    assert stored[5] == '{"b": [1, 2.5, null], "a": "\\u0451"}'  # the text, in its order
    assert [row[5:7] for row in everything(second)["sample"]] == [
        ('{"b": [1, 2.5, null], "a": "\\u0451"}', None), ("null", '{"k": false}')]
    engine = create_engine(second)
    with engine.connect() as connection:
        moments = connection.execute(select(sample_table(MetaData()).c.at).order_by(text("id"))).scalars().all()
    engine.dispose()
    expected = SAMPLES[0]["at"] if target == "postgresql" else SAMPLES[0]["at"].replace(tzinfo=None)
    assert moments == [expected, None]


# -- SQLite: a consistent copy while the server writes ---------------------------------------------------


def check_copy(file: Path) -> int:
    """The copy is sound and consistent: every pulka's version counts its writes (1 + its deals, when
    only deals were added), and its deals are numbered 1..n. The number of deals."""
    copy = sqlite3.connect(file)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one self-contained file
        deals = 0
        for pulka_id, version in copy.execute("SELECT id, version FROM pulkas"):
            positions = [p for (p,) in copy.execute(
                "SELECT position FROM deals WHERE pulka_id = ? ORDER BY position", (pulka_id,))]
            assert positions == list(range(1, len(positions) + 1))
            assert version == 1 + len(positions)
            deals += len(positions)
        return deals
    finally:
        copy.close()


RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}


def test_sqlite_copy_holds_what_is_still_only_in_the_write_ahead_log(tmp_path):
    app = open_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path)
    fill(app)
    assert (tmp_path / "live.sqlite-wal").stat().st_size > 0  # the server is running: not checkpointed
    shutil.copy(tmp_path / "live.sqlite", tmp_path / "plain.sqlite")
    plain = sqlite3.connect(tmp_path / "plain.sqlite")
    assert plain.execute("SELECT count(*) FROM sqlite_master WHERE name = 'pulkas'").fetchone() == (0,)
    plain.close()  # what copying the file alone gave: no tables

    backup(app_url(app), tmp_path / "copy.sqlite")
    assert not (tmp_path / "copy.sqlite-wal").exists()
    assert everything(f"sqlite:///{tmp_path / 'copy.sqlite'}") == everything(app_url(app))
    close(app)


def test_sqlite_copy_leaves_out_a_write_not_yet_committed(tmp_path):
    app = open_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path)
    client = signed_in(app)
    pulka = create(client)
    assert add(client, pulka, RASPASY).status_code == 201
    writer = sqlite3.connect(tmp_path / "live.sqlite", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another connection in the middle of writing a deal
    writer.execute("UPDATE pulkas SET version = version + 1")
    writer.execute("INSERT INTO deals (pulka_id, position, type, tricks, open, created_at) "
                   "SELECT id, 2, 'raspasy', '{\"0\": 3, \"1\": 3, \"2\": 4}', 0, created_at FROM pulkas")
    backup(app_url(app), tmp_path / "before.sqlite")
    writer.execute("COMMIT")
    writer.close()
    backup(app_url(app), tmp_path / "after.sqlite")
    assert check_copy(tmp_path / "before.sqlite") == 1
    assert check_copy(tmp_path / "after.sqlite") == 2
    close(app)


def test_sqlite_copies_while_another_thread_writes_are_consistent(tmp_path):
    app = open_app(f"sqlite:///{tmp_path / 'live.sqlite'}", tmp_path)
    client = signed_in(app)
    pulkas = [create(client, rules={"preset": "sochi", "pulya_size": 1000}) for _ in range(3)]
    stop, written = threading.Event(), threading.Semaphore(0)
    failures: list[object] = []

    def phone() -> None:
        writer = app.test_client()
        writer.environ_base.update(client.environ_base)
        while not stop.is_set():
            for pulka in pulkas:
                response = add(writer, pulka, RASPASY)
                if response.status_code != 201:
                    failures.append(response.json)
                    return
                written.release()

    thread = threading.Thread(target=phone)
    thread.start()
    try:
        counts = []
        for i in range(4):
            assert written.acquire(timeout=60)  # the writer is busy before and between the copies
            backup(app_url(app), tmp_path / f"copy{i}.sqlite")
            counts.append(check_copy(tmp_path / f"copy{i}.sqlite"))
    finally:
        stop.set()
        thread.join()
    assert failures == []
    assert counts == sorted(counts) and counts[-1] > counts[0]
    close(app)


# -- restore refuses ------------------------------------------------------------------------------------


@pytest.fixture
def archive(tmp_path, new_database):
    app = open_app(new_database("sqlite"), tmp_path)
    fill(app)
    backup(app_url(app), tmp_path / "backup.json.gz")
    close(app)
    return tmp_path / "backup.json.gz"


@pytest.mark.parametrize("kind", BACKENDS)
def test_restore_refuses_a_database_that_holds_data(kind, archive, new_database, tmp_path):
    app = open_app(new_database(kind), tmp_path)
    create(signed_in(app))
    before = everything(app_url(app))
    with pytest.raises(BackupError, match=r"already holds data \(1 row in table accounts\): restore only into "
                                          r"a new, empty database"):
        restore(app_url(app), archive)
    assert everything(app_url(app)) == before
    close(app)


def rewritten(archive: Path, **changes) -> Path:
    document = json.loads(gzip.decompress(archive.read_bytes()))
    archive.write_bytes(gzip.compress(json.dumps(document | changes).encode()))
    return archive


def test_restore_refuses_a_schema_this_version_does_not_know(archive, new_database):
    url = new_database("sqlite")
    with pytest.raises(BackupError, match="schema revision 9999, which this scorekeeper does not know"):
        restore(url, rewritten(archive, revision="9999"))
    assert everything(url) == {}


def test_restore_refuses_an_empty_database_at_another_revision(archive, new_database, tmp_path):
    app = open_app(new_database("sqlite"), tmp_path)
    with app.extensions["scorekeeper"].db.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'other'"))
    with pytest.raises(BackupError, match=r"is at schema revision other, the backup at \d{4}:"):
        restore(app_url(app), archive)
    close(app)


# gzip's header holds the time it was made: mtime=0 keeps the test ids the same in every xdist worker
@pytest.mark.parametrize("content", [b"", b"{}", b"SQLite format 3\x00 but not really", gzip.compress(b"[1]", mtime=0),
                                     gzip.compress(b'{"format": "scorekeeper-backup/1"}', mtime=0),
                                     b"\x1f\x8b truncated"])
def test_restore_refuses_what_is_not_a_backup(content, new_database, tmp_path):
    file = tmp_path / "not-a-backup"
    file.write_bytes(content)
    with pytest.raises(BackupError, match="not-a-backup"):
        restore(new_database("sqlite"), file)


def test_postgresql_is_backed_up_as_an_archive(new_database, tmp_path):
    if "postgresql" not in BACKENDS:
        pytest.skip("TEST_DATABASE_URL is not set")
    app = open_app(new_database("postgresql"), tmp_path)
    with pytest.raises(BackupError, match=r"name the file something\.json\.gz"):
        backup(app_url(app), tmp_path / "backup.sqlite")
    assert not (tmp_path / "backup.sqlite").exists()
    close(app)


@pytest.mark.parametrize("name", ["backup.json.gz", "backup.sqlite"])
def test_a_failed_backup_keeps_the_last_good_file(name, new_database, tmp_path, monkeypatch):
    app = open_app(new_database("sqlite"), tmp_path)
    backup(app_url(app), tmp_path / name)
    good = (tmp_path / name).read_bytes()
    create(signed_in(app))

    def disk_full(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("scorekeeper.web.store.backup.os.replace", disk_full)
    with pytest.raises(BackupError, match=f"cannot write {tmp_path / name}: No space left on device"):
        backup(app_url(app), tmp_path / name)
    assert (tmp_path / name).read_bytes() == good
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
    close(app)


def test_backup_refuses_a_database_that_is_not_scorekeeper_s(tmp_path):
    sqlite3.connect(tmp_path / "other.sqlite").execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(BackupError, match="holds no scorekeeper database"):
        backup(f"sqlite:///{tmp_path / 'other.sqlite'}", tmp_path / "backup.json.gz")
    assert not (tmp_path / "backup.json.gz").exists()
