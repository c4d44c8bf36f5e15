"""An archive's rows checked before a restore writes any (store.restore): each value against its column (type,
size, a date-time the app reads back, JSON that parses), the keys of the rows against one another (no key twice,
every reference to a row the archive holds), and each pulka through the app's own readers, so a restored server
never answers 500 for what it was given. A refusal names the table, the row and the column,
never the value: a column of password hashes is as likely to be the wrong one as any other."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime, time, timezone
from typing import Any

from sqlalchemy import (JSON, BigInteger, Boolean, Date, DateTime, Float, Integer, Numeric, String, Table, Time,
                        UniqueConstraint)

from ...files import pulyafile
from ...engine import Deal, PulkaError, RulesError
from ..domain.reading import unstorable
from .deals import deal_of
from .models import DealRow, PlayerRow, PulkaRow, SeatRow
from .rows import pulka_of

INT_RANGE = (-(2**31), 2**31 - 1)
BIG_RANGE = (-(2**63), 2**63 - 1)


class Damaged(ValueError):
    """A value of the archive the database or the app could not take: where it is, and why (not what it is)."""

    def __init__(self, table: str, row: int, column: str, why: str):
        super().__init__(f"table {table}, row {row}, column {column}: {why}")


def check_rows(table: Table, names: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Every value of `rows` (as the archive writes them) fits its column of `table`; Damaged otherwise."""
    columns = [table.columns[name] for name in names]
    for number, row in enumerate(rows, 1):
        if not isinstance(row, list):
            raise Damaged(table.name, number, "*", "the row is not a list of values")
        for column, value in zip(columns, row):
            why = _wrong(column.type, value, column.nullable and not column.primary_key)
            if why:
                raise Damaged(table.name, number, column.name, why)


Given = Mapping[str, tuple[Sequence[str], Sequence[Sequence[Any]]]]  # by table: its columns' names and its rows


def check_keys(tables: Sequence[Table], given: Given) -> None:
    """The archive's keys as the database will hold them, whatever order its rows go in: no primary key or
    unique value twice in a table, and every reference (a seat's player, the player a merge made him one with,
    the payment a reversal takes back) to a row the archive holds. Damaged names the first row that breaks one,
    and the row or the table it clashes with."""
    for table in tables:
        names, rows = given.get(table.name, ((), ()))
        for columns in _unique(table):
            first: dict[tuple[Any, ...], int] = {}
            for number, key in _keys(names, rows, columns):
                if key in first:
                    raise Damaged(table.name, number, ", ".join(columns),
                                  f"the same as row {first[key]}'s, where the database keeps each once")
                first[key] = number
        for reference in table.foreign_key_constraints:
            referred = reference.referred_table.name
            held = {key for _, key in _keys(*given.get(referred, ((), ())), [e.column.name for e in reference.elements])}
            for number, key in _keys(names, rows, reference.column_keys):
                if key not in held:
                    raise Damaged(table.name, number, ", ".join(reference.column_keys),
                                  f"names a row of table {referred} that the backup does not hold")


def _unique(table: Table) -> list[list[str]]:
    """The columns of each of the table's keys: its primary key, its unique constraints and its unique indexes
    (a partial one, unique only where its condition holds, is the database's to check)."""
    keys = [[c.name for c in table.primary_key.columns]]
    keys += [[c.name for c in constraint.columns] for constraint in table.constraints
             if isinstance(constraint, UniqueConstraint)]
    keys += [[c.name for c in index.columns] for index in table.indexes if index.unique
             and not any(options.get("where") is not None for options in index.dialect_options.values())]
    return [key for key in keys if key]


def _keys(names: Sequence[str], rows: Sequence[Sequence[Any]], columns: Sequence[str]
          ) -> Iterator[tuple[int, tuple[Any, ...]]]:
    """Each row's number and its values of `columns`, for the rows that hold them all: an empty value is
    no key (the databases keep any number of them) and refers to nothing."""
    if not set(columns) <= set(names):
        return
    at = [list(names).index(column) for column in columns]
    for number, row in enumerate(rows, 1):
        key = tuple(row[i] for i in at)
        if None not in key:
            yield number, key


