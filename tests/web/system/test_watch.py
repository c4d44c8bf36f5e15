"""What a server process knows of the database without asking it (store.watch): trusted only while it has
heard of every change, never older than what a phone saw, and learnt from the database itself, across
real server processes on SQLite and PostgreSQL, also after the listening connection was killed."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import create_engine, text

from scorekeeper.web.domain.deals import EnterDeal
from scorekeeper.engine import Rules
from scorekeeper.web.domain.pulkas import Settings, Stamp
from scorekeeper.web.domain.reading import read_deal
from scorekeeper.web.domain.refusals import VersionConflict
from scorekeeper.web.domain.shares import Role
from scorekeeper.web.services import deals, pulkas
from scorekeeper.web.store import Store
from scorekeeper.web.store.db import Database, normalize_url
from scorekeeper.web.store import watch as watching
from scorekeeper.web.store.watch import APPLICATION, Watch

from .test_processes import servers  # noqa: F401  (the fixture)

RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}
PASSWORD = "a long password"


def test_nothing_is_trusted_until_the_database_is_heard_from():
    watch = Watch()
    watch.learn("p", Stamp(3, 2, None))
    assert watch.stamp("p") is None  # not watching: every check asks the database
    asked = []
    assert watch.remembered("k", lambda: asked.append(1) or "a") == "a"
    assert watch.remembered("k", lambda: asked.append(1) or "b") == "b" and len(asked) == 2
    watch.start_over()
    assert watch.stamp("p") is None  # what was learnt before is dropped
    watch.learn("p", Stamp(3, 2, None))
    assert watch.stamp("p") == Stamp(3, 2, None)
    watch.distrust()  # the listening connection dropped
    assert watch.stamp("p") is None


def test_a_version_only_moves_forward_and_never_goes_back_on_a_phone():
    watch = Watch()
    watch.start_over()
    watch.learn("p", Stamp(5, 4, None))
    watch.learn("p", Stamp(4, 3, None))  # a late notification of an older write
    assert watch.stamp("p") == Stamp(5, 4, None)
    assert watch.stamp("p", seen=5) == Stamp(5, 4, None)
    assert watch.stamp("p", seen=6) is None  # the phone wrote version 6 elsewhere: ask the database


def test_a_remembered_access_holds_until_any_access_changes():
    watch = Watch()
    watch.start_over()
    answers = iter(["viewer", "none"])
    assert watch.remembered(("access", "p"), lambda: next(answers)) == "viewer"
    assert watch.remembered(("access", "p"), lambda: next(answers)) == "viewer"
    watch.access_changed()  # a link revoked
    assert watch.remembered(("access", "p"), lambda: next(answers)) == "none"


def test_what_is_remembered_is_bounded(monkeypatch):
    """Tokens and sessions nobody holds, sent by the thousand, are remembered as nobody's: past the bound,
    everything is forgotten and asked again."""
    monkeypatch.setattr(watching, "MOST_REMEMBERED", 3)
    watch = Watch()
    watch.start_over()
    for key in range(3):
        watch.remembered(("token", key), lambda: None)
    assert watch.remembered(("token", 0), lambda: "asked") is None  # still remembered
    watch.remembered(("token", 3), lambda: None)
    assert watch.remembered(("token", 0), lambda: "asked") == "asked"


def test_sqlite_processes_learn_from_the_change_counter(tmp_path):
    """Two stores on one SQLite file stand for two processes: what one writes, the other learns at its next
    reading of the change counter, with one query for what was written since; access likewise."""
    url = f"sqlite:///{tmp_path / 'two.sqlite'}"
    Database(url).upgrade()
    one, two = Store(Database(url)), Store(Database(url))
    for store in (one, two):
        store.watch_changes()
    owner = one.accounts.create_account("owner", "not a real hash").id
    pulka = pulkas.create_pulka(one.pulkas, owner, Settings("t", "", ("A", "B", "C"), 0, Rules.of("sochi")))
    assert two.pulkas.stamp(pulka.uid).version == 1  # the first reading of the counter, then a query
    readings = two.watch.readings
    assert two.pulkas.stamp(pulka.uid).version == 1 and two.watch.readings == readings  # from memory
    with one.pulkas.writing(pulka.uid) as change:
        change.set_settings(pulka.settings)
        change.done(pulka.deals, pulka.replay, {"what": "settings", "deal": None, "by": "owner"})
    two.watch.refresh.checked = 0.0  # type: ignore[attr-defined]  # as REFRESH seconds later
    assert two.pulkas.stamp(pulka.uid) == Stamp(2, 0, {"what": "settings", "deal": None, "by": "owner"})
    share = one.shares.add_share(pulka.uid, Role.VIEWER, "")
    assert two.shares.access(pulka.uid, None, [share.token], remembered=True) is not None
    one.shares.delete_share(pulka.uid, share.id)
    two.watch.refresh.checked = 0.0  # type: ignore[attr-defined]
    assert two.shares.access(pulka.uid, None, [share.token], remembered=True) is None
    for store in (one, two):
        store.close()


def test_a_reading_of_the_change_counter_reads_the_stamps_only_of_pulkas_written_elsewhere(tmp_path):
    """Every reading looks back SLACK seconds; what this process wrote itself, or learnt already, is known by
    its version, and only newer versions have their deals counted and their last change read."""
    url = f"sqlite:///{tmp_path / 'one.sqlite'}"
    Database(url).upgrade()
    store = Store(Database(url))
    owner = store.accounts.create_account("owner", "not a real hash").id
    made = [pulkas.create_pulka(store.pulkas, owner, Settings(f"t{n}", "", ("A", "B", "C"), 0, Rules.of("sochi")))
            for n in range(3)]
    deals.add_deal(store.pulkas, EnterDeal(made[1].uid, read_deal(RASPASY, made[1].players, 1)))
    known = {made[0].uid: Stamp(1, 0, None), made[1].uid: Stamp(1, 0, None)}  # the third: never heard of
    since = made[0].updated_at - watching.SLACK
    with store.db.reads.connect() as connection:
        sent = store.db.statements()
        written = dict(watching.lately_written(connection, since, known))
        assert store.db.statements() - sent == 2  # the versions, then the stamps of the two newer ones
        assert set(written) == {made[1].uid, made[2].uid}
        assert written[made[1].uid].version == 2 and written[made[1].uid].deals == 1
        assert written[made[2].uid] == Stamp(1, 0, None)
        known |= written
        sent = store.db.statements()
        assert watching.lately_written(connection, since, known) == []
        assert store.db.statements() - sent == 1  # the versions only: nothing newer to read
    store.close()


def test_a_write_on_a_version_known_gone_is_refused_without_a_transaction(database_url):
    """Fifty phones writing on one pulka keep meeting versions that are gone: what this process knows of
    the pulka refuses those before any statement is sent; a write on the version the pulka is at still goes
    to the database, and sends the stamp to the other processes with its last statement."""
    store = Store(Database(database_url))
    store.db.upgrade()
    store.watch_changes()
    _until(store.watch.trusted)
    owner = store.accounts.create_account("owner", "not a real hash").id
    pulka = pulkas.create_pulka(store.pulkas, owner, Settings("t", "", ("A", "B", "C"), 0, Rules.of("sochi")))
    deal = read_deal(RASPASY, pulka.players, 1)
    deals.add_deal(store.pulkas, EnterDeal(pulka.uid, deal, expected=1))
    _until(lambda: store.watch.stamp(pulka.uid) is not None)
    sent = store.db.statements()
    with pytest.raises(VersionConflict):
        deals.add_deal(store.pulkas, EnterDeal(pulka.uid, deal, expected=1))
    assert store.db.statements() == sent  # refused from memory
    deals.add_deal(store.pulkas, EnterDeal(pulka.uid, deal, expected=2))
    written = store.db.statements() - sent
    assert written == (3 if database_url.startswith("postgresql") else 4)  # bump (and count), deal, last change
    assert store.pulkas.stamp(pulka.uid).version == 3
    store.close()


def _until(check, seconds: float = 20.0):
    """`check()` once it holds: what one process wrote, another learns by a phone's next poll or so. Bounded
    generously, because a busy machine delays the thread that hears it, not because it is slow."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "not learnt in time"
        time.sleep(0.05)
    return found


