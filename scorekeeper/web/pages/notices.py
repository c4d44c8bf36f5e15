"""What a page says after a write: carried in the address the write leads to (`?said=added.13`), never in
the session, so no other request of the same browser (the service worker fetching a page, a preview still
on its way) can take it or put an older session back over it. The words are built from the pulka as it is
now, in the page's language, when the page is shown."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from flask import request
from flask_babel import gettext

from ..domain.pulkas import Pulka
from ..edge.presenting import presenter


class Said(StrEnum):
    ADDED = "added"
    EDITED = "edited"
    RESTORED = "restored"
    DELETED = "deleted"
    UNDONE = "undone"


def said(what: Said, number: int) -> str:
    """The `said` parameter of the page a write leads to."""
    return f"{what}.{number}"


@dataclass(frozen=True)
class Notice:
    category: str
    message: str


def told(pulka: Pulka) -> list[Notice]:
    """What the request's `said` tells of `pulka`'s deal (nothing for a deal it no longer has)."""
    what, _, number = request.args.get("said", "").partition(".")
    if what not in Said.__members__.values() or not number.isascii() or not number.isdigit():
        return []
    n = int(number)
    if what == Said.DELETED:
        return [Notice("message", gettext("Deal %(number)d deleted; the sheet is scored again.", number=n))]
    if what == Said.UNDONE or not 1 <= n <= len(pulka.deals):
        return []  # an undo's notice is the offer to restore it (sheet.html), as long as it can be
    shown = presenter(pulka).deal(n)
    lines = "; ".join(shown["summary"])
    if what == Said.RESTORED:
        return [Notice("message", gettext("Deal %(number)d restored: %(lines)s.", number=n, lines=lines))]
    message = (gettext("Deal %(number)d saved: %(lines)s", number=n, lines=lines) if what == Said.ADDED
               else gettext("Deal %(number)d edited: %(lines)s", number=n, lines=lines))
    if shown["pulya_closed"]:
        message += ". " + gettext("%(names)s closed the pulya", names=", ".join(shown["pulya_closed"]))
    notices = [Notice("message", message + ("" if message.endswith(".") else "."))]
    if shown["finished"]:
        notices.append(Notice("finished", gettext("The pulka is finished. See the settlement.")))
    return notices


def undone(pulka: Pulka) -> dict[str, object] | None:
    """The deal the last write took back, offered to be restored as it was until anything else is written
    (on the sheet and in the history, from any phone that may score)."""
    change = pulka.last_change or {}
    if change.get("what") != "undone" or "undone" not in change:
        return None
    return {"number": change.get("deal"), "version": pulka.version, "deal": change["undone"]}
