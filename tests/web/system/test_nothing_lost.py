"""Nothing lost, nothing doubled, against real `scorekeeper serve` processes on SQLite and PostgreSQL:
pulkas made at once seating the same new names, many phones writing at once, and the server killed
mid-stream and started again while clients retry with their idempotency keys."""

from __future__ import annotations

import http.client
import json
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from sqlalchemy import create_engine, text

from scorekeeper.files import pulyafile

from .test_processes import Server, servers  # noqa: F401 (servers: the fixture that starts them)

PASSWORD = "a long password"
WRITERS = 50


def account(server: Server, username: str = "anna") -> str:
    """A new account's API token."""
    assert server.call("POST", "/api/v1/accounts", {"username": username, "password": PASSWORD})[0] == 201
    status, body, _ = server.call("POST", "/api/v1/tokens", {"username": username, "password": PASSWORD})
    assert status == 201, body
    return body["token"]


def test_pulkas_made_at_once_share_their_new_players(servers, database_url):
    """250 pulkas made at once through two server processes, each seating names that others are adding at
    the same moment: every one is made, and each name is one player of the account."""
    one, two = servers(), servers()
    token = account(one)
    creates = 250
    seating = [(f"P{i // 5}", f"Q{(i + 2) // 5}", f"R{i}") for i in range(creates)]
    # Each batch starts together, so that the tables adding one new name race each other.
    gate = Barrier(WRITERS)

    def create(i: int) -> int:
        gate.wait()
        return (one, two)[i % 2].call("POST", "/api/v1/pulkas", {"players": list(seating[i])}, token)[0]

    with ThreadPoolExecutor(WRITERS) as pool:
        statuses = list(pool.map(create, range(creates)))
    assert statuses == [201] * creates

    names = {name for seats in seating for name in seats}
    engine = create_engine(database_url)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT name FROM players")).scalars().all()
    engine.dispose()
    assert sorted(stored) == sorted(names)
    assert every_player(two, token) == sorted(names)
    listed = one.call("GET", "/api/v1/pulkas", token=token)[1]["pulkas"]
    assert sorted(tuple(p["players"]) for p in listed) == sorted(seating)


# -- many phones writing at once, and a server killed mid-stream ------------------------------------------

# Raspasy with every hand taking a trick: always a valid deal, and never a pulya point (so the pulka never
# ends); 36 of them, so that the deals of one pulka differ.
SPREADS = [(a, b, 10 - a - b) for a in range(1, 9) for b in range(1, 10 - a)]
DEALS_EACH = 6


def deal(writer: int, index: int) -> dict:
    a, b, c = SPREADS[(writer * 7 + index) % len(SPREADS)]
    return {"type": "raspasy", "tricks": {"A": a, "B": b, "C": c}}


def new_pulka(server: Server, token: str) -> str:
    status, body, _ = server.call("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"],
                                                             "rules": {"preset": "sochi", "pulya_size": 10}}, token)
    assert status == 201, body
    return body["id"]


def check_stored(server: Server, token: str, acks: list[tuple[str, int, int, dict]]) -> None:
    """Every acknowledged deal (pulka, writer, number answered, deal) is stored once, at the number it was
    answered, each writer's in the order written, and nothing else is; each pulka's sheet is the engine's
    replay of its stored deals."""
    for uid in {uid for uid, *_ in acks}:
        mine = [(writer, n, sent) for pulka, writer, n, sent in acks if pulka == uid]
        status, exported, _ = server.call("GET", f"/api/v1/pulkas/{uid}/export", token=token)
        assert status == 200
        assert sorted(n for _, n, _ in mine) == list(range(1, len(exported["deals"]) + 1))
        assert all(exported["deals"][n - 1] == sent for _, n, sent in mine)
        for writer in {writer for writer, *_ in mine}:
            numbers = [n for w, n, _ in mine if w == writer]
            assert numbers == sorted(numbers)
        assert sheet(server, token, uid) == replayed(exported)


def sheet(server: Server, token: str, uid: str) -> dict:
    """The server's sheet: each player's pulya, gora, whists on each other player, balance and money."""
    status, shown, _ = server.call("GET", f"/api/v1/pulkas/{uid}/sheet", token=token)
    assert status == 200
    return {row["name"]: (row["pulya"], row["gora"], {w["on"]: w["total"] for w in row["whists"]}, row["balance"],
                          row["money"]) for row in shown["table"]} | {"deals": shown["deals"]}


def replayed(exported: dict) -> dict:
    """The same, as the engine replays the exported pulka file (`scorekeeper replay --json`)."""
    file = pulyafile.loads(json.dumps(exported))
    result = pulyafile.result_json(file)
    table, settlement = result["sheet"], result["settlement"]
    return {name: (table["pulya"][name], table["gora"][name], table["whists"][name], settlement["balance"][name],
                   settlement["money"][name]) for name in file.players} | {"deals": len(file.deals)}


