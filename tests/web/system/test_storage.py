"""A database that cannot save for a while (a full disk, a read-only database, a lock held too long, a lost
connection) answers 503 cannot_save, as a page and as JSON, and stores nothing; reading goes on working.

The conditions are real where the test can make them: SQLite read-only (query_only), full (max_page_count)
and locked (another connection's write lock); PostgreSQL read-only, a lock timeout, and a connection the
server ends. A full PostgreSQL disk is the driver's own DiskFull, raised before a write reaches the server."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

import psycopg
import pytest
from sqlalchemy import create_engine, event, exc, text

from scorekeeper.web.store.db import cannot_save, sqlite_path

from ..conftest import OWNER, SOCHI, form_fields, snapshot, sochi

BIG = SOCHI | {"deals": [{"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}] * 300}  # takes new pages


def backend(app) -> str:
    return app.extensions["scorekeeper"].db.engine.dialect.name


@contextmanager
def connections_run(app, *statements: str):
    """Every connection the app opens meanwhile runs `statements` first (the pooled ones are closed)."""
    engine = app.extensions["scorekeeper"].db.engine

    def run(dbapi_connection, record):
        cursor = dbapi_connection.cursor()
        for statement in statements:
            cursor.execute(statement)
        cursor.close()
        dbapi_connection.commit()  # PostgreSQL: a SET in a committed transaction lasts the session

    event.listen(engine, "connect", run)
    engine.dispose()
    try:
        yield
    finally:
        event.remove(engine, "connect", run)
        engine.dispose()


def refused(response, reading: bool = False) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    message = ("the server cannot reach its database right now; try again in a moment" if reading
               else "the server cannot save right now; nothing was saved")
    if response.is_json:
        assert response.json["error"] | {"field": "", "deal": None} == \
               {"code": "cannot_save", "message": message, "field": "", "deal": None}
    else:
        assert f"<p>{message}</p>" in response.get_data(as_text=True)  # the app's error page


def reads(app, client, uid: str) -> None:
    """What reading needs still works: the API, the pages, a share link (whose last use is not noted
    meanwhile), a browser signed in before; a new log-in is refused for now."""
    for path in (f"/api/v1/pulkas/{uid}/sheet", f"/api/v1/pulkas/{uid}/deals", f"/p/{uid}", f"/p/{uid}/history",
                 f"/p/{uid}/settlement", "/api/v1/pulkas"):
        assert client.get(path).status_code == 200, path
    link = app.test_client()
    link.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {app.config['test_link']}"
    assert link.get(f"/api/v1/pulkas/{uid}/sheet").status_code == 200
    assert app.config["test_browser"].get(f"/p/{uid}").status_code == 200  # a browser signed in before reads on
    # A new log-in stores its session (so that log-out can end it): where the database takes no row, it waits
    # for the database, said so (a full disk may still have room for one small row).
    response = app.test_client().post("/login", data={"username": OWNER[0], "password": OWNER[1]})
    assert response.status_code == 302 or (response.status_code == 503
                                            and "cannot save" in response.get_data(as_text=True))


@pytest.fixture
def uid(app, client) -> str:
    """A pulka of three deals, with a viewer link that was never used (so reading through it would note it)."""
    uid = sochi(client, 3)
    app.config["test_link"] = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json["token"]
    browser = app.test_client()
    assert browser.post("/login", data={"username": OWNER[0], "password": OWNER[1]}).status_code == 302
    app.config["test_browser"] = browser
    return uid


def writes_are_refused(app, client, uid: str) -> None:
    """Every kind of write answers 503 and stores nothing, on the API and on the pages."""
    stored = snapshot(app)
    refused(client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3], headers={"Idempotency-Key": "k-1"}))
    refused(client.post("/api/v1/import", json=BIG))
    refused(client.post(f"/api/v1/pulkas/{uid}/undo"))
    refused(client.post(f"/p/{uid}/deal", data=form_fields(SOCHI["deals"][3])))
    refused(client.post("/import", data={"text": json.dumps(BIG)}))
    assert snapshot(app) == stored


def test_a_read_only_database_refuses_writes_and_reads_on(app, client, uid):
    read_only = {"sqlite": "PRAGMA query_only = ON", "postgresql": "SET default_transaction_read_only = on"}
    with connections_run(app, read_only[backend(app)]):
        writes_are_refused(app, client, uid)
        reads(app, client, uid)
    # Writable again, the write sent again with its key is made now: the refused one kept no key.
    again = client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3], headers={"Idempotency-Key": "k-1"})
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers


def test_a_full_disk_refuses_writes_and_reads_on(app, client, uid):
    engine = app.extensions["scorekeeper"].db.engine
    if backend(app) == "sqlite":
        with engine.connect() as connection:
            pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
        full = connections_run(app, f"PRAGMA max_page_count = {pages}")  # not a page more than it has
    else:
        full = _writes_raise(engine, psycopg.errors.DiskFull("could not extend file: No space left on device"))
    with full:
        stored = snapshot(app)
        refused(client.post("/api/v1/import", json=BIG))
        refused(client.post("/import", data={"text": json.dumps(BIG)}))
        assert snapshot(app) == stored
        reads(app, client, uid)
    assert client.post("/api/v1/import", json=BIG).status_code == 201


@contextmanager
def _writes_raise(engine, error: Exception):
    def fail(connection, cursor, statement, *args):
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise error

    event.listen(engine, "before_cursor_execute", fail)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", fail)


def test_a_lock_held_too_long_refuses_writes_and_reads_on(app, client, uid, database_url):
    """Another connection holds the lock a write needs (SQLite: the database's write lock; PostgreSQL: the
    pulka's row) for longer than the app waits: the write gives up with 503, reads do not wait."""
    if backend(app) == "sqlite":
        holder = sqlite3.connect(sqlite_path(database_url))
        holder.execute("BEGIN IMMEDIATE")
        release, patience = holder.rollback, "PRAGMA busy_timeout = 50"
    else:
        admin = create_engine(database_url)
        holder = admin.connect()
        holder.execute(text("SELECT 1 FROM pulkas WHERE uid = :uid FOR UPDATE"), {"uid": uid})
        release, patience = holder.close, "SET lock_timeout = '50ms'"
    try:
        with connections_run(app, patience):
            stored = snapshot(app)
            refused(client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3]))
            refused(client.post(f"/p/{uid}/undo"))
            assert snapshot(app) == stored
            for path in (f"/api/v1/pulkas/{uid}/sheet", f"/p/{uid}", f"/p/{uid}/history"):
                assert client.get(path).status_code == 200
    finally:
        release()
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3]).status_code == 201


