"""Backups: a consistent copy of the database while the server runs, and its restore into an empty one.

Two kinds of file:
- an SQLite copy, made with SQLite's online backup API: a snapshot even while the server writes,
  whatever is still only in the write-ahead log included, written as one self-contained file;
- an archive (FILE.json.gz), of either database: gzip'd JSON with the format, the Alembic revision
  and every table's rows in dependency order, all read in one snapshot. The tables are found by
  reflection, so a table a later migration adds is backed up without a change here.

Restore takes either kind into either database: the rows go in at the revision they were written
at, and the migrations bring them to this version's schema.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import sqlite3
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import JSON, Connection, Engine, MetaData, Table, Text, cast, create_engine, func, inspect, select, text
from sqlalchemy.pool import StaticPool

from .db import Database, safe_url, sqlite_path

FORMAT = "scorekeeper-backup/1"
ARCHIVE_SUFFIX = ".json.gz"
SQLITE_HEADER = b"SQLite format 3\x00"
GZIP_HEADER = b"\x1f\x8b"
VERSION_TABLE = "alembic_version"
# Tables whose rows a migration makes (a new database has them): not data that makes a database not empty, and
# replaced by the archive's when it has them.
MADE_BY_MIGRATIONS = {"generations"}


class BackupError(Exception):
    """A backup or restore refused or failed, said in one line."""


@dataclass(frozen=True)
class Done:
    kind: str  # of the backup file: "SQLite copy" or "archive"
    tables: int
    rows: int

    def __str__(self) -> str:
        return f"{self.kind}: {self.rows} rows in {self.tables} tables"


# -- backup -----------------------------------------------------------------------------------------


def backup(url: str, file: Path) -> Done:
    """Write the database at `url` to `file`: an archive when its name ends in .json.gz, else an
    SQLite copy (SQLite only). The file appears whole or not at all, readable by its owner alone."""
    archive = file.name.endswith(ARCHIVE_SUFFIX)
    database = Database(url)
    try:
        if database.engine.dialect.name != "sqlite":
            if not archive:
                raise BackupError(f"a PostgreSQL database is backed up as an archive: name the file "
                                  f"something{ARCHIVE_SUFFIX}")
            with database.reporting(), _repeatable_read(database.engine) as connection:
                document = dump(connection, safe_url(database.url))
            return _write_archive(file, document)
        path = sqlite_path(database.url)
        if path is not None and not path.is_file():
            raise BackupError(f"cannot open the database at {safe_url(database.url)}: there is no such file")
        with database.reporting(), database.engine.connect() as connection:
            source = connection.connection.driver_connection
            assert isinstance(source, sqlite3.Connection)
            if archive:
                with _snapshot(source) as snapshot:
                    document = dump(snapshot, safe_url(database.url))
                return _write_archive(file, document)
            _written(file, lambda temporary: _sqlite_copy(source, temporary))
            with snapshot_of_file(file) as copy:
                return Done("SQLite copy", *_count(copy))
    finally:
        database.engine.dispose()


@contextmanager
def _repeatable_read(engine: Engine) -> Iterator[Connection]:
    # One snapshot for every table: a deal written meanwhile is in the backup with its pulka, or not at all.
    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection, connection.begin():
        yield connection


def _sqlite_copy(source: sqlite3.Connection, target: Path) -> None:
    copy = sqlite3.connect(target)
    try:
        # One step (pages=-1) reads the whole database in one read transaction: a snapshot, however
        # much the server writes meanwhile, including what only the write-ahead log holds.
        source.backup(copy)
        # One self-contained file: no -wal beside it to be forgotten when the copy is moved.
        copy.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as error:
        raise BackupError(f"cannot copy the database to {target.name}: {error}") from error
    finally:
        copy.close()


@contextmanager
def _snapshot(source: sqlite3.Connection) -> Iterator[Connection]:
    """A consistent copy of an SQLite database in memory, to read as a snapshot."""
    memory = sqlite3.connect(":memory:", check_same_thread=False)
    source.backup(memory)
    engine = create_engine("sqlite://", creator=lambda: memory, poolclass=StaticPool)
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()
        memory.close()


@contextmanager
def snapshot_of_file(file: Path) -> Iterator[Connection]:
    try:
        source = sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise BackupError(f"cannot read {file}: {error}") from error
    try:
        with _snapshot(source) as snapshot:
            yield snapshot
    except sqlite3.DatabaseError as error:
        raise BackupError(f"cannot read {file}: {error}") from error
    finally:
        source.close()


def _count(connection: Connection) -> tuple[int, int]:
    tables = data_tables(connection)
    return len(tables), sum(connection.execute(select(func.count()).select_from(t)).scalar_one() for t in tables)


def data_tables(connection: Connection) -> list[Table]:
    """Every table but Alembic's, parents before children."""
    metadata = MetaData()
    metadata.reflect(connection)
    return [table for table in metadata.sorted_tables if table.name != VERSION_TABLE]


def revision_of(connection: Connection) -> str | None:
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def dump(connection: Connection, where: str) -> dict[str, Any]:
    """The archive document of the database `connection` reads (in the snapshot it is in)."""
    revision = revision_of(connection)
    if revision is None:
        raise BackupError(f"{where} holds no scorekeeper database (no {VERSION_TABLE} table)")
    tables = []
    for table in data_tables(connection):
        # A JSON column is kept as the text the database holds: exact, and SQL NULL stays apart from JSON null.
        columns = [cast(c, Text) if isinstance(c.type, JSON) else c for c in table.columns]
        rows = connection.execute(select(*columns).order_by(*table.primary_key.columns))
        tables.append({"name": table.name, "columns": [c.name for c in table.columns],
                       "rows": [[_encode(table, value) for value in row] for row in rows]})
    return {"format": FORMAT, "revision": revision, "tables": tables}


def _encode(table: Table, value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (date, time)):  # and datetime
        return value.isoformat()
    if isinstance(value, (Decimal, uuid.UUID)):
        return str(value)
    if isinstance(value, (bytes, memoryview)):
        return base64.b64encode(bytes(value)).decode()
    raise BackupError(f"cannot archive table {table.name}: a value of type {type(value).__name__}")


def _write_archive(file: Path, document: dict[str, Any]) -> Done:
    data = gzip.compress(json.dumps(document, ensure_ascii=False).encode())
    _written(file, lambda temporary: temporary.write_bytes(data))
    return Done("archive", len(document["tables"]), sum(len(t["rows"]) for t in document["tables"]))


def _written(file: Path, write: Callable[[Path], object]) -> None:
    """Write through a private temporary file beside `file`, renamed over it once complete: a failed
    backup never leaves half a file where the last good one was."""
    try:
        handle, name = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".partial")
        os.close(handle)
    except OSError as error:
        raise BackupError(f"cannot write {file}: {error.strerror}") from error
    temporary = Path(name)
    try:
        write(temporary)
        os.replace(temporary, file)
    except OSError as error:
        raise BackupError(f"cannot write {file}: {error.strerror}") from error
    finally:
        temporary.unlink(missing_ok=True)
