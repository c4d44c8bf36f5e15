"""Club load benchmark (not a test): one account's load beside another account's, on the real server (issue 29).

An ATTACKER account holds a big club, built in bulk rather than over HTTP: --pulkas finished pulkas of 4 players
of their own each (1,000: about 4,000 players with open balances and 3,000 obligations), then --payments payments
written into the database directly (12,000: a ledger of about 15,000 rows, a quarter of them paid on an
obligation). A VICTIM account plays a pulka of its own: its sheet page is asked for every 50 ms (each request
timed from when it was due, so that a stall counts for every request it delays) while a deal is added every
0.5 s. Each scenario measures the victim alone for a few seconds, then beside the attacker for --seconds, and
prints both side by side:

  a  the attacker runs --readers (20) parallel loops of GET /api/v1/ledger?cash=10: the settle-up in tens
  b  the attacker records payments from --payers (2) threads on his 15,000-row ledger: each payment's time
  c  the attacker's ledger page (/ledger, /ledger?all=1) and GET /api/v1/ledger, each first after a payment
     (nothing kept for the new rows yet) and then again: time and bytes
  d  the attacker's /players with his ~4,000 players, first and again: time and bytes
  e  --anonymous (6) clients without an account loop POST /paper/pdf while the victim asks for his own pulka's
     PDF after each deal: how many times he is told 503

Goals (issue 29, on a 2-core machine): the victim's sheet p95 < 50 ms under (a) and (b); a payment < 50 ms;
the ledger page < 100 ms and < 300 KB; /players < 150 ms; the owner's PDF never 503.

It uses only addresses the app answered before issue 29's work (f5af7ff), so that the same script gives the
"before" figures on an older tree. The attacker's calls still running when a scenario's time is up are waited
for (up to --grace seconds) before the next one starts. SQLite in a new instance folder by default; --url (or
DATABASE_URL) naming PostgreSQL gives the run a schema of its own there, dropped after. The load generator
shares the machine with the server, so its own cost is in the figures.

    .venv/bin/python benchmarks/club_load.py [--scenarios abcde] [--seconds 20] [--pulkas 1000]
        [--payments 12000] [--readers 20] [--payers 2] [--anonymous 6] [--workers 1] [--url URL]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.generate import long_pulka  # noqa: E402
from benchmarks.live import free_port, own_database  # noqa: E402

RASPASY = json.dumps({"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}).encode()
SHEET_EVERY = 0.05  # s between the victim's sheet requests
DEAL_EVERY = 0.5  # s between the victim's deals
PAPER = {"player_0": "Аня", "player_1": "Борис", "player_2": "Вера", "preset": "sochi", "whist_price": "1",
         "currency": "₽", "pulya_0": "20", "pulya_1": "14", "pulya_2": "20", "gora_0": "42", "gora_1": "96",
         "gora_2": "132", "whists_0_1": "170", "whists_0_2": "60", "whists_1_0": "64", "whists_1_2": "178",
         "whists_2_0": "88", "whists_2_1": "95"}


class Http:
    """One keep-alive connection, with a bearer token or the cookie the server set."""

    def __init__(self, port: int, token: str = "", timeout: float = 300):
        self.port, self.token, self.timeout = port, token, timeout
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.cookies: dict[str, str] = {}
        self.csrf = ""  # a form's CSRF token, for a client without a token

    def request(self, method: str, path: str, body: bytes | None = None, kind: str = "application/json"
                ) -> tuple[int, bytes, float]:
        """(status, body, seconds)."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = kind
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):  # the server closed a kept connection: once more
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
        for cookie in response.msg.get_all("Set-Cookie") or ():
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        return response.status, data, time.perf_counter() - start

    def json(self, method: str, path: str, body: object = None, expect: int = 200) -> object:
        status, data, _ = self.request(method, path, None if body is None else json.dumps(body).encode())
        if status != expect:
            raise SystemExit(f"{method} {path}: {status} {data[:300]!r}")
        return json.loads(data)


