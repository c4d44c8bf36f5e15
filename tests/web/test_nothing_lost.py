"""Nothing lost, nothing doubled, against real `scorekeeper serve` processes on SQLite and PostgreSQL:
pulkas made at once seating the same new names, many phones writing at once, and the server killed
mid-stream and started again while clients retry with their idempotency keys."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

from sqlalchemy import create_engine, text

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
    assert two.call("GET", "/api/v1/players", token=token)[1]["players"] == sorted(names)
    listed = one.call("GET", "/api/v1/pulkas", token=token)[1]["pulkas"]
    assert sorted(tuple(p["players"]) for p in listed) == sorted(seating)
