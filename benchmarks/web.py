"""Web benchmark (not a test): the real server (waitress) with a 100-deal pulka.

Measures, against one server process:
  - latency (median, p95) of the sheet page, and of entering a deal (the deal form's POST, as a phone
    sends it, and the JSON API's POST), one client after another;
  - requests per second of the sheet page with 16 concurrent clients, next to a minimal Flask route
    served by the same server in the same run, and their ratio;
  - the sheet page of long pulkas (1,000 and 5,000 deals) just imported: its first request (everything
    drawn and rendered) and a cached one.
Goals (the issues): sheet p95 < 50 ms, deal entry p95 < 100 ms, sheet throughput >= 1/4 of the minimal route's,
the first sheet page of a 1,000-deal pulka in under 0.3 s.

    .venv/bin/python benchmarks/web.py [--requests 300] [--seconds 5] [--clients 16]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

from generate import long_pulka

from scorekeeper.engine import Contract, Deal, DealType, Rules, Strain, Word, replay
from scorekeeper.engine.deals import defenders
from scorekeeper.files.pulyafile import PulkaFile, dumps

PLAYERS = ("Anna", "Boris", "Vera")


def pulka_file(deals: int = 100) -> str:
    """A valid Sochi pulka of `deals` deals that is not finished: games made and failed, whists, raspasy, misère."""
    rules = Rules.of("sochi", pulya_size=500, whist_price=0.5)
    made: list[Deal] = []
    sheet = replay(rules, 3, made).sheet
    for i in range(deals):
        active = sheet.active
        declarer = active[i % 3]
        first, second = defenders(active, declarer)
        level = max(6 + i % 3, sheet.least_level(rules))
        contract = Contract(level, list(Strain)[i % 5])
        kind = i % 7
        if kind == 3:
            deal = Deal(DealType.RASPASY, tricks={active[0]: 2, active[1]: 3, active[2]: 5})
        elif kind == 5:
            deal = Deal(DealType.MISERE, declarer, tricks={declarer: i % 2})
        elif kind == 6:
            deal = Deal(DealType.GAME, declarer, contract, {first: Word.PASS, second: Word.PASS})
        else:
            taken = level - (kind == 4)
            deal = Deal(DealType.GAME, declarer, contract, {first: Word.WHIST, second: Word.PASS if kind else Word.WHIST},
                        {declarer: taken, first: 10 - taken - 1, second: 1})
        made.append(deal)
        sheet = replay(rules, 3, made).sheet
    return dumps(PulkaFile(PLAYERS, rules, tuple(made)))


# -- the server --------------------------------------------------------------------------------


def serve(port: int) -> None:
    """Run in the child process: the app as `scorekeeper serve` runs it, plus the minimal route."""
    import logging

    from scorekeeper.web import create_app, serve as waitress_serve
    from scorekeeper.web.edge.access import Need, needs

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # 16 clients queue up by design
    app = create_app()
    # every route passes the access check: this one is open to all
    app.add_url_rule("/_minimal", "minimal", needs(Need.ANYONE)(lambda: "ok"))
    waitress_serve(app, "127.0.0.1", port)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive connection with a cookie, like one phone, signed in by the benchmark's API token."""

    bearer = ""  # set once the benchmark's account has its token

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str = "") -> tuple[int, bytes]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if self.bearer:
            headers["Authorization"] = f"Bearer {self.bearer}"
        if content_type:
            headers["Content-Type"] = content_type
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        if cookie := response.getheader("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data

    def timed(self, method: str, path: str, body: bytes | None = None, content_type: str = "",
              expect: int = 200) -> float:
        start = time.perf_counter()
        status, data = self.request(method, path, body, content_type)
        elapsed = time.perf_counter() - start
        if status != expect:
            raise SystemExit(f"{method} {path}: {status} {data[:300]!r}")
        return elapsed * 1000


def summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[max(0, int(round(0.95 * len(times))) - 1)]
    return f"median {statistics.median(times):6.2f} ms   p95 {p95:6.2f} ms   (n={len(times)})"


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, int(round(0.95 * len(times))) - 1)]


def hammer(args: tuple[int, str, float]) -> int:
    """One concurrent client: as many GETs of `path` as it can in `seconds`."""
    port, path, seconds = args
    client = Client(port)
    done = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        status, _ = client.request("GET", path)
        if status != 200:
            raise SystemExit(f"GET {path}: {status}")
        done += 1
    return done


def throughput(port: int, path: str, clients: int, seconds: float) -> float:
    with multiprocessing.Pool(clients) as pool:
        start = time.perf_counter()
        counts = pool.map(hammer, [(port, path, seconds)] * clients)
        elapsed = time.perf_counter() - start
    return sum(counts) / max(elapsed, seconds)


def uncached_sheet(env: dict[str, str], pid: str, requests: int) -> list[float]:
    """The sheet page from a second server on the same database with the whole-page cache off
    (FLASK_PAGE_CACHE=false): what every request would cost if each one rendered the template."""
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], env=env | {"FLASK_PAGE_CACHE": "false"})
    try:
        client = wait_for(port)
        for _ in range(20):
            client.request("GET", f"/p/{pid}")
        return [client.timed("GET", f"/p/{pid}") for _ in range(requests)]
    finally:
        server.terminate()
        server.wait(10)