def account(port: int, name: str) -> str:
    """A new account's API token."""
    credentials = {"username": name, "password": "a long benchmark password"}
    client = Http(port)
    client.json("POST", "/api/v1/accounts", credentials, expect=201)
    return str(client.json("POST", "/api/v1/tokens", credentials, expect=201)["token"])


@contextmanager
def serving(url: str | None, workers: int) -> Iterator[tuple[int, str, str]]:
    """`scorekeeper serve` on a free port with an instance folder (and on PostgreSQL a schema) of its own: (port,
    its database URL, which database)."""
    instance = tempfile.mkdtemp(prefix="scorekeeper-club-")
    database, drop = own_database(url)
    database_url = database.get("DATABASE_URL") or f"sqlite:///{instance}/club.sqlite"
    port = free_port()
    env = os.environ | {"SCOREKEEPER_INSTANCE": instance, "DATABASE_URL": database_url,
                        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with open(os.path.join(instance, "server.log"), "w") as log:
        server = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port),
                                   "--workers", str(workers)], env=env, stdout=subprocess.DEVNULL, stderr=log,
                                  cwd=ROOT)
        try:
            for _ in range(150):
                try:
                    Http(port, timeout=2).request("GET", "/login")
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                raise SystemExit(f"the server did not start: see {instance}/server.log")
            yield port, database_url, "PostgreSQL" if database else "SQLite"
        finally:
            server.terminate()
            server.wait(30)
            drop()


# ---- the attacker's club, in bulk ---------------------------------------------------------------------------


def build_club(database_url: str, pulkas: int) -> tuple[object, int]:
    """The attacker's finished pulkas, each of 4 players of its own, through the app's services in this process
    (minutes of HTTP calls otherwise): the store and the attacker's account id."""
    from scorekeeper.web import create_app
    from scorekeeper.web.domain.pulkas import Settings
    from scorekeeper.web.services import pulkas as pulka_service

    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": database_url},
                     instance_path=tempfile.mkdtemp(prefix="scorekeeper-club-builder-"))
    store = app.extensions["scorekeeper"]
    owner = store.accounts.account(username="attacker").id
    for number in range(pulkas):
        file = long_pulka(4, 4, "sochi", seed=number)
        names = tuple(f"Игрок {number + 1}{seat}" for seat in "ABCD")
        settings = Settings(f"Вечер {number + 1}", "₽", names, file.first_dealer, file.rules)
        pulka_service.create_pulka(store.pulkas, owner, settings, file.deals, closed_by="attacker")
    return store, owner


def add_payments(store: object, owner: int, obligations: list[dict], count: int, rng: random.Random) -> None:
    """`count` payments in the attacker's ledger, written as rows (a quarter of them on an obligation, from its
    debtor to its creditor); his count of ledger writes moved on, so that the server reads them."""
    from sqlalchemy import insert, select, update

    from scorekeeper.web.store.models import AccountRow, PaymentRow, PlayerRow, now

    with store.db.engine.begin() as connection:
        ids = dict(connection.execute(select(PlayerRow.uid, PlayerRow.id).where(PlayerRow.owner_id == owner)).all())
        players = sorted(ids.values())
        rows = []
        for i in range(count):
            if obligations and i % 4 == 0:
                o = rng.choice(obligations)
                payer, payee, on = ids[o["from"]], ids[o["to"]], o["id"]
            else:
                payer, payee = rng.sample(players, 2)
                on = None
            rows.append({"uid": secrets.token_urlsafe(9), "owner_id": owner, "payer_id": payer, "payee_id": payee,
                         "cents": rng.randint(1, 5000), "currency": "₽", "obligation": on, "kind": "payment",
                         "note": "", "by": "attacker", "at": now()})
        for start in range(0, len(rows), 1000):
            connection.execute(insert(PaymentRow), rows[start:start + 1000])
        connection.execute(update(AccountRow).where(AccountRow.id == owner)
                           .values(ledger_writes=AccountRow.ledger_writes + 1))


# ---- figures -------------------------------------------------------------------------------------------------


def ms(times: list[float]) -> str:
    """p50 / p95 / max in ms."""
    if not times:
        return "no samples"
    ordered = sorted(times)
    p95 = ordered[max(0, int(round(0.95 * len(ordered))) - 1)]
    return f"p50 {statistics.median(ordered) * 1000:6.0f}  p95 {p95 * 1000:6.0f}  max {ordered[-1] * 1000:6.0f} ms"


