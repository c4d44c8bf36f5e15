"""Players' statistics benchmark (not a test): a generated club of --pulkas frozen pulkas of --deals deals
among --players players (each pulka 3 or 4 of them), in one account, on SQLite (or --url). It prints the time
to build the club, the circle read first (every stored result, nothing remembered yet), then each page and
API answer as a phone gets it (the app's own requests: access check, statistics, template), warm (median and
p95 of --repeat requests; the circle is read again only when one of its pulkas or players changed), and what
one more finished pulka costs the next player page. Goals (issue 20): a player page p95 < 100 ms and the
standings p95 < 150 ms warm for 500 pulkas of 60 deals, 12 players; from cold under 10 s in all. With
--distinct every pulka seats four players of its own (issue 29: 1,000 pulkas make 4,000 players, the
standings under 150 ms); the pages' and answers' sizes are printed beside their times.

    .venv/bin/python benchmarks/players.py [--pulkas 500] [--deals 60] [--players 12] [--repeat 30]
    .venv/bin/python benchmarks/players.py --pulkas 1000 --deals 6 --distinct
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import long_pulka  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402
from scorekeeper.web.domain.limits import Limits  # noqa: E402
from scorekeeper.web.domain.pulkas import Settings  # noqa: E402
from scorekeeper.web.services import pulkas as pulka_service  # noqa: E402


def timed(call, repeat: int) -> tuple[float, float, float]:
    """Cold (the first call), then the median and p95 of `repeat` more, in ms."""
    start = time.perf_counter()
    call()
    cold = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return cold, statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]


def club_app(url: str | None) -> tuple[Any, Any, int]:
    """The app on `url` (default: a new SQLite file) with one account, the club's: a test client that is that
    account (its bearer token), the store, and the account's id."""
    folder = Path(tempfile.mkdtemp())
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url or f"sqlite:///{folder / 'club.sqlite'}"},
                     instance_path=str(folder / "instance"))
    client = app.test_client()
    client.post("/api/v1/accounts", json={"username": "club", "password": "a long password"})
    token = client.post("/api/v1/tokens", json={"username": "club", "password": "a long password"}).json["token"]
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    store = app.extensions["scorekeeper"]
    return client, store, store.accounts.account(username="club").id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pulkas", type=int, default=500)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--distinct", action="store_true", help="every pulka seats four players of its own")
    parser.add_argument("--url", help="a database URL (default: a new SQLite file)")
    args = parser.parse_args()
    client, store, owner = club_app(args.url)
    names = [f"Игрок {i + 1}" for i in range(args.players)]
    rng = random.Random(7)

    def finished(number: int) -> None:
        n = 4 if args.distinct else rng.choice((3, 4))
        seated = tuple(f"Игрок {number}.{seat + 1}" for seat in range(n)) if args.distinct else rng.sample(names, n)
        file = long_pulka(n, args.deals, rng.choice(("sochi", "leningrad", "rostov")), seed=number)
        settings = Settings(f"Вечер {number}", rng.choice(("₽", "€")), tuple(seated), file.first_dealer, file.rules)
        # room for the five more pulkas at the end, past the account's limit at --pulkas 1000
        pulka_service.create_pulka(store.pulkas, owner, settings, file.deals, closed_by="club",
                                   limits=Limits(pulkas=args.pulkas + 5))

    start = time.perf_counter()
    for number in range(args.pulkas):
        finished(number)
    players = 4 * args.pulkas if args.distinct else args.players
    print(f"club: {args.pulkas} frozen pulkas × {args.deals} deals, {players} players, "
          f"{store.db.engine.dialect.name}; built in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    circle = client.get("/api/v1/players").json["players"]
    print(f"the circle read first (every stored result, nothing remembered yet): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")
    someone = circle[0]["id"]
    other = circle[1]["id"]
    pages = (("player page /players/<id>", f"/players/{someone}"),
             ("player page, head-to-head with one", f"/players/{someone}?with={other}"),
             ("API GET /api/v1/players/<id>/stats", f"/api/v1/players/{someone}/stats"),
             ("standings /players", "/players"),
             ("API GET /api/v1/players", "/api/v1/players"))
    for label, path in pages:
        cold, median, p95 = timed(lambda: client.get(path), args.repeat)
        answer = client.get(path)
        assert answer.status_code == 200, path
        print(f"{label}: cold {cold:.0f} ms, warm median {median:.0f} ms, p95 {p95:.0f} ms, "
              f"{len(answer.get_data()) / 1000:.0f} KB")
    times = []
    for number in range(args.pulkas, args.pulkas + 5):
        finished(number)
        start = time.perf_counter()
        client.get(f"/players/{someone}")
        times.append((time.perf_counter() - start) * 1000)
    print(f"one more finished pulka, then the player page: median {statistics.median(times):.0f} ms, "
          f"worst {max(times):.0f} ms (of 5)")
    store.close()


if __name__ == "__main__":
    main()
