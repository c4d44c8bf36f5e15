"""What this process knows of the database without asking it: each pulka's version, as the phones that
watch a sheet ask for it every two seconds, and whether anyone's access may have changed.

A write says what it changed in its own transaction, and each process learns it from the database itself:
on PostgreSQL by LISTEN/NOTIFY (a thread per process listens; the notification comes with the commit), on
SQLite by the database's change counter (`PRAGMA data_version`, read at most every REFRESH seconds, then
one query for the pulkas written lately). Until a process knows it has heard of every change (before the
listener is connected, after its connection dropped, before the change counter was read) it trusts nothing
it knows and asks the database, as without a watch. A phone that says which version it saw (its own last
write's, say) is never answered an older one: the database is asked instead.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Connection, bindparam, func, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from ..domain.pulkas import Stamp
from .models import DealRow, GenerationRow, PulkaRow, now

T = TypeVar("T")
log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_changes"
REFRESH = 0.25  # seconds: on SQLite, how stale what a process knows may be (a phone polls every 2 s)
# On SQLite, a write's updated_at is taken before it waits for the file's lock (15 s at most) and commits:
# the pulkas written this long before the last reading are read again, so none committed since is missed.
SLACK = timedelta(seconds=30)
KEEP = 300.0  # seconds: a remembered access is asked again this often (the link's last use is noted then)
MOST_REMEMBERED = 20_000  # answers: more (tokens nobody holds, say) and all are forgotten, to be asked again
RECONNECT = 1.0  # seconds between attempts to listen again
APPLICATION = "scorekeeper-listener"  # the listening connection's name in pg_stat_activity, with the pid


class Watch:
    """The pulkas' stamps and the remembered access of one process, and whether they can be trusted."""

    def __init__(self) -> None:
        self.stamps: dict[str, Stamp] = {}
        self.generation = 0  # of access: every remembered answer of an older one is asked again
        self._remembered: dict[Hashable, tuple[int, float, Any]] = {}
        self._lock = threading.Lock()
        self._trusted = False
        self.refresh: Callable[[], bool] = lambda: self._trusted  # the database's way to be sure, if any
        self.readings = 0  # of SQLite's change counter (each a statement, if a cheap one)

    # -- what is known ------------------------------------------------------------------------

    def trusted(self) -> bool:
        """Whether what this process knows is what the database holds (else: ask it)."""
        return self.refresh()

    def stamp(self, uid: str, seen: int = 0) -> Stamp | None:
        """The pulka's stamp if known and trusted and not older than the version `seen` by the caller."""
        if not self.trusted():  # first: a reading of the database may drop what was known
            return None
        found = self.stamps.get(uid)
        return None if found is None or found.version < seen else found

    def learn(self, uid: str, stamp: Stamp) -> None:
        """A pulka's stamp as read or written: a version only moves forward."""
        with self._lock:
            known = self.stamps.get(uid)
            if known is None or known.version < stamp.version:
                self.stamps[uid] = stamp

    def forget(self, uid: str) -> None:
        with self._lock:
            self.stamps.pop(uid, None)

    def access_changed(self) -> None:
        """A share link, an account or a pulka's owner changed: every remembered access is asked again."""
        with self._lock:
            self.generation += 1
            self._remembered.clear()

    def remembered(self, key: Hashable, ask: Callable[[], T]) -> T:
        """What `ask` answers for `key`: remembered while trusted, for KEEP seconds at most, and until any
        access changes."""
        if self.trusted():
            found = self._remembered.get(key)
            if found is not None and found[0] == self.generation and time.monotonic() - found[1] < KEEP:
                answer: T = found[2]
                return answer
        generation = self.generation
        answer = ask()
        with self._lock:
            if len(self._remembered) >= MOST_REMEMBERED:
                self._remembered.clear()
            if generation == self.generation:  # no access changed while it was asked
                self._remembered[key] = (generation, time.monotonic(), answer)
        return answer

    def distrust(self) -> None:
        """Something may have been missed: nothing is trusted until the database is heard from again."""
        with self._lock:
            self._trusted = False

    def start_over(self) -> None:
        """Heard from the database again: what was known before is dropped, and what is learnt from now on
        is trusted."""
        with self._lock:
            self.stamps.clear()
            self.generation += 1
            self._remembered.clear()
            self._trusted = True


# -- how a write tells the other processes --------------------------------------------------------


def stamped(connection: Connection | Session, uid: str, stamp: Stamp) -> None:
    """In a write's transaction: the pulka's new stamp, for every process (delivered on commit)."""
    _notify(connection, _stamp_message(uid, stamp))


def stamp_notice(dialect: str, uid: str, stamp: Stamp) -> ColumnElement[Any] | None:
    """What `stamped` sends, as an expression for the RETURNING of the write's last statement on PostgreSQL
    (one round trip fewer; the notification is sent when the row is updated, delivered on commit); None on
    SQLite, whose processes read the change counter."""
    return func.pg_notify(CHANNEL, json.dumps(_stamp_message(uid, stamp))) if dialect == "postgresql" else None


