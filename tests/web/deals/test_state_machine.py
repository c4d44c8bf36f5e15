"""A stateful test of the stored log: any sequence of adds, edits, deletes and undos through the
JSON API leaves exactly the deals the engine accepts, and a refused change leaves nothing changed.

The model is a plain list of deals; the engine's replay is the oracle for which changes are valid.
"""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from scorekeeper.files.pulyafile import FileError, PulkaFile, parse, result_json

from ..conftest import make_app, signed_in

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def pulka_of(rules: dict, players: list[str], deals: list[dict]) -> PulkaFile:
    return parse({"format": "pulya/1", "players": players, "rules": rules, "deals": deals})


def replays(rules: dict, players: list[str], deals: list[dict]) -> bool:
    try:
        pulka_of(rules, players, deals).replay()
    except FileError:
        return False
    return True


@st.composite
def deals(draw, players: list[str], number: int) -> dict:
    """A deal that is well formed for the seat layout of deal `number`; the rules may still refuse it."""
    n = len(players)
    dealer = (number - 1) % n
    active = [players[(dealer + i) % n] for i in range(1, 4)]
    kind = draw(st.sampled_from(["game", "game", "misere", "raspasy"]))
    first = draw(st.integers(0, 10))
    second = draw(st.integers(0, 10 - first))
    tricks = dict(zip(active, (first, second, 10 - first - second)))
    if kind == "raspasy":
        return {"type": "raspasy", "tricks": tricks}
    declarer = draw(st.sampled_from(active))
    if kind == "misere":
        return {"type": "misere", "declarer": declarer, "tricks": {declarer: first}}
    at = active.index(declarer)
    defenders = [active[(at + 1) % 3], active[(at + 2) % 3]]
    words = draw(st.sampled_from([("pass", "pass"), ("whist", "pass"), ("pass", "whist"), ("whist", "whist"),
                                  ("pass", "half")]))
    level = draw(st.sampled_from([6, 7, 8, 9]))
    deal = {"type": "game", "declarer": declarer, "contract": f"{level}{draw(st.sampled_from('SCDH'))}",
            "whist": dict(zip(defenders, words))}
    if "whist" in words:
        deal["tricks"] = tricks
    return deal


class StoredLog(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.app = make_app(self.database_url, self.tmp_path / f"run{id(self)}")
        self.client = signed_in(self.app)
        self.players = PLAYERS[:self.n]
        self.rules = {"preset": self.preset, "pulya_size": 30}
        created = self.client.post("/api/v1/pulkas", json={"players": self.players, "rules": self.rules})
        assert created.status_code == 201, created.json
        self.url = f"/api/v1/pulkas/{created.json['id']}"
        self.model: list[dict] = []

    def teardown(self):
        self.app.extensions["scorekeeper"].db.engine.dispose()

    def expect(self, response, accepted: bool, new_model: list[dict]) -> None:
        if accepted:
            assert response.status_code in (200, 201), response.json
            self.model = new_model
        else:
            assert 400 <= response.status_code < 500, response.json
            assert response.json["error"]["code"]

    @rule(data=st.data())
    def add(self, data):
        deal = data.draw(deals(self.players, len(self.model) + 1))
        new = [*self.model, deal]
        self.expect(self.client.post(f"{self.url}/deals", json=deal), replays(self.rules, self.players, new), new)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def edit(self, data):
        number = data.draw(st.integers(1, len(self.model)))
        deal = data.draw(deals(self.players, number))
        new = [*self.model[:number - 1], deal, *self.model[number:]]
        self.expect(self.client.put(f"{self.url}/deals/{number}", json=deal),
                    replays(self.rules, self.players, new), new)

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def delete(self, data):
        number = data.draw(st.integers(1, len(self.model)))
        new = [*self.model[:number - 1], *self.model[number:]]
        self.expect(self.client.delete(f"{self.url}/deals/{number}"), replays(self.rules, self.players, new), new)

    @precondition(lambda self: self.model)
    @rule()
    def undo(self):
        self.expect(self.client.post(f"{self.url}/undo", json={}), True, self.model[:-1])

    @invariant()
    def stored_log_is_the_model(self):
        exported = self.client.get(f"{self.url}/export")
        assert exported.status_code == 200
        assert exported.json["deals"] == self.model
        expected = result_json(pulka_of(self.rules, self.players, self.model))
        settlement = self.client.get(f"{self.url}/settlement").json
        assert settlement["finished"] == expected["finished"]
        assert {p["name"]: p["money"] for p in settlement["players"]} == expected["settlement"]["money"]


@pytest.mark.parametrize("n, preset", [(3, "sochi"), (4, "rostov"), (3, "leningrad")])
def test_any_sequence_of_changes_keeps_the_log_valid(database_url, tmp_path, n, preset):
    machine = type("Machine", (StoredLog,), {"database_url": database_url, "tmp_path": tmp_path, "n": n,
                                             "preset": preset})
    run_state_machine_as_test(machine, settings=settings(
        max_examples=15, stateful_step_count=12, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))
