"""engine/pulka.py: what a replay works out when it is asked for it (the chains, each deal's sheet and lines)
is what a replay that kept a sheet per deal had; a replay goes on from a paper sheet; it travels (pickle)."""

from __future__ import annotations

import dataclasses
import inspect
import json
import pickle
import random

import pytest

from scorekeeper.engine import Column, Contract, Deal, DealType, PulkaError, Rules, Sheet, Strain, replay
from scorekeeper.files.pulyafile import loads

from .generate import generate

SOCHI = Rules.of("sochi", pulya_size=50)
RASPASY = Deal(DealType.RASPASY, tricks={0: 2, 1: 3, 2: 5})
REMIZ = Deal(DealType.GAME, 1, Contract(7, Strain.HEARTS), {2: "whist", 0: "whist"}, {1: 5, 2: 3, 0: 2})


def _pulkas(count: int, seed: int = 7):
    rng = random.Random(seed)
    for _ in range(count):
        pulka = loads(json.dumps(generate(rng)))
        yield pulka, replay(pulka.rules, len(pulka.players), pulka.deals, pulka.first_dealer)


def _cells(n: int):
    yield from ((Column.PULYA, i, None) for i in range(n))
    yield from ((Column.GORA, i, None) for i in range(n))
    yield from ((Column.WHISTS, i, j) for i in range(n) for j in range(n) if i != j)


def _total(sheet: Sheet, column: Column, player: int, on: int | None):
    return {Column.PULYA: lambda: sheet.pulya[player], Column.GORA: lambda: sheet.gora[player],
            Column.WHISTS: lambda: sheet.whists[player][on]}[column]()


def test_each_deal_has_the_sheet_and_lines_a_replay_of_the_deals_up_to_it_has():
    for pulka, full in _pulkas(25):
        n = len(pulka.players)
        for number in range(len(pulka.deals) + 1):
            prefix = replay(pulka.rules, n, pulka.deals[:number], pulka.first_dealer)
            assert full.sheet_before(number + 1) == prefix.sheet
            if number:
                assert full.result(number).entries == prefix.results[-1].entries
                assert full.result(number).sheet == prefix.sheet


def test_the_chains_are_the_totals_after_each_deal_that_changed_them():
    for pulka, result in _pulkas(25, seed=8):
        sheets = [r.sheet for r in result.results]
        for column, player, on in _cells(len(pulka.players)):
            expected, last = [], 0
            for sheet in sheets:  # what paper writes: each new total, as the sheets after the deals have them
                total = _total(sheet, column, player, on)
                if total != last:
                    expected.append(total)
                    last = total
            assert result.chain(column, player, on) == expected


def test_chains_linked_as_the_replay_goes_are_the_chains_worked_out_after():
    """`replay(…, chains=True)` links them in its one pass: the same chains, sheets and lines as a replay that
    works them out when first asked, for pulkas of every kind, and for one that goes on from paper."""
    rng = random.Random(9)
    for pulka, later in _pulkas(30, seed=9):
        n = len(pulka.players)
        paper = Sheet(n, pulya=tuple(rng.choice((0, 1, 2)) for _ in range(n)), gora=(0,) * n,
                      whists=tuple(tuple(0 if i == j else rng.choice((0, 4)) for j in range(n)) for i in range(n)))
        for start in (None, paper):
            if start is not None:
                try:
                    later = replay(pulka.rules, n, pulka.deals, pulka.first_dealer, start=start)
                except PulkaError:  # the paper's pulyas ended it before its last deal
                    continue
            linked = replay(pulka.rules, n, pulka.deals, pulka.first_dealer, start=start, chains=True)
            assert linked._history._rows is not None  # linked already, before anything is asked
            for column, player, on in _cells(n):
                assert linked.chain(column, player, on) == later.chain(column, player, on)
            for number in range(1, len(pulka.deals) + 1):
                assert linked.sheet_before(number) == later.sheet_before(number)
                assert linked.result(number).entries == later.result(number).entries