def _stamp_message(uid: str, stamp: Stamp) -> dict[str, object]:
    return {"uid": uid, "version": stamp.version, "deals": stamp.deals, "change": stamp.change}


def gone(connection: Connection | Session, uid: str) -> None:
    _notify(connection, {"uid": uid, "gone": True})


def access_changed(connection: Connection | Session) -> None:
    """In a write's transaction: a share link, an account or an owner changed. On SQLite the generation
    counts it; on PostgreSQL the notification says it."""
    if _dialect(connection) == "sqlite":
        connection.execute(update(GenerationRow).values(access=GenerationRow.access + 1))
    _notify(connection, {"access": True})


def _dialect(connection: Connection | Session) -> str:
    return (connection.get_bind() if isinstance(connection, Session) else connection).dialect.name


def _notify(connection: Connection | Session, message: Mapping[str, object]) -> None:
    if _dialect(connection) == "postgresql":
        connection.execute(select(func.pg_notify(CHANNEL, json.dumps(message))))


def hear(watch: Watch, payload: str) -> None:
    message = json.loads(payload)
    if message.get("access"):
        watch.access_changed()
    elif message.get("gone"):
        watch.forget(message["uid"])
    else:
        watch.learn(message["uid"], Stamp(message["version"], message["deals"], message["change"]))


# -- PostgreSQL: a thread listens --------------------------------------------------------------------


class Listener:
    """LISTENs on its own connection and tells the watch; reconnects when the connection drops, and the
    watch trusts nothing meanwhile."""

    def __init__(self, url: str, watch: Watch):
        self.url = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.watch = watch
        self.stopping = threading.Event()
        self.connected = threading.Event()  # for tests: listening now
        self.thread = threading.Thread(target=self._run, name="scorekeeper-listener", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)

    def _run(self) -> None:
        import psycopg

        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5,
                                     application_name=f"{APPLICATION}-{os.getpid()}") as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.watch.start_over()
                    self.connected.set()
                    while not self.stopping.is_set():
                        for notification in connection.notifies(timeout=1.0):
                            hear(self.watch, notification.payload)
            except Exception as error:  # noqa: BLE001 - any failure: listen again, and trust nothing meanwhile
                log.warning("not listening to the database for a while: %s", error)
            self.watch.distrust()
            self.connected.clear()
            self.stopping.wait(RECONNECT)


# -- SQLite: the change counter -----------------------------------------------------------------------


class CounterCheck:
    """Reads SQLite's change counter on a connection of its own at most every REFRESH seconds; when another
    connection committed since the last reading, reads the pulkas written since then and the access
    generation."""

    def __init__(self, path: str, read: Callable[[datetime], list[tuple[str, Stamp]]],
                 generation: Callable[[], int], watch: Watch):
        self.connection = sqlite3.connect(path, check_same_thread=False, timeout=15)
        self.read, self.generation, self.watch = read, generation, watch
        self.counter: int | None = None
        self.since = now()  # what was committed before this is known
        self.access = -1
        self.checked = 0.0
        self.lock = threading.Lock()

    def __call__(self) -> bool:
        if time.monotonic() - self.checked < REFRESH:
            return True
        with self.lock:
            if time.monotonic() - self.checked < REFRESH:
                return True
            try:
                self._check()
            except sqlite3.Error as error:
                log.warning("cannot read the database's change counter: %s", error)
                return False
        return True

    def _check(self) -> None:
        checked, read_at = time.monotonic(), now()
        counter = self.connection.execute("PRAGMA data_version").fetchone()[0]
        self.watch.readings += 1
        if self.counter is None:
            self.watch.start_over()  # nothing learnt before the first reading is trusted
        elif counter != self.counter:
            for uid, stamp in self.read(self.since - SLACK):
                self.watch.learn(uid, stamp)
        if counter != self.counter:
            generation = self.generation()
            if generation != self.access:
                self.watch.access_changed()
                self.access = generation
        self.counter, self.since, self.checked = counter, read_at, checked


_WRITTEN = select(PulkaRow.uid, PulkaRow.version).where(PulkaRow.updated_at >= bindparam("since"))
_STAMPS = select(PulkaRow.uid, PulkaRow.version,
                 select(func.count()).where(DealRow.pulka_id == PulkaRow.id).scalar_subquery(),
                 PulkaRow.last_change).where(PulkaRow.uid.in_(bindparam("uids", expanding=True)))


def lately_written(connection: Connection, since: datetime, known: Mapping[str, Stamp]) -> list[tuple[str, Stamp]]:
    """The pulkas written since `since` at a newer version than `known` holds, with their stamps. The
    versions first: the stamps (their deals counted, their last change read) only of those, as a process
    knows its own writes already and the reading looks back SLACK seconds every time."""
    newer = [uid for uid, version in connection.execute(_WRITTEN, {"since": since})
             if (stamp := known.get(uid)) is None or stamp.version < version]
    if not newer:
        return []
    rows = connection.execute(_STAMPS, {"uids": newer})
    return [(uid, Stamp(version, count, change)) for uid, version, count, change in rows]


def access_generation(connection: Connection) -> int:
    return int(connection.execute(text("SELECT access FROM generations")).scalar_one())