def test_a_lost_connection_is_503_and_the_next_request_works(app, client, uid, database_url):
    if backend(app) != "postgresql":
        pytest.skip("SQLite has no server to lose")
    engine = app.extensions["scorekeeper"].db.engine

    def lose_the_connection() -> None:
        engine.dispose()
        assert client.get(f"/api/v1/pulkas/{uid}").status_code == 200  # one connection, back in the pool
        with engine.connect() as connection:
            pid = connection.execute(text("SELECT pg_backend_pid()")).scalar()
        with create_engine(database_url).begin() as admin:
            admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})

    stored = snapshot(app)
    lose_the_connection()
    refused(client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3]))
    assert snapshot(app) == stored
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3]).status_code == 201
    lose_the_connection()
    refused(client.get(f"/api/v1/pulkas/{uid}/sheet"), reading=True)
    assert client.get(f"/api/v1/pulkas/{uid}/sheet").status_code == 200


def test_another_database_error_is_not_taken_for_a_full_disk(app, client, uid):
    """Only the storage's refusals are 503: any other database error is a bug, and stays one (500; the tests
    see the exception itself)."""
    engine = app.extensions["scorekeeper"].db.engine
    error = psycopg.errors.UniqueViolation("duplicate key") if backend(app) == "postgresql" \
        else sqlite3.IntegrityError("UNIQUE constraint failed")
    with _writes_raise(engine, error), pytest.raises(exc.IntegrityError):
        client.post(f"/api/v1/pulkas/{uid}/deals", json=SOCHI["deals"][3])


def _wrapped(orig: Exception) -> exc.DBAPIError:
    return exc.DBAPIError.instance("UPDATE pulkas …", {}, orig, Exception)


def _sqlite_error(code: int, message: str) -> sqlite3.Error:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize("orig, refuses", [
    (_sqlite_error(8, "attempt to write a readonly database"), True),
    (_sqlite_error(13, "database or disk is full"), True),
    (_sqlite_error(5, "database is locked"), True),
    (_sqlite_error(6, "database table is locked"), True),
    (_sqlite_error(10 | 12 << 8, "disk I/O error"), True),  # SQLITE_IOERR_FSYNC: an extended code
    (_sqlite_error(1, "no such table: pulkas"), False),
    (psycopg.errors.DiskFull("could not extend file"), True),
    (psycopg.errors.OutOfMemory("out of memory"), True),
    (psycopg.errors.TooManyConnections("sorry, too many clients already"), True),
    (psycopg.errors.ReadOnlySqlTransaction("cannot execute UPDATE in a read-only transaction"), True),
    (psycopg.errors.AdminShutdown("terminating connection due to administrator command"), True),
    (psycopg.errors.CannotConnectNow("the database system is starting up"), True),
    (psycopg.errors.ConnectionFailure("connection failure"), True),
    (psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"), True),
    (psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly"), True),
    (psycopg.errors.UniqueViolation("duplicate key value"), False),
    (psycopg.errors.UndefinedTable("relation does not exist"), False),
    (psycopg.errors.DeadlockDetected("deadlock detected"), False),  # a bug of ours, not the storage's
], ids=lambda value: str(value) if isinstance(value, Exception) else None)
def test_which_driver_errors_mean_the_database_cannot_save(orig, refuses):
    assert cannot_save(_wrapped(orig)) is refuses
    assert cannot_save(exc.TimeoutError("QueuePool limit reached")) and not cannot_save(ValueError("no"))
