"""Accounts: registering (the first is the administrator), logging in with a limit on failures, tokens,
passwords, disabling, closed registration, and an instance from before accounts upgrading without loss."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone

from sqlalchemy import MetaData, create_engine, text

from scorekeeper.web.domain import accounts as rules
from scorekeeper.web.services import accounts
from scorekeeper.web.store.db import upgrade

from ..conftest import SOCHI, make_app, signed_in, snapshot

PASSWORD = "a long password"


def names(client) -> list[str]:
    """The names of the caller's circle (GET /api/v1/players lists them as objects: docs/club.md §2)."""
    return [player["name"] for player in client.get("/api/v1/players").json["players"]]


def register(client, username: str, password: str = PASSWORD):
    return client.post("/api/v1/accounts", json={"username": username, "password": password})


def token(client, username: str, password: str = PASSWORD):
    return client.post("/api/v1/tokens", json={"username": username, "password": password})


def bearer(app, value: str):
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {value}"
    return client


def test_the_first_account_administers_the_server(app):
    client = app.test_client()
    assert register(client, "Anna").json == {"username": "Anna", "admin": True}
    assert register(client, "Boris").json == {"username": "Boris", "admin": False}
    response = register(client, "anna")  # usernames compare without case
    assert (response.status_code, response.json["error"]["code"], response.json["error"]["field"]) == (
        422, "bad_account", "username")
    response = register(client, "Vera", "short")
    assert (response.status_code, response.json["error"]["field"]) == (422, "password")
    assert token(client, "ANNA").status_code == 201


def test_log_in_and_out_in_a_browser(app):
    client = app.test_client()
    register(client, "anna")
    response = client.post("/login", data={"username": "anna", "password": "wrong password"})
    assert response.status_code == 401 and "wrong username or password" in response.get_data(as_text=True)
    response = client.post("/login?next=/p/xyz", data={"username": "anna", "password": PASSWORD})
    assert response.headers["Location"] == "/p/xyz"
    response = client.post("/login?next=https://evil.example/", data={"username": "anna", "password": PASSWORD})
    assert response.headers["Location"] == "/"  # never sent off the site
    assert "anna" in client.get("/").get_data(as_text=True)
    client.post("/logout")
    assert client.get("/").headers["Location"] == "/login?next=/"


def test_failed_logins_are_limited_per_account_and_per_address(app):
    client = app.test_client()
    register(client, "anna")
    register(client, "boris")
    for _ in range(rules.FAILURES_PER_PAIR):
        assert token(client, "anna", "wrong password").status_code == 401
    response = token(client, "anna")  # even the right password, until the window passes
    assert (response.status_code, response.json["error"]["code"]) == (429, "too_many_attempts")
    assert token(client, "boris").status_code == 201  # another account from the same address
    for i in range(rules.FAILURES_PER_ADDRESS):
        token(client, f"nobody{i}", "wrong password")
    assert token(client, "boris").status_code == 429  # this address tried too many
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.2"
    assert token(other, "boris").status_code == 201


def test_tokens_open_the_api_until_revoked(app):
    client = app.test_client()
    register(client, "anna")
    value = token(client, "anna").json["token"]
    api = bearer(app, value)
    assert api.get("/api/v1/pulkas").status_code == 200
    assert api.delete("/api/v1/tokens/current").status_code == 204
    response = api.get("/api/v1/pulkas")
    assert (response.status_code, response.json["error"]["code"]) == (401, "unauthorized")
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert bearer(app, "skt_made-up").get("/api/v1/pulkas").status_code == 401
    assert bearer(app, "made-up-share").get("/api/v1/pulkas").status_code == 401
    response = app.test_client().get("/api/v1/pulkas", headers={"Authorization": "Basic YTpi"})
    assert response.status_code == 401


def test_changing_the_password_signs_out_everywhere_else(app):
    client = app.test_client()
    register(client, "anna")
    old_token = token(client, "anna").json["token"]
    here, there = app.test_client(), app.test_client()
    for browser in (here, there):
        browser.post("/login", data={"username": "anna", "password": PASSWORD})
    response = here.post("/account", data={"current": "not it", "new": "a new password"})
    assert response.status_code == 422 and "not right" in response.get_data(as_text=True)
    assert here.post("/account", data={"current": PASSWORD, "new": "a new password"}).status_code == 302
    assert here.get("/").status_code == 200  # this browser stays in
    assert there.get("/").headers["Location"].startswith("/login")
    assert bearer(app, old_token).get("/api/v1/pulkas").status_code == 401
    assert token(client, "anna", "a new password").status_code == 201


def test_the_administrator_disables_and_resets(app):
    admin = signed_in(app, "admin", PASSWORD)
    boris = signed_in(app, "boris", PASSWORD)
    boris_id = app.extensions["scorekeeper"].accounts.account(username="boris").id
    browser = app.test_client()
    browser.post("/login", data={"username": "admin", "password": PASSWORD})
    assert "boris" in browser.get("/admin").get_data(as_text=True)
    assert browser.post(f"/admin/accounts/{boris_id}", data={"action": "disable"}).status_code == 302
    assert boris.get("/api/v1/pulkas").status_code == 401  # his tokens end
    response = token(app.test_client(), "boris")
    assert response.status_code == 401 and "disabled" in response.json["error"]["message"]
    browser.post(f"/admin/accounts/{boris_id}", data={"action": "enable"})
    browser.post(f"/admin/accounts/{boris_id}", data={"action": "password", "password": "a fresh password"})
    boris = bearer(app, token(app.test_client(), "boris", "a fresh password").json["token"])
    assert boris.get("/admin").status_code == 403 and admin.get("/admin").status_code == 200


