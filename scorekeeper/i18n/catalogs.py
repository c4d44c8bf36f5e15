"""The translation catalogs: brought up to date from the sources, compiled, and checked.

Two domains: `messages`, every text of the templates and of the web code (Flask-Babel's gettext,
ngettext, lazy_gettext); `engine`, the engine's declared texts (scorekeeper.i18n.translate). Each
language has a .po per domain under scorekeeper/translations/<language>/LC_MESSAGES; the web's is
compiled to the .mo Flask-Babel reads, committed beside it.

    python -m scorekeeper.i18n.catalogs           # after changing a text: new msgids appear untranslated
    python -m scorekeeper.i18n.catalogs --check   # what the tests assert: nothing untranslated, .mo in step

Run from a checkout (the templates sit beside the package there).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .. import __version__
from . import translate

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = translate.TRANSLATIONS
LANGUAGES = ("ru",)  # English is the msgids themselves
LANGUAGE_TEAMS = {"ru": "Russian"}
DOMAIN = "messages"
# `Msg` (scorekeeper.web.domain) declares a text of the web as a `Text`: Msg(msgid) or Msg(msgid, plural, count).
KEYWORDS = DEFAULT_KEYWORDS | {"lazy_gettext": None, "lazy_ngettext": (1, 2), "Msg": {1: (1,), 3: (1, 2)}}
METHODS = [("scorekeeper/engine/**", "ignore"), ("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
# {% trans %} blocks are read with their whitespace folded, as the app's Jinja environment renders them.
OPTIONS = {"templates/**.html": {"trimmed": "true"}}
WIDTH = 0  # no wrapping: a translation stays on its line, so a change is a one-line diff


def template() -> Catalog:
    """Every text of the web: the msgids of the `messages` domain, where each is used."""
    catalog = Catalog(domain=DOMAIN, project="scorekeeper", version=__version__, charset="utf-8")
    for filename, line, message, comments, context in extract_from_dir(
            ROOT, METHODS, OPTIONS, KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        catalog.add(message, locations=[(filename, line)], auto_comments=comments, context=context,
                    flags=["python-format"] if "%(" in str(message) else [])
    return catalog


def po_path(language: str, domain: str = DOMAIN) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / f"{domain}.po"


def read(language: str, domain: str = DOMAIN) -> Catalog:
    path = po_path(language, domain)
    if not path.is_file():
        return Catalog(locale=language, domain=domain, project="scorekeeper", version=__version__,
                       header_comment=f"# The {LANGUAGE_TEAMS[language]} texts of scorekeeper's {domain} domain.",
                       msgid_bugs_address="", charset="utf-8")
    with path.open("rb") as po:
        return read_po(po, locale=language, domain=domain)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def update() -> None:
    """Each language's catalogs brought up to date with the sources (translations kept, new texts empty,
    texts no longer used dropped), and the web's compiled."""
    for language in LANGUAGES:
        for domain, source in ((DOMAIN, template()), (translate.DOMAIN, translate.template())):
            catalog = read(language, domain)
            dates = catalog.creation_date, catalog.revision_date  # kept: a run that changes no text changes no byte
            catalog.update(source, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            catalog.creation_date, catalog.revision_date = dates
            catalog.fuzzy = False
            catalog.last_translator, catalog.language_team = "scorekeeper", LANGUAGE_TEAMS[language]
            path = po_path(language, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as po:
                write_po(po, catalog, width=WIDTH, omit_header=False, include_previous=False)
        path = po_path(language).with_suffix(".mo")
        path.write_bytes(compiled(read(language)))


def problems() -> list[str]:
    """What is not in step: a text of the sources without its translation (or only a fuzzy one), a
    translation of a text no longer used, a .mo that is not its .po compiled."""
    found = []
    for language in LANGUAGES:
        for domain, source in ((DOMAIN, template()), (translate.DOMAIN, translate.template())):
            catalog = read(language, domain)
            for message in source:
                if not message.id:
                    continue
                have = catalog.get(message.id, message.context)
                strings = have.string if have is not None else None
                filled = all(strings) if isinstance(strings, (list, tuple)) else bool(strings)
                if have is None or not filled or have.fuzzy:
                    where = ", ".join(f"{file}:{line}" for file, line in message.locations) or domain
                    found.append(f"{language}/{domain}: untranslated {message.id!r} ({where})")
            for message in catalog:
                if message.id and source.get(message.id, message.context) is None:
                    found.append(f"{language}/{domain}: {message.id!r} is no longer used")
        mo = po_path(language).with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != compiled(read(language)):
            found.append(f"{language}: {mo.name} is not {DOMAIN}.po compiled: run python -m scorekeeper.i18n.catalogs")
    return found


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        found = problems()
        print("\n".join(found) or "The catalogs are complete and compiled.")
        return 1 if found else 0
    update()
    found = problems()
    print("\n".join(found) or "The catalogs are complete and compiled.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
