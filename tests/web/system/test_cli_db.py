"""The database commands as an operator meets them: `serve`, `db upgrade`, `backup` and `restore` either
work, or say in one line on standard error why not and exit with status 1; never a traceback. The
server's files are private, and it does not start on a database it cannot write."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from scorekeeper.web import create_app
from scorekeeper.web.store.backup import backup
from scorekeeper.web.store.db import safe_url

from ..conftest import SOCHI, make_app
from .test_backup import app_url, close, fill, sheets
from .test_backup_references import BROKEN, a_club, the_club

UNREACHABLE = "postgresql+psycopg://nobody@127.0.0.1:1/x"
AS_ROOT = os.geteuid() == 0


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "FLASK_SECRET_KEY", "SCOREKEEPER_INSTANCE")}
    # The timeout only ends a `serve` that wrongly started; no test waits for it.
    return subprocess.run([sys.executable, "-m", "scorekeeper.cli", *args], env=clean | env,
                          capture_output=True, text=True, timeout=120)


def refused(done: subprocess.CompletedProcess) -> str:
    """The one line a refused command prints."""
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("archive")
    app = make_app(f"sqlite:///{folder / 'source.sqlite'}", folder)
    fill(app)
    backup(app_url(app), folder / "backup.json.gz")
    close(app)
    return folder / "backup.json.gz"


def commands(archive: Path, tmp_path: Path) -> dict[str, list[str]]:
    return {"serve": ["serve", "--port", str(free_port())], "db upgrade": ["db", "upgrade"],
            "backup": ["backup", str(tmp_path / "out.json.gz")], "restore": ["restore", str(archive)]}


COMMANDS = ["serve", "db upgrade", "backup", "restore"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("url, reason", [("nonsense://", "Can't load plugin: sqlalchemy.dialects:nonsense"),
                                         (UNREACHABLE, "Connection refused")])
def test_a_database_that_cannot_be_opened_is_one_line(command, url, reason, archive, tmp_path):
    line = refused(run(*commands(archive, tmp_path)[command], DATABASE_URL=url,
                       SCOREKEEPER_INSTANCE=str(tmp_path / "instance")))
    assert line.startswith(f"scorekeeper: cannot open the database at {url}: ")
    assert reason in line
    assert not (tmp_path / "out.json.gz").exists()


def test_db_upgrade_with_a_bad_url_option(tmp_path):
    line = refused(run("db", "upgrade", "--url", "nonsense://", SCOREKEEPER_INSTANCE=str(tmp_path / "instance")))
    assert line.startswith("scorekeeper: cannot open the database at nonsense://: ")


# Root writes into a folder of mode 0500 all the same: then only the folder that cannot be made runs.
UNWRITABLE = ["under a file", pytest.param("mode 0500", marks=pytest.mark.skipif(AS_ROOT, reason="root"))]


def unwritable(kind: str, tmp_path: Path) -> tuple[Path, str]:
    """An instance folder that cannot be created or written, and the system's reason."""
    if kind == "under a file":
        (tmp_path / "a-file").write_text("")
        return tmp_path / "a-file" / "instance", "Not a directory"
    (tmp_path / "read-only").mkdir(mode=0o500)
    return tmp_path / "read-only", "Permission denied"


@pytest.mark.parametrize("kind", UNWRITABLE)
@pytest.mark.parametrize("command", ["serve", "db upgrade", "restore"])
def test_an_instance_folder_that_cannot_be_written_is_one_line(command, kind, archive, tmp_path):
    instance, reason = unwritable(kind, tmp_path)
    line = refused(run(*commands(archive, tmp_path)[command], SCOREKEEPER_INSTANCE=str(instance)))
    assert line == f"scorekeeper: cannot write the instance folder {instance}: {reason}"


@pytest.mark.parametrize("kind", UNWRITABLE)
def test_backup_of_an_instance_folder_without_a_database_is_one_line(kind, archive, tmp_path):
    instance, _ = unwritable(kind, tmp_path)
    line = refused(run(*commands(archive, tmp_path)["backup"], SCOREKEEPER_INSTANCE=str(instance)))
    assert line == (f"scorekeeper: cannot open the database at sqlite:///{instance / 'scorekeeper.sqlite'}: "
                    f"there is no such file")


