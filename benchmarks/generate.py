"""Long, valid pulkas for benchmarks and rendering tests, made deterministically.

Deals are built valid by construction (active seats, defenders, raspasy
exit levels, tricks adding up to 10) and the result is replayed, so an
invalid deal fails loudly rather than skewing a benchmark.
"""

from __future__ import annotations

import random

from scorekeeper.engine import Contract, Deal, DealType, Rules, Strain, Word, replay
from scorekeeper.engine.deals import defenders, seats_in_play
from scorekeeper.files.pulyafile import PulkaFile

NAMES = ("Аня", "Boris", "Вера", "Dmitri")


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total])]


def _game(rng: random.Random, rules: Rules, active: tuple[int, ...], least: int, success: float) -> tuple[Deal, bool]:
    """A game deal and whether it was made (which ends a raspasy streak); `success` below 1 fails more."""
    declarer = rng.choice(active)
    first, second = defenders(active, declarer)
    level = rng.randint(max(6, least), 9)
    contract = Contract(level, rng.choice(list(Strain)))
    scene = rng.random()
    if scene < 0.15 * success:  # both pass: not played, made
        return Deal(DealType.GAME, declarer, contract, {first: Word.PASS, second: Word.PASS}), True
    words = {first: Word.WHIST, second: Word.WHIST if scene < 0.45 else Word.PASS}
    taken = rng.randint(level - 2, min(10, level + 1))
    if taken >= level and success < 1 and rng.random() > success:
        taken = level - 1
    mine = rng.randint(0, 10 - taken)
    tricks = {declarer: taken, first: mine, second: 10 - taken - mine}
    return Deal(DealType.GAME, declarer, contract, words, tricks, open=scene > 0.9), taken >= level


def long_pulka(players: int = 3, deals: int = 100, preset: str = "sochi", seed: int = 1,
               pulya_size: int | None = None) -> PulkaFile:
    """`deals` deals of games, misères and raspasy; the pulya is big enough not to close first."""
    rng = random.Random(seed)
    rules = Rules.of(preset, pulya_size=pulya_size or min(1000, 2 * deals + 20))
    names = NAMES[:players]
    out: list[Deal] = []
    streak = 0
    # Past about 1,000 deals every pulya would close (1000 is the largest size): the longer the pulka,
    # the fewer games and misères are made (up to about 7,000 deals).
    success = min(1.0, (1000 / deals) ** 2)
    for number in range(deals):
        dealer = number % players
        active = seats_in_play(players, dealer)
        roll = rng.random()
        if roll < 0.25:
            talon = rng.randint(0, 2) if players == 4 and rules.raspasy_dealer == "talon" else 0
            tricks = dict(zip(active, _split(rng, 10 - talon, 3)))
            if talon:
                tricks[dealer] = talon
            out.append(Deal(DealType.RASPASY, tricks=tricks))
            streak += 1
            continue
        least = rules.raspasy_exit[min(streak, 3) - 1] if streak else 6
        if roll < 0.33 and least == 6:
            declarer = rng.choice(active)
            taken = rng.choice((0, 0, 1, 2))
            if taken == 0 and success < 1 and rng.random() > success:
                taken = 1
            out.append(Deal(DealType.MISERE, declarer, tricks={declarer: taken}))
            made = taken == 0
        else:
            deal, made = _game(rng, rules, active, least, success)
            out.append(deal)
        if made or rules.raspasy_exit_on == "any":
            streak = 0
    pulka = PulkaFile(names, rules, tuple(out), 0)
    result = replay(rules, players, pulka.deals)  # raises if the generator made an invalid deal
    assert len(result.results) == deals and not result.finished, "pulya_size too small for this many deals"
    return pulka


if __name__ == "__main__":
    from scorekeeper.files.pulyafile import dumps

    print(dumps(long_pulka()), end="")
