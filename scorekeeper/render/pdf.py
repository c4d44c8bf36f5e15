"""A pulka as an A4 PDF: the drawn sheet, the protocol of deals, the settlement.

WeasyPrint is heavy to import and needs system libraries, so it is imported
only inside the functions that make a PDF; a web server makes them in worker
processes (`render_pdf_in_worker`). The HTML comes from
templates/pdf/pulka.html through a bare Jinja2 environment, so no Flask app
is needed. Only the bundled fonts (and data: URLs) may be fetched: a name
that looks like a URL or an <img> is escaped text and never leaves the machine.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from jinja2 import Environment, FileSystemLoader

from ..i18n import translate
from ..engine import Column, Entry, Points, Replay, Rules, Settlement, Text, settle
from ..resources import STATIC_DIR, TEMPLATES_DIR
from ..engine.settled import settled
from ..i18n.words import Msg
from .svg import sheet_svg
from .text import PRESET_TITLES, amount, decimal, describe, filename, points, rules_in_words, signed, unbroken

FONTS = {"regular": STATIC_DIR / "fonts" / "DejaVuSans.ttf", "bold": STATIC_DIR / "fonts" / "DejaVuSans-Bold.ttf"}


# -- fetching -------------------------------------------------------------------


def allowed_url(url: str, root: Path = STATIC_DIR) -> bool:
    """data: URLs and file: URLs of files under `root`; nothing else."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "data":
        return True
    if scheme != "file" or parts.netloc not in ("", "localhost"):
        return False
    path = Path(url2pathname(unquote(parts.path))).resolve()
    return path.is_relative_to(root.resolve()) and path.is_file()


def make_url_fetcher(root: Path = STATIC_DIR) -> Any:
    """A WeasyPrint URL fetcher that refuses everything `allowed_url` does not allow."""
    from weasyprint.urls import URLFetcher

    class StaticFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            if not allowed_url(url, root):
                raise ValueError(f"scorekeeper fetches only its own static files, not {url[:80]!r}")
            return super().fetch(url, headers)

    return StaticFetcher(allowed_protocols=("file", "data"), allow_redirects=False)


def pdf_filename(title: str, created: date | datetime) -> str:
    return filename(title, created, "pdf")


# -- the document ------------------------------------------------------------------