def read_only(url: str) -> tuple[str, str]:
    """The same database opened read-only, and what the database then says to a write."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"sqlite:///file:{parsed.database}?mode=ro&uri=true", "attempt to write a readonly database"
    options = parsed.query["options"] + " -cdefault_transaction_read_only=on"
    return (parsed.update_query_dict({"options": options}).render_as_string(hide_password=False),
            "cannot execute UPDATE in a read-only transaction")


def test_serve_refuses_a_database_it_cannot_write(database_url, tmp_path):
    close(make_app(database_url, tmp_path))  # the schema, written while allowed
    url, reason = read_only(database_url)
    line = refused(run("serve", "--port", str(free_port()), DATABASE_URL=url,
                       SCOREKEEPER_INSTANCE=str(tmp_path / "instance")))
    assert line == f"scorekeeper: cannot write to the database at {safe_url(url)}: {reason}"


def test_serve_on_a_port_in_use_is_one_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused(run("serve", "--port", str(port), SCOREKEEPER_INSTANCE=str(tmp_path / "instance")))
    assert line == f"scorekeeper: cannot serve on http://127.0.0.1:{port}/: Address already in use"


def test_a_stopped_server_leaves_everything_in_the_database_file(tmp_path):
    """After SIGTERM nothing is left only in the write-ahead log: the file alone holds every deal."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "FLASK_SECRET_KEY")}
    server = subprocess.Popen([sys.executable, "-m", "scorekeeper.cli", "serve", "--port", str(port)],
                              env=env | {"SCOREKEEPER_INSTANCE": str(tmp_path / "instance")},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith("scorekeeper: serving on")
        def post(path: str, body: dict, token: str = "") -> dict:
            headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                             headers=headers)
            return json.load(urllib.request.urlopen(request))

        credentials = {"username": "anna", "password": "a long password"}
        for _ in range(100):  # the line is printed just before waitress listens
            try:
                post("/api/v1/accounts", credentials)
                break
            except urllib.error.URLError:
                time.sleep(0.1)
        post("/api/v1/import", SOCHI, post("/api/v1/tokens", credentials)["token"])
        assert (tmp_path / "instance" / "scorekeeper.sqlite-wal").exists()
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) == 0
    finally:
        server.kill()
        server.communicate()
    assert not (tmp_path / "instance" / "scorekeeper.sqlite-wal").exists()
    shutil.copy(tmp_path / "instance" / "scorekeeper.sqlite", tmp_path / "plain.sqlite")
    plain = sqlite3.connect(tmp_path / "plain.sqlite")
    assert plain.execute("SELECT count(*) FROM deals").fetchone() == (len(SOCHI["deals"]),)
    plain.close()


# -- private files ------------------------------------------------------------------------------------


def mode(path: Path) -> str:
    return oct(stat.S_IMODE(path.stat().st_mode))


def test_the_instance_folder_database_and_key_are_private(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    app = create_app(instance_path=str(instance))
    assert mode(instance) == "0o700"
    for name in ("scorekeeper.sqlite", "scorekeeper.sqlite-wal", "scorekeeper.sqlite-shm", "secret_key"):
        assert mode(instance / name) == "0o600", name
    close(app)


def test_an_existing_database_and_key_are_made_private(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    earlier = create_app(instance_path=str(instance))  # still running, so its -wal file is there
    for name in ("scorekeeper.sqlite", "scorekeeper.sqlite-wal", "secret_key"):
        (instance / name).chmod(0o644)  # as an earlier version left them
    later = create_app(instance_path=str(instance))
    for name in ("scorekeeper.sqlite", "scorekeeper.sqlite-wal", "secret_key"):
        assert mode(instance / name) == "0o600", name
    close(later)
    close(earlier)


def test_db_upgrade_creates_a_private_instance(tmp_path):
    instance = tmp_path / "instance"
    done = run("db", "upgrade", SCOREKEEPER_INSTANCE=str(instance))
    assert done.returncode == 0 and done.stdout == "scorekeeper: the database is up to date\n", done.stderr
    assert (mode(instance), mode(instance / "scorekeeper.sqlite")) == ("0o700", "0o600")


# -- backup and restore from the command line ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["backup.json.gz", "backup.sqlite"])
def test_backup_and_restore_commands(name, tmp_path):
    served = tmp_path / "served"
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False}, instance_path=str(served))
    fill(app)
    file = tmp_path / name
    done = run("backup", str(file), SCOREKEEPER_INSTANCE=str(served))
    assert done.returncode == 0, done.stderr
    kind = "archive" if name.endswith(".json.gz") else "SQLite copy"
    assert done.stdout.startswith(f"scorekeeper: backed up sqlite:///{served / 'scorekeeper.sqlite'} to {file} "
                                  f"({kind}: ")

    new = tmp_path / "new"
    done = run("restore", str(file), SCOREKEEPER_INSTANCE=str(new))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"scorekeeper: restored {file} ({kind}: ")
    assert (mode(new), mode(new / "scorekeeper.sqlite")) == ("0o700", "0o600")
    restored = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False}, instance_path=str(new))
    assert sheets(restored) == sheets(app)

    again = refused(run("restore", str(file), "--url", app_url(restored)))
    assert again.startswith(f"scorekeeper: the database at {app_url(restored)} already holds data (")
    assert sheets(restored) == sheets(app)
    close(app)
    close(restored)



@pytest.mark.parametrize("name", ["backup.json.gz", "backup.sqlite"])
def test_the_commands_restore_a_club_that_merged_a_player_into_a_newer_one(name, tmp_path):
    served = tmp_path / "served"
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False}, instance_path=str(served))
    a_club(app).merge("Old", "Newest")
    file = tmp_path / name
    assert run("backup", str(file), SCOREKEEPER_INSTANCE=str(served)).returncode == 0

    new = tmp_path / "new"
    done = run("restore", str(file), SCOREKEEPER_INSTANCE=str(new))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"scorekeeper: restored {file} (")
    restored = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False}, instance_path=str(new))
    assert the_club(restored) == the_club(app)
    close(app)
    close(restored)


def test_the_restore_command_names_the_broken_reference_in_one_line(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'source.sqlite'}", tmp_path)
    a_club(app).merge("Old", "New")
    backup(app_url(app), tmp_path / "good.json.gz")
    close(app)
    change, words = BROKEN["a merge into a player the archive lacks"]
    broken = change(json.loads(gzip.decompress((tmp_path / "good.json.gz").read_bytes())))
    file = tmp_path / "broken.json.gz"
    file.write_bytes(gzip.compress(json.dumps(broken).encode()))
    line = refused(run("restore", str(file), SCOREKEEPER_INSTANCE=str(tmp_path / "new")))
    assert line == f"scorekeeper: {file} is damaged: {words(broken)}; nothing was restored"
