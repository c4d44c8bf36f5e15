"""Live sheet benchmark (not a test): many tables, every phone watching, on the real server.

200 tables × 4 phones by default, on one server (waitress, SQLite, or DATABASE_URL): every phone polls
its pulka's version every 2 s over one kept connection, as static/js/live.js does, and fetches the sheet
page when it changed; every table adds a deal every 20 s through a scorer link. Reports
the delay from a deal's acknowledgment until all four phones of its table have fetched the sheet
that shows it (p95; goal under 3 s), and the latency of the deal writes meanwhile (p95; goal under
100 ms). The load generator runs on the same 2-core machine as the server, so its own cost is in
the figures. Each phone says the version it shows (`?since=`), as static/js/live.js does. The server's
processes report what their version checks cost (SCOREKEEPER_STATS): CPU seconds per 1,000 checks, and
statements sent to the database per check (the access check's included); on SQLite also the readings of
its change counter; and for the deal writes the same, with how long each took in the server (beside the
caller's wait, which adds the sockets, waitress's queue and the load generator's own turn). With DATABASE_URL naming PostgreSQL, the run gets a schema of its own, dropped after.

    .venv/bin/python benchmarks/live.py [--tables 200] [--phones 4] [--seconds 60] [--workers 1] [--every 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

POLL_EVERY = 2.0  # seconds, as static/js/live.js (LIVE_EVERY_MS)
DEAL_EVERY = 20.0
RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, method: str, path: str, body=None, token: str = ""):
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(base + path, method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class Connection:
    """One keep-alive HTTP/1.1 connection, as a phone's browser holds one."""

    def __init__(self, port: int, token: str):
        self.port, self.token = port, token
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None
                      ) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Authorization: Bearer {self.token}",
                 f"Content-Length: {len(body)}"]
        if body:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length) if length else b""


async def phone(port: int, uid: str, token: str, until: float, seen: dict[int, list[float]]) -> None:
    connection = Connection(port, token)
    version = 1
    await asyncio.sleep(random.uniform(0, POLL_EVERY))
    while time.monotonic() < until:
        status, body = await connection.request("GET", f"/api/v1/pulkas/{uid}/version?since={version}")
        if status == 200 and json.loads(body)["version"] != version:
            # Like the page: fetch the sheet that shows the change, then count its deals as seen.
            assert (await connection.request("GET", f"/p/{uid}"))[0] == 200
            now = time.monotonic()
            new = json.loads(body)["version"]
            for deal_version in range(version + 1, new + 1):
                seen.setdefault(deal_version, []).append(now)
            version = new
        await asyncio.sleep(POLL_EVERY)


async def table(port: int, uid: str, scorer: str, until: float, acknowledged: dict[int, float],
                writes: list[float], every: float) -> None:
    connection = Connection(port, scorer)
    body = json.dumps(RASPASY).encode()
    await asyncio.sleep(random.uniform(0, every))
    version = 1
    while time.monotonic() < until - 5:  # the last deals still have time to be seen
        start = time.monotonic()
        status, _ = await connection.request("POST", f"/api/v1/pulkas/{uid}/deals", body)
        done = time.monotonic()
        assert status == 201, status
        writes.append(done - start)
        version += 1
        acknowledged[version] = done
        await asyncio.sleep(every - (done - start))


async def run(port: int, tables: list[tuple[str, str, str]], phones: int, seconds: float, every: float):
    until = time.monotonic() + seconds
    acknowledged = {uid: {} for uid, _, _ in tables}
    seen = {uid: {} for uid, _, _ in tables}
    writes: list[float] = []
    tasks = [table(port, uid, scorer, until, acknowledged[uid], writes, every) for uid, _, scorer in tables]
    tasks += [phone(port, uid, viewer, until, seen[uid]) for uid, viewer, _ in tables for _ in range(phones)]
    await asyncio.gather(*tasks)
    delays = [max(seen[uid][version]) - at for uid, _, _ in tables for version, at in acknowledged[uid].items()
              if len(seen[uid].get(version, ())) == phones]
    missed = sum(len(acknowledged[uid]) for uid, _, _ in tables) - len(delays)
    return delays, missed, writes


def server_figures(instance: str) -> dict:
    """What the server's processes counted (SCOREKEEPER_STATS), summed over them."""
    found = [json.loads(open(os.path.join(instance, name)).read()) for name in os.listdir(instance)
             if name.startswith("stats.")]
    summed: dict = {"processes": len(found), "counter_readings": sum(f["counter_readings"] for f in found)}
    for kind in ("version", "deal"):
        summed[kind] = {key: sum(f[kind][key] for f in found) for key in ("count", "cpu", "statements")}
        summed[kind]["walls"] = [wall for f in found for wall in f[kind].get("walls", ())]
    return summed


