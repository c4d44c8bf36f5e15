"""The app factory, its database and migrations, the CLI, the real server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from scorekeeper.cli import build_parser
from scorekeeper.resources import resource_dir
from scorekeeper.web import create_app
from scorekeeper.web.store.db import normalize_url

from ..conftest import SOCHI, create, make_app, signed_in, snapshot

ROOT = Path(__file__).resolve().parents[3]


def test_defaults_need_no_configuration(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    app = create_app(instance_path=str(instance))
    assert app.config["DATABASE_URL"] == f"sqlite:///{instance / 'scorekeeper.sqlite'}"
    assert (instance / "scorekeeper.sqlite").exists()
    key = (instance / "secret_key").read_text()
    assert app.config["SECRET_KEY"] == key and len(key) == 64
    assert oct((instance / "secret_key").stat().st_mode & 0o777) == "0o600"
    again = create_app(instance_path=str(instance))
    assert again.config["SECRET_KEY"] == key  # generated once, kept
    client = app.test_client()
    assert client.get("/").headers["Location"] == "/login?next=/"  # a fresh instance asks for an account
    assert client.get("/login").status_code == 200
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/static/js/main.js").status_code == 200


def test_configured_secret_key_and_database(tmp_path, monkeypatch):
    monkeypatch.setenv("FLASK_SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.sqlite'}")
    app = create_app(instance_path=str(tmp_path / "instance"))
    assert app.config["SECRET_KEY"] == "from-env"
    assert not (tmp_path / "instance" / "secret_key").exists()
    assert (tmp_path / "elsewhere.sqlite").exists()


def test_resources_resolve_from_the_checkout():
    assert Path(resource_dir("templates")) == ROOT / "templates"
    assert Path(resource_dir("static")) == ROOT / "static"
    assert (ROOT / "templates" / "base.html").exists()


def test_database_urls_use_psycopg_3():
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_migrations_create_every_table(app):
    engine = app.extensions["scorekeeper"].db.engine
    tables = set(inspect(engine).get_table_names())
    assert {"players", "pulkas", "pulka_players", "deals", "accounts", "api_tokens", "shares", "pulka_access",
            "login_failures", "idempotency_keys", "generations", "sessions", "ledger_payments",
            "alembic_version"} <= tables
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0015"
    app.extensions["scorekeeper"].db.upgrade()  # again: nothing to do


def test_db_upgrade_command(tmp_path):
    url = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    assert build_parser().parse_args(["db", "upgrade", "--url", url]).run(
        build_parser().parse_args(["db", "upgrade", "--url", url])) == 0
    engine = create_engine(url)
    assert "deals" in inspect(engine).get_table_names()
    engine.dispose()


def test_serve_arguments():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 5000)
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "8080"])
    assert (args.host, args.port) == ("0.0.0.0", 8080)


def test_the_engine_never_imports_flask():
    code = "import sys, scorekeeper.engine, scorekeeper.files.pulyafile, scorekeeper.cli; print('flask' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_scorekeeper_serve_runs_the_real_server(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "FLASK_SECRET_KEY")}
    env["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    server = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        def post(path, body, token=""):
            headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
            return json.load(urllib.request.urlopen(urllib.request.Request(
                base + path, data=json.dumps(body).encode(), headers=headers)))

        credentials = {"username": "anna", "password": "a long password"}
        post("/api/v1/accounts", credentials)
        token = post("/api/v1/tokens", credentials)["token"]
        pulka = post("/api/v1/import", SOCHI, token)
        share = post(f"/api/v1/pulkas/{pulka['id']}/shares", {"role": "viewer"}, token)
        phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # keeps the session cookie
        with phone.open(share["url"]) as response:  # the link, as a phone opens it
            page = response.read().decode()
            assert response.headers["Server"] == "scorekeeper"
        assert "−107.33" in page
        assert (tmp_path / "instance" / "scorekeeper.sqlite").exists()
    finally:
        server.terminate()
        server.wait(10)


def test_concurrent_phones_queue_up(app):
    client = signed_in(app)
    pulka_id = create(client, rules={"preset": "sochi", "pulya_size": 1000})
    statuses = []

    def phone():
        phone_client = app.test_client()  # each phone its own connection, with the owner's token
        phone_client.environ_base.update(client.environ_base)
        response = phone_client.post(f"/api/v1/pulkas/{pulka_id}/deals",
                                     json={"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=phone) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 8
    deals = client.get(f"/api/v1/pulkas/{pulka_id}/deals").json
    assert [d["n"] for d in deals["deals"]] == list(range(1, 9))
    assert deals["version"] == 9
    assert [d["raspasy_k"] for d in deals["deals"]] == list(range(1, 9))
    assert len(snapshot(app)["deals"]) == 8


@pytest.mark.parametrize("path", ["templates", "static"])
def test_the_wheel_ships_templates_static_and_migrations(path):
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'"{path}" = "scorekeeper/{path}"' in pyproject
    assert (ROOT / "scorekeeper" / "web" / "store" / "migrations" / "versions" / "0001_initial.py").exists()


def test_two_pulkas_created_at_once_share_a_new_player(app):
    """Both phones add the same new player at the same moment, each having looked him up and found him new:
    neither gets an error, and he is one player (tests/web/system/test_nothing_lost.py: 250 at once, real servers)."""
    from sqlalchemy import event

    from scorekeeper.engine import Rules
    from scorekeeper.web.domain.pulkas import Settings
    from scorekeeper.web.services import pulkas

    repo = app.extensions["scorekeeper"]
    owner = repo.accounts.create_account("owner", "not a real hash").id
    barrier = threading.Barrier(2, timeout=10)
    first_inserts = iter(range(2))

    def both_found_him_new(connection, cursor, statement, *args):
        if statement.startswith("INSERT INTO players") and next(first_inserts, None) is not None:
            barrier.wait()  # both transactions have looked him up, and neither has added him yet

    event.listen(repo.db.engine, "before_cursor_execute", both_found_him_new)
    results, errors = [], []

    def create(name):
        settings = Settings(name, "", ("Anna", "Boris", "Newcomer"), 0, Rules.of("sochi"))
        try:
            results.append(pulkas.create_pulka(repo.pulkas, owner, settings))
        except Exception as error:  # noqa: BLE001 - the test reports whatever escapes
            errors.append(error)

    threads = [threading.Thread(target=create, args=(f"table {i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    event.remove(repo.db.engine, "before_cursor_execute", both_found_him_new)
    assert errors == [] and len(results) == 2
    assert pulkas.player_names(repo.pulkas, owner).count("Newcomer") == 1


def test_a_connection_the_database_dropped_is_replaced(database_url, monkeypatch):
    """After the database server restarts, the first request still works: a connection that sat idle is
    tested before use and replaced when dead (busy ones are not tested, to spare a round trip)."""
    from scorekeeper.web.store import db

    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no server to drop a connection")
    database = db.Database(database_url)
    with database.engine.connect() as connection:
        pid = connection.execute(text("SELECT pg_backend_pid()")).scalar()
    with create_engine(database_url).begin() as admin:  # the server ends that connection
        admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)
    with database.reads.connect() as connection:
        assert connection.execute(text("SELECT 1")).scalar() == 1
    database.engine.dispose()


def test_the_app_remembers_which_hooks_are_synchronous_and_forgets_those_made_for_one_request(database_url, tmp_path):
    """Flask asks whether each view and hook is a coroutine every time it calls one; the app remembers the
    answer for those it keeps, and a function made for one request (after_this_request) is not kept by it."""
    import gc

    from flask import after_this_request

    from scorekeeper.web.edge.access import Need, needs

    app = make_app(database_url, tmp_path)

    @app.get("/_one_request")
    @needs(Need.ANYONE)
    def one_request():
        @after_this_request
        def marked(response):
            response.headers["X-Made"] = "for this request"
            return response

        return "made"

    client = app.test_client()
    first = client.get("/_one_request")
    gc.collect()
    kept = len(app._synchronous)
    for _ in range(5):
        response = client.get("/_one_request")
        assert response.headers["X-Made"] == "for this request" and response.text == "made"
    gc.collect()
    assert first.status_code == 200 and len(app._synchronous) == kept
    assert app.view_functions["one_request"] in app._synchronous and app.ensure_sync(one_request) is one_request
    app.extensions["scorekeeper"].db.engine.dispose()
