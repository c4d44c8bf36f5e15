"""Share links: a table's pulkas opened to its players by a link, as a viewer or a scorer, until the owner revokes
it; "same players again" keeps every link. A link may be a player's own ("Boris's link")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..domain.limits import SHARE_TOKEN_MAX
from ..domain.refusals import NotFound
from ..domain.shares import Access, CreateShare, RevokeShare, Role, Share


class ShareRepository(Protocol):
    def add_share(self, uid: str, role: Role, label: str, player: int | None = None) -> Share:
        """A new link to the pulka's table, `player`'s if a seat is given (NotFound: no such pulka)."""

    def shares(self, uid: str) -> list[Share]:
        """The links of the pulka's table."""

    def share(self, token: str) -> Share | None:
        """The link of this token, if it lives, for the pulka its table plays now (the last one made)."""

    def delete_share(self, uid: str, share_id: str) -> None:
        """NotFound when the pulka's table has no such link."""

    def grant(self, account_id: int, share: Share) -> None:
        """The account opened the link: the pulka joins its list."""

    def access(self, uid: str, account_id: int | None, share_tokens: Sequence[str],
               remembered: bool = False) -> Access | None:
        """What this caller may do with the pulka: its owner, a share link it holds (a token it brings, or a
        link its account opened), or nothing (None, whether or not the pulka exists). `remembered`: it may
        be what this process remembers while no access changed (a version check's)."""


def create_share(shares: ShareRepository, command: CreateShare) -> Share:
    """A new link to the pulka's table (domain.shares.read_share reads one)."""
    return shares.add_share(command.uid, command.role, command.label, command.player)


def list_shares(shares: ShareRepository, uid: str) -> list[Share]:
    return shares.shares(uid)


def revoke_share(shares: ShareRepository, command: RevokeShare) -> None:
    """The link stops working at once, in every browser that opened it."""
    shares.delete_share(command.uid, command.share)


def open_share(shares: ShareRepository, token: str, account_id: int | None = None) -> Share:
    """Someone opened a share link: with an account, the pulka joins that account's list."""
    share = shares.share(token) if len(token) <= SHARE_TOKEN_MAX else None  # longer: no link's, not looked up
    if share is None:
        raise NotFound("share link")
    if account_id is not None:
        shares.grant(account_id, share)
    return share