def sign_in(client: Client) -> None:
    """The server's first account, and its API token for every client of the benchmark."""
    account = json.dumps({"username": "bench", "password": "a benchmark password"}).encode()
    assert client.request("POST", "/api/v1/accounts", account, "application/json")[0] == 201
    Client.bearer = json.loads(client.request("POST", "/api/v1/tokens", account, "application/json")[1])["token"]


def wait_for(port: int) -> Client:
    for _ in range(100):
        client = Client(port)
        try:
            client.request("GET", "/_minimal")
            return client
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the server on port {port} did not start")


def long_sheet(client: Client, deals: int) -> tuple[float, float]:
    """Seconds of the first request of a just imported long pulka's sheet page, and the median of cached ones."""
    status, data = client.request("POST", "/api/v1/import", dumps(long_pulka(deals=deals)).encode(), "application/json")
    assert status == 201, data
    path = f"/p/{json.loads(data)['id']}"
    first = client.timed("GET", path)
    return first / 1000, statistics.median(client.timed("GET", path) for _ in range(20)) / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="sequential requests per latency figure")
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of each throughput run")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients for throughput")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0

    instance = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)} | {"SCOREKEEPER_INSTANCE": instance,
                                                                                    "SCOREKEEPER_MAX_DEALS": "5000"}
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)], env=env)
    try:
        client = wait_for(port)
        sign_in(client)
        status, data = client.request("POST", "/api/v1/import", pulka_file(100).encode(), "application/json")
        assert status == 201, data
        pulka = json.loads(data)
        pid = pulka["id"]
        print(f"server: waitress, SQLite in {instance}; pulka {pid} with {pulka['deals']} deals; "
              f"{os.cpu_count()} CPUs")

        for _ in range(20):  # warm up: imports, template compilation, the replay cache
            client.request("GET", f"/p/{pid}")
            client.request("GET", "/_minimal")
        minimal = [client.timed("GET", "/_minimal") for _ in range(args.requests)]
        sheet = [client.timed("GET", f"/p/{pid}") for _ in range(args.requests)]
        sheet_api = [client.timed("GET", f"/api/v1/pulkas/{pid}/sheet") for _ in range(args.requests)]
        sheet_uncached = uncached_sheet(env, pid, args.requests)

        # Entering a deal through the form, as a phone does (CSRF token from the page), then undoing it
        # (not timed) so every entry is deal 101 on a 100-deal pulka.
        page = client.request("GET", f"/p/{pid}/deal")[1].decode()
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
        active = [int(s) for s in re.findall(r'class="tricks-row" data-seat="(\d)"', page)]
        declarer, first, second = active[0], active[1], active[2]
        fields = {"csrf_token": token, "type": "game", "declarer": declarer, "level": 7, "strain": "H",
                  f"w{first}": "whist", f"w{second}": "pass", "open": "closed", f"t{declarer}": 7, f"t{first}": 2,
                  "action": "save"}
        form = urllib.parse.urlencode(fields).encode()
        api_deal = json.dumps({"type": "game", "declarer": PLAYERS[declarer], "contract": "7H",
                               "whist": {PLAYERS[first]: "whist", PLAYERS[second]: "pass"},
                               "tricks": {PLAYERS[declarer]: 7, PLAYERS[first]: 2, PLAYERS[second]: 1}}).encode()
        entry_form, entry_api = [], []
        for _ in range(args.requests):
            entry_form.append(client.timed("POST", f"/p/{pid}/deal", form, "application/x-www-form-urlencoded", 302))
            client.timed("POST", f"/api/v1/pulkas/{pid}/undo", b"{}", "application/json")
            entry_api.append(client.timed("POST", f"/api/v1/pulkas/{pid}/deals", api_deal, "application/json", 201))
            client.timed("POST", f"/api/v1/pulkas/{pid}/undo", b"{}", "application/json")
        long_sheets = {deals: long_sheet(client, deals) for deals in (1000, 5000)}

        print("\nlatency, one client:")
        print(f"  minimal route           {summary(minimal)}")
        print(f"  sheet page              {summary(sheet)}")
        print(f"  sheet page, rendered    {summary(sheet_uncached)}   (without the page cache: why it stays)")
        print(f"  sheet (API)             {summary(sheet_api)}")
        print(f"  enter a deal (form)     {summary(entry_form)}")
        print(f"  enter a deal (API)      {summary(entry_api)}")
        for deals, (first, cached) in long_sheets.items():
            print(f"  {deals:,}-deal sheet page   first {first:6.3f} s   cached {cached * 1000:6.2f} ms")

        print(f"\nthroughput, {args.clients} concurrent clients, {args.seconds:g} s each:")
        rps_minimal = throughput(port, "/_minimal", args.clients, args.seconds)
        rps_sheet = throughput(port, f"/p/{pid}", args.clients, args.seconds)
        ratio = rps_sheet / rps_minimal
        print(f"  minimal route           {rps_minimal:8.1f} req/s")
        print(f"  sheet page              {rps_sheet:8.1f} req/s")
        print(f"  ratio sheet / minimal   {ratio:8.2f}")

        goals = [("sheet page p95 < 50 ms", p95(sheet) < 50),
                 ("deal entry p95 < 100 ms", max(p95(entry_form), p95(entry_api)) < 100),
                 ("sheet throughput >= 1/4 of minimal", ratio >= 0.25),
                 ("1,000-deal sheet page, first request < 0.3 s", long_sheets[1000][0] < 0.3)]
        print("\ngoals:")
        for goal, met in goals:
            print(f"  {'met ' if met else 'MISSED'}  {goal}")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
