"""Players' statistics benchmark (not a test): a generated club of --pulkas frozen pulkas of --deals deals
among --players players (each pulka 3 or 4 of them), in one account, on SQLite (or --url). It prints the time
to build the club, the circle read first (every stored result), then the player page's figures (the circle's
records and one player's statistics) and the standings, warm (median and p95 of --repeat calls; the circle
is read again only when one of its pulkas or players changed). Goals (issue 20): a
player page p95 < 100 ms and the standings p95 < 150 ms warm for 500 pulkas of 60 deals, 12 players.

    .venv/bin/python benchmarks/players.py [--pulkas 500] [--deals 60] [--players 12] [--repeat 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import long_pulka  # noqa: E402
from scorekeeper.engine import Filter  # noqa: E402
from scorekeeper.web.domain.pulkas import Settings  # noqa: E402
from scorekeeper.web.services import players as player_service  # noqa: E402
from scorekeeper.web.services import pulkas as pulka_service  # noqa: E402
from scorekeeper.web.store import Database, Store  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pulkas", type=int, default=500)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--url", help="a database URL (default: a new SQLite file)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    database = Database(args.url or f"sqlite:///{Path(folder) / 'club.sqlite'}")
    database.upgrade()
    store = Store(database)
    owner = store.accounts.create_account("club", "not a real hash").id
    names = [f"Игрок {i + 1}" for i in range(args.players)]
    rng = random.Random(7)
    start = time.perf_counter()
    for number in range(args.pulkas):
        n = rng.choice((3, 4))
        file = long_pulka(n, args.deals, rng.choice(("sochi", "leningrad", "rostov")), seed=number)
        seated = tuple(rng.sample(names, n))
        settings = Settings(f"Вечер {number}", rng.choice(("₽", "€")), seated, file.first_dealer, file.rules)
        pulka_service.create_pulka(store.pulkas, owner, settings, file.deals, closed_by="club")
    built = time.perf_counter() - start
    print(f"club: {args.pulkas} frozen pulkas × {args.deals} deals, {args.players} players, "
          f"{database.engine.dialect.name}; built in {built:.1f} s")
    everything: Filter[str] = Filter()
    start = time.perf_counter()
    someone = player_service.circle(store.players, owner, everything).players[0].id
    print(f"the circle read first (every stored result, nothing remembered yet): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms")
    for label, call in (
            ("player page (records + one player's statistics)",
             lambda: player_service.of_player(store.players, owner, someone, everything)),
            ("standings (records + every player's line)",
             lambda: player_service.standings_of(player_service.circle(store.players, owner, everything), 3))):
        cold, median, p95 = timed(call, args.repeat)
        print(f"{label}: cold {cold:.0f} ms, warm median {median:.0f} ms, p95 {p95:.0f} ms")
    store.close()


if __name__ == "__main__":
    main()
