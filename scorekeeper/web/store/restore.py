"""Restoring a backup (store.backup) into an empty database: the rows go in at the schema revision they
were written at, and the migrations bring them to this version's schema. Every row is checked first
(store.archived); the tables go in parents first, and a reference the order of the rows cannot meet (a
player merged into a newer one) is filled in once every row is in."""

from __future__ import annotations

import base64
import gzip
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, time, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import (JSON, BindParameter, Cast, Column, Connection, Date, DateTime, Engine, Float, Integer,
                        LargeBinary, Numeric, Table, Text, Time, Uuid, bindparam, cast, exc, func, insert, select, update)

from .backup import (FORMAT, GZIP_HEADER, MADE_BY_MIGRATIONS, SQLITE_HEADER, BackupError, Done, data_tables,
                     revision_of, snapshot_of_file, dump)
from .archived import Damaged, check_keys, check_pulkas, check_rows
from .accounts import RECOUNT_DEALS
from .db import Database, alembic_config, safe_url, upgrade
from .models import Base


def restore(url: str, file: Path) -> Done:
    """Restore `file` (an archive or an SQLite copy) into the empty database at `url`."""
    kind, document = read(file)
    database = Database(url)
    try:
        with database.reporting():
            tables, rows = _restore(database, document)
    except Damaged as error:
        raise BackupError(f"{file} is damaged: {error}; nothing was restored") from None
    except (KeyError, TypeError, ValueError) as error:
        raise BackupError(f"{file} is damaged: {type(error).__name__} {error}") from error
    finally:
        database.engine.dispose()
    return Done(kind, tables, rows)


def read(file: Path) -> tuple[str, dict[str, Any]]:
    """The kind of a backup file and its archive document."""
    try:
        data = file.read_bytes()
    except OSError as error:
        raise BackupError(f"cannot read {file}: {error.strerror}") from error
    if data.startswith(SQLITE_HEADER):
        with snapshot_of_file(file) as snapshot:
            return "SQLite copy", dump(snapshot, str(file))
    try:
        document = json.loads(gzip.decompress(data)) if data.startswith(GZIP_HEADER) else None
    except (OSError, EOFError, ValueError) as error:
        raise BackupError(f"{file} is not a scorekeeper archive: {error}") from error
    if not (isinstance(document, dict) and document.get("format") == FORMAT
            and isinstance(document.get("revision"), str) and isinstance(document.get("tables"), list)):
        raise BackupError(f"{file} is neither a scorekeeper archive ({FORMAT}) nor an SQLite database")
    return "archive", document


def _restore(database: Database, document: dict[str, Any]) -> tuple[int, int]:
    engine, revision = database.engine, document["revision"]
    database.private()
    with engine.connect() as connection:
        current = revision_of(connection)
        for table in data_tables(connection):
            if table.name in MADE_BY_MIGRATIONS:
                continue
            rows = connection.execute(select(func.count()).select_from(table)).scalar_one()
            if rows:
                raise BackupError(f"the database at {safe_url(database.url)} already holds data ({rows} "
                                  f"row{'' if rows == 1 else 's'} in table {table.name}): restore only into a new, empty database")
    known = {script.revision for script in ScriptDirectory.from_config(alembic_config()).walk_revisions()}
    if revision not in known:
        raise BackupError(f"the backup is of schema revision {revision}, which this scorekeeper does not know: "
                          f"restore it with the version that wrote it")
    if current is None:
        upgrade(engine, revision)  # the schema the rows were written in; the migrations bring them on after
    elif current != revision:
        raise BackupError(f"the database at {safe_url(database.url)} is at schema revision {current}, the backup "
                          f"at {revision}: restore into a new, empty database")
    with engine.begin() as connection:
        counts = load(connection, document["tables"])
    upgrade(engine)
    with engine.begin() as connection:
        connection.execute(RECOUNT_DEALS)
    if revision != _head():
        _read_back(engine)
    return counts


def _head() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _read_back(engine: Engine) -> None:
    """An older archive's pulkas, brought to this schema by the migrations, read as the app reads them; one
    it cannot read takes every restored row out again, so the database is as empty as it was."""
    with engine.connect() as connection:
        now = dump(connection, safe_url(str(engine.url)))
    try:
        check_pulkas({table["name"]: (table["columns"], table["rows"]) for table in now["tables"]})
    except Damaged:
        with engine.begin() as connection:
            for table in reversed(data_tables(connection)):
                if table.name not in MADE_BY_MIGRATIONS:
                    connection.execute(table.delete())
        raise


