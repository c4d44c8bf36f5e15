"""What pages and the API show of a pulka: one `Presenter` per pulka version, each part built when
first asked for and kept while that version lives.

Values stay exact (ints, Fractions, Decimals): templates format them with the filters of
render.text, and the API makes JSON numbers of them with `jsonable`.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import threading
from collections.abc import Callable, Hashable, Sequence
from decimal import Decimal
from fractions import Fraction
from functools import cached_property, partial
from typing import Any

import segno
from flask import Response, current_app, url_for
from markupsafe import Markup

from .. import i18n_engine, pulyafile
from ..engine import Column, DealResult, Entry, Strain, Text, defenders, json_value
from ..render.svg import ORIENTATIONS, sheet_svg
from ..render.text import amount, describe, filename, points, signed
from . import errors
from .cache import Busy, Gate, Section
from .domain import Msg, Pulka, Refused
from .forms import lone_whist_total
from .i18n import language as request_language
from .repository import Summary



def chain_html(values: Sequence[int | Fraction]) -> Markup:
    """A chain on a page (2.6.10): each number unbreakable, and a line may break after each dot, so a long
    chain on a phone wraps between numbers, never inside one. Every page shows chains through this filter."""
    if not values:
        return Markup("—")
    return Markup(".<wbr>").join(Markup('<span class="n">%s</span>') % points(value) for value in values)


FILTERS = {"points": points, "signed": signed, "chain": chain_html, "amount": amount}
STRAINS = [(s.value, s.symbol) for s in Strain]


def jsonable(value: Any) -> Any:
    """Exact values as JSON numbers (ints stay ints); containers recursively."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (Fraction, Decimal)):
        return json_value(value)
    return value


def orientation_of(value: str | None) -> str:
    """The drawing's orientation from a query or a cookie; anything unknown is the paper's own."""
    return value if value in ORIENTATIONS else "table"


def _say(text: Text, names: Sequence[str], language: str | None) -> str:
    """A text (the web's or the engine's) in `language`, by default the request's."""
    catalog = i18n_engine.catalog(language or request_language())
    return text.render(names, catalog.gettext, catalog.ngettext)


def entry_view(entry: Entry, names: Sequence[str], language: str | None = None) -> dict[str, Any]:
    view = {"player": names[entry.player], "column": entry.column.value}
    if entry.on is not None:
        view["on"] = names[entry.on]
    return view | {"points": entry.points, "reason": _say(entry.reason, names, language)}


WHISTS_ON = Msg("{player}: {count} whist on {on}", "{player}: {count} whists on {on}", "count")
WHISTS_ON_PART = Msg("{player}: {points} whists on {on}")  # 2½ whists, or fewer than none
IN_COLUMN = {Column.PULYA: Msg("{player}: pulya {points}"), Column.GORA: Msg("{player}: gora {points}")}


def _line(names: Sequence[str], player: int, column: Column, value: Any, on: int | None,
          language: str | None = None) -> str:
    """"Boris: pulya +4", "Anna: 8 whists on Boris" («Борис: пуля +4», «Анна → Борис: 8 вистов»)."""
    if column is Column.WHISTS:
        assert on is not None
        whole = isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1)
        text = (WHISTS_ON(player=names[player], count=int(value), on=names[on]) if whole and value >= 0 else
                WHISTS_ON_PART(player=names[player], points=points(value), on=names[on]))
        return _say(text, names, language)
    return _say(IN_COLUMN[column](player=names[player], points=signed(value)), names, language)


def written(entries: Sequence[Entry], names: Sequence[str], language: str | None = None) -> list[dict[str, str]]:
    """Each line a deal writes and why: {"what": "Anna: 60 whists on Boris", "why": "Anna helps Boris with …"}.
    The preview shows these, so that a line that looks odd (help, consolation) says where it comes from."""
    return [{"what": _line(names, e.player, e.column, e.points, e.on, language),
             "why": _say(e.reason, names, language)} for e in entries]


