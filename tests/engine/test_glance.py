"""engine/validation.py: a usual deal is recognized at a glance, and the glance accepts only what the
field-by-field checks find nothing wrong with (they report every problem of any other deal)."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

from scorekeeper.engine import Contract, Deal, DealType, Rules, Word, replay
from scorekeeper.engine.deals import seating
from scorekeeper.engine.validation import _USUAL, _Checker
from scorekeeper.files.pulyafile import loads

from .generate import generate

RULES = [
    Rules.of("sochi"), Rules.of("leningrad"), Rules.of("rostov"),
    Rules.of("sochi", half_whist=[], stalingrad=True, ten_checked=False),
    Rules.of("rostov", half_whist=[7], raspasy_dealer="talon", raspasy_exit=[7, 8, 8]),
]
CONTRACTS = [None, *(Contract.parse(c) for c in ("6S", "6H", "7C", "8NT", "9D", "10S", "10NT"))]
WORDS = ["whist", "pass", "half", Word.WHIST, Word.PASS, Word.HALF, "vist", "", 1, None, ["whist"]]
COUNTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, -1, True, False, 2.0, "3", None, Fraction(4)]


def _mapping(rng: random.Random, n: int, values: list[object]) -> dict[object, object] | None:
    if rng.random() < 0.1:
        return None
    seats: list[object] = list(range(n)) + [True, 5]
    chosen = rng.sample(seats, rng.randint(0, len(seats)))
    return {seat: rng.choice(values) for seat in chosen}


def _tricks(rng: random.Random, n: int, active: tuple[int, ...]) -> dict[object, object] | None:
    """Mostly a split of 10 among the active seats, sometimes spoilt; else anything."""
    if rng.random() < 0.5:
        a = rng.randint(0, 10)
        b = rng.randint(0, 10 - a)
        tricks: dict[object, object] = dict(zip(active, (a, b, 10 - a - b)))
        if rng.random() < 0.5:
            tricks[rng.choice([*range(n), True])] = rng.choice(COUNTS)
        return tricks
    return _mapping(rng, n, COUNTS)


def _deal(rng: random.Random, n: int, active: tuple[int, ...]) -> Deal:
    kind = rng.choice(list(DealType))
    declarer = rng.choice([None, *range(n), True, 1.0])
    whist = None
    if rng.random() < 0.6 and declarer in active:  # the usual words, sometimes
        at = active.index(declarer)
        whist = {active[(at + 1) % 3]: rng.choice(WORDS[:6]), active[(at + 2) % 3]: rng.choice(WORDS[:6])}
    elif rng.random() < 0.5:
        whist = _mapping(rng, n, WORDS)
    return Deal(kind, None if kind is DealType.RASPASY else declarer,  # type: ignore[arg-type]
                rng.choice(CONTRACTS) if kind is DealType.GAME else None,
                whist if kind is DealType.GAME else None, _tricks(rng, n, active))  # type: ignore[arg-type]


def test_the_glance_accepts_only_deals_without_a_problem():
    rng = random.Random(15)
    accepted = 0
    for _ in range(40_000):
        n = rng.choice([3, 4])
        seats = seating(n, rng.randrange(n))
        rules, streak, deal = rng.choice(RULES), rng.choice([0, 0, 1, 2, 3, 5]), _deal(rng, n, seats.active)
        if _USUAL[deal.type](deal, rules, seats, streak):
            accepted += 1
            assert _Checker(deal, rules, 1, seats, streak, False).problems == [], (deal, rules, n, seats, streak)
    assert accepted > 2_000  # the glance is exercised, not only refused


def test_nearly_every_deal_of_a_generated_pulka_is_usual():
    rng = random.Random(1)
    usual = total = 0
    for _ in range(40):
        pulka = loads(json.dumps(generate(rng)))
        result = replay(pulka.rules, len(pulka.players), pulka.deals, pulka.first_dealer)
        for number, deal in enumerate(pulka.deals, 1):
            sheet = result.sheet_before(number)
            total += 1
            usual += _USUAL[deal.type](deal, pulka.rules, sheet.seating, sheet.streak)
    assert usual > 0.6 * total, (usual, total)  # misères and talon tricks are the rest


def test_every_usual_shape_of_a_game_is_accepted():
    # plain words of both defenders, with a split of the tricks when one of them whisted
    seats, rules = seating(3, 0), Rules.of("sochi")
    for words in itertools.product(["whist", "pass"], repeat=2):
        tricks = {1: 7, 2: 2, 0: 1} if "whist" in words else None
        deal = Deal(DealType.GAME, 1, Contract.parse("7H"), dict(zip((2, 0), words)), tricks)
        assert _USUAL[DealType.GAME](deal, rules, seats, 0), words
