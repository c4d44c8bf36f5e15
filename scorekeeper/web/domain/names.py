"""Players' names that look alike (docs/club.md §1): one rule for every place a name enters a circle (a new
pulka on its page and in the API, an import, a paper sheet settled or kept, a pulka's settings, a rename, a
merge where two names come to sit at one table).

A name is refused when it is empty once its invisible characters are taken out, or when it differs from
another name only by them: «Аня» and «Аня\\u200b» read the same on every page, the sheet, the ledger and the
PDF, and nobody could tell which of the two owes what. Invisible means Unicode's category Cf (zero-width
spaces and joiners, byte order marks, bidirectional marks, soft hyphens; reading.invisible, which also counts
the fillers that draw nothing). Such a character inside a name that no other name matches is left as typed: a
joiner inside an emoji, a direction mark inside a name written right to left belong there. What no name holds
at all (controls, line breaks, the direction controls that reorder the text after them, the fillers) the
short-text reader refuses first (reading.text_fault with `name`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...engine import Text
from ...i18n.words import Msg
from .limits import PLAYER_NAME_MAX
from .reading import shown as shown, text_fault, visible as visible  # the characters' rule is the text reader's

ONLY_INVISIBLE = Msg("the name {name} is only invisible characters (zero-width spaces or joiners, byte order marks, "
                     "direction marks, soft hyphens): a name needs something that shows")
ALIKE = Msg("the name {name} differs from {other} only by invisible characters (zero-width spaces or joiners, byte "
            "order marks, direction marks, soft hyphens): they would read as one name")
ALIKE_IN_CIRCLE = Msg("the name {name} differs from {other}, a player of your circle, only by invisible characters "
                      "(zero-width spaces or joiners, byte order marks, direction marks, soft hyphens): write {other} "
                      "for the same player, or a name that shows the difference")
ALIKE_AT_TABLE = Msg("after this merge, {name} would sit at one table with {other}, a name that differs from it only "
                     "by invisible characters: rename one of them first")


def alike(name: str, others: Iterable[str]) -> str | None:
    """One of `others` that differs from `name` only by invisible characters (the same name is not one)."""
    seen = visible(name)
    return next((other for other in others if other != name and visible(other) == seen), None)


def name_fault(name: str, others: Iterable[str] = (), alike_text: Text = ALIKE) -> Text | None:
    """Why `name` may not stand beside `others`: nothing that shows, or one of them alike but for invisible
    characters (said with `alike_text`); None when it may."""
    if not visible(name).strip():
        return ONLY_INVISIBLE(name=shown(name))
    other = alike(name, others)
    return None if other is None else alike_text(name=shown(name), other=shown(other))


def seated_fault(names: Sequence[str]) -> Text | None:
    """Why the names of one pulka's seats may not sit together: the first that is no name (reading.text_fault),
    shows nothing or reads as an earlier one; None when none."""
    return next((fault for i, name in enumerate(names)
                 if (fault := text_fault(name, "players", PLAYER_NAME_MAX, name=True) or name_fault(name, names[:i]))),
                None)


def newcomers_fault(names: Iterable[str], circle: Iterable[str]) -> Text | None:
    """Why names may not enter a circle holding the names `circle`: the first new one that reads as one of
    the circle's. A name the circle holds already enters nothing (a table from before this rule goes on)."""
    held = set(circle)
    return next((fault for name in names if name not in held and (fault := name_fault(name, held, ALIKE_IN_CIRCLE))),
                None)
