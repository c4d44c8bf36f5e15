"""The language a request is answered in, Russian or English.

A page speaks the account's choice, else this browser's (the switch on every page sets a cookie), else
the first language of the browser's Accept-Language that the app speaks. The API follows
Accept-Language alone: its codes never change, its messages do. With no language to go by (a script,
curl), English. Ukrainian, Belarusian and Kazakh browsers get Russian: the language their players
write the pulya in.

Texts: templates and routes use Flask-Babel's gettext with the `messages` catalogs
(scorekeeper/translations/<language>/LC_MESSAGES/messages.po, compiled to .mo beside it by
python -m scorekeeper.i18n.catalogs); the engine's texts have their own catalog (scorekeeper.i18n.translate),
rendered in the request's language by `say`.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable, Sequence
from typing import Protocol

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_locale

from ...i18n import translate
from ...engine import Gettext, Ngettext, Text
from ...render.text import PRESET_TITLES
from ..views.filters import FILTERS

LANGUAGES = {"ru": "Русский", "en": "English"}
DEFAULT = "en"
COOKIE = "lang"
KIN = {"uk": "ru", "be": "ru", "kk": "ru"}
# A new pulka's currency where the request names none (the form's field starts with it, the API fills it in):
# roubles for a Russian table; no sign in English, where the table's currency is anyone's guess.
DEFAULT_CURRENCY = {"ru": "₽", "en": ""}


def chosen(value: object) -> str | None:
    """`value` when it names a language the app speaks."""
    return value if isinstance(value, str) and value in LANGUAGES else None


def from_header() -> str:
    for value, _quality in request.accept_languages:  # most wanted first
        language = translate.language_of(value)
        language = KIN.get(language, language)
        if language in LANGUAGES:
            return language
    return DEFAULT


def select() -> str:
    """Flask-Babel's locale selector: the language of this request."""
    if not request.path.startswith("/api/"):
        who = g.get("caller")  # set by access.check; absent when a request fails before it
        account = who.account if who is not None else None
        choice = chosen(account.language if account is not None else None) or chosen(request.cookies.get(COOKIE))
        if choice:
            return choice
    return from_header()


def language() -> str:
    """The request's language; outside a request (a benchmark, a command), the default."""
    return str(get_locale()) if has_request_context() else DEFAULT


def catalog(language_: str | None = None) -> _gettext.NullTranslations:
    """Every text of the app (the web's and the engine's) in `language_`, by default the request's. With
    braces, as `Text.render` takes them: not Flask-Babel's gettext, which formats with %."""
    return translate.catalog(language_ or language())


class Sayable(Protocol):
    def say(self, gettext: Gettext, ngettext: Ngettext) -> str: ...


def say(what: Sayable | Text, names: Sequence[str] = ()) -> str:
    """A refusal, one of its faults, or a text of the web, in the request's language."""
    found = catalog()
    if isinstance(what, Text):
        return what.render(names, found.gettext, found.ngettext)
    return what.say(found.gettext, found.ngettext)


def init(app: Flask) -> None:
    Babel(app, locale_selector=select, default_locale=DEFAULT,
          default_translation_directories=str(translate.TRANSLATIONS))
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # as scorekeeper.i18n.catalogs extracts {% trans %} blocks
    app.context_processor(lambda: {"language": language(), "languages": LANGUAGES})
    app.jinja_env.globals["preset_title"] = preset_title
    # Numbers as the page's language writes them (a decimal comma in Russian).
    app.jinja_env.filters.update({name: _in_language(show) for name, show in FILTERS.items()})


def _in_language(show: Callable[..., str]) -> Callable[..., str]:
    return lambda *values, **options: show(*values, language=language(), **options)


def preset_title(value: object) -> str:
    """A preset as players name it, in the request's language; an unknown one (a form's text) as it is."""
    title = PRESET_TITLES.get(str(value))
    return say(title) if title is not None else str(value).capitalize()