def p95(times: list[float]) -> float:
    ordered = sorted(times) or [0.0]
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def goal(label: str, met: bool) -> str:
    return f"    goal: {label}: {'met' if met else 'NOT met'}"


# ---- the victim ----------------------------------------------------------------------------------------------


class Victim:
    """The other account, at its own table: its sheet page every SHEET_EVERY s, a deal every DEAL_EVERY s."""

    def __init__(self, port: int, token: str):
        self.port, self.token = port, token

    def new_pulka(self) -> str:
        body = {"players": ["A", "B", "C"], "rules": {"preset": "sochi", "pulya_size": 1000}}
        return str(Http(self.port, self.token).json("POST", "/api/v1/pulkas", body, expect=201)["id"])

    def watch(self, uid: str, until: float) -> tuple[list[float], list[float], int]:
        """(sheet times, each from when it was due; deal times; answers that were not 200/201) until `until`."""
        sheets: list[float] = []
        deals: list[float] = []
        failed = [0]

        def sheet() -> None:
            client, start = Http(self.port, self.token), time.perf_counter()
            while time.perf_counter() < until:
                due = start + SHEET_EVERY * len(sheets)
                time.sleep(max(0.0, due - time.perf_counter()))
                status, _, _ = client.request("GET", f"/p/{uid}")
                failed[0] += status != 200
                sheets.append(time.perf_counter() - due)

        def deal() -> None:
            client = Http(self.port, self.token)
            while time.perf_counter() < until:
                status, _, took = client.request("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY)
                failed[0] += status != 201
                deals.append(took)
                time.sleep(max(0.0, DEAL_EVERY - took))

        threads = [threading.Thread(target=sheet), threading.Thread(target=deal)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sheets, deals, failed[0]


class Load:
    """Threads that loop `call(client)` until the scenario's time is up, each with its own connection: every
    call's (status, seconds)."""

    def __init__(self, port: int, token: str, threads: int, call: Callable[[Http], tuple[int, float]]):
        self.answers: list[tuple[int, float]] = []
        self.threads = [threading.Thread(target=self._loop, args=(port, token, call), daemon=True)
                        for _ in range(threads)]
        self.until = 0.0

    def _loop(self, port: int, token: str, call: Callable[[Http], tuple[int, float]]) -> None:
        client = Http(port, token)
        while time.perf_counter() < self.until:
            self.answers.append(call(client))

    def start(self, until: float) -> None:
        self.until = until
        for thread in self.threads:
            thread.start()

    def wait(self, grace: float) -> bool:
        """Whether every call ended within `grace` s of the scenario's end."""
        end = self.until + grace
        for thread in self.threads:
            thread.join(max(0.0, end - time.perf_counter()))
        return not any(thread.is_alive() for thread in self.threads)

    def summary(self) -> str:
        times = [t for status, t in self.answers if status < 300]
        others: dict[int, int] = {}
        for status, _ in self.answers:
            if status >= 300:
                others[status] = others.get(status, 0) + 1
        refused = ", ".join(f"{n} × {status}" for status, n in sorted(others.items())) or "none refused"
        return f"{len(times)} answered, {ms(times)}; {refused}"


def beside(victim: Victim, seconds: float, idle: float, load: Load | None, grace: float, title: str
           ) -> tuple[list[float], list[float]]:
    """The victim alone for `idle` s, then beside `load` for `seconds`; printed side by side. The victim's sheet
    and deal times under load."""
    uid = victim.new_pulka()
    alone = victim.watch(uid, time.perf_counter() + idle)
    until = time.perf_counter() + seconds
    if load is not None:
        load.start(until)
    loaded = victim.watch(uid, until)
    finished = load.wait(grace) if load is not None else True
    print(f"\n{title}")
    for label, (sheets, deals, failed) in (("victim alone", alone), ("victim beside it", loaded)):
        print(f"  {label:<18} sheet {ms(sheets)}   deals {ms(deals)}"
              + (f"   ({failed} not answered 200/201)" if failed else ""))
    if load is not None:
        print(f"  {'attacker':<18} {load.summary()}" + ("" if finished else f" (calls still running {grace:g} s "
                                                                             "after the end)"))
    return loaded[0], loaded[1]


# ---- the scenarios -------------------------------------------------------------------------------------------


def settle_ups(port: int, token: str, readers: int) -> Load:
    def call(client: Http) -> tuple[int, float]:
        status, _, took = client.request("GET", "/api/v1/ledger?cash=10")
        return status, took
    return Load(port, token, readers, call)


def payments(port: int, token: str, payers: int, players: list[str], rng: random.Random) -> Load:
    def call(client: Http) -> tuple[int, float]:
        payer, payee = rng.sample(players, 2)
        body = {"from": payer, "to": payee, "amount": f"{rng.randint(1, 500)}.00", "currency": "₽"}
        status, _, took = client.request("POST", "/api/v1/ledger/payments", json.dumps(body).encode())
        return status, took
    return Load(port, token, payers, call)


def sized(client: Http, path: str, before: Callable[[], None] | None, repeat: int = 3) -> tuple[float, float, int]:
    """(seconds of the first request, after `before`; median seconds of `repeat` more; bytes)."""
    if before is not None:
        before()
    status, data, first = client.request("GET", path)
    if status != 200:
        raise SystemExit(f"GET {path}: {status}")
    again = [client.request("GET", path)[2] for _ in range(repeat)]
    return first, statistics.median(again), len(data)


def pdf_flood(port: int, victim: Victim, anonymous: int, seconds: float, grace: float) -> tuple[int, int]:
    """(the owner's PDF requests, how many were told 503) while `anonymous` clients loop POST /paper/pdf."""
    form = urllib.parse.urlencode(PAPER).encode()
    uid = victim.new_pulka()
    owner = Http(port, victim.token)
    for _ in range(3):
        owner.request("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY)

    def paper(client: Http) -> tuple[int, float]:
        if not client.csrf:  # a browser: the form first, for its session and CSRF token
            _, page, _ = client.request("GET", "/paper")
            found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
            if found is None:
                raise SystemExit("the paper form has no CSRF token")
            client.csrf = found[1].decode()
        body = form + b"&csrf_token=" + urllib.parse.quote(client.csrf).encode()
        status, _, took = client.request("POST", "/paper/pdf", body, "application/x-www-form-urlencoded")
        return status, took

    load = Load(port, "", anonymous, paper)
    until = time.perf_counter() + seconds
    load.start(until)
    tries, refused, times = 0, 0, []
    time.sleep(min(1.0, seconds / 4))  # the flood under way first
    while time.perf_counter() < until:
        owner.request("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY)  # a new version: its PDF made anew
        status, data, took = owner.request("GET", f"/p/{uid}/pulka.pdf")
        tries += 1
        refused += status == 503
        if status == 200:
            times.append(took)
        elif status != 503:
            raise SystemExit(f"the owner's PDF: {status} {data[:200]!r}")
        time.sleep(DEAL_EVERY)
    finished = load.wait(grace)
    print(f"\n(e) {anonymous} anonymous clients loop POST /paper/pdf; the owner asks for his own pulka's PDF "
          f"after each deal, {seconds:g} s")
    print(f"  {'owner':<18} {tries} asked, {refused} told 503; the others {ms(times)}")
    print(f"  {'anonymous':<18} {load.summary()}" + ("" if finished else " (still running after the grace)"))
    print(goal("the owner's PDF never 503", refused == 0))
    return tries, refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", default="abcde", help="which of a b c d e to run (default all)")
    parser.add_argument("--seconds", type=float, default=20, help="each scenario's load lasts this long")
    parser.add_argument("--idle", type=float, default=4, help="the victim alone before each scenario, seconds")
    parser.add_argument("--grace", type=float, default=120, help="waiting for the attacker's last calls, seconds")
    parser.add_argument("--pulkas", type=int, default=1000, help="the attacker's finished pulkas of 4 players")
    parser.add_argument("--payments", type=int, default=12000, help="payments added to his ledger for b and c")
    parser.add_argument("--readers", type=int, default=20, help="parallel settle-ups in a")
    parser.add_argument("--payers", type=int, default=2, help="threads of payments in b")
    parser.add_argument("--anonymous", type=int, default=6, help="anonymous PDF clients in e")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--url", default=os.environ.get("DATABASE_URL"),
                        help="a PostgreSQL URL (default: DATABASE_URL, else SQLite)")
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    chosen = set(args.scenarios) & set("abcde")
    rng = random.Random(args.seed)
    idle = min(args.idle, args.seconds)

    with serving(args.url, args.workers) as (port, database_url, kind):
        victim = Victim(port, account(port, "victim"))
        attacker = account(port, "attacker")
        mine = Http(port, attacker)
        started = time.perf_counter()
        store, owner = build_club(database_url, args.pulkas)
        built = time.perf_counter() - started
        print(f"server: waitress, {args.workers} process(es), {kind}; {os.cpu_count()} CPUs shared with the load")
        print(f"attacker: {args.pulkas} finished pulkas of 4 players built in {built:.0f} s")
        goals: list[bool] = []

        if "a" in chosen:
            sheets, _ = beside(victim, args.seconds, idle, settle_ups(port, attacker, args.readers), args.grace,
                               f"(a) {args.readers} parallel GET /api/v1/ledger?cash=10 by the attacker, "
                               f"{args.seconds:g} s")
            goals.append(p95(sheets) < 0.05)
            print(goal("victim sheet p95 < 50 ms", goals[-1]))

        if chosen & set("bc"):
            book = mine.json("GET", "/api/v1/ledger?currency=%E2%82%BD")
            add_payments(store, owner, book["obligations"], args.payments, rng)
            book = mine.json("GET", "/api/v1/ledger?currency=%E2%82%BD")
            print(f"\nattacker's ledger: {len(book['obligations'])} obligations, {len(book['payments'])} payments, "
                  f"{len(book['balances'])} players with a row")
            players = sorted(p["id"] for p in book["players"])

        if "b" in chosen:
            load = payments(port, attacker, args.payers, players, rng)
            sheets, _ = beside(victim, args.seconds, idle, load, args.grace,
                               f"(b) {args.payers} threads of payments by the attacker on his ledger, "
                               f"{args.seconds:g} s")
            goals.append(p95(sheets) < 0.05)
            print(goal("victim sheet p95 < 50 ms", goals[-1]))
            made = [t for status, t in load.answers if status == 201]
            goals.append(bool(made) and max(made) < 0.05)
            print(goal(f"every payment < 50 ms (max {max(made or [0]) * 1000:.0f} ms)", goals[-1]))

        if "c" in chosen:
            print("\n(c) the attacker's ledger, first after a payment, then again (median of 3)")

            def one_payment() -> None:
                a, b = rng.sample(players, 2)
                mine.json("POST", "/api/v1/ledger/payments", {"from": a, "to": b, "amount": "1", "currency": "₽"},
                          expect=201)

            for path in ("/ledger", "/ledger?all=1", "/api/v1/ledger"):
                first, again, size = sized(mine, path, one_payment)
                print(f"  {path:<18} first {first * 1000:7.0f} ms   again {again * 1000:7.0f} ms   "
                      f"{size / 1024:8.0f} KB")
                if path == "/ledger":
                    goals.append(first < 0.1 and size < 300 * 1024)
                    print(goal("the ledger page < 100 ms and < 300 KB", goals[-1]))

        if "d" in chosen:
            first, again, size = sized(mine, "/players", None)
            print(f"\n(d) the attacker's /players\n  {'/players':<18} first {first * 1000:7.0f} ms   "
                  f"again {again * 1000:7.0f} ms   {size / 1024:8.0f} KB")
            goals.append(first < 0.15)
            print(goal("/players < 150 ms", goals[-1]))

        if "e" in chosen:
            _, refused = pdf_flood(port, victim, args.anonymous, args.seconds, args.grace)
            goals.append(refused == 0)

        store.close()
    print(f"\ngoals: {sum(goals)} of {len(goals)} met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
