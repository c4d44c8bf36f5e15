"""The database rows. They are never engine objects: the store's modules turn them into deals and rules.

The sizes of the columns are the limits (domain.limits): whatever a pulka file holds fits, and settings from
the form and the API are checked against the same numbers.
"""

from __future__ import annotations

import secrets
from datetime import date, datetime, timezone
from typing import Any

from sqlalchemy import (JSON, BigInteger, Boolean, Date, DateTime, ForeignKey, Index, Integer, MetaData, String, Text, UniqueConstraint,
                        text)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from ..domain.limits import (CURRENCY_MAX, IDEMPOTENCY_KEY_MAX, LEDGER_NOTE_MAX, PLAYER_NAME_MAX, PULKA_NAME_MAX,
                             SHARE_LABEL_MAX, SHARE_TOKEN_MAX, UID_MAX, USERNAME_KEY_MAX, USERNAME_MAX)

# Named constraints keep Alembic migrations portable between SQLite and PostgreSQL.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def now() -> datetime:
    return datetime.now(timezone.utc)


def public_id() -> str:
    """A row's address outside the database (a player's, a payment's): random, never reused."""
    return secrets.token_urlsafe(9)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class AccountRow(Base):
    """Who keeps pulkas. Accounts are disabled, never deleted: their pulkas stay theirs."""

    __tablename__ = "accounts"
    # One administrator, however many register at once on an empty instance (store.accounts.create_account).
    __table_args__ = (Index("uq_accounts_one_admin", "is_admin", unique=True, sqlite_where=text("is_admin"),
                            postgresql_where=text("is_admin")),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_MAX))
    # The username as compared (domain.accounts.username_key): "Anna" and "anna" are one account.
    username_key: Mapped[str] = mapped_column(String(USERNAME_KEY_MAX), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    # Bumped by a password change, a reset or disabling: every session signed in before ends.
    session_epoch: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # The language the account's pages speak ("ru", "en"); none chosen: the browser's.
    language: Mapped[str | None] = mapped_column(String(8))
    # Bumped by every write to the account's ledger: the lock that puts its writes one after another, and
    # part of what tells a ledger read before from one read now.
    ledger_writes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Bumped, in the same transaction, by every change of what the account's circle is read from (a merge, an
    # undo, a rename; a pulka of its made, frozen, reopened or deleted; a link of its made or revoked, or one
    # it opened): what the statistics and the ledger are kept by (store.circles.versions). A merge, an undo
    # and a rename bump it first: the lock that puts them one after another.
    circle_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The deals the account's pulkas hold: every write that adds or removes deals moves it in its transaction,
    # and a deal's write checks the account's room against it (store.changes.bump).
    deals: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TokenRow(Base):
    """An API token of an account; only its hash is kept."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LoginFailureRow(Base):
    """A failed log-in, by account and by address: the limit holds across server processes."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(200), index=True)  # services.accounts.failure_keys
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    """A browser's session, kept on the server: the cookie names it (by a secret whose hash this is), and
    once it ends (log-out, a new log-in, a password change) a copy of the cookie opens nothing."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class PlayerRow(Base):
    """A player's name in one account's circle, reused by every pulka of that account he sits in."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("owner_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The player's address in the statistics (random, never reused); the row id never leaves the database.
    uid: Mapped[str] = mapped_column(String(16), unique=True, default=public_id)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))  # None: from before accounts
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_MAX))
    # Merged (one player entered under two spellings): the statistics count his pulkas for that one; undone
    # by clearing it.
    merged_into_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))


class PulkaRow(Base):
    __tablename__ = "pulkas"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The pulka's address everywhere (random, never reused); the row id never leaves the database.
    uid: Mapped[str] = mapped_column(String(UID_MAX), unique=True)
    # The table that plays it: the uid of the first of the pulkas its players played one after another ("same
    # players again"). A share link opens every pulka of its table.
    table_uid: Mapped[str] = mapped_column(String(UID_MAX), index=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))  # None: from before accounts
    name: Mapped[str] = mapped_column(String(PULKA_NAME_MAX))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # Rules.overrides(): the preset and what differs
    currency: Mapped[str] = mapped_column(String(CURRENCY_MAX), default="")
    first_dealer: Mapped[int] = mapped_column(Integer)
    # Incremented by every write: cache key today, optimistic locking for concurrent phones.
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # What the last write did and who did it ({"what": "added", "deal": 7, "by": "Anna"}): the note
    # that phones watching the sheet show.
    last_change: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # Where it stands (domain.pulkas.PulkaStanding), kept by every write: the home list reads it, never a replay.
    standing: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # The sheet as paper left it, by seat (rows.opening_json), when the pulka began on paper.
    opening: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # Frozen: what its end settled (domain.results.Result.stored), and when it ended.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The offset (minutes) its start was recorded with: the statistics' dates are its players' own.
    utc_offset: Mapped[int | None] = mapped_column(Integer)
    # The day it was played, when its owner said it was not the day it was entered (a game entered afterwards).
    played_on: Mapped[date | None] = mapped_column(Date)

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


