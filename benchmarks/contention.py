"""Contention benchmark (not a test): many phones writing deals on one pulka at once, each with the version
it saw, on the real server (waitress, SQLite, or DATABASE_URL's PostgreSQL in a schema of its own).

50 writers by default share 300 deals (6 each): each asks the version, sends a deal on it, and on 409
version_conflict asks again and retries, until each of its deals is acknowledged. Reports how long that took
(goal: within 60 s), the attempts and conflicts, and what a write attempt cost the server: CPU
seconds and statements sent to the database per attempt (a refused one is refused before anything is
read or replayed).

    .venv/bin/python benchmarks/contention.py [--writers 50] [--deals 300] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

from live import call, server_figures, serving

RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}


def send(base: str, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} | ({"Content-Type": "application/json"} if body else {})
    request = urllib.request.Request(base + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body else None)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--deals", type=int, default=300, help="deals in all, shared by the writers")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--limit", type=float, default=120, help="seconds before the writers give up")
    args = parser.parse_args()

    with serving(args.workers, {"SCOREKEEPER_MAX_DEALS": str(args.deals + 10)}) as (base, token, instance, kind):
        uid = call(base, "POST", "/api/v1/pulkas", {"players": ["A", "B", "C"],
                                                    "rules": {"preset": "sochi", "pulya_size": 1000}}, token)["id"]
        attempts, conflicts, acknowledged = [0], [0], [0]
        lock = threading.Lock()
        until = time.monotonic() + args.limit

        def writer(deals: int) -> None:
            while deals and time.monotonic() < until:
                version = send(base, "GET", f"/api/v1/pulkas/{uid}/version", token)[1]["version"]
                status, _ = send(base, "POST", f"/api/v1/pulkas/{uid}/deals", token,
                                 {"deal": RASPASY, "version": version})
                assert status in (201, 409), status
                deals -= status == 201
                with lock:
                    attempts[0] += 1
                    conflicts[0] += status == 409
                    acknowledged[0] += status == 201

        print(f"server: waitress, {args.workers} process(es), {kind}; {args.writers} writers, {args.deals} deals "
              f"on one pulka, each with the version it saw; {os.cpu_count()} CPUs shared with the load")
        start = time.monotonic()
        shares = [args.deals // args.writers + (i < args.deals % args.writers) for i in range(args.writers)]
        threads = [threading.Thread(target=writer, args=(share,)) for share in shares]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - start
        stored = send(base, "GET", f"/api/v1/pulkas/{uid}", token)[1]["deals"]
    writes = server_figures(instance)["deal"]
    done = writes["count"] or 1
    print(f"\n{acknowledged[0]} of {args.deals} deals acknowledged in {took:.1f} s (goal: all within 60 s); "
          f"{stored} stored")
    print(f"  attempts {attempts[0]}, refused as stale {conflicts[0]}")
    print(f"  per write attempt: CPU {writes['cpu'] / done * 1000:.2f} ms, statements {writes['statements'] / done:.2f}")
    met = acknowledged[0] == args.deals == stored and took < 60
    print(f"\ngoals {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
