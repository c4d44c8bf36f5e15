"""Several real server processes on one database: what one writes, the other serves at once (pages, API,
the version watching phones poll), and `scorekeeper serve --workers N` keeps N processes on one port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from ..conftest import SOCHI


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`scorekeeper serve` in a process of its own, stopped (or killed) by its process id; on `port`, say to
    take the place of one that was killed."""

    def __init__(self, database_url: str, instance: Path, *args: str, port: int | None = None):
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "FLASK_SECRET_KEY"}
        env |= {"DATABASE_URL": database_url, "SCOREKEEPER_INSTANCE": str(instance)}
        # The output goes to a file: a pipe nobody reads fills up after a few tracebacks, and then the
        # server's logging blocks every thread.
        instance.parent.mkdir(parents=True, exist_ok=True)
        self.log = instance.parent / f"server-{self.port}.log"
        with self.log.open("ab") as output:  # a server started again on a port adds to its log
            self.process = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve", "--port",
                                             str(self.port), *args], env=env, stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(self.base + "/login", timeout=2)
                break
            except OSError:
                assert self.process.poll() is None, self.log.read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)

    def call(self, method: str, path: str, body=None, token: str = "", headers: dict | None = None):
        """(status, JSON or text, headers)."""
        headers = dict(headers or {})
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base + path, method=method, headers=headers,
                                         data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                data, status, got = response.read(), response.status, response.headers
        except urllib.error.HTTPError as error:
            data, status, got = error.read(), error.code, error.headers
        text = data.decode()
        return status, json.loads(text) if got.get_content_type() == "application/json" and text else text, got

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(15)

    def kill(self) -> None:
        """SIGKILL: no request finishes, no connection closes cleanly, nothing is flushed."""
        self.process.kill()
        self.process.wait(15)


@pytest.fixture
def servers(database_url, tmp_path):
    started = []

    def start(*args: str, port: int | None = None) -> Server:
        server = Server(database_url, tmp_path / "instance", *args, port=port)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.process.poll() is None:
            server.stop()


def test_two_processes_on_one_database_agree(servers):
    one, two = servers(), servers()
    assert one.call("POST", "/api/v1/accounts", {"username": "anna", "password": "a long password"})[0] == 201
    status, body, _ = two.call("POST", "/api/v1/tokens", {"username": "anna", "password": "a long password"})
    token = body["token"]
    status, pulka, _ = one.call("POST", "/api/v1/import", SOCHI | {"deals": SOCHI["deals"][:3]}, token)
    assert status == 201
    uid = pulka["id"]
    sheet = f"/api/v1/pulkas/{uid}/sheet"
    assert two.call("GET", sheet, token=token)[1] == one.call("GET", sheet, token=token)[1]
    status, version, headers = two.call("GET", f"/api/v1/pulkas/{uid}/version", token=token)
    assert (status, version["version"]) == (200, 1)
    etag = headers["ETag"]
    assert two.call("GET", f"/api/v1/pulkas/{uid}/version", token=token, headers={"If-None-Match": etag})[0] == 304
    # A deal written through one process: the other's pages see it at once, and its version check as soon as
    # it heard of the write from the database (at once for a phone that says it saw version 2: test_watch.py).
    assert one.call("POST", f"/api/v1/pulkas/{uid}/deals", SOCHI["deals"][3], token)[0] == 201
    deadline = time.monotonic() + 20
    while (answer := two.call("GET", f"/api/v1/pulkas/{uid}/version", token=token,
                              headers={"If-None-Match": etag}))[0] == 304:
        assert time.monotonic() < deadline, "the other process did not learn of the write"
        time.sleep(0.05)
    status, version, _ = answer
    assert (status, version["version"], version["change"]) == (200, 2, {"what": "added", "deal": 4, "by": "anna"})
    assert two.call("GET", sheet, token=token)[1] == one.call("GET", sheet, token=token)[1]
    assert two.call("GET", sheet, token=token)[1]["deals"] == 4
    page = two.call("GET", f"/p/{uid}/history", token=token)[1]
    assert "C 6♥: A whist, B pass" in page
    # A share link made through one opens the pulka through the other, until revoked through the first.
    share = one.call("POST", f"/api/v1/pulkas/{uid}/shares", {"role": "viewer"}, token)[1]
    assert two.call("GET", sheet, token=share["token"])[0] == 200
    assert one.call("DELETE", f"/api/v1/pulkas/{uid}/shares/{share['id']}", token=token)[0] == 204
    assert two.call("GET", sheet, token=share["token"])[0] == 401


def _children(pid: int) -> set[int]:
    return {int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def test_serve_with_workers_keeps_them_running(servers):
    server = servers("--workers", "2")
    parent = server.process.pid
    workers = _children(parent)
    assert len(workers) == 2
    assert server.call("POST", "/api/v1/accounts", {"username": "anna", "password": "a long password"})[0] == 201
    for _ in range(20):  # the connections land on either process; every one answers
        assert server.call("GET", "/login")[0] == 200
    os.kill(min(workers), signal.SIGKILL)  # a worker dies: another takes its place
    deadline = time.monotonic() + 10
    while len(_children(parent) - {min(workers)}) < 2:
        assert time.monotonic() < deadline, "the worker was not replaced"
        time.sleep(0.1)
    assert server.call("POST", "/api/v1/tokens", {"username": "anna", "password": "a long password"})[0] == 201
    server.stop()
    assert all(not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
               for pid in workers)
