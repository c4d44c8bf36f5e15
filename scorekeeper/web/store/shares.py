"""Share links in the database, and who may do what with a pulka (services.shares.ShareRepository)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import bindparam, delete, or_, select, update
from sqlalchemy.orm import InstrumentedAttribute, aliased
from sqlalchemy.sql import ColumnElement

from ..domain.refusals import NotFound
from ..domain.shares import Access, Role, Share, access_of
from .circles import circle_changed
from .db import Database, noting
from .models import AccessRow, PulkaRow, ShareRow, now
from .rows import aware
from .transaction import Writer
from .watch import Watch, access_changed

_Other = aliased(PulkaRow)


def _of_table(table_uid: InstrumentedAttribute[str]) -> ColumnElement[bool]:
    """A link made on any pulka of that table: it opens them all."""
    return ShareRow.pulka_id.in_(select(_Other.id).where(_Other.table_uid == table_uid))


# A pulka's owner, and the share links of its table that the caller holds (built once: it runs on every request).
_ACCESS = (
    select(PulkaRow.owner_id, ShareRow.id.label("share_id"), ShareRow.role, ShareRow.label, ShareRow.player,
           ShareRow.last_used_at)
    .select_from(PulkaRow)
    .outerjoin(ShareRow, _of_table(PulkaRow.table_uid) & or_(
        ShareRow.token.in_(bindparam("tokens", expanding=True)),
        ShareRow.id.in_(select(AccessRow.share_id).where(AccessRow.account_id == bindparam("account")))))
    .where(PulkaRow.uid == bindparam("uid"))
)
# The links' last use noted (built once: the first request of every link in KEEP seconds sends it).
_USED = update(ShareRow).where(ShareRow.id.in_(bindparam("ids", expanding=True))).values(
    last_used_at=bindparam("at"))
# A share link's last use is written at most this often: reading the sheet should not write every time.
LAST_USED_EVERY = timedelta(minutes=10)


class ShareStore(Writer):
    def __init__(self, db: Database, watch: Watch):
        self.db = db
        self.watch = watch  # remembers who may do what while no access changed

    def access(self, uid: str, account_id: int | None, share_tokens: Sequence[str],
               remembered: bool = False) -> Access | None:
        """What this caller may do with the pulka, and the share link that allows it: its owner (no link), a
        share link it holds (a token it brings, or a link its account opened), or nothing (None, whether or
        not the pulka exists). One query; `remembered` (the version check every watching phone asks every
        few seconds): what this process remembers while no access changed, if it may trust it."""
        if not remembered:
            return self._access(uid, account_id, share_tokens)
        return self.watch.remembered(("access", uid, account_id, tuple(share_tokens)),
                                     lambda: self._access(uid, account_id, share_tokens))

    def _access(self, uid: str, account_id: int | None, share_tokens: Sequence[str]) -> Access | None:
        with self.db.reads.connect() as connection:
            rows = connection.execute(_ACCESS, {"uid": uid, "account": account_id, "tokens": list(share_tokens)}).all()
        if not rows:
            return None
        owner = rows[0].owner_id is not None and rows[0].owner_id == account_id
        links = [] if owner else [row for row in rows if row.share_id is not None]
        self._used([link.share_id for link in links
                    if link.last_used_at is None or now() - aware(link.last_used_at) > LAST_USED_EVERY])
        return access_of(owner, [Access(Role(link.role), link.label, link.share_id, link.player) for link in links])

    def add_share(self, uid: str, role: Role, label: str, player: int | None = None) -> Share:
        with self._writes() as transaction:
            session = transaction.session
            pulka_id = session.scalar(select(PulkaRow.id).where(PulkaRow.uid == uid))
            if pulka_id is None:
                raise NotFound()
            row = ShareRow(id=secrets.token_urlsafe(9), pulka_id=pulka_id, token=secrets.token_urlsafe(24),
                           role=role.value, label=label, player=player)
            session.add(row)
            session.flush()
            circle_changed(session, select(PulkaRow.owner_id).where(PulkaRow.id == pulka_id))
            access_changed(session)
            transaction.on_commit(self.watch.access_changed)
            return share_of(row, uid)

    def shares(self, uid: str) -> list[Share]:
        """The links of the pulka's table, whichever of its pulkas each was made on."""
        with self.db.Session() as session:
            rows = session.scalars(select(ShareRow).join(PulkaRow, _of_table(PulkaRow.table_uid))
                                   .where(PulkaRow.uid == uid).order_by(ShareRow.created_at, ShareRow.id))
            return [share_of(row, uid) for row in rows]

    def share(self, token: str) -> Share | None:
        """The link of this token, for the pulka its table plays now: the last one made."""
        with self.db.Session() as session:
            row = session.scalar(select(ShareRow).where(ShareRow.token == token))
            if row is None:
                return None
            table = select(PulkaRow.table_uid).where(PulkaRow.id == row.pulka_id).scalar_subquery()
            uid = session.scalar(select(PulkaRow.uid).where(PulkaRow.table_uid == table)
                                 .order_by(PulkaRow.id.desc()).limit(1))
            return share_of(row, uid) if uid else None

    def delete_share(self, uid: str, share_id: str) -> None:
        with self._writes() as transaction:
            connection = transaction.session.connection()
            table = select(PulkaRow.table_uid).where(PulkaRow.uid == uid).scalar_subquery()
            pulka_ids = select(PulkaRow.id).where(PulkaRow.table_uid == table)
            # Before its rows go: the owner's and those who opened it read otherwise from now on.
            circle_changed(connection, select(PulkaRow.owner_id).where(PulkaRow.uid == uid),
                           select(AccessRow.account_id).where(AccessRow.share_id == share_id))
            gone = connection.execute(delete(ShareRow).where(ShareRow.id == share_id, ShareRow.pulka_id.in_(pulka_ids)))
            if not gone.rowcount:
                raise NotFound("share link")
            access_changed(connection)
            transaction.on_commit(self.watch.access_changed)

    def grant(self, account_id: int, share: Share) -> None:
        """The account opened the share link: the pulka joins its list (unless it is the owner's own)."""
        with self.db.Session.begin() as session:
            new = session.get(AccessRow, (account_id, share.id)) is None
            if new:
                session.add(AccessRow(account_id=account_id, share_id=share.id))
                circle_changed(session, account_id)
                access_changed(session)
        if new:
            self.watch.access_changed()
        self._used([share.id])

    def _used(self, share_ids: Sequence[str]) -> None:
        if share_ids:
            with noting(), self.db.engine.begin() as connection:
                connection.execute(_USED, {"ids": list(share_ids), "at": now()})


def share_of(row: ShareRow, uid: str) -> Share:
    return Share(row.id, uid, row.token, Role(row.role), row.label, row.created_at, row.last_used_at, row.player)