def _wrong(kind: Any, value: Any, nullable: bool | None) -> str | None:
    """Why `value` cannot go in a column of type `kind`; None when it can."""
    if value is None:
        return None if nullable else "empty, and the column must hold a value"
    if isinstance(kind, Boolean):
        return None if isinstance(value, bool) or value in (0, 1) else "not true or false"
    if isinstance(kind, Integer):
        low, high = BIG_RANGE if isinstance(kind, BigInteger) else INT_RANGE
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if ok else f"not a whole number from {low} to {high}"
    if isinstance(kind, JSON):
        if not isinstance(value, str):
            return "not the text of a JSON value"
        try:
            json.loads(value)
        except (ValueError, RecursionError):
            return "not valid JSON"
        return None if not unstorable(value) else "holds NUL or a lone surrogate"
    if isinstance(kind, DateTime):
        return _moment(value)
    if isinstance(kind, (Date, Time)):
        try:
            (date if isinstance(kind, Date) else time).fromisoformat(value)
        except (TypeError, ValueError):
            return "not an ISO 8601 date" if isinstance(kind, Date) else "not an ISO 8601 time"
        return None
    if isinstance(kind, (Float, Numeric)):
        return None if isinstance(value, (int, float, str)) and not isinstance(value, bool) else "not a number"
    if isinstance(kind, String):  # Text too
        if not isinstance(value, str):
            return "not text"
        if kind.length is not None and len(value) > kind.length:
            return f"longer than its {kind.length} characters"
        return "holds NUL or a lone surrogate" if unstorable(value) else None
    return None


def _moment(value: Any) -> str | None:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is None:
            return "not an ISO 8601 date-time"
        utc = moment.astimezone(timezone.utc) if moment.tzinfo else moment
    except (ValueError, OverflowError):
        return "not an ISO 8601 date-time"
    first, last = pulyafile.YEARS
    if not (first <= moment.year <= last and first <= utc.year <= last):
        return f"a date-time outside the years {first} to {last}"
    return None


def check_pulkas(tables: Given) -> None:
    """Every pulka of the archive (written at this version's schema) as the app reads it: its rules, its seats'
    players, its deals replayed. Damaged names the first row the app could not read."""
    def dicts(name: str) -> list[dict[str, Any]]:
        names, rows = tables.get(name, ((), ()))
        return [dict(zip(names, row)) for row in rows]

    players = {row["id"]: PlayerRow(**row) for row in dicts("players")}
    seats: dict[int, list[SeatRow]] = {}
    for row in dicts("pulka_players"):
        seats.setdefault(row["pulka_id"], []).append(SeatRow(seat=row["seat"], player=players.get(row["player_id"])))
    deals: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for number, row in enumerate(dicts("deals"), 1):
        deals.setdefault(row["pulka_id"], []).append((number, row))
    for number, row in enumerate(dicts("pulkas"), 1):
        values = row | {key: json.loads(row[key]) for key in ("rules", "last_change", "opening", "standing", "result")
                        if row.get(key) is not None}
        values |= {key: datetime.fromisoformat(row[key]) for key in ("created_at", "updated_at", "ended_at")
                   if row.get(key)}
        values |= {key: date.fromisoformat(row[key]) for key in ("played_on",) if row.get(key)}
        pulka = PulkaRow(**values)
        pulka.seats = sorted(seats.get(row["id"], []), key=lambda seat: seat.seat)
        read: list[Deal] = []
        rows_of: dict[int, int] = {}  # a deal's number in the pulka: its row in the archive
        for deal_number, deal in sorted(deals.get(row["id"], []), key=lambda item: item[1]["position"]):
            rows_of[len(rows_of) + 1] = deal_number
            try:
                read.append(deal_of(DealRow(**(deal | {key: json.loads(deal[key]) for key in ("whist", "tricks")
                                                       if deal.get(key) is not None}))))
            except (TypeError, ValueError, KeyError, AttributeError):
                raise Damaged("deals", deal_number, "*", "not a deal the app can read") from None
        try:
            if any(seat.player is None for seat in pulka.seats) or not pulka.seats:
                raise ValueError("a seat without its player")
            pulka_of(pulka, tuple(read))
        except RulesError:
            raise Damaged("pulkas", number, "rules", "not rules the app can read") from None
        except PulkaError as error:
            problem = error.problems[0]
            if problem.deal in rows_of:
                column = problem.field.split(".")[0].split("[")[0]
                raise Damaged("deals", rows_of[problem.deal], column if column in DealRow.__table__.c else "*",
                              f"a deal the rules refuse ({problem.code.value})") from None
            raise Damaged("pulkas", number, "*", "not a pulka the app can replay") from None
        except (PulkaError, TypeError, ValueError, KeyError, AttributeError):
            raise Damaged("pulkas", number, "*", "its seats, players or deals are not a pulka the app can "
                                                 "replay") from None
