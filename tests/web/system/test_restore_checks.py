"""A restore checks every row of the archive before it writes any: a value of the wrong type, too long, a
date-time the app could not read back, JSON that does not parse, rules or deals the app cannot replay. The
error names the table, the row and the column, never a value (no password hash in any line), and the
database is left with no data; the restored server never answers 500 for what it was given."""

from __future__ import annotations

import gzip
import json

import pytest

from scorekeeper.web.store.backup import BackupError, backup
from scorekeeper.web.store.restore import restore

from ..conftest import BACKENDS
from .test_backup import app_url, close, everything, fill, new_database, open_app  # noqa: F401 - a fixture

HASH = "$argon2id$"


@pytest.fixture
def document(tmp_path, new_database):  # noqa: F811 - the fixture imported above
    app = open_app(new_database("sqlite"), tmp_path)
    fill(app)
    backup(app_url(app), tmp_path / "good.json.gz")
    close(app)
    return json.loads(gzip.decompress((tmp_path / "good.json.gz").read_bytes()))


def _table(document, name):
    return next(table for table in document["tables"] if table["name"] == name)


def _damaged(document, table: str, column: str, value, row: int = 0) -> dict:
    copy = json.loads(json.dumps(document))
    found = _table(copy, table)
    found["rows"][row][found["columns"].index(column)] = value
    return copy


def _write(tmp_path, document) -> object:
    path = tmp_path / "damaged.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    return path


CASES = [
    ("pulkas", "rules", '{"preset": "sochi"'),  # broken JSON
    ("pulkas", "rules", '{"preset": "nowhere"}'),  # JSON, but no rules the app knows
    ("pulkas", "rules", "[1, 2]"),
    ("pulkas", "created_at", "9999-12-31T23:59:59+00:00"),
    ("pulkas", "updated_at", "0001-01-01T00:00:00+23:59"),
    ("pulkas", "updated_at", "yesterday"),
    ("pulkas", "first_dealer", "zero"),
    ("pulkas", "version", 2**40),
    ("pulkas", "name", "x" * 10_000),
    ("pulkas", "name", "a\x00b"),
    ("pulkas", "uid", None),
    ("pulkas", "table_uid", None),
    ("pulkas", "opening", '{"pulya": [1]}'),  # an opening without its gora
    ("pulkas", "opening", '{"pulya": [1, 2, 3], "gora": ["x", 0, 0], "whists": []}'),
    ("deals", "tricks", '{"0": "many"}'),
    ("deals", "type", "poker"),
    ("deals", "whist", "{not json"),
    ("deals", "contract", "9Z"),
    ("accounts", "is_admin", "yes"),
    ("accounts", "session_epoch", True),
    ("accounts", "created_at", 20261129),
    ("api_tokens", "account_id", "1"),
    ("login_failures", "at", "2026-13-01T00:00:00+00:00"),
]


@pytest.mark.parametrize("kind", BACKENDS)
@pytest.mark.parametrize("table, column, value", CASES)
def test_a_damaged_row_is_refused_naming_where_never_what(kind, table, column, value, document, new_database,  # noqa: F811
                                                          tmp_path):
    url = new_database(kind)
    with pytest.raises(BackupError) as refused:
        restore(url, _write(tmp_path, _damaged(document, table, column, value)))
    line = str(refused.value)
    assert f"table {table}, row 1, column {column}:" in line or f"table {table}, row 1, column *:" in line, line
    assert HASH not in line and "\n" not in line
    assert {name: rows for name, rows in everything(url).items() if rows and name != "alembic_version"} == {}


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_wrongly_typed_hash_column_prints_no_hash(kind, document, new_database, tmp_path):  # noqa: F811
    damaged = json.loads(json.dumps(document))
    accounts = _table(damaged, "accounts")
    index = accounts["columns"].index("password_hash")
    for row in accounts["rows"]:
        row[index] = {"hash": row[index]}  # each row's hash inside an object: no column takes it
    with pytest.raises(BackupError) as refused:
        restore(new_database(kind), _write(tmp_path, damaged))
    assert "table accounts, row 1, column password_hash" in str(refused.value)
    assert HASH not in str(refused.value) and "argon2" not in str(refused.value)


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_good_archive_still_restores_and_serves(kind, document, new_database, tmp_path):  # noqa: F811
    url = new_database(kind)
    restore(url, _write(tmp_path, document))
    app = open_app(url, tmp_path)
    client = app.test_client()
    assert client.post("/login", data={"username": "owner", "password": "owner-password"}).status_code == 302
    for pulka in client.get("/api/v1/pulkas").json["pulkas"]:
        assert client.get(f"/p/{pulka['id']}").status_code == 200
    assert client.get("/").status_code == 200
    close(app)


def _at_0005(document) -> dict:
    """The archive as revision 0005 wrote it: no sessions, no standings, no tables of pulkas, no opening, no link's
    player, no results, no players' ids, no ledger, no account's count of deals or circle version, no date played."""
    older = json.loads(json.dumps(document)) | {"revision": "0005"}
    older["tables"] = [table for table in older["tables"] if table["name"] not in ("sessions", "pulka_events", "ledger_payments")]
    for name, column in (("pulkas", "standing"), ("pulkas", "table_uid"), ("pulkas", "opening"), ("shares", "player"),
                         ("pulkas", "result"), ("pulkas", "ended_at"), ("pulkas", "utc_offset"), ("players", "uid"),
                         ("players", "merged_into_id"), ("accounts", "ledger_writes"), ("accounts", "deals"),
                         ("accounts", "circle_version"), ("pulkas", "played_on")):
        table = _table(older, name)
        index = table["columns"].index(column)
        table["columns"].pop(index)
        for row in table["rows"]:
            row.pop(index)
    return older


@pytest.mark.parametrize("kind", BACKENDS)
def test_an_older_archive_is_read_back_as_the_app_reads_it(kind, document, new_database, tmp_path):  # noqa: F811
    url = new_database(kind)
    older = _at_0005(document)
    with pytest.raises(BackupError, match=r"table pulkas, row 1, column rules: not rules the app can read"):
        restore(url, _write(tmp_path, _damaged(older, "pulkas", "rules", '{"preset": "nowhere"}')))
    assert {name: rows for name, rows in everything(url).items() if rows and name != "alembic_version"} == {}
    url = new_database(kind)
    restore(url, _write(tmp_path, older))  # the good one comes up to this schema and serves
    app = open_app(url, tmp_path)
    client = app.test_client()
    assert client.post("/login", data={"username": "owner", "password": "owner-password"}).status_code == 302
    assert client.get("/").status_code == 200
    close(app)
