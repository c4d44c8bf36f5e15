"""Memory benchmark (not a test): what one process keeps after showing many versions of a long pulka.

Imports a long pulka into the app (in this process, SQLite in a temporary folder), then makes `versions`
new versions of it (a deal added, then undone, and so on), showing each one's sheet page and history as
a phone would. Prints the resident memory before, every 20 versions and after, next to the cache's budget (CACHE_MB,
default 64), and what tracemalloc measures of one version next to what the cache weighs it at.
Goal (the issue): memory bounded near the budget, where 140 versions of 5,000 deals took 2.7 GB: once
the cache is full (after the first 20 versions) it grows by less than half the budget. Besides the cache
the process needs what one request of the long pulka builds and lets go (the history page of 5,000
deals: some 70 MB).

    .venv/bin/python benchmarks/memory.py [--deals 5000] [--versions 140] [--cache-mb 64]
"""

from __future__ import annotations

import argparse
import gc
import re
import tempfile
import time
import tracemalloc
from pathlib import Path

from generate import long_pulka

from scorekeeper.files.pulyafile import dumps
from scorekeeper.web import create_app
from scorekeeper.web.views.pulkas import weight


def rss_mb() -> float:
    return int(re.search(r"VmRSS:\s+(\d+) kB", Path("/proc/self/status").read_text())[1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--versions", type=int, default=140)
    parser.add_argument("--cache-mb", type=float, default=64)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-memory-"))
    app = create_app({"SECRET_KEY": "benchmark", "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite'}",
                      "CACHE_MB": args.cache_mb, "MAX_DEALS": max(args.deals, 1000)}, instance_path=str(folder))
    client = app.test_client()
    account = {"username": "bench", "password": "a benchmark password"}
    assert client.post("/api/v1/accounts", json=account).status_code == 201
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {client.post('/api/v1/tokens', json=account).json['token']}"
    pulka = long_pulka(deals=args.deals)
    response = client.post("/api/v1/import", data=dumps(pulka), content_type="application/json")
    assert response.status_code == 201, response.json
    uid = response.json["id"]
    deal = {"type": "raspasy", "tricks": dict(zip(pulka.players, (2, 3, 5)))}

    def show() -> None:
        for page in ("", "/history"):
            assert client.get(f"/p/{uid}{page}").status_code == 200

    show()
    gc.collect()
    before = rss_mb()

    # One version measured: what its replay and its presenter keep, against what the cache weighs them at.
    cache, presenters = app.extensions["scorekeeper"].pulkas.cache.cache, app.extensions["scorekeeper.presenters"]
    tracemalloc.start()
    client.post(f"/api/v1/pulkas/{uid}/deals", json=deal)
    gc.collect()
    written = tracemalloc.get_traced_memory()[0]
    show()
    gc.collect()
    shown = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    version = response.json["version"] + 1
    with app.app_context():
        view = presenters.get((uid, version))  # gone already when one version is over the budget
        weighed = weight(app.extensions["scorekeeper"].pulkas.get(uid)), weight(view) if view else 0

    start = time.perf_counter()
    sizes = {}
    for i in range(1, args.versions):
        client.post(f"/api/v1/pulkas/{uid}/" + ("undo" if i % 2 else "deals"), json=deal)
        show()
        if (i + 1) % 20 == 0 or i + 1 == args.versions:
            gc.collect()
            sizes[i + 1] = rss_mb()
    elapsed = time.perf_counter() - start

    print(f"{args.deals}-deal pulka, {args.versions} versions, each sheet page and history shown "
          f"({elapsed:.0f} s); cache budget {args.cache_mb:g} MB")
    print(f"one version: replay {written / 2**20:.1f} MB measured, weighed {weighed[0] / 2**20:.1f} MB; "
          f"presenter {(shown - written) / 2**20:.1f} MB measured, weighed {weighed[1] / 2**20:.1f} MB")
    print(f"resident memory: {before:.0f} MB before; after n versions: "
          + ", ".join(f"{n}: {mb:.0f} MB" for n, mb in sizes.items()))
    print(f"the cache holds {len(cache._items)} items weighing {cache.total / 2**20:.1f} MB")
    full, after = sizes.get(20, before), sizes[args.versions]
    print(f"goal: once the cache is full, growth under half the budget ({after - full:+.0f} MB) "
          f"{'met' if after - full < args.cache_mb / 2 else 'NOT met'}")


if __name__ == "__main__":
    main()
