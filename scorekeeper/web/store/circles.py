"""What an account may read, as the circles of docs/club.md §1 need it: the pulkas (its own, and those of the
tables a link it opened shares), and the names of the players of its circle."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Select, or_, select, update
from sqlalchemy.orm import Session

from .models import AccessRow, AccountRow, PlayerRow, PulkaRow, SeatRow, ShareRow


def readable(account_id: int) -> Any:
    """The account's own pulkas, and those of the tables a link it opened shares."""
    shared = (select(PulkaRow.table_uid).join(ShareRow, ShareRow.pulka_id == PulkaRow.id)
              .join(AccessRow, AccessRow.share_id == ShareRow.id).where(AccessRow.account_id == account_id))
    return or_(PulkaRow.owner_id == account_id, PulkaRow.table_uid.in_(shared))


def versions(connection: Connection, account_id: int, *counts: Any) -> tuple[tuple[Any, ...], ...]:
    """The `counts` (columns of the accounts table) of the account and of every owner of a pulka it may read, by
    account id: one query. Each count only moves forward, and every change of what the account reads moves one
    of them on in its own transaction (circle_changed), so two reads at equal versions read the same; read from
    the database, so that every process agrees."""
    owners = select(PulkaRow.owner_id).where(readable(account_id))
    return tuple(tuple(row) for row in connection.execute(
        select(AccountRow.id, *counts).where(or_(AccountRow.id == account_id, AccountRow.id.in_(owners)))
        .order_by(AccountRow.id)))


def circle_changed(session: Session | Connection, *accounts: int | None | Select[Any]) -> None:
    """What the circles of these accounts (ids, None for nobody's, or selects of ids) are read from changes in
    this transaction: their versions move on (what is read from now on is keyed by the new ones). First in a
    write, it locks their rows until the write ends (a row lock in PostgreSQL, the write lock in SQLite)."""
    ids = [a for a in accounts if isinstance(a, int)]
    chosen = or_(AccountRow.id.in_(ids), *(AccountRow.id.in_(a) for a in accounts if isinstance(a, Select)))
    session.execute(update(AccountRow).where(chosen).values(circle_version=AccountRow.circle_version + 1))


def readers(tables: Any) -> Any:
    """The accounts that opened a link of the tables (a select of their uids): what they read goes with them."""
    return (select(AccessRow.account_id).join(ShareRow, ShareRow.id == AccessRow.share_id)
            .join(PulkaRow, PulkaRow.id == ShareRow.pulka_id).where(PulkaRow.table_uid.in_(tables)))


def circle_names(session: Session, account_id: int) -> dict[str, str]:
    """The name of every player of the account's circle, by his public id: its own players (merged ones
    too: their names still stand on the pulkas they sat in) and those seated in the pulkas it may read."""
    seated = select(SeatRow.player_id).join(PulkaRow, PulkaRow.id == SeatRow.pulka_id).where(readable(account_id))
    rows = session.execute(select(PlayerRow.uid, PlayerRow.name)
                           .where(or_(PlayerRow.owner_id == account_id, PlayerRow.id.in_(seated))))
    return {uid: name for uid, name in rows}
