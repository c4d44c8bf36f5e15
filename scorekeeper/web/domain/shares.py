"""Share links and the roles they give: what a caller may do with the pulkas of one table (the players who
play pulka after pulka: "same players again" keeps the links)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from ...i18n.words import Msg
from .limits import SHARE_LABEL_MAX
from .reading import read_text
from .refusals import Refused


class Role(StrEnum):
    """What a caller may do with one pulka, each role all that the one before may."""

    VIEWER = "viewer"  # the sheet, the drawing, history, settlement, PDF and export
    SCORER = "scorer"  # and add, edit, delete and undo deals
    OWNER = "owner"  # and settings, renaming, deleting the pulka, share links

    def allows(self, needed: Role) -> bool:
        return _RANK[self] >= _RANK[needed]


_RANK = {role: rank for rank, role in enumerate(Role)}


@dataclass(frozen=True)
class Share:
    """A share link of a pulka; `token` is the secret part of its address."""

    id: str
    pulka_uid: str
    token: str
    role: Role
    label: str
    created_at: datetime
    last_used_at: datetime | None
    player: int | None = None  # the seat of the player whose link it is ("Boris's link"), if it names one


@dataclass(frozen=True)
class Access:
    """What a caller may do with one pulka, and the share link that allows it (none for the owner)."""

    role: Role
    label: str = ""  # the link's name, for the note other phones show
    share_id: str | None = None
    player: int | None = None  # the seat of the player whose link it is: his phone shows the sheet from his seat


def access_of(owner: bool, links: Sequence[Access]) -> Access | None:
    """What a caller may do with a pulka: everything, its owner; else what the best share link of its table
    that he holds allows (a scorer's, if he holds one); None: nothing."""
    if owner:
        return Access(Role.OWNER)
    return min(links, key=lambda link: link.role != Role.SCORER, default=None)


@dataclass(frozen=True)
class CreateShare:
    """A new link to a pulka's table, for a viewer or a scorer; a player's (his seat) if `player` is given."""

    uid: str
    role: Role
    label: str
    player: int | None = None


@dataclass(frozen=True)
class RevokeShare:
    """A link of the pulka's table revoked: it stops working at once."""

    uid: str
    share: str  # the link's id


def read_share(uid: str, role: object, label: object = "", player: object = None,
               players: Sequence[str] = ()) -> CreateShare:
    """A link as a request asks for it; `player` (one of `players`, by name) makes it his: named after him
    unless `label` names it, his phone shows the sheet from his seat."""
    if role not in (Role.VIEWER, Role.SCORER):
        raise Refused(Msg("a share link's role is viewer or scorer"), "role")
    label = read_text(label, "label", SHARE_LABEL_MAX)
    if player in (None, ""):
        return CreateShare(uid, Role(str(role)), label)
    if not isinstance(player, str) or player not in players:
        raise Refused(Msg("a link's player is one of the players: {names}")(names=", ".join(players)), "player")
    return CreateShare(uid, Role(str(role)), label or player, players.index(player))