POLL_EVERY = 2.0  # seconds between a watching phone's version checks (static/js/live.js, LIVE_EVERY_MS)


def _next_poll(server, uid: str, token: str) -> int:
    """The version a phone watching the sheet through `server` sees at its next poll after a write was
    acknowledged elsewhere: at most POLL_EVERY later, so asked once, that much later."""
    time.sleep(POLL_EVERY)
    return _version(server, uid, token)


def _table(one):
    assert one.call("POST", "/api/v1/accounts", {"username": "anna", "password": PASSWORD})[0] == 201
    token = one.call("POST", "/api/v1/tokens", {"username": "anna", "password": PASSWORD})[1]["token"]
    uid = one.call("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"]}, token)[1]["id"]
    viewer = one.call("POST", f"/api/v1/pulkas/{uid}/shares", {"role": "viewer"}, token)[1]
    return token, uid, viewer


def _version(server, uid: str, token: str, since: int | None = None) -> int:
    path = f"/api/v1/pulkas/{uid}/version" + (f"?since={since}" if since is not None else "")
    status, body, _ = server.call("GET", path, token=token)
    assert status == 200, body
    return body["version"]


def test_two_server_processes_learn_each_others_writes(servers, database_url):
    """Two `scorekeeper serve` processes on one database (PostgreSQL: LISTEN/NOTIFY; SQLite: the change
    counter): a deal written through one is seen by a phone polling the other within the poll interval; a
    phone that says the version it saw is never answered an older one; a revoked link stops at the other's
    version check too, by the next poll."""
    one, two = servers(), servers()
    token, uid, viewer = _table(one)
    assert _version(two, uid, viewer["token"]) == 1
    assert one.call("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY, token)[0] == 201
    assert _version(two, uid, viewer["token"], since=2) == 2  # its own write's version: at once
    assert _next_poll(two, uid, viewer["token"]) == 2  # any phone's: within the poll interval
    assert one.call("DELETE", f"/api/v1/pulkas/{uid}/shares/{viewer['id']}", token=token)[0] == 204
    assert two.call("GET", f"/api/v1/pulkas/{uid}/sheet", token=viewer["token"])[0] == 401  # pages: at once
    time.sleep(POLL_EVERY)
    assert two.call("GET", f"/api/v1/pulkas/{uid}/version", token=viewer["token"])[0] == 401  # by the next poll


def test_a_killed_listener_falls_back_to_the_database_and_listens_again(servers, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no listening connection: its change counter is read")
    one, two = servers(), servers()
    token, uid, viewer = _table(one)
    admin = create_engine(normalize_url(database_url))
    name = f"{APPLICATION}-{two.process.pid}"

    def listening() -> list[int]:
        with admin.connect() as connection:
            return list(connection.execute(text("SELECT pid FROM pg_stat_activity WHERE application_name = :name"),
                                           {"name": name}).scalars())

    first = _until(listening)
    assert _version(two, uid, viewer["token"]) == 1
    with admin.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first[0]})
    assert one.call("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY, token)[0] == 201
    assert _next_poll(two, uid, viewer["token"]) == 2  # asked of the database while deaf
    again = _until(lambda: [pid for pid in listening() if pid != first[0]])
    assert again  # listening again, on a new connection
    assert one.call("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY, token)[0] == 201
    assert _next_poll(two, uid, viewer["token"]) == 3  # heard again
    admin.dispose()
