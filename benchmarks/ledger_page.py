"""The ledger's page benchmark (not a test): a club of --pulkas closed pulkas (their transfers are the
obligations) and --payments payments in one account, on SQLite (or --url). It prints how many obligations and
payments the rouble ledger holds, then the page, `?all=1`, the API answer and the next (older) page of each
where there is one: cold (the first request after a payment: the rows read again) and warm (median and p95
of --repeat requests; the rows are read again only when a version they are read from moved on), with the
size of each, and the exact settle-up of --players open balances. Goals (issue 21): with 2,000 obligations
and 3,000 payments the page p95 < 50 ms warm; the exact settle-up for 12 players under 200 ms. Issue 29:
with about 3,000 obligations and 12,000 payments (`--four --payments 12000`) the page under 100 ms and
300 KB.

    .venv/bin/python benchmarks/ledger_page.py [--pulkas 1000] [--payments 3000] [--repeat 30] [--four]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import long_pulka  # noqa: E402
from benchmarks.players import club_app, timed  # noqa: E402
from scorekeeper.engine import Payment, settle_up  # noqa: E402
from scorekeeper.web.domain.pulkas import Settings  # noqa: E402
from scorekeeper.web.services import pulkas as pulka_service  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pulkas", type=int, default=1000)
    parser.add_argument("--payments", type=int, default=3000)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--four", action="store_true", help="every pulka of four players (three transfers)")
    parser.add_argument("--url", help="a database URL (default: a new SQLite file)")
    args = parser.parse_args()
    client, store, owner = club_app(args.url)
    names = [f"Игрок {i + 1}" for i in range(args.players)]
    rng = random.Random(7)
    start = time.perf_counter()
    for number in range(args.pulkas):
        n = 4 if args.four else rng.choice((3, 4))
        file = long_pulka(n, 6, "sochi", seed=number)
        settings = Settings(f"Вечер {number}", "₽", tuple(rng.sample(names, n)), file.first_dealer, file.rules)
        pulka_service.create_pulka(store.pulkas, owner, settings, file.deals, closed_by="club")
    with store.ledger.writing(owner, "club") as write:
        ids = sorted(p for p in write.players)
        for _ in range(args.payments):
            payer, payee = rng.sample(ids, 2)
            write.add(Payment("new", payer, payee, Decimal(rng.randint(1, 50000)).scaleb(-2), "₽"))
    rows = store.ledger.rows(owner)
    print(f"ledger: {sum(e.obligation.currency == '₽' for e in rows.obligations)} obligations, "
          f"{sum(r.payment.currency == '₽' for r in rows.payments)} payments, {len(rows.players)} players, "
          f"{store.db.engine.dialect.name}; built in {time.perf_counter() - start:.1f} s")

    def paid() -> None:
        """One more payment: the next request reads the rows again."""
        with store.ledger.writing(owner, "club") as write:
            write.add(Payment("new", ids[0], ids[1], Decimal("1.00"), "₽"))

    def older(path: str, answer) -> str | None:
        """The next (older) page's address, where the answer links to one."""
        if path.startswith("/api/"):
            return answer.json.get("next")
        found = re.search(r'href="(/ledger\?[^"]*cursor=[^"]*)"', answer.get_data(as_text=True))
        return found.group(1).replace("&amp;", "&") if found else None

    paths = [("page /ledger", "/ledger?currency=₽"), ("page /ledger?all=1", "/ledger?currency=₽&all=1"),
             ("API GET /api/v1/ledger", "/api/v1/ledger?currency=₽")]
    for label, path in paths:
        paid()
        cold, median, p95 = timed(lambda: client.get(path), args.repeat)
        answer = client.get(path)
        assert answer.status_code == 200, path
        print(f"{label}: cold {cold:.0f} ms, warm median {median:.0f} ms, p95 {p95:.0f} ms, "
              f"{len(answer.get_data()) / 1000:.0f} KB")
        after = older(path, answer)
        if after is not None and not label.startswith(" ") and not path.endswith("all=1"):
            paths.append(("  its next page", after))  # the second page only: the rest are as far
    balances = [rng.randint(-10**6, 10**6) for _ in range(args.players - 1)]
    money = {f"p{i}": Decimal(c).scaleb(-2) for i, c in enumerate(balances + [-sum(balances)])}
    start = time.perf_counter()
    found = settle_up(money)
    print(f"exact settle-up of {args.players} open balances: {len(found.payments)} payments in "
          f"{(time.perf_counter() - start) * 1000:.0f} ms (exact: {found.exact})")
    store.close()


if __name__ == "__main__":
    main()
