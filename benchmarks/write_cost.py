"""What a deal's write costs in the server (not a test): CPU and SQL statements per write, in one process.

--tables pulkas of one account, each with a scorer link, as benchmarks/live.py makes them; then --writes
deals added through the API round the tables, by their scorer links, as the phones of live.py add them (no
load beside it, so the figures are the write's own). Counts the statements the database was sent (an
SQLAlchemy `before_cursor_execute` listener) and the process's CPU time (`time.process_time`), per write,
with the median and p95 of each write's time in the process. The store watches the database as a server
process does (store.watch_changes). On SQLite (a new file), or on --url (PostgreSQL: a schema of its own,
dropped after).

    .venv/bin/python benchmarks/write_cost.py [--tables 50] [--writes 1000] [--url postgresql+psycopg://…]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event  # noqa: E402

from benchmarks.live import RASPASY, own_database  # noqa: E402
from scorekeeper.web.app import create_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--url", help="a PostgreSQL URL (default: a new SQLite file)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-write-cost-"))
    database, drop = own_database(args.url)
    try:
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": database.get("DATABASE_URL")
                          or f"sqlite:///{folder / 'club.sqlite'}"}, instance_path=str(folder / "instance"))
        store = app.extensions["scorekeeper"]
        store.watch_changes()
        owner = app.test_client()
        credentials = {"username": "club", "password": "a long password"}
        owner.post("/api/v1/accounts", json=credentials)
        owner.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + owner.post("/api/v1/tokens", json=credentials).json["token"]
        tables = []
        for number in range(args.tables):
            uid = owner.post("/api/v1/pulkas", json={"name": f"Стол {number}", "players": ["A", "B", "C"]}).json["id"]
            phone = app.test_client()
            phone.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + owner.post(
                f"/api/v1/pulkas/{uid}/shares", json={"role": "scorer"}).json["token"]
            assert phone.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY).status_code == 201  # warm
            tables.append((uid, phone))
        sent = [0]

        def count(*_: Any) -> None:
            sent[0] += 1

        event.listen(store.db.engine, "before_cursor_execute", count)
        walls = []
        cpu = time.process_time()
        for number in range(args.writes):
            uid, phone = tables[number % len(tables)]
            start = time.perf_counter()
            response = phone.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY)
            walls.append(time.perf_counter() - start)
            assert response.status_code == 201, response.json
        cpu = time.process_time() - cpu
        event.remove(store.db.engine, "before_cursor_execute", count)
        store.close()
        print(f"{store.db.engine.dialect.name}: {args.writes} deal writes on {args.tables} tables: "
              f"CPU {cpu / args.writes * 1000:.2f} ms and {sent[0] / args.writes:.2f} statements per write; "
              f"median {statistics.median(walls) * 1000:.2f} ms, p95 {statistics.quantiles(walls, n=20)[-1] * 1000:.2f} ms")
    finally:
        drop()


if __name__ == "__main__":
    main()
