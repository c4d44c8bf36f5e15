"""`Msg`: a text of the web's `messages` catalog, declared where it is used (pure: no Flask).

The engine declares its texts as constants of its own catalog (scorekeeper.engine.texts,
scorekeeper.i18n.translate); the web and the renderers declare theirs with `Msg`, whose calls
scorekeeper.i18n.catalogs extracts into messages.po like gettext's. A `Msg` is the engine's `Text`, so
it carries its values until an edge writes it in a language: `text.render(names, gettext,
ngettext)` with `translate.catalog(language)` (the web's texts and the engine's), or
`text.text(names)` in English.

    Msg("the username {username} is taken")(username="'anna'")
    Msg("{count} deal", "{count} deals", "count")(count=5)    # Russian: three forms
"""

from __future__ import annotations

from ..engine import Text


def Msg(msgid: str, plural: str | None = None, count: str | None = None) -> Text:  # noqa: N802 (a marker)
    """A text of the `messages` catalog: its English template (and plural, and the value that counts)."""
    return Text(msgid, plural, count)


LITERAL = Text("{text}")


def literal(text: str) -> Text:
    """Text that is not translated (a name, a library's message): shown as it is."""
    return LITERAL(text=text)
