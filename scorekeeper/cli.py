"""The `scorekeeper` command: replay a pulka file, settle a paper sheet, run the web app, upgrade, back up and restore
its database. What the file commands write for people is cli_format's."""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .cli_format import format_paper, format_result, language_wanted
from .engine import Code, Problem
from .files import sheetfile
from .files.pulyafile import FileError, loads, replay_for_result, write_result
from .i18n.words import literal

if TYPE_CHECKING:  # the web's libraries load only when a command needs them
    from .web.store.accounts import AccountStore


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def _one_line(text: str) -> str:
    """Control characters from the file (a key or a name with a newline) escaped, so the error stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """A replay allocates thousands of small objects that all survive it: the cyclic collector
    would rescan them again and again (a quarter of the replay's time) and can find no garbage."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_file(path: str) -> bytes:
    try:
        return _read(path)
    except OSError as error:
        raise FileError(Problem(Code.BAD_JSON, "", literal(f"cannot read {path}: {error.strerror}"))) from None


def _refused(error: FileError, as_json: bool) -> int:
    """A file's problem: one line on standard error (and §3's object with --json), exit status 2."""
    problem = error.problem
    where = f"field {problem.field}" if problem.field else "the file"
    print(_one_line(f"scorekeeper: {error.message} ({problem.code.value}, {where})"), file=sys.stderr)
    if as_json:
        print(json.dumps(error.to_json(), ensure_ascii=False))
    return 2


def settle_command(args: argparse.Namespace) -> int:
    try:
        paper = sheetfile.loads(_read_file(args.file))
    except FileError as error:
        return _refused(error, args.json)
    print(json.dumps(sheetfile.result_json(paper), ensure_ascii=False) if args.json
          else format_paper(paper, language_wanted(args.lang)))
    return 0


def replay_command(args: argparse.Namespace) -> int:
    try:
        pulka = loads(_read_file(args.file))
        with _gc_paused():
            replayed = replay_for_result(pulka) if args.json else pulka.replay()
    except FileError as error:
        return _refused(error, args.json)
    if args.json:
        with _gc_paused():  # the lines written are let go as they are written: no cycles among them
            write_result(pulka, replayed, sys.stdout)
        print()
    else:
        print(format_result(pulka, replayed, language_wanted(args.lang)))
    return 0


Command = Callable[[argparse.Namespace], int]


def _operational(command: Command) -> Command:
    """A database command: what stops it (no database, no access, a refused restore) is one line on
    standard error and exit status 1, never a traceback."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        from .web.store.backup import BackupError  # the database's libraries only when a database is wanted
        from .web.store.db import Unavailable

        try:
            return command(args)
        except (Unavailable, BackupError) as error:
            print(_one_line(f"scorekeeper: {error}"), file=sys.stderr)
            return 1

    return run


@_operational
def serve_command(args: argparse.Namespace) -> int:
    from .web import create_app, serve  # Flask only when the app is wanted
    from .web.store.db import safe_url

    app = create_app()
    where = f"http://{args.host}:{args.port}/"
    processes = f", {args.workers} processes" if args.workers > 1 else ""
    print(f"scorekeeper: serving on {where} (database: {safe_url(app.extensions['scorekeeper'].db.url)}"
          f"{processes})", flush=True)
    # A service manager's stop (SIGTERM) ends waitress's loop as Ctrl-C does, so the connections get
    # closed below, and closing SQLite's last one moves its write-ahead log into the database file.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        serve(app, host=args.host, port=args.port, threads=args.threads, workers=args.workers)
    except OSError as error:  # the port is taken, or the address is not this machine's
        print(_one_line(f"scorekeeper: cannot serve on {where}: {error.strerror or error}"), file=sys.stderr)
        return 1
    finally:
        app.extensions["scorekeeper"].db.engine.dispose()
    return 0


def _database_url(args: argparse.Namespace, create: bool) -> str:
    """--url, else DATABASE_URL, else the instance folder's SQLite file (the folder made first if `create`)."""
    url = args.url or os.environ.get("DATABASE_URL")
    if url:
        return url
    from .web.app import instance_database_url, instance_folder, prepare_instance

    instance = instance_folder()
    if create:
        prepare_instance(instance)
    return instance_database_url(instance)


@_operational
def db_upgrade_command(args: argparse.Namespace) -> int:
    from .web.store.db import Database

    database = Database(_database_url(args, create=True))
    database.open()
    database.engine.dispose()
    print("scorekeeper: the database is up to date")
    return 0


def _accounts() -> AccountStore:
    """The accounts of the app this machine serves (DATABASE_URL, or the instance folder's SQLite file)."""
    from .web.app import create_app
    from .web.edge.context import store

    return store(create_app()).accounts


def _new_password() -> str:
    """Asked twice at a terminal; from a pipe, the first two lines (for scripts)."""
    if sys.stdin.isatty():
        import getpass

        first, second = getpass.getpass("Password: "), getpass.getpass("The same again: ")
    else:
        first, second = (sys.stdin.readline().rstrip("\n") for _ in range(2))
    if first != second:
        raise SystemExit("scorekeeper: the two passwords differ; nothing was made")
    return first


@_operational
def account_create_command(args: argparse.Namespace) -> int:
    from .web.services import accounts
    from .web.domain.accounts import CreateAccount
    from .web.domain.refusals import Refused

    password = _new_password()
    try:
        made = accounts.register(_accounts(), CreateAccount(args.username, password), open_registration=True)
    except Refused as error:
        print(f"scorekeeper: {error.message}", file=sys.stderr)
        return 1
    role = "the administrator" if made.is_admin else "an account"
    print(f"scorekeeper: {made.username} is {role} of this server")
    return 0


@_operational
def db_claim_command(args: argparse.Namespace) -> int:
    from .web.services import accounts
    from .web.domain.refusals import Refused

    try:
        count = accounts.claim(_accounts(), args.username)
    except Refused:
        print(f"scorekeeper: there is no account {args.username!r}", file=sys.stderr)
        return 1
    print(f"scorekeeper: {count} pulka{'' if count == 1 else 's'} from before accounts now belong to {args.username}")
    return 0


@_operational
def stats_verify_command(args: argparse.Namespace) -> int:
    """Every frozen pulka replayed by this engine: those it would settle otherwise are listed, exit status 1;
    nothing is changed."""
    from .web.services import results
    from .web.store import Database, Store

    database = Database(_database_url(args, create=False))
    database.open()
    store = Store(database)
    differ = 0
    try:
        for pulka, now in results.verify(store.pulkas, store.results):
            differ += 1
            assert pulka.frozen is not None
            kept = ", ".join(f"{n} {v}" for n, v in zip(pulka.players, pulka.frozen.net))
            fresh = ", ".join(f"{n} {v}" for n, v in zip(pulka.players, now.net))
            print(f"{pulka.uid} {pulka.name!r} (engine {pulka.frozen.engine}): kept {kept}; now {fresh}")
        checked = sum(1 for _ in store.results.frozen_uids())
    finally:
        store.close()
    print(f"scorekeeper: {checked} frozen pulka{'' if checked == 1 else 's'} checked, {differ} would be settled "
          f"otherwise; nothing was changed")
    return 1 if differ else 0


@_operational
def backup_command(args: argparse.Namespace) -> int:
    """`backup` and `restore`: the same database, found the same way, in either direction."""
    from .web.store import backup, restore
    from .web.store.db import safe_url

    restoring = args.command == "restore"
    url = _database_url(args, create=restoring)  # a backup only reads: it makes no instance folder
    done = (restore.restore if restoring else backup.backup)(url, Path(args.file))
    if restoring:
        print(_one_line(f"scorekeeper: restored {args.file} ({done}) into {safe_url(url)}"))
    else:
        print(_one_line(f"scorekeeper: backed up {safe_url(url)} to {args.file} ({done})"))
    return 0


LANG_HELP = "the language of the text for people: en or ru (default: the environment's, LANG and the like)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper", description="The electronic pulya for Preferans.")
    parser.add_argument("--version", action="version", version=f"scorekeeper {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="score a pulka file (pulya/1) and settle it")
    replay.add_argument("file", help="the pulka file, or - for standard input")
    replay.add_argument("--json", action="store_true", help="print the pulya-result/1 object")
    replay.add_argument("--lang", help=LANG_HELP)
    replay.set_defaults(run=replay_command)
    paper = commands.add_parser("settle", help="settle a paper sheet's totals (pulya-sheet/1)")
    paper.add_argument("file", help="the sheet file, or - for standard input")
    paper.add_argument("--json", action="store_true", help="print the pulya-result/1 object")
    paper.add_argument("--lang", help=LANG_HELP)
    paper.set_defaults(run=settle_command)

    serve = commands.add_parser("serve", help="run the web app (waitress); the database is created or upgraded first")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    serve.add_argument("--threads", type=int, default=8, help="threads per process (default 8)")
    serve.add_argument("--workers", type=int, default=1,
                       help="server processes sharing the port (default 1); use PostgreSQL beyond one or two")
    serve.set_defaults(run=serve_command)

    url_help = "database URL (default: DATABASE_URL, else the instance folder's SQLite file)"
    db = commands.add_parser("db", help="database maintenance")
    db_commands = db.add_subparsers(dest="db_command", required=True)
    upgrade = db_commands.add_parser("upgrade", help="apply the schema migrations (the app also does on start)")
    upgrade.add_argument("--url", help=url_help)
    upgrade.set_defaults(run=db_upgrade_command)
    claim = db_commands.add_parser("claim", help="give the pulkas from before accounts to an account")
    claim.add_argument("username")
    claim.set_defaults(run=db_claim_command)

    account = commands.add_parser("account", help="accounts of the web app")
    account_commands = account.add_subparsers(dest="account_command", required=True)
    create = account_commands.add_parser(
        "create", help="make an account, asking for its password (the first account is the administrator)")
    create.add_argument("username")
    create.set_defaults(run=account_create_command)

    stats = commands.add_parser("stats", help="the statistics' stored results")
    stats_commands = stats.add_subparsers(dest="stats_command", required=True)
    verify = stats_commands.add_parser("verify", help="replay every frozen pulka and list those this engine would "
                                                      "settle otherwise (exit status 1); changes nothing")
    verify.add_argument("--url", help=url_help)
    verify.set_defaults(run=stats_verify_command)

    backup = commands.add_parser("backup", help="copy the database to FILE, also while the server runs")
    backup.add_argument("file", help="FILE.json.gz: an archive (SQLite or PostgreSQL); any other name: "
                                     "an SQLite copy (SQLite only)")
    backup.add_argument("--url", help=url_help)
    backup.set_defaults(run=backup_command)
    restore = commands.add_parser("restore", help="restore a backup into an empty database")
    restore.add_argument("file", help="a file written by scorekeeper backup (either kind)")
    restore.add_argument("--url", help=url_help)
    restore.set_defaults(run=backup_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (`| head`): nothing more to say, and nothing to say it to. Standard output is
        # pointed at nothing, so that Python's own flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
