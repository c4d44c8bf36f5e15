"""How the tournament draw does (engine/tournament/draw.py): repeats and time per round, round by round.

    .venv/bin/python benchmarks/draw.py [--sizes 9x3x4 12x3x4 …] [--seeds 3] [--method fewest_repeats]

Each size is players x table size x rounds. For each seed it draws every round of the event one after the other
(the first by lot) and prints, per round, the pairs meeting again and the seconds the draw took; then the
standings after the last round of a 40-player event (random balances), the worst of a few runs.
Goal (docs/tournament.md §2): no repeats for 9x3x4, 12x3x4 and 16x4x5 (15x3x7, Kirkman's, a fine goal), the fewest
where none is impossible (12x4: 3 in round 2), each round within 10 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

from scorekeeper.engine.tournament import (
    DrawMethod, Round, RoundResult, Scheme, Scoring, Tiebreak, draw_round, event_standings, repeats,
)

SIZES = ["9x3x4", "12x3x4", "16x4x5", "12x4x4", "15x3x7", "40x4x8"]


def run(players: int, table_size: int, rounds: int, seed: int, method: DrawMethod) -> list[tuple[int, float]]:
    present = [f"P{i:02}" for i in range(players)]
    history: list[Round[str]] = []
    out = []
    for _ in range(rounds):
        # swiss by a standings drawn anew each round: what matters here is the time, not the order
        ranking = random.Random(seed + len(history)).sample(present, len(present))
        start = time.perf_counter()
        drawn = draw_round(method, present, history, table_size=table_size, seed=seed, rounds=rounds,
                           ranking=ranking)
        out.append((repeats(drawn, history), time.perf_counter() - start))
        history.append(drawn)
    return out


def standings_time(players: int, rounds: int, repeat: int) -> float:
    rng = random.Random(1)
    entrants = [f"P{i:02}" for i in range(players)]
    results = []
    for _ in range(rounds):
        order = rng.sample(entrants, players)
        tables = []
        for start in range(0, players - players % 4, 4):
            balances = [Fraction(rng.randint(-3000, 3000), rng.choice([1, 2, 3])) for _ in range(3)]
            tables.append(dict(zip(order[start:start + 4], [*balances, -sum(balances)])))
        results.append(RoundResult(tuple(tables)))
    scoring = Scoring(Scheme.PLACES, three=(Fraction(2), Fraction(1), Fraction(0)),
                      four=(Fraction(3), Fraction(2), Fraction(1), Fraction(0)))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        event_standings(entrants, results, scoring, 4, list(Tiebreak), seed=1)
        times.append(time.perf_counter() - start)
    return max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=SIZES, help="players x table size x rounds, e.g. 16x4x5")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--method", choices=[m.value for m in DrawMethod if m is not DrawMethod.MANUAL],
                        default=DrawMethod.FEWEST_REPEATS.value)
    parser.add_argument("--standings", type=int, default=40, help="players of the standings timed (8 rounds)")
    args = parser.parse_args()

    method = DrawMethod(args.method)
    print(f"draw: {method.value}; per round: pairs meeting again / seconds")
    for size in args.sizes:
        players, table_size, rounds = map(int, size.split("x"))
        worst, total = 0.0, []
        for seed in range(1, args.seeds + 1):
            result = run(players, table_size, rounds, seed, method)
            worst = max(worst, *(t for _, t in result))
            total.append(sum(r for r, _ in result))
            cells = "  ".join(f"{r:3d}/{t:6.3f}" for r, t in result)
            print(f"{size:>8} seed {seed}: {cells}")
        print(f"{size:>8}: repeats over the event {total}, slowest round {worst:.3f} s")
    if args.standings:
        took = standings_time(args.standings, 8, 5)
        print(f"standings of {args.standings} players after 8 rounds: {took * 1000:.1f} ms (the slowest of 5)")


if __name__ == "__main__":
    main()
