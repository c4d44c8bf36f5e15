"""The app fixture runs every web test on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL
too, each test in a fresh database (a temporary file, or a schema of its own)."""

from __future__ import annotations

import json
import os
import re
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlalchemy import text as sql
from sqlalchemy.engine import make_url

from scorekeeper.web import create_app
from scorekeeper.web.store import Store
from scorekeeper.web.store.db import Database, normalize_url
from scorekeeper.web.store.models import Base

DATA = Path(__file__).parent.parent / "data"
SOCHI = json.loads((DATA / "sochi_examples.json").read_text())
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    base = normalize_url(os.environ["TEST_DATABASE_URL"])
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(sql(f'CREATE SCHEMA "{schema}"'))
    yield make_url(base).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    with admin.begin() as connection:
        connection.execute(sql(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


def make_app(database_url: str, tmp_path: Path, **config: Any):
    settings = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "DATABASE_URL": database_url}
    return create_app(settings | config, instance_path=str(tmp_path / "instance"))


@pytest.fixture(autouse=True)
def cheap_passwords(monkeypatch):
    """argon2 at its production cost takes ~0.1 s a hash: the tests use the cheapest (test_accounts checks
    the real one)."""
    from argon2 import PasswordHasher

    from scorekeeper.web.services import accounts

    monkeypatch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def app(database_url, tmp_path):
    app = make_app(database_url, tmp_path)
    yield app
    app.extensions["scorekeeper"].db.engine.dispose()


OWNER = ("owner", "owner-password")


def signed_in(app, username: str = OWNER[0], password: str = OWNER[1]):
    """A test client of an account (made if new), by its API token on every request: pages and API alike."""
    client = app.test_client()
    client.post("/api/v1/accounts", json={"username": username, "password": password})
    response = client.post("/api/v1/tokens", json={"username": username, "password": password})
    assert response.status_code == 201, response.json
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {response.json['token']}"
    return client


@pytest.fixture
def client(app):
    """The first account of the instance (so its administrator), owning what the tests create."""
    return signed_in(app)


@pytest.fixture
def repo(database_url):
    """The store alone, on a real database, without HTTP (the services' own tests run on tests/web/fakes.py)."""
    database = Database(database_url)
    database.upgrade()
    yield Store(database)
    database.engine.dispose()


@pytest.fixture
def owner(repo) -> int:
    """The id of an account that owns the pulkas a services test makes."""
    return repo.accounts.create_account("owner", "not a real hash").id


def snapshot(app) -> dict[str, list[str]]:
    """Every row of every table, to show that a refused request changed nothing."""
    return rows(app.extensions["scorekeeper"])


def rows(repo: Store) -> dict[str, list[str]]:
    with repo.db.engine.connect() as connection:
        return {table.name: sorted(repr(tuple(row)) for row in connection.execute(table.select()))
                for table in Base.metadata.sorted_tables}


def text(response) -> str:
    """The page's visible text, tags stripped, whitespace collapsed."""
    body = re.sub(r"<(script|style|template)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    body = re.sub(r'<wbr>|<span class="n">([^<]*)</span>', r"\1", body)  # a chain's numbers: 2.3.10
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


# -- building pulkas -----------------------------------------------------------------------------


def create(client, players=("A", "B", "C"), rules=None, **extra) -> int:
    body = {"players": list(players), "rules": rules or {"preset": "sochi", "pulya_size": 10, "whist_price": 0.5}}
    response = client.post("/api/v1/pulkas", json=body | extra)
    assert response.status_code == 201, response.json
    return response.json["id"]


def add(client, pulka_id: int, deal: dict) -> Any:
    return client.post(f"/api/v1/pulkas/{pulka_id}/deals", json=deal)


def sochi(client, deals: int = 10) -> int:
    """The pulka of docs/rules.md §10 (A, B, C; Sochi, pulya 10, whist 0.5) with its first `deals` deals."""
    pulka_id = create(client)
    for deal in SOCHI["deals"][:deals]:
        response = add(client, pulka_id, deal)
        assert response.status_code == 201, response.json
    return pulka_id


def form_fields(deal: dict, players=("A", "B", "C")) -> dict[str, str]:
    """A pulka-file deal as the deal form posts it (seats as numbers)."""
    seat = {name: str(i) for i, name in enumerate(players)}
    fields = {"type": deal["type"], "action": "save"}
    if "declarer" in deal:
        fields["declarer"] = seat[deal["declarer"]]
    if "contract" in deal:
        contract = deal["contract"]
        strain = "NT" if contract.endswith("NT") else contract[-1]
        fields["level"], fields["strain"] = contract[: -len(strain)], strain
    for name, word in deal.get("whist", {}).items():
        fields[f"w{seat[name]}"] = word
    for name, count in deal.get("tricks", {}).items():
        fields[f"t{seat[name]}"] = str(count)
    fields["open"] = "open" if deal.get("open") else "closed"
    return fields


def kept_sheet(client, players=("A", "B", "C"), whists: int = 1) -> str:
    """A paper sheet kept as a frozen pulka in one request (docs/club.md §4): only the first player wrote
    `whists` on the second, at 1 ₽ a whist, so it leaves one obligation, the second owes the first `whists` ₽.
    Its uid."""
    form = {f"player_{seat}": name for seat, name in enumerate(players)} | {
        "player_3": "", "preset": "sochi", "whist_price": "1", "currency": "₽",
        "pulya_0": "0", "pulya_1": "0", "pulya_2": "0", "gora_0": "0", "gora_1": "0", "gora_2": "0",
        "whists_0_1": str(whists), "whists_0_2": "0", "whists_1_0": "0", "whists_1_2": "0", "whists_2_0": "0",
        "whists_2_1": "0"}
    kept = client.post("/paper/keep", data=form)
    assert kept.status_code == 302, kept.get_data(as_text=True)
    return kept.headers["Location"].strip("/").split("/")[1]
