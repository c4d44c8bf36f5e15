"""Share links in the database, and who may do what with a pulka (services.shares.ShareRepository)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import bindparam, delete, or_, select, update

from ..domain.refusals import NotFound
from ..domain.shares import Access, Role, Share
from .db import Database, noting
from .models import AccessRow, PulkaRow, ShareRow, now
from .rows import aware
from .watch import Watch, access_changed

# A pulka's owner, and the share links of it that the caller holds (built once: it runs on every request).
_ACCESS = (
    select(PulkaRow.owner_id, ShareRow.id.label("share_id"), ShareRow.role, ShareRow.label, ShareRow.last_used_at)
    .select_from(PulkaRow)
    .outerjoin(ShareRow, (ShareRow.pulka_id == PulkaRow.id) & or_(
        ShareRow.token.in_(bindparam("tokens", expanding=True)),
        ShareRow.id.in_(select(AccessRow.share_id).where(AccessRow.account_id == bindparam("account")))))
    .where(PulkaRow.uid == bindparam("uid"))
)
# A share link's last use is written at most this often: reading the sheet should not write every time.
LAST_USED_EVERY = timedelta(minutes=10)


class ShareStore:
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
        if rows[0].owner_id is not None and rows[0].owner_id == account_id:
            return Access(Role.OWNER)
        links = [row for row in rows if row.share_id is not None]
        if not links:
            return None
        self._used([link.share_id for link in links
                    if link.last_used_at is None or now() - aware(link.last_used_at) > LAST_USED_EVERY])
        best = min(links, key=lambda link: link.role != Role.SCORER)  # a scorer link, if it holds one
        return Access(Role(best.role), best.label, best.share_id)

    def add_share(self, uid: str, role: Role, label: str) -> Share:
        with self.db.Session.begin() as session:
            pulka_id = session.scalar(select(PulkaRow.id).where(PulkaRow.uid == uid))
            if pulka_id is None:
                raise NotFound()
            row = ShareRow(id=secrets.token_urlsafe(9), pulka_id=pulka_id, token=secrets.token_urlsafe(24),
                           role=role.value, label=label)
            session.add(row)
            session.flush()
            made = share_of(row, uid)
            access_changed(session)
        self.watch.access_changed()
        return made

    def shares(self, uid: str) -> list[Share]:
        with self.db.Session() as session:
            rows = session.scalars(select(ShareRow).join(PulkaRow, PulkaRow.id == ShareRow.pulka_id)
                                   .where(PulkaRow.uid == uid).order_by(ShareRow.created_at, ShareRow.id))
            return [share_of(row, uid) for row in rows]

    def share(self, token: str) -> Share | None:
        with self.db.Session() as session:
            found = session.execute(select(ShareRow, PulkaRow.uid).join(PulkaRow, PulkaRow.id == ShareRow.pulka_id)
                                    .where(ShareRow.token == token)).first()
            return share_of(found[0], found[1]) if found else None

    def delete_share(self, uid: str, share_id: str) -> None:
        with self.db.engine.begin() as connection:
            pulka_id = select(PulkaRow.id).where(PulkaRow.uid == uid).scalar_subquery()
            gone = connection.execute(delete(ShareRow).where(ShareRow.id == share_id, ShareRow.pulka_id == pulka_id))
            if not gone.rowcount:
                raise NotFound("share link")
            access_changed(connection)
        self.watch.access_changed()

    def grant(self, account_id: int, share: Share) -> None:
        """The account opened the share link: the pulka joins its list (unless it is the owner's own)."""
        with self.db.Session.begin() as session:
            new = session.get(AccessRow, (account_id, share.id)) is None
            if new:
                session.add(AccessRow(account_id=account_id, share_id=share.id))
                access_changed(session)
        if new:
            self.watch.access_changed()
        self._used([share.id])

    def _used(self, share_ids: Sequence[str]) -> None:
        if share_ids:
            with noting(), self.db.engine.begin() as connection:
                connection.execute(update(ShareRow).where(ShareRow.id.in_(share_ids)).values(last_used_at=now()))


def share_of(row: ShareRow, uid: str) -> Share:
    return Share(row.id, uid, row.token, Role(row.role), row.label, row.created_at, row.last_used_at)