class EventRow(Base):
    """An ending of a pulka, or its reopening (domain.results.Event): who and when."""

    __tablename__ = "pulka_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    pulka_id: Mapped[int] = mapped_column(ForeignKey("pulkas.id", ondelete="CASCADE"), index=True)
    what: Mapped[str] = mapped_column(String(12))
    by: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class PaymentRow(Base):
    """A row of an account's ledger (domain.ledger): a payment entered, made by a paid mark, or the reversal
    of one. Never changed nor deleted: the ledger's balances are derived from these rows and the frozen
    pulkas' transfers, and the rows are also its log."""

    __tablename__ = "ledger_payments"
    __table_args__ = (Index("ix_ledger_payments_owner_id_currency", "owner_id", "currency"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(16), unique=True, default=public_id)
    owner_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    payer_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    cents: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(CURRENCY_MAX))
    obligation: Mapped[str | None] = mapped_column(String(40))  # domain.ledger.obligation_id, or none
    kind: Mapped[str] = mapped_column(String(10))  # engine.PaymentKind
    # Unique: a payment is taken back once, however many phones tap at once.
    reverses_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_payments.id"), unique=True)
    note: Mapped[str] = mapped_column(String(LEDGER_NOTE_MAX), default="")
    by: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ShareRow(Base):
    """A share link: its token opens the pulkas of one table as a viewer or a scorer, until the owner revokes it.
    The token is kept (not only its hash) so that the owner can show the link and its QR code again."""

    __tablename__ = "shares"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # public: names the link in the API
    pulka_id: Mapped[int] = mapped_column(ForeignKey("pulkas.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(SHARE_TOKEN_MAX), unique=True)
    role: Mapped[str] = mapped_column(String(8))
    label: Mapped[str] = mapped_column(String(SHARE_LABEL_MAX), default="")
    player: Mapped[int | None] = mapped_column(Integer)  # the seat of the player whose link it is, if named
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AccessRow(Base):
    """An account that opened a share link: the pulka is in its list while the link lives."""

    __tablename__ = "pulka_access"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    share_id: Mapped[str] = mapped_column(ForeignKey("shares.id", ondelete="CASCADE"), primary_key=True)


class IdempotencyRow(Base):
    """A write made under an idempotency key, and what it answered: a retry with the key gets that answer
    again and writes nothing. Stored in the write's own transaction, so a write is never without its key."""

    __tablename__ = "idempotency_keys"
    # Keys are the caller's own ("account:7", "share:<id>"), per route ("POST /api/v1/pulkas/<uid>/deals").
    __table_args__ = (UniqueConstraint("scope", "route", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(40))
    route: Mapped[str] = mapped_column(String(200))
    key: Mapped[str] = mapped_column(String(IDEMPOTENCY_KEY_MAX))
    # The request's hash: the same key with another request is refused.
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text, default="")  # the API's JSON answer
    location: Mapped[str | None] = mapped_column(String(300))  # a Location header, or where a page redirected
    flashes: Mapped[list[list[str]] | None] = mapped_column(JSON(none_as_null=True))  # a page's [category, message]s
    # Kept at least a day (repository.KEEP_ANSWERS); the index makes dropping older ones cheap.
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class GenerationRow(Base):
    """One row: how many times any access (a share link, an account, a pulka's owner) changed. A server
    process on SQLite reads it when the file changed, to know whether the access it remembers still holds
    (store.watch). A backup keeps it, and a restore puts the archive's row in place of the migration's."""

    __tablename__ = "generations"

    id: Mapped[int] = mapped_column(primary_key=True)
    access: Mapped[int] = mapped_column(Integer, default=0)