def load(connection: Connection, archived: list[dict[str, Any]]) -> tuple[int, int]:
    """Insert the archive's tables into the tables of the database `connection` writes; the tables and
    rows inserted."""
    by_name = {table["name"]: table for table in archived}
    tables = data_tables(connection)
    missing = set(by_name) - {table.name for table in tables}
    if missing:
        raise BackupError(f"the backup has tables this database lacks: {', '.join(sorted(missing))}")
    # Every row is checked before any is written: a restore is all of the archive or nothing.
    given = {}
    for table in tables:
        archived_table = by_name.get(table.name, {"columns": [], "rows": []})
        names, rows = archived_table["columns"], archived_table["rows"]
        unknown = set(names) - set(table.columns.keys())
        if unknown:
            raise BackupError(f"the backup has columns table {table.name} lacks: {', '.join(sorted(unknown))}")
        if not isinstance(rows, list) or any(not isinstance(row, list) or len(row) != len(names) for row in rows):
            raise BackupError(f"the backup's table {table.name} has rows of the wrong length")
        check_rows(table, names, rows)
        given[table.name] = (names, rows)
    check_keys(tables, given)
    if _at_head(tables):
        check_pulkas(given)  # as the app will read them; an older archive's rows are read after its migrations
    order = {table.name: number for number, table in enumerate(tables)}
    inserted, later = 0, []
    for table in tables:  # parents first, whatever order the archive has
        names, rows = given[table.name]
        if not rows:
            continue
        if table.name in MADE_BY_MIGRATIONS:
            connection.execute(table.delete())
        # A reference to a row that may go in after this one (a player merged into a newer one, a circle of
        # them) goes in empty, and is filled in once every row is: any order the club's rows came in restores.
        late = _late(table, order) & set(names)
        columns = [table.columns[name] for name in names]
        values = {c.name: _parameter(connection, c, f"p{i}") for i, c in enumerate(columns)}
        with _rules_of(table):
            connection.execute(insert(table).values(values), [
                {f"p{i}": None if c.name in late else _decode(c, v) for i, (c, v) in enumerate(zip(columns, row))}
                for row in rows])
        _reset_sequences(connection, table)
        inserted += len(rows)
        if late:
            later.append((table, late))
    for table, late in later:
        with _rules_of(table):
            _fill_in(connection, table, late, *given[table.name])
    return len(tables), inserted


@contextmanager
def _rules_of(table: Table) -> Iterator[None]:
    """What check_keys cannot see (a partial unique index: one administrator) the database refuses: said of
    the table, by the rule the database named, without the values (PostgreSQL's detail line shows them)."""
    try:
        yield
    except exc.IntegrityError as error:
        rule = getattr(getattr(error.orig, "diag", None), "message_primary", None) or str(error.orig)
        raise BackupError(f"the backup's table {table.name} breaks a rule of the database ({rule.splitlines()[0]}): "
                          f"nothing was restored") from None


def _late(table: Table, order: dict[str, int]) -> set[str]:
    """The columns of `table` that refer to its own rows or to a table loaded after it: those the rows go in
    without. Only a column that may be empty can be (tests/web/system/test_backup_references.py checks the
    models' are); the rows of a table without a primary key could not be found again to fill it in."""
    if not table.primary_key.columns:
        return set()
    return {column for reference in table.foreign_key_constraints
            if order.get(reference.referred_table.name, -1) >= order[table.name]
            for column in reference.column_keys if table.columns[column].nullable}


def _fill_in(connection: Connection, table: Table, late: set[str], names: list[str], rows: list[list[Any]]) -> None:
    """Set the `late` columns of the rows that hold a value in them, each row found by its primary key."""
    keys = list(table.primary_key.columns)
    filled = [table.columns[name] for name in names if name in late]
    at = {name: index for index, name in enumerate(names)}
    statement = update(table).where(*(key == _parameter(connection, key, f"k{i}") for i, key in enumerate(keys))
                                    ).values({c.name: _parameter(connection, c, f"p{i}") for i, c in enumerate(filled)})
    changes = [{f"k{i}": _decode(key, row[at[key.name]]) for i, key in enumerate(keys)}
               | {f"p{i}": _decode(c, row[at[c.name]]) for i, c in enumerate(filled)}
               for row in rows if any(row[at[c.name]] is not None for c in filled)]
    if changes:
        connection.execute(statement, changes)


def _at_head(tables: list[Table]) -> bool:
    """Whether the tables have every column of this version's models (the archive is of this schema)."""
    found = {table.name: set(table.columns.keys()) for table in tables}
    return all(set(model.columns.keys()) <= found.get(name, set()) for name, model in Base.metadata.tables.items())


def _parameter(connection: Connection, column: Column[Any], name: str) -> BindParameter[Any] | Cast[Any]:
    if isinstance(column.type, JSON):
        # The archived JSON text goes in as it is; PostgreSQL needs the text cast to json.
        parameter = bindparam(name, type_=Text)
        return cast(parameter, column.type) if connection.dialect.name == "postgresql" else parameter
    return bindparam(name, type_=column.type)


def _decode(column: Column[Any], value: Any) -> Any:
    kind = column.type
    if value is None or isinstance(kind, JSON):
        return value
    if isinstance(kind, DateTime):
        moment = datetime.fromisoformat(value)
        if moment.tzinfo:
            moment = moment.astimezone(timezone.utc)
        # A time without a zone is UTC: the app writes nothing else, and SQLite keeps no zone.
        return moment.replace(tzinfo=timezone.utc) if kind.timezone else moment.replace(tzinfo=None)
    if isinstance(kind, Date):
        return date.fromisoformat(value)
    if isinstance(kind, Time):
        return time.fromisoformat(value)
    if isinstance(kind, LargeBinary):
        return base64.b64decode(value)
    if isinstance(kind, Numeric) and not isinstance(kind, Float) and isinstance(value, str):
        return Decimal(value)
    if isinstance(kind, Uuid) and kind.as_uuid:
        return uuid.UUID(value)
    return value


def _reset_sequences(connection: Connection, table: Table) -> None:
    """PostgreSQL's sequences do not see the ids inserted: move each past the largest, so that the next
    row gets a fresh id. (SQLite takes the largest rowid + 1 by itself.)"""
    if connection.dialect.name != "postgresql":
        return
    quoted = connection.dialect.identifier_preparer.quote(table.name)
    for column in table.columns:
        if not isinstance(column.type, Integer):
            continue
        sequence = connection.execute(select(func.pg_get_serial_sequence(quoted, column.name))).scalar()
        if sequence:
            largest = connection.execute(select(func.max(column))).scalar()
            connection.execute(select(func.setval(sequence, largest or 1, largest is not None)))