def test_closed_registration(database_url, tmp_path):
    app = make_app(database_url, tmp_path, REGISTRATION="closed")
    client = app.test_client()
    response = register(client, "anna")
    assert (response.status_code, response.json["error"]["code"]) == (403, "registration_closed")
    assert client.get("/register").status_code == 403
    # The first account comes from the command line on the server; then the administrator makes the rest.
    app.extensions["scorekeeper"].accounts.create_account("admin", accounts.HASHER.hash(PASSWORD))
    admin = bearer(app, token(client, "admin").json["token"])
    assert register(admin, "anna").status_code == 201
    browser = app.test_client()
    browser.post("/login", data={"username": "admin", "password": PASSWORD})
    assert browser.post("/admin", data={"username": "boris", "password": PASSWORD}).status_code == 302
    assert token(client, "boris").status_code == 201
    app.extensions["scorekeeper"].db.engine.dispose()


def test_players_belong_to_the_accounts_circle(app):
    anna, boris = signed_in(app, "anna", PASSWORD), signed_in(app, "boris", PASSWORD)
    anna.post("/api/v1/pulkas", json={"players": ["Anna", "Boris", "Vera"]})
    boris.post("/api/v1/pulkas", json={"players": ["Vera", "Gleb", "Dina"]})
    assert names(anna) == ["Anna", "Boris", "Vera"]
    assert names(boris) == ["Dina", "Gleb", "Vera"]
    assert len(snapshot(app)["players"]) == 6  # two Veras: one in each circle
    assert [p["name"] for p in boris.get("/api/v1/pulkas").json["pulkas"]] == ["Pulka of Vera, Gleb, Dina"]


def test_an_instance_from_before_accounts_keeps_everything(database_url, tmp_path):
    """A database at migration 0001 with a pulka upgrades; the first account registered gets it."""
    engine = create_engine(database_url)
    upgrade(engine, "0001")
    tables = MetaData()
    tables.reflect(engine)  # the tables as migration 0001 made them
    moment = datetime(2026, 11, 29, 20, tzinfo=timezone.utc)
    with engine.begin() as connection:
        connection.execute(tables.tables["players"].insert(), [{"id": i, "name": n} for i, n in enumerate("ABC", 1)])
        connection.execute(tables.tables["pulkas"].insert().values(
            id=1, uid="old0000000000000000000000000000", name="Old", rules=SOCHI["rules"], currency="₽",
            first_dealer=0, version=1, created_at=moment, updated_at=moment))
        connection.execute(tables.tables["pulka_players"].insert(),
                           [{"pulka_id": 1, "seat": seat, "player_id": seat + 1} for seat in range(3)])
        connection.execute(tables.tables["deals"].insert().values(
            pulka_id=1, position=1, type="raspasy", tricks={"1": 4, "2": 4, "0": 2}, open=False, created_at=moment))
    engine.dispose()
    app = make_app(database_url, tmp_path)  # upgrades to the newest schema on start
    anna = signed_in(app, "anna", PASSWORD)
    pulkas = anna.get("/api/v1/pulkas").json["pulkas"]
    assert [(p["id"], p["name"], p["deals"]) for p in pulkas] == [("old0000000000000000000000000000", "Old", 1)]
    assert anna.get("/api/v1/pulkas/old0000000000000000000000000000/sheet").json["table"][0]["gora"] == 2
    assert names(anna) == ["A", "B", "C"]
    assert signed_in(app, "boris", PASSWORD).get("/api/v1/pulkas").json["pulkas"] == []
    app.extensions["scorekeeper"].db.engine.dispose()


def test_the_command_line_makes_accounts_and_claims_pulkas(tmp_path):
    url = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    run = lambda *args, stdin="": subprocess.run(  # noqa: E731
        [sys.executable, "-m", "scorekeeper.cli", *args], input=stdin, capture_output=True, text=True, timeout=60,
        env={"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "SCOREKEEPER_INSTANCE": str(tmp_path / "instance")})
    made = run("account", "create", "anna", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert made.returncode == 0, made.stderr
    assert "anna" in made.stdout and "administrator" in made.stdout
    again = run("account", "create", "ANNA", stdin=f"{PASSWORD}\n{PASSWORD}\n")
    assert again.returncode == 1 and again.stderr.count("\n") == 1 and "taken" in again.stderr
    short = run("account", "create", "boris", stdin="short\nshort\n")
    assert short.returncode == 1 and "8 to 200" in short.stderr
    assert run("account", "create", "boris", stdin=f"{PASSWORD}\n{PASSWORD}\n").returncode == 0
    # A pulka from before accounts (owner NULL) goes to the account the command names.
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO pulkas (uid, table_uid, name, rules, currency, first_dealer, version, created_at, updated_at) "
            "VALUES ('legacy00000000000000000000000', 'legacy00000000000000000000000', 'Legacy', "
            "'{\"preset\": \"sochi\"}', '', 0, 1, '2026-01-01', '2026-01-01')"))
    claimed = run("db", "claim", "boris")
    assert claimed.returncode == 0 and "1 pulka" in claimed.stdout
    with engine.connect() as connection:
        owner = connection.execute(text("SELECT a.username FROM pulkas p JOIN accounts a ON a.id = p.owner_id")).scalar()
    assert owner == "boris"
    assert run("db", "claim", "nobody").returncode == 1
    engine.dispose()
