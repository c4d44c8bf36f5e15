"""The production server: waitress, in one process or several forked ones sharing one listening socket."""

from __future__ import annotations

import os
import signal
import socket
import sys
from typing import Any

from flask import Flask

from .app import create_app
from .edge.context import store


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000, threads: int = 8, workers: int = 1) -> None:
    """The production server: waitress, in `workers` processes sharing one listening socket.

    Each process keeps only caches keyed by pulka version and reads the rest from the database, so
    they need no coordination: the database decides what is true. Watching phones poll a cheap
    version check, so none of them holds a thread; connections are many, threads few.
    """
    from waitress import serve as waitress_serve

    options: dict[str, Any] = {"threads": threads, "ident": "scorekeeper", "connection_limit": 1000}
    if workers <= 1:
        waitress_serve(app, host=host, port=port, **options)
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
            try:
                waitress_serve(worker, sockets=[listener], **options)
            except SystemExit:
                pass
            finally:
                store(worker).db.engine.dispose()
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