@lru_cache(maxsize=4)
def _environment(language: str = "en") -> Environment:
    """The PDF's Jinja environment in `language`: its template may use gettext and {% trans %} as the pages do
    (the `messages` catalog, read without Flask)."""
    environment = Environment(loader=FileSystemLoader(TEMPLATES_DIR), autoescape=True, trim_blocks=True,
                              lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    environment.policies["ext.i18n.trimmed"] = True  # as scorekeeper.i18n.catalogs extracts {% trans %} blocks
    environment.install_gettext_translations(translate.catalog(language), newstyle=True)  # type: ignore[attr-defined]  # the i18n extension adds it
    return environment


WHISTS_PLACE = Msg("whists {player} → {on}")
PLACE = {Column.PULYA: Msg("pulya {player}"), Column.GORA: Msg("gora {player}")}
FINISHED = Msg("finished after {count} deal", "finished after {count} deals", "count")
IN_PROGRESS = Msg("in progress: {count} deal so far, {dealer} deals next",
                  "in progress: {count} deals so far, {dealer} deals next", "count")
PAYS = Msg("{payer} pays {payee} {amount}")


def _entry_place(entry: Entry, names: Sequence[str], say: Callable[[Text], str]) -> str:
    if entry.column is Column.WHISTS:
        assert entry.on is not None
        return say(WHISTS_PLACE(player=names[entry.player], on=names[entry.on]))
    return say(PLACE[entry.column](player=names[entry.player]))


def context(players: Sequence[str], rules: Rules, replay: Replay, settlement: Settlement, *, title: str,
            created: date | datetime, currency: str = "", orientation: str = "table",
            seats: Sequence[str] | None = None, language: str = "en", steps: Sequence[str] = (),
            ledger: tuple[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """Everything the template shows, as plain strings in `language`: the template only lays it out. `steps`:
    a paper sheet's settlement told step by step, shown instead of the protocol it has no deals for. `ledger`:
    where the players stand in the club ledger, a title (saying when it was read) and its lines."""
    names = tuple(players)
    written = translate.writer(names, language)

    def say(text: Text) -> str:
        return unbroken(written(text))

    def points_(value: Points) -> str:
        return points(value, language)

    def signed_(value: Points | Decimal) -> str:
        return signed(value, language)

    n = len(names)
    sheet = replay.sheet
    shown = settled(names, sheet, rules, settlement)
    # The size and the price are on page 1 anyway; "changed" lists the other departures from the preset.
    overrides = {k: v for k, v in rules.overrides().items() if k not in ("preset", "pulya_size", "whist_price")}
    when = created.strftime("%Y-%m-%d %H:%M") if isinstance(created, datetime) else created.isoformat()
    if replay.finished:
        status = say(FINISHED(count=sheet.deals))
    else:
        status = say(IN_PROGRESS(count=sheet.deals, dealer=names[sheet.dealer]))
    deals = [
        {
            "number": result.number,
            "dealer": names[result.dealer],
            "summary": describe(result.deal, names, result.k, language, rules),
            "entries": [
                {"place": _entry_place(e, names, say), "points": signed_(e.points), "reason": say(e.reason)}
                for e in result.entries
            ],
        }
        for result in replay.results
    ]
    return {
        "title": title,
        "created": when,
        "players": names,
        "status": status,
        "finished": replay.finished,
        "preset": say(PRESET_TITLES[rules.preset]),
        "pulya_size": rules.pulya_size,
        "whist_price": decimal(rules.whist_price, language) + (f"\u00a0{currency}" if currency else ""),
        "changed": [f"{title}: {shown}" for title, shown in rules_in_words(rules, language, only=list(overrides))],
        "all_rules": [f"{title}: {shown}" for title, shown in rules_in_words(rules, language)],
        "svg": sheet_svg(names, rules, replay, orientation=orientation, currency=currency, seats=seats,
                         language=language),
        "deals": deals,
        "totals": [
            {
                "name": names[i],
                "pulya": points_(sheet.pulya[i]),
                "gora": points_(sheet.gora[i]),
                "whists": ["—" if i == j else points_(sheet.whists[i][j]) for j in range(n)],
            }
            for i in range(n)
        ],
        "balances": [
            {"name": row.name, "exact": signed_(row.net), "balance": signed_(row.balance),
             "money": amount(row.money, currency, sign=True, language=language)}
            for row in shown.standings
        ],
        "amnesty": points_(shown.amnesty),
        "gora_whists": [points_(row.gora_whists) for row in shown.standings],
        "pairwise": [
            {"name": names[i], "cells": ["—" if i == j else signed_(shown.pairwise[i][j]) for j in range(n)]}
            for i in range(n)
        ],
        "transfers": [say(PAYS(payer=p.payer, payee=p.payee, amount=amount(p.amount, currency, language=language)))
                      for p in shown.payments],
        "fonts": {weight: path.as_uri() for weight, path in FONTS.items()},
        "steps": list(steps),
        "ledger": None if ledger is None else {"title": ledger[0], "lines": list(ledger[1])},
    }


def render_html(players: Sequence[str], rules: Rules, replay: Replay, settlement: Settlement | None = None, *,
                title: str, created: date | datetime, currency: str = "", orientation: str = "table",
                seats: Sequence[str] | None = None, language: str = "en", steps: Sequence[str] = (),
                ledger: tuple[str, Sequence[str]] | None = None) -> str:
    """The PDF's HTML (in `language`), for debugging the layout in a browser."""
    from markupsafe import Markup

    settlement = settlement or settle(replay.sheet, rules)
    data = context(players, rules, replay, settlement, title=title, created=created, currency=currency,
                   orientation=orientation, seats=seats, language=language, steps=steps, ledger=ledger)
    data["svg"] = Markup(data["svg"])  # built and escaped by sheet_svg
    data["language"] = language  # <html lang>: hyphenation and the PDF's language
    return str(_environment(language).get_template("pdf/pulka.html").render(data))


def render_pdf(players: Sequence[str], rules: Rules, replay: Replay, settlement: Settlement | None = None, *,
               title: str, created: date | datetime, currency: str = "", orientation: str = "table",
               seats: Sequence[str] | None = None, language: str = "en", steps: Sequence[str] = (),
               ledger: tuple[str, Sequence[str]] | None = None) -> bytes:
    """The pulka as A4 PDF bytes (its words in `language`); finished or not, 3 or 4 players. `settlement`
    defaults to settling the sheet."""
    return html_pdf(render_html(players, rules, replay, settlement, title=title, created=created,
                                currency=currency, orientation=orientation, seats=seats, language=language,
                                steps=steps, ledger=ledger))


# -- in worker processes ---------------------------------------------------------------

_pools: dict[int, ProcessPoolExecutor] = {}
_pools_lock = threading.Lock()


def html_pdf(html: str) -> bytes:
    """A page of HTML already in its words (a player's statistics) as PDF bytes, with the app's fonts."""
    import weasyprint

    document = weasyprint.HTML(string=html, base_url=STATIC_DIR.as_uri() + "/", url_fetcher=make_url_fetcher())
    return bytes(document.write_pdf())


def render_pdf_in_worker(workers: int, *args: Any, **kwargs: Any) -> bytes:
    """render_pdf in one of `workers` processes kept for it (in_worker)."""
    return in_worker(workers, render_pdf, *args, **kwargs)


def in_worker(workers: int, function: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
    """`function` (render_pdf, html_pdf) in one of `workers` processes kept for it, started when first needed.

    WeasyPrint builds millions of objects: in a web server's own process, collecting them would pause
    every other request (half a second at a time), and its Python would hold the GIL they need.
    """
    with _pools_lock:
        if workers not in _pools:
            # Spawned, not forked: the server has threads, and a fork copies their locks in whatever state.
            _pools[workers] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                                  initializer=_leave_with, initargs=(os.getpid(),))
        pool = _pools[workers]
    try:
        return pool.submit(function, *args, **kwargs).result()
    except BrokenProcessPool:
        with _pools_lock:  # a worker died (killed, out of memory): the next PDF starts new ones
            if _pools.get(workers) is pool:
                del _pools[workers]
        raise


def _leave_with(server: int) -> None:
    """A worker ends when its server does, even one stopped by a signal, which has no time to end its pool."""
    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