@pytest.mark.parametrize("pulkas", [1, WRITERS])
def test_phones_writing_at_once_store_each_deal_once_in_order(servers, pulkas):
    """50 phones enter 6 deals each at once, through two server processes, into one pulka or into 50."""
    one, two = servers(), servers()
    token = account(one)
    uids = [new_pulka(one, token) for _ in range(pulkas)]
    gate = Barrier(WRITERS)

    def write(writer: int) -> list[tuple[str, int, int, dict]]:
        uid, server, acks = uids[writer % pulkas], (one, two)[writer % 2], []
        gate.wait()
        for index in range(DEALS_EACH):
            sent = deal(writer, index)
            status, body, _ = server.call("POST", f"/api/v1/pulkas/{uid}/deals", sent, token)
            assert status == 201, body
            acks.append((uid, writer, body["n"], sent))
        return acks

    with ThreadPoolExecutor(WRITERS) as pool:
        acks = [ack for acks in pool.map(write, range(WRITERS)) for ack in acks]
    assert len(acks) == WRITERS * DEALS_EACH
    check_stored(two, token, acks)


class Writer:
    """A phone entering its deals, each under an idempotency key of its own. Whatever goes wrong before it
    has an answer (a connection refused or cut, no reply, a 503), it sends the same request again with the
    same key, until it has one."""

    def __init__(self, server: Server, token: str, uid: str, number: int):
        self.server, self.token, self.uid, self.number = server, token, uid, number
        self.acks: list[tuple[str, int, int, dict]] = []

    def run(self, done: list[int]) -> None:
        for index in range(DEALS_EACH):
            sent, key = deal(self.number, index), str(uuid.uuid4())
            self.acks.append((self.uid, self.number, self.send(sent, key), sent))
            done.append(1)

    def send(self, sent: dict, key: str) -> int:
        deadline = time.monotonic() + 120  # a bound for a broken test, not a timing claim
        while True:
            try:
                status, body, _ = self.server.call("POST", f"/api/v1/pulkas/{self.uid}/deals", sent, self.token,
                                                   {"Idempotency-Key": key})
                if status == 201:
                    return body["n"]
                assert status == 503, body
            except (OSError, http.client.HTTPException):
                pass
            assert time.monotonic() < deadline, "no answer for two minutes"
            time.sleep(0.05)


def test_a_server_killed_mid_stream_loses_nothing_acknowledged_and_retries_double_nothing(servers, database_url):
    """50 phones on 10 pulkas enter 6 deals each while the server is killed (SIGKILL) three times and started
    again. Before each kill, one more phone sends a deal and hears nothing back although the deal is stored
    (its connection is dropped unread): its blind retry after the restart gets the first answer, not a
    second deal. At the end every deal is stored exactly once, and the database is sound."""
    server = servers()
    token = account(server)
    uids = [new_pulka(server, token) for _ in range(10)]
    blind = new_pulka(server, token)
    writers = [Writer(server, token, uids[i % len(uids)], i) for i in range(WRITERS)]
    done: list[int] = []
    threads = [threading.Thread(target=writer.run, args=(done,), daemon=True) for writer in writers]
    for thread in threads:
        thread.start()
    engine = create_engine(database_url)
    total, blind_acks = WRITERS * DEALS_EACH, []
    try:
        for kill in range(1, 4):
            wait_for(lambda: len(done) >= kill * total // 4)
            sent, key = deal(kill, 0), f"blind-{kill}"
            unread = send_unread(server, token, f"/api/v1/pulkas/{blind}/deals", sent, key)
            wait_for(lambda: stored_deals(engine, blind) == kill)  # stored; its answer is never read
            unread.close()
            server.kill()
            server = servers(port=server.port)
            status, body, headers = server.call("POST", f"/api/v1/pulkas/{blind}/deals", sent, token,
                                                {"Idempotency-Key": key})
            assert (status, body["n"], headers["Idempotent-Replayed"]) == (201, kill, "true")
            blind_acks.append((blind, -1, kill, sent))
        for thread in threads:
            thread.join()
        acks = [ack for writer in writers for ack in writer.acks]
        assert len(acks) == total
        check_stored(server, token, acks + blind_acks)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM idempotency_keys")).scalar() == total + 3
            assert connection.execute(text("SELECT count(*) FROM deals")).scalar() == total + 3
        server.stop()
        if engine.dialect.name == "sqlite":
            with engine.connect() as connection:
                assert connection.exec_driver_sql("PRAGMA integrity_check").scalars().all() == ["ok"]
                assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    finally:
        engine.dispose()


def wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds  # a bound for a broken test, not a timing claim
    while not condition():
        assert time.monotonic() < deadline, "waited a minute"
        time.sleep(0.02)


def stored_deals(engine, uid: str) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM deals JOIN pulkas ON pulkas.id = deals.pulka_id "
                                       "WHERE pulkas.uid = :uid"), {"uid": uid}).scalar()


def send_unread(server: Server, token: str, path: str, body: dict, key: str) -> http.client.HTTPConnection:
    """Send a write and leave its answer unread: the connection stays open, so the server goes on with it."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Idempotency-Key": key,
                                                       "Authorization": f"Bearer {token}"})
    return connection


def every_player(server, token: str) -> list[str]:
    """The names of the caller's players, page after page as the API links them (`next`)."""
    names, path = [], "/api/v1/players"
    while path:
        body = server.call("GET", path, token=token)[1]
        names += [p["name"] for p in body["players"]]
        path = body["next"]
    return names