def summary(entries: Sequence[Entry], names: Sequence[str], language: str | None = None) -> list[str]:
    """What a deal writes, one phrase per player and column: "Boris: pulya +4", "Anna: 8 whists on Boris"."""
    totals: dict[tuple[int, Column, int | None], Any] = {}
    for e in entries:
        key = (e.player, e.column, e.on)
        totals[key] = totals.get(key, 0) + e.points
    return [_line(names, player, column, total, on, language) for (player, column, on), total in totals.items()]


def card(row: Summary, pulka: Pulka) -> dict[str, Any]:
    """A pulka in the home list: its name, last change, where it stands and who leads (the best balance, when
    above zero), without every player's name. The template says it in words."""
    net = pulka.settlement.net
    best = max(net)
    return {
        "uid": row.uid, "name": row.name, "role": row.role.value, "date": row.updated_at.date(),
        "deals": len(pulka.deals), "finished": pulka.sheet.finished,
        "leaders": [name for name, value in zip(pulka.players, net) if value == best] if best > 0 else [],
        "best": best,
    }


def inert(cell: object) -> object:
    """A CSV cell that a spreadsheet will not run: text that would start a formula (=, +, −, @, a tab or a
    carriage return: a name such as "=HYPERLINK(…)") gets a leading apostrophe. Numbers stay numbers."""
    if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + cell
    return cell


CSV_COLUMNS = [Msg("deal"), Msg("dealer"), Msg("type"), Msg("declarer"), Msg("contract"), Msg("whist"), Msg("open"),
               Msg("tricks"), Msg("player"), Msg("column"), Msg("on"), Msg("points"), Msg("reason")]
# The words of the CSV's cells, as its headers are in the presenter's language.
CSV_WORDS = {"game": Msg("game"), "misere": Msg("misère"), "raspasy": Msg("raspasy"), "pulya": Msg("pulya"),
             "gora": Msg("gora"), "whists": Msg("whists")}


