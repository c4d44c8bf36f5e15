"""The engine's texts in the players' languages: its gettext catalogs, and writing a `Text` with them.

The engine writes no finished sentence (`scorekeeper.engine.texts`): a problem or
a line of the sheet is a `Text`, a template declared once with its values. The
templates are the msgids of the `engine` domain, `engine.all_texts()`;
`translations/<language>/LC_MESSAGES/engine.po` translates them. English is
the msgids themselves.

    render(problem.full, names, "ru")    # «сдача 2: взяток в сумме 12, а в сдаче их 10»
    render(entry.reason, names, "ru")    # «Борис: мизер сыгран, в пулю +10»

A page that has its own translations object (Flask-Babel's `get_translations()`,
with the `engine` domain loaded) writes a text with it directly:
`text.render(names, translations.gettext, translations.ngettext)`. Not through
flask_babel.gettext: that formats with %, and the templates have braces.

`python -m scorekeeper.i18n.translate > engine.pot` writes the catalog template of
the declared texts; `pybabel update --no-wrap -i engine.pot -D engine -d
scorekeeper/translations` then brings each catalog up to date, keeping its
translations (tests/test_i18n_translate.py fails while one is missing).
"""

from __future__ import annotations

import functools
import gettext
import io
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .. import __version__
from ..engine import Text, all_texts

DOMAIN = "engine"
TRANSLATIONS = Path(__file__).parents[1] / "translations"


def catalog_path(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def language_of(locale: str) -> str:
    """The language of a locale as browsers and catalogs write it: "ru" of ru, ru_RU, ru-RU and RU-ru."""
    return locale.replace("-", "_").partition("_")[0].lower()


@functools.cache
def translations(locale: str) -> gettext.NullTranslations:
    """The engine's catalog for `locale` (ru, ru_RU, ru-RU); the msgids, English, where there is none.

    Read from the .po, so that the catalog in the repository is the one in use: no compiled
    file to keep in step. A fuzzy translation is a translator's doubt and is not used."""
    language = language_of(locale)
    path = catalog_path(language)
    if not language or not path.is_file():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


@functools.cache
def catalog(locale: str) -> gettext.NullTranslations:
    """Every text of the app in the language of `locale`: the web's `messages` catalog (the compiled .mo
    beside its .po), the engine's behind it. A refusal of the web may hold a problem of the engine (a deal
    that breaks a later one), and a page's line holds a reason of the engine: one catalog writes both.
    Without Flask: the renderers (SVG, PDF in its worker process) get it by the language's name."""
    language = language_of(locale)
    engine = translations(language)
    path = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo" if language else None
    if path is None or not path.is_file():
        return engine
    with path.open("rb") as mo:
        both = gettext.GNUTranslations(mo)
    both.add_fallback(engine)
    return both


def writer(names: Sequence[str], locale: str) -> Callable[[Text], str]:
    """What writes a text of the app (the web's or the engine's) with the players' names in `locale`'s language."""
    both = catalog(locale)
    return lambda text: text.render(names, both.gettext, both.ngettext)


def render(text: Text, names: Sequence[str], locale: str) -> str:
    """`text` in the language of `locale`, with the players' names."""
    catalog = translations(locale)
    return text.render(names, catalog.gettext, catalog.ngettext)


def template() -> Catalog:
    """The catalog template of the engine's texts: every declared msgid, with its plural."""
    catalog = Catalog(domain=DOMAIN, project="scorekeeper", version=__version__, charset="utf-8",
                      header_comment="# The scorekeeper engine's texts: scorekeeper.engine.all_texts().")
    for text in all_texts():
        flags = ["python-brace-format"] if "{" in text.msgid else []
        catalog.add(text.msgid if text.plural is None else (text.msgid, text.plural), flags=flags)
    return catalog


def main() -> None:
    write_po(sys.stdout.buffer, template(), width=120, omit_header=False)


if __name__ == "__main__":
    main()