def own_database(url: str | None) -> tuple[dict[str, str], object]:
    """With a PostgreSQL DATABASE_URL, a schema of its own for this run, and how to drop it after; else
    (SQLite in the instance folder) nothing."""
    if not url or not url.startswith("postgres"):
        return {}, lambda: None
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"bench_{os.getpid()}_{random.randrange(10**6)}"
    admin = create_engine(url)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    own = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    return {"DATABASE_URL": own}, drop


@contextmanager
def serving(workers: int, env: dict[str, str] | None = None) -> Iterator[tuple[str, str, str, str]]:
    """`scorekeeper serve` on a free port of 127.0.0.1 with an instance folder (and, on a PostgreSQL
    DATABASE_URL, a schema) of its own and an account signed up: (base address, the account's token, the
    instance folder, the database's name). Stopped after, its schema dropped; the processes' counts
    (SCOREKEEPER_STATS) stay in the instance folder."""
    instance = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    port = free_port()
    database, drop = own_database(os.environ.get("DATABASE_URL"))
    env = os.environ | {"SCOREKEEPER_INSTANCE": instance, "SCOREKEEPER_STATS": os.path.join(instance, "stats")} \
        | (env or {}) | database
    server = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port),
                               "--workers", str(workers)], env=env, stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(instance, "server.log"), "w"))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/login", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        credentials = {"username": "club", "password": "a long password"}
        call(base, "POST", "/api/v1/accounts", credentials)
        token = call(base, "POST", "/api/v1/tokens", credentials)["token"]
        yield base, token, instance, "PostgreSQL" if database else "SQLite"
    finally:
        server.terminate()
        server.wait(15)
        drop()


def server_cpu() -> float:
    """The CPU seconds the server's processes (this script's children, and theirs) have used so far: waitress and
    everything else they do beside the version checks and deal writes that SCOREKEEPER_STATS counts (Linux)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    pending = [os.getpid()]
    while pending:
        pid = pending.pop()
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as children:
                    pending += map(int, children.read().split())
            if pid != os.getpid():
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
        except OSError:  # gone meanwhile
            pass
    return total / tick


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else (values or [0])[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--phones", type=int, default=4, help="watching phones per table")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--every", type=float, default=DEAL_EVERY, help="seconds between a table's deals")
    args = parser.parse_args()

    with serving(args.workers) as (base, token, instance, kind):
        port = int(base.rsplit(":", 1)[1])
        tables = []
        for _ in range(args.tables):
            uid = call(base, "POST", "/api/v1/pulkas", {"players": ["A", "B", "C"],
                                                        "rules": {"preset": "sochi", "pulya_size": 1000}}, token)["id"]
            viewer = call(base, "POST", f"/api/v1/pulkas/{uid}/shares", {"role": "viewer"}, token)["token"]
            scorer = call(base, "POST", f"/api/v1/pulkas/{uid}/shares", {"role": "scorer"}, token)["token"]
            tables.append((uid, viewer, scorer))
        print(f"server: waitress, {args.workers} process(es), {kind}; {args.tables} tables × {args.phones} "
              f"phones polling every {POLL_EVERY:g} s; a deal per table every {args.every:g} s; "
              f"{args.seconds:g} s; {os.cpu_count()} CPUs shared with the load")
        used = server_cpu()
        delays, missed, writes = asyncio.run(run(port, tables, args.phones, args.seconds, args.every))
        used = server_cpu() - used
        polls = args.tables * args.phones / POLL_EVERY
        print(f"\nabout {polls:.0f} version checks/s, {args.tables / args.every:.1f} deals/s")
        print(f"deals seen by every phone: {len(delays)} (not seen in time: {missed})")
        print(f"  delay until every phone shows a deal  median {statistics.median(delays):.2f} s   "
              f"p95 {p95(delays):.2f} s   max {max(delays):.2f} s   (goal: p95 < 3 s)")
        print(f"  deal writes meanwhile                 median {statistics.median(writes) * 1000:.1f} ms   "
              f"p95 {p95(writes) * 1000:.1f} ms   (goal: p95 < 100 ms)")
        print(f"  the server's processes used {used:.1f} s of CPU in the {args.seconds:g} s "
              f"({used / args.seconds * 100:.0f}% of one core)")
        met = p95(delays) < 3 and p95(writes) < 0.1 and not missed
    figures = server_figures(instance)
    checks = figures["version"]
    done = checks["count"] or 1
    print(f"  version checks answered: {checks['count']} by {figures['processes']} process(es); CPU "
          f"{checks['cpu'] / done * 1000:.2f} s per 1,000; statements per check {checks['statements'] / done:.3f}; "
          f"change-counter readings per check {figures['counter_readings'] / done:.3f}")
    deals = figures["deal"]
    written = deals["count"] or 1
    print(f"  deal writes answered: {deals['count']}; CPU {deals['cpu'] / written * 1000:.2f} ms and "
          f"{deals['statements'] / written:.1f} statements per write; in the server median "
          f"{statistics.median(deals['walls'] or [0]) * 1000:.1f} ms, p95 {p95(deals['walls']) * 1000:.1f} ms")
    print(f"\ngoals {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