def test_a_pulka_goes_on_from_a_paper_sheet():
    paper = Sheet(3, pulya=(4, 0, 10), gora=(0, 12, 3), whists=((0, 7, 0), (0, 0, 0), (2, 0, 0)))
    pulka = replay(SOCHI, 3, [RASPASY, REMIZ], first_dealer=1, start=paper)
    empty = replay(SOCHI, 3, [RASPASY, REMIZ], first_dealer=1)
    assert pulka.start == Sheet(3, 1, 0, (4, 0, 10), (0, 12, 3), ((0, 7, 0), (0, 0, 0), (2, 0, 0)))
    assert pulka.sheet_before(1) is pulka.start and pulka.results[0].dealer == 1
    # nothing here overflows, so each total is the paper's and the deals' (none of the deals reads the totals)
    for column, player, on in _cells(3):
        assert _total(pulka.sheet, column, player, on) == (_total(paper, column, player, on)
                                                           + _total(empty.sheet, column, player, on))
    assert [r.entries for r in pulka.results] == [r.entries for r in empty.results]
    # the paper's totals are the first numbers of their chains; a 0 on paper is not written
    for column, player, on in _cells(3):
        opening = _total(paper, column, player, on)
        chain = [opening + total for total in empty.chain(column, player, on)]
        assert pulka.chain(column, player, on) == ([opening, *chain] if opening else chain)
    assert pulka.chain(Column.PULYA, 0) == [4] and pulka.chain(Column.GORA, 1)[0] == 12


def test_the_paper_sheet_is_taken_without_its_deals_and_streak():
    paper = Sheet(3, 2, deals=17, pulya=(1, 2, 3), gora=(0,) * 3, whists=((0,) * 3,) * 3, streak=2)
    pulka = replay(SOCHI, 3, [], start=paper)
    assert pulka.start == Sheet(3, 0, 0, (1, 2, 3), (0,) * 3, ((0,) * 3,) * 3) == pulka.sheet
    with pytest.raises(ValueError):
        replay(SOCHI, 4, [], start=paper)


def test_the_results_are_a_sequence_made_once():
    pulka = replay(SOCHI, 3, [RASPASY, REMIZ, RASPASY])
    results = pulka.results
    assert len(results) == 3 and [r.number for r in results] == [1, 2, 3]
    assert results[-1] is results[2] is pulka.result(3) and list(results)[0] is results[0]
    assert [r.number for r in results[1:]] == [2, 3] and results[::-1][0] is results[2]
    with pytest.raises(IndexError):
        results[3]
    assert len(replay(SOCHI, 3, []).results) == 0 and not replay(SOCHI, 3, []).results


def test_lines_said_are_the_entries():
    for pulka, result in _pulkas(10, seed=9):
        entries = [list(r.entries) for r in result.results]
        assert [lines for _, lines in result.lines(lambda e: e)] == entries
        said = replay(pulka.rules, len(pulka.players), pulka.deals, pulka.first_dealer, say=lambda e: e)
        assert [list(lines) for lines in said.said] == entries and said.sheet == result.sheet


def test_a_replay_travels_to_another_process():
    # The PDF is drawn in a worker process: the replay goes there pickled, before and after it was read.
    for pulka, result in _pulkas(5, seed=10):
        n = len(pulka.players)
        fresh = pickle.loads(pickle.dumps(result))
        read = [r.entries for r in result.results], [r.sheet for r in result.results]
        chains = [result.chain(*cell) for cell in _cells(n)]
        again = pickle.loads(pickle.dumps(result))
        for copy in (fresh, again):
            assert ([r.entries for r in copy.results], [r.sheet for r in copy.results]) == read
            assert [copy.chain(*cell) for cell in _cells(n)] == chains and copy.sheet == result.sheet


def test_a_deal_is_made_as_its_dataclass_would_make_it():
    fields = [(f.name, f.default) for f in dataclasses.fields(Deal)]
    parameters = [(p.name, p.default) for p in inspect.signature(Deal).parameters.values()]
    assert parameters == [(name, inspect.Parameter.empty if default is dataclasses.MISSING else default)
                          for name, default in fields]
    with pytest.raises(dataclasses.FrozenInstanceError):
        RASPASY.tricks = {}  # type: ignore[misc]
