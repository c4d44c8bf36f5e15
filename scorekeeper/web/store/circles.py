"""What an account may read, as the circles of docs/club.md §1 need it: the pulkas (its own, and those of the
tables a link it opened shares), and the names of the players of its circle."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from .models import AccessRow, PlayerRow, PulkaRow, SeatRow, ShareRow


def readable(account_id: int) -> Any:
    """The account's own pulkas, and those of the tables a link it opened shares."""
    shared = (select(PulkaRow.table_uid).join(ShareRow, ShareRow.pulka_id == PulkaRow.id)
              .join(AccessRow, AccessRow.share_id == ShareRow.id).where(AccessRow.account_id == account_id))
    return or_(PulkaRow.owner_id == account_id, PulkaRow.table_uid.in_(shared))


def circle_names(session: Session, account_id: int) -> dict[str, str]:
    """The name of every player of the account's circle, by his public id: its own players (merged ones
    too: their names still stand on the pulkas they sat in) and those seated in the pulkas it may read."""
    seated = select(SeatRow.player_id).join(PulkaRow, PulkaRow.id == SeatRow.pulka_id).where(readable(account_id))
    rows = session.execute(select(PlayerRow.uid, PlayerRow.name)
                           .where(or_(PlayerRow.owner_id == account_id, PlayerRow.id.in_(seated))))
    return {uid: name for uid, name in rows}
