"""How fast the engine replays a long pulka, next to json.loads of the same file.

    .venv/bin/python benchmarks/engine.py [--deals 10000] [--repeat 5]

Prints deals per second of replay + settlement and the ratio replay / parse.
Goal: at least 100,000 deals per second, replay within 5x of parsing.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import time
from pathlib import Path

import scorekeeper
from scorekeeper.engine import Contract, Deal, DealType, Rules, Strain
from scorekeeper.files.pulyafile import PulkaFile, dumps, parse

PLAYERS = ("Anna", "Boris", "Vera")


def _deal(rng: random.Random, active: tuple[int, ...], streak: int, made_share: float) -> tuple[Deal, bool]:
    """A random deal and whether it ends a raspasy streak (a made game)."""
    if rng.random() < 0.3:
        a = rng.randint(1, 8)
        b = rng.randint(1, 9 - a)
        return Deal(DealType.RASPASY, tricks=dict(zip(active, (a, b, 10 - a - b)))), False
    declarer = rng.choice(active)
    others = [seat for seat in active if seat != declarer]
    level = rng.randint(6, 8)  # Sochi's raspasy exit is 6-6-6: any level may follow
    made = rng.random() < made_share  # mostly remizes, so that the pulyas do not fill up
    taken = level if made else rng.randint(max(0, level - 3), level - 1)
    first = rng.randint(0, 10 - taken)
    tricks = {declarer: taken, others[0]: first, others[1]: 10 - taken - first}
    whist = {others[0]: "whist", others[1]: rng.choice(["whist", "pass"])}
    return Deal(DealType.GAME, declarer, Contract(level, rng.choice(list(Strain))), whist, tricks), made


def long_pulka(deals: int, seed: int = 1) -> PulkaFile:
    """A valid pulka of `deals` deals that does not finish (pulya_size 1000): past 10,000 deals, fewer games
    are made (the same pulka up to 10,000)."""
    made_share = 0.08 * min(1.0, 10_000 / max(deals, 1))
    rng = random.Random(seed)
    log: list[Deal] = []
    streak = 0
    for number in range(deals):
        dealer = number % 3
        deal, made = _deal(rng, ((dealer + 1) % 3, (dealer + 2) % 3, dealer), streak, made_share)
        streak = 0 if made else streak + (deal.type is DealType.RASPASY)
        log.append(deal)
    pulka = PulkaFile(PLAYERS, Rules.of("sochi", pulya_size=1000), tuple(log))
    assert not pulka.replay().finished
    return pulka


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    text = dumps(long_pulka(args.deals))
    parse_times, replay_times = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        data = json.loads(text)
        parse_times.append(time.perf_counter() - start)
        gc.disable()  # as the CLI does around its replay: everything the replay makes survives it
        start = time.perf_counter()
        pulka = parse(data)
        pulka.settle(pulka.replay())
        replay_times.append(time.perf_counter() - start)
        gc.enable()
    parse_s, replay_s = min(parse_times), min(replay_times)
    print(f"engine: {Path(scorekeeper.__file__).parent}")
    print(f"file: {args.deals} deals, {len(text) / 1e6:.2f} MB")
    print(f"json.loads:         {parse_s * 1000:8.1f} ms")
    print(f"replay + settle:    {replay_s * 1000:8.1f} ms  ({args.deals / replay_s:,.0f} deals/s; goal 100,000)")
    print(f"ratio replay/parse: {replay_s / parse_s:8.1f}x     (goal <= 5x)")


if __name__ == "__main__":
    main()
