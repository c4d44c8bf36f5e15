"""The production server: waitress, in one process or several forked ones sharing one listening socket.

Each process learns of every write from the database (store.watch), so a version check is answered from
memory. With SCOREKEEPER_STATS=PREFIX set, each process writes what its version checks cost to
PREFIX.<pid>.json when it stops (benchmarks/live.py reads them).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask

from .app import create_app
from .edge.context import store


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 8, workers: int = 1) -> None:
    """The production server: waitress, in `workers` processes sharing one listening socket.

    Each process keeps only caches keyed by pulka version, and what it learns of the database from the
    database itself (store.watch): the database decides what is true. Watching phones poll a version check
    answered from memory, so none of them holds a thread; connections are many, threads few.
    """
    from waitress import serve as waitress_serve

    options = waitress_options(app, threads)
    if workers <= 1:
        store(app).watch_changes()
        with tallied(app) as wsgi:  # stopped (SIGTERM: the command's SystemExit), the figures are written
            waitress_serve(wsgi, host=host, port=port, **options)
        return
    listener = socket.create_server((host, port), backlog=2048)
    store(app).db.engine.dispose()  # no connection crosses a fork
    config, instance = dict(app.config), app.instance_path
    children: set[int] = set()
    stopping = False

    def start() -> None:
        pid = os.fork()
        if pid == 0:
            # Stopped like a single server: the loop ends, the connections close (SQLite's last one
            # moves its write-ahead log into the database file).
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            worker = create_app(config | {"MIGRATE_ON_START": False}, instance)
            store(worker).watch_changes()
            try:
                with tallied(worker) as wsgi:
                    waitress_serve(wsgi, sockets=[listener], **options)
            except SystemExit:
                pass
            finally:
                store(worker).close()
                os._exit(0)
        children.add(pid)

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(workers):
        start()
    while children:
        pid, _status = os.wait()
        children.discard(pid)
        if not stopping:
            start()  # a worker that died is replaced; the others kept serving


# Forwarded headers waitress takes from a trusted proxy (the app's ProxyFix reads the same, as waitress leaves
# them: the client's address, the scheme and the host the client asked for).
FORWARDED = {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"}


def waitress_options(app: Flask, threads: int) -> dict[str, Any]:
    """Waitress's settings for this app. A body larger than the app takes is refused by waitress before it is
    read (its own limit is 1 GiB, spooled to disk), chunked too; headers are bounded, and so are connections:
    one each watching phone keeps open. Behind SCOREKEEPER_PROXIES proxies, their
    forwarded headers are trusted: without that waitress drops them before the app sees them."""
    options: dict[str, Any] = {
        "threads": threads, "ident": "scorekeeper", "connection_limit": 1000,
        "max_request_body_size": int(app.config["MAX_CONTENT_LENGTH"]),
        "max_request_header_size": 64 * 2**10,
    }
    if proxies := int(app.config.get("PROXIES") or 0):
        # Any peer: the server listens where only the proxy reaches it (127.0.0.1, README's set-up).
        options |= {"trusted_proxy": "*", "trusted_proxy_count": proxies, "trusted_proxy_headers": FORWARDED,
                    "clear_untrusted_proxy_headers": True}
    return options


class Costs:
    """What this process's version checks and deal writes cost: how many, the CPU time of their threads, and
    the statements they sent to the database (the access check's included)."""

    KINDS = {("GET", "/version"): "version", ("POST", "/deals"): "deal"}

    def __init__(self, app: Flask):
        self.app, self.wsgi = app, app.wsgi_app
        # The seconds each answer took in the app ("walls"), beside what the caller waited in all.
        self.figures: dict[str, dict[str, Any]] = {kind: {"count": 0, "cpu": 0.0, "statements": 0, "walls": []}
                                                   for kind in self.KINDS.values()}

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        path, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
        kind = next((k for (m, end), k in self.KINDS.items() if method == m and path.endswith(end)), None)
        if kind is None:
            return self.wsgi(environ, start_response)
        db, cpu, wall = store(self.app).db, time.thread_time(), time.monotonic()
        sent = db.statements()
        try:
            return self.wsgi(environ, start_response)
        finally:
            figures = self.figures[kind]
            figures["count"] += 1
            figures["cpu"] += time.thread_time() - cpu
            figures["statements"] += db.statements() - sent
            figures["walls"].append(time.monotonic() - wall)

    def write(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(self.figures | {"pid": os.getpid(), "counter_readings": store(self.app).watch.readings,
                                      "process_cpu": time.process_time()}, out)


@contextmanager
def tallied(app: Flask) -> Iterator[Any]:
    """The app to serve: counted when SCOREKEEPER_STATS names where to write the figures."""
    prefix = os.environ.get("SCOREKEEPER_STATS")
    if not prefix:
        yield app
        return
    tally = Costs(app)
    try:
        yield tally
    finally:
        tally.write(f"{prefix}.{os.getpid()}.json")
