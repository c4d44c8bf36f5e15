"""How long the club ledger's settle_up takes (engine/ledger.py): the exact fewest payments, a DP over subsets.

    .venv/bin/python benchmarks/ledger.py [--players 12 16 20] [--repeat 5] [--seed 1]

For each count of players with open balances, two kinds of balances: random cents (few groups of players
settle among themselves) and whole multiples of 10 (cash rounded to 10 ₽, docs/rules.md §15: many do, and
opposite pairs are matched before the DP). Prints the best of `repeat` for each, next to the greedy rule
(largest debtor pays largest creditor) and the payments each takes.
Goal: 12 players well under 200 ms.
"""

from __future__ import annotations

import argparse
import random
import time
from decimal import Decimal

import scorekeeper.engine.ledger as ledger
from scorekeeper.engine.ledger import settle_up


def open_balances(rng: random.Random, players: int, step: int, top: int) -> dict[str, Decimal]:
    """`players` nonzero balances in cents, multiples of `step` up to `top`, summing to 0."""
    while True:
        cents = [rng.choice([-1, 1]) * rng.randint(1, top // step) * step for _ in range(players - 1)]
        cents.append(-sum(cents))
        if all(cents):
            return {f"p{i:02}": Decimal(c).scaleb(-2) for i, c in enumerate(cents)}


def best(repeat: int, balances: dict[str, Decimal]) -> tuple[float, int, bool]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = settle_up(balances)
        times.append(time.perf_counter() - start)
    return min(times), len(result.payments), result.exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[12, 16, 20])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    print(f"exact up to {ledger.EXACT_UP_TO} balances")
    print(f"{'players':>7}  {'balances':<16} {'settle_up':>10}  {'payments':>8}  {'greedy':>6}  exact")
    for players in args.players:
        for kind, step, top in (("random cents", 1, 50_000), ("multiples of 10", 1000, 30_000)):
            balances = open_balances(rng, players, step, top)
            seconds, payments, exact = best(args.repeat, balances)
            greedy = len(ledger.fewest_payments([int(b.scaleb(2)) for b in balances.values()]))
            print(f"{players:>7}  {kind:<16} {seconds * 1000:7.1f} ms  {payments:>8}  {greedy:>6}  {exact}")


if __name__ == "__main__":
    main()
