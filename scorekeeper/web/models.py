"""The database rows. They are never engine objects: the repository turns them into deals and rules."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, MetaData, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .. import pulyafile

# Named constraints keep Alembic migrations portable between SQLite and PostgreSQL.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


# The sizes of the columns are the bounds of the pulka file (FORMAT.md §1): whatever a file holds fits,
# and settings from the form and the API are checked against the same numbers.
PLAYER_NAME_MAX = pulyafile.MAX_NAME
PULKA_NAME_MAX = pulyafile.MAX_PULKA_NAME
CURRENCY_MAX = pulyafile.MAX_CURRENCY


def now() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class PlayerRow(Base):
    """A player's name, reused by every pulka he sits in."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_MAX), unique=True)


class PulkaRow(Base):
    __tablename__ = "pulkas"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Stable across id reuse: keys the replay cache, and later share links.
    uid: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(PULKA_NAME_MAX))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # Rules.overrides(): the preset and what differs
    currency: Mapped[str] = mapped_column(String(CURRENCY_MAX), default="")
    first_dealer: Mapped[int] = mapped_column(Integer)
    # Incremented by every write: cache key today, optimistic locking for concurrent phones.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    seats: Mapped[list[SeatRow]] = relationship(
        order_by="SeatRow.seat", cascade="all, delete-orphan", passive_deletes=True, lazy="selectin")
    deals: Mapped[list[DealRow]] = relationship(
        order_by="DealRow.position", cascade="all, delete-orphan", passive_deletes=True)


class SeatRow(Base):
    """Who sits where in one pulka (seat 0 first, clockwise)."""

    __tablename__ = "pulka_players"
    __table_args__ = (UniqueConstraint("pulka_id", "player_id"),)

    pulka_id: Mapped[int] = mapped_column(ForeignKey("pulkas.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))

    player: Mapped[PlayerRow] = relationship(lazy="joined")


class DealRow(Base):
    """One deal as entered; seats are indices into the pulka's seats."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("pulka_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    pulka_id: Mapped[int] = mapped_column(ForeignKey("pulkas.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)  # 1-based deal number
    type: Mapped[str] = mapped_column(String(8))
    declarer: Mapped[int | None] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(4))
    # {"seat": word} and {"seat": tricks}; JSON (not JSONB) keeps the key order the export writes.
    whist: Mapped[dict[str, str] | None] = mapped_column(JSON(none_as_null=True))
    tricks: Mapped[dict[str, int] | None] = mapped_column(JSON(none_as_null=True))
    open: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