class Presenter:
    """What every page and API answer shows of one pulka version."""

    def __init__(self, pulka: Pulka, language: str | None = None):
        self.pulka = pulka
        self.language = language or request_language()  # every text it builds is in this language
        self._deals: dict[int, dict[str, Any]] = {}
        self._drawings: dict[str, str] = {}
        self._pdfs: dict[str, bytes] = {}
        self._pages: dict[Hashable, str] = {}
        self._building: dict[tuple[int, Hashable], threading.Lock] = {}
        self._lock = threading.Lock()

    # -- deals --------------------------------------------------------------------------

    @cached_property
    def protocol(self) -> list[dict[str, Any]]:
        """Every deal with every line it wrote and why."""
        return [self.deal(number) for number in range(1, len(self.pulka.deals) + 1)]

    def deal(self, number: int) -> dict[str, Any]:
        """One deal as the protocol shows it (saving a deal shows only that one: built alone)."""
        result = self.pulka.result(number)  # NotFound for a deal the pulka does not have
        return self._once(self._deals, number, lambda: self._deal(result))

    def _deal(self, result: DealResult) -> dict[str, Any]:
        pulka, names = self.pulka, self.pulka.players
        before = pulka.replay.sheet_before(result.number)
        closed = [seat for seat in result.sheet.closed(pulka.rules) if seat not in before.closed(pulka.rules)]
        view = {"n": result.number, "dealer": names[result.dealer]}
        if pulka.n == 4:
            view["sitting_out"] = names[result.dealer]
        return view | {
            "deal": pulyafile.deal_to_json(result.deal, names),
            "text": describe(result.deal, names, result.k, self.language),
            "raspasy_k": result.k or None,
            "entries": [entry_view(e, names, self.language) for e in result.entries],
            "summary": summary(result.entries, names, self.language),
            "pulya_closed": [names[s] for s in closed],
            "finished": result.sheet.finished and not before.finished,
        }

    def deal_form(self, number: int) -> dict[str, Any]:
        """Who deals deal `number` and who plays it: what the deal form shows above its fields."""
        pulka, names, rules = self.pulka, self.pulka.players, self.pulka.rules
        sheet = pulka.replay.sheet_before(number)
        active = sheet.active
        return {
            "number": number, "editing": number <= len(pulka.deals), "names": names,
            "dealer": names[sheet.dealer], "first_hand": names[active[0]],
            "sitting_out": names[sheet.sitting_out] if sheet.sitting_out is not None else None,
            # Every deal in seating order, so that a player is always in the same place on the screen; the
            # first hand is marked, and with four the dealer who sits out keeps his place, greyed.
            "seats": [(seat, names[seat]) for seat in range(pulka.n)], "active": active, "first_seat": active[0],
            "sitting_out_seat": sheet.sitting_out, "talon": sheet.talon_seat(rules),
            "lone_total": lone_whist_total(rules),
            "least_level": sheet.least_level(rules), "streak": sheet.streak,
            "strains": STRAINS, "levels": range(6, 11),
            "defenders_json": json.dumps({str(seat): list(defenders(active, seat)) for seat in active}),
            "half_levels": list(rules.half_whist), "ten_checked": rules.ten_checked,
        }

    # -- the sheet and the settlement ---------------------------------------------------

    @cached_property
    def next_deal(self) -> dict[str, Any] | None:
        sheet, names = self.pulka.sheet, self.pulka.players
        if sheet.finished:
            return None
        return {
            "n": sheet.deals + 1,
            "dealer": names[sheet.dealer],
            "first_hand": names[sheet.active[0]],
            "active": [names[s] for s in sheet.active],
            "sitting_out": names[sheet.sitting_out] if sheet.sitting_out is not None else None,
            "least_level": sheet.least_level(self.pulka.rules),
        }

    @cached_property
    def sheet(self) -> dict[str, Any]:
        pulka = self.pulka
        sheet, names, rules, replay, settlement = pulka.sheet, pulka.players, pulka.rules, pulka.replay, pulka.settlement
        closed = sheet.closed(rules)
        rows = [{
            "name": name,
            "pulya": sheet.pulya[i],
            "pulya_chain": replay.chain(Column.PULYA, i),
            "pulya_closed": i in closed,
            "gora": sheet.gora[i],
            "gora_chain": replay.chain(Column.GORA, i),
            "whists": [{"on": names[j], "total": sheet.whists[i][j], "chain": replay.chain(Column.WHISTS, i, j)}
                       for j in range(pulka.n) if j != i],
            "balance": settlement.balance[i],
            "money": settlement.money[i],
        } for i, name in enumerate(names)]
        return {
            "id": pulka.uid,
            "name": pulka.name,
            "version": pulka.version,
            "players": list(names),
            "currency": pulka.currency,
            "rules": rules.to_dict(),
            "deals": sheet.deals,
            "finished": sheet.finished,
            "streak": sheet.streak,
            "next": self.next_deal,
            "table": rows,
            "last": self.deal(len(pulka.deals)) if pulka.deals else None,
        }

    @cached_property
    def balances(self) -> dict[str, Any]:
        """The balance as the pages show it: exact whists (263, −48⅔) beside the money in cents, and whether
        the money had to be rounded (then some player's money is not exactly his whists × the price)."""
        pulka = self.pulka
        s, price = pulka.settlement, Fraction(pulka.rules.whist_price)
        return {
            "currency": pulka.currency,
            "rows": [{"name": name, "net": s.net[i], "money": s.money[i]} for i, name in enumerate(pulka.players)],
            "rounded": any(Fraction(s.money[i]) != s.net[i] * price for i in range(pulka.n)),
            "sum_net": sum(s.net, Fraction(0)),
            "sum_money": sum(s.money, Decimal(0)),
        }

    @cached_property
    def sheet_json(self) -> str:
        return json.dumps(jsonable(self.sheet), ensure_ascii=False)

    @cached_property
    def settlement(self) -> dict[str, Any]:
        pulka = self.pulka
        s, names, n = pulka.settlement, pulka.players, pulka.n
        return {
            "finished": pulka.sheet.finished,
            "currency": pulka.currency,
            "whist_price": pulka.rules.whist_price,
            "players": [{"name": names[i], "net": s.net[i], "balance": s.balance[i], "money": s.money[i]}
                        for i in range(n)],
            "amnesty": s.amnesty,
            "gora": list(pulka.sheet.gora),
            "gora_left": [g - s.amnesty for g in pulka.sheet.gora],
            "gora_whists": list(s.gora_whists),
            "pairwise": [[s.pairwise[i][j] for j in range(n)] for i in range(n)],
            "transfers": [{"from": names[t.payer], "to": names[t.payee], "amount": t.amount} for t in s.transfers],
            "sum_net": sum(s.net, Fraction(0)),
            "sum_money": sum(s.money, Decimal(0)),
        }

    @cached_property
    def pulka_json(self) -> dict[str, Any]:
        """The pulka as the API describes it (the routes add its links)."""
        pulka = self.pulka
        return {
            "id": pulka.uid,
            "name": pulka.name,
            "version": pulka.version,
            "players": list(pulka.players),
            "first_dealer": pulka.players[pulka.first_dealer],
            "currency": pulka.currency,
            "rules": pulka.rules.to_dict(),
            "overrides": pulka.rules.overrides(),
            "deals": len(pulka.deals),
            "finished": pulka.sheet.finished,
            "frozen": bool(pulka.deals),
            "next": self.next_deal,
        }

    # -- drawings and files -------------------------------------------------------------

    def drawing(self, orientation: str = "table") -> str:
        """The paper sheet as inline SVG (escaped by sheet_svg)."""
        return self._once(self._drawings, orientation, lambda: sheet_svg(
            self.pulka.players, self.pulka.rules, self.pulka.replay, orientation=orientation,
            currency=self.pulka.currency, styled=False, language=self.language))

    def pdf(self, orientation: str = "table") -> bytes:
        """The A4 PDF: the drawing, the protocol, the settlement. Rendered once however many ask for it at
        once, in a worker process, when the app's gate lets it in (Busy when too many PDFs are being made or
        waited for)."""
        from ..render.pdf import render_pdf_in_worker

        found = self._pdfs.get(orientation)
        if found is not None:
            return found
        pulka = self.pulka
        gate: Gate = current_app.extensions["scorekeeper.pdf"]
        render = partial(render_pdf_in_worker, gate.running, pulka.players, pulka.rules, pulka.replay,
                         pulka.settlement, title=pulka.name, created=pulka.created_at, currency=pulka.currency,
                         orientation=orientation, language=self.language)
        with gate.entered():
            return self._once(self._pdfs, orientation, lambda: gate.run(render))

    def page(self, key: Hashable, render: Callable[[], str]) -> str:
        """A whole page, rendered once per version (the sheet is read far more often than it changes)."""
        return self._once(self._pages, key, render)

    @cached_property
    def export(self) -> str:
        """The pulya/1 file."""
        pulka = self.pulka
        return pulyafile.dumps(pulyafile.Pulka(pulka.players, pulka.rules, pulka.deals, pulka.first_dealer,
                                               name=pulka.name, currency=pulka.currency, started=pulka.created_at))

    @cached_property
    def csv(self) -> str:
        """The protocol, one line per entry."""
        out = io.StringIO()
        writer = csv.writer(out)
        names = self.pulka.players
        catalog = i18n_engine.catalog(self.language)

        def word(value: str) -> str:
            found = CSV_WORDS.get(value)
            return found.render(names, catalog.gettext, catalog.ngettext) if found else value

        writer.writerow([column.render(names, catalog.gettext, catalog.ngettext) for column in CSV_COLUMNS])
        opened = Msg("open").render(names, catalog.gettext, catalog.ngettext)
        for view in self.protocol:
            deal = view["deal"]
            head = [view["n"], view["dealer"], word(deal["type"]), deal.get("declarer", ""), deal.get("contract", ""),
                    " ".join(f"{k}:{v}" for k, v in deal.get("whist", {}).items()),
                    opened if deal.get("open") else "",
                    " ".join(f"{k}:{v}" for k, v in deal.get("tricks", {}).items())]
            for entry in view["entries"] or [{}]:
                row = head + [entry.get("player", ""), word(entry.get("column", "")), entry.get("on", ""),
                              jsonable(entry.get("points", "")), entry.get("reason", "")]
                writer.writerow([inert(cell) for cell in row])
        return out.getvalue()

    def filename(self, ext: str) -> str:
        return filename(self.pulka.name, self.pulka.created_at, ext)

    def weight(self) -> int:
        """Bytes this presenter keeps, about: its views and the texts it built. The replay is its pulka's,
        weighed with the pulka in the repository's cache: every read asks for both, one after the other, so
        they leave the cache one after the other too."""
        texts = [*self._pages.copy().values(), *self._drawings.copy().values(), *self._pdfs.copy().values(),
                 *(self.__dict__.get(name, "") for name in ("sheet_json", "export", "csv"))]
        chains = CHAIN_BYTES * len(self.pulka.deals) if "sheet" in self.__dict__ else 0
        return ITEM_BYTES + VIEW_BYTES * len(self._deals) + chains + sum(map(sys.getsizeof, texts))

    def _once(self, cache: dict, key: Hashable, build: Callable[[], Any]) -> Any:
        """cache[key], built by the first to ask: whoever asks meanwhile waits for that build, not a second one."""
        found = cache.get(key)
        if found is None:
            with self._lock:
                building = self._building.setdefault((id(cache), key), threading.Lock())
            with building:
                found = cache.get(key)
                if found is None:
                    try:
                        found = cache[key] = build()
                    finally:
                        with self._lock:
                            self._building.pop((id(cache), key), None)
        return found


# What a cached item keeps alive, in bytes, measured with tracemalloc on 1,000- and 5,000-deal pulkas
# (benchmarks/memory.py prints it again): a replayed deal about 2,200, a deal's view in the protocol about
# 2,800, the sheet's chains about 40 per deal; texts weigh what sys.getsizeof says.
REPLAY_BYTES, VIEW_BYTES, CHAIN_BYTES, ITEM_BYTES = 2200, 2800, 40, 4096


def weight(item: Pulka | Presenter) -> int:
    """The weight of an item of the app's cache: a replayed pulka or a presenter."""
    if isinstance(item, Presenter):
        return item.weight()
    return ITEM_BYTES + REPLAY_BYTES * len(item.deals)


def presenter(pulka: Pulka) -> Presenter:
    """The presenter of this pulka version in the request's language, shared by every request of this
    process that reads it in that language."""
    cache: Section[Presenter] = current_app.extensions["scorekeeper.presenters"]
    key = (pulka.uid, pulka.version, request_language())
    return cache.get(key) or cache.put(key, Presenter(pulka, key[2]))


def download(data: str | bytes, mimetype: str, filename: str) -> Response:
    return Response(data, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def share_url(token: str) -> str:
    """The address a share link's QR code carries (behind a proxy, ProxyFix makes it the public one)."""
    return url_for("pages.open_share", token=token, _external=True)


def qr_svg(text: str, label: str = "") -> Markup:
    """`text` as a QR code in inline SVG, drawn here (no outside service): black on white with the
    quiet zone scanners need, even in dark mode; sized by the page."""
    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=1, dark="#000", light="#fff", border=4, omitsize=True, svgclass="qr",
                          title=label or None)
    return Markup(svg)


# Seconds: about what a 1,000-deal PDF takes, by when one of the PDFs ahead is likely done.
RETRY_AFTER = 5


def busy(error: Busy) -> Response:
    """503 and when to try again: a PDF asked for while the server makes as many as it makes at once, and as
    many more wait their turn. Turned away rather than queued, so that PDFs never hold every server thread."""
    response, status = errors.respond(Refused(Msg("The server is making other PDFs just now; try again in a few "
                                                  "seconds."), code="busy"))
    response = current_app.make_response((response, status))
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response
