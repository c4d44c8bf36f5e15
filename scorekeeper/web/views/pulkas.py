"""What pages and the API show of a pulka: one `Presenter` per pulka version and language, each part built
when first asked for and kept while that version lives."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Hashable, Iterator
from functools import cached_property, partial
from typing import Any, TypeVar

from ...engine import Column
from ...render.svg import POSITIONS, sheet_svg
from ...render.text import filename
from ...engine.settled import Settled, settled
from ..domain.pulkas import Pulka, PulkaStanding, Summary
from . import deals, exports, settlement
from .filters import jsonable
from .gate import Turn

T = TypeVar("T")


def card(row: Summary, standing: PulkaStanding) -> dict[str, Any]:
    """A pulka in the home list: its name, its evening (the day played), where it stands and who leads (the
    best balance, when above zero), without every player's name. The template says it in words."""
    return {
        "uid": row.uid, "name": row.name, "role": row.role.value, "date": row.played or row.updated_at.date(),
        "deals": standing.deals, "finished": standing.finished, "leaders": list(standing.leaders),
        "best": standing.best, "ended": row.ended,
    }


class Presenter:
    """What every page and API answer shows of one pulka version, in one language."""

    def __init__(self, pulka: Pulka, language: str):
        self.pulka = pulka
        self.language = language  # every text it builds is in this language
        self._deals: dict[Hashable, dict[str, Any]] = {}
        self._drawings: dict[Hashable, str] = {}
        self._pdfs: dict[Hashable, bytes] = {}
        self._pages: dict[Hashable, str] = {}
        self._building: dict[tuple[int, Hashable], threading.Lock] = {}
        self._lock = threading.Lock()
        self._bytes = ITEM_BYTES  # what it keeps, counted as each part is built (weight)
        # Told of each part built, with its weight: the cache that keeps this presenter counts it at once.
        self.grew: Callable[[Presenter, int], None] = _kept_nowhere

    # -- deals --------------------------------------------------------------------------

    @cached_property
    def protocol(self) -> list[dict[str, Any]]:
        """Every deal with every line it wrote and why."""
        return [self.deal(number) for number in range(1, len(self.pulka.deals) + 1)]

    def deal(self, number: int) -> dict[str, Any]:
        """One deal as the protocol shows it (saving a deal shows only that one: built alone)."""
        result = self.pulka.result(number)  # NotFound for a deal the pulka does not have
        return self._once(self._deals, number, lambda: deals.deal_view(self.pulka, result, self.language),
                          lambda _: VIEW_BYTES)

    def deal_form(self, number: int) -> dict[str, Any]:
        return deals.deal_form(self.pulka, number)

    # -- the sheet and the settlement ---------------------------------------------------

    @cached_property
    def next_deal(self) -> dict[str, Any] | None:
        return deals.next_deal(self.pulka)

    @cached_property
    def sheet(self) -> dict[str, Any]:
        pulka = self.pulka
        sheet, names, rules, replay, settled = pulka.sheet, pulka.players, pulka.rules, pulka.replay, pulka.settlement
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
            "balance": settled.balance[i],
            "money": settled.money[i],
        } for i, name in enumerate(names)]
        return self._built(CHAIN_BYTES * len(pulka.deals), {
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
        })

    @cached_property
    def settled(self) -> Settled:
        pulka = self.pulka
        return settled(pulka.players, pulka.sheet, pulka.rules, pulka.settlement)

    @cached_property
    def balances(self) -> dict[str, Any]:
        return settlement.balances(self.settled, self.pulka.currency)

    @cached_property
    def sheet_json(self) -> str:
        return self._text(json.dumps(jsonable(self.sheet), ensure_ascii=False))

    @cached_property
    def settlement(self) -> dict[str, Any]:
        return settlement.settlement(self.settled, self.pulka.currency)

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
            "frozen": bool(pulka.deals),  # its rules: fixed by the first deal
            "result": None if pulka.frozen is None else {  # kept when it ended: it takes no write until reopened
                "ending": pulka.frozen.ending.value, "at": pulka.frozen.at.isoformat(), "by": pulka.frozen.by,
                "engine": pulka.frozen.engine},
            "next": self.next_deal,
            "played_on": pulka.played_on.isoformat() if pulka.played_on else None,
        }

    # -- drawings and files -------------------------------------------------------------

    def drawing(self, orientation: str = "table", bottom: int = 0) -> str:
        """The paper sheet as inline SVG (escaped by sheet_svg), turned so that seat `bottom` sits at the bottom
        edge (a player's own link: his place at the table)."""
        clockwise = POSITIONS[self.pulka.n]
        seats = [clockwise[(seat - bottom) % self.pulka.n] for seat in range(self.pulka.n)]
        return self._once(self._drawings, (orientation, bottom), lambda: sheet_svg(
            self.pulka.players, self.pulka.rules, self.pulka.replay, orientation=orientation,
            currency=self.pulka.currency, seats=seats, styled=False, language=self.language))

    def pdf(self, turn: Turn, orientation: str = "table", ledger: tuple[str, tuple[str, ...]] | None = None) -> bytes:
        """The A4 PDF: the drawing, the protocol, the settlement (with `ledger`, where its players stand in the
        ledger: a title saying when it was read, and its lines, views.ledger.table_lines). Rendered once however
        many ask for it at once, in a worker process, in the caller's `turn` (Busy when the caller has another
        PDF in progress, or too many callers have)."""
        from ...render.pdf import render_pdf_in_worker

        key = (orientation, ledger)
        found = self._pdfs.get(key)
        if found is not None:
            return found
        pulka = self.pulka
        render = partial(render_pdf_in_worker, turn.running, pulka.players, pulka.rules, pulka.replay,
                         pulka.settlement, title=pulka.name, created=pulka.played, currency=pulka.currency,
                         orientation=orientation, language=self.language, ledger=ledger)
        with turn.entered():
            return self._once(self._pdfs, key, lambda: turn.run(render))

    def page(self, key: Hashable, render: Callable[[], str]) -> str:
        """A whole page, rendered once per version (the sheet is read far more often than it changes)."""
        return self._once(self._pages, key, render)

    @cached_property
    def export(self) -> str:
        """The pulya/1 file."""
        return self._text(exports.pulka_file(self.pulka))

    def csv(self) -> Iterator[str]:
        """The protocol, one line per entry, written as it is sent: from the kept protocol, never kept whole."""
        return exports.protocol_csv(self.protocol, self.pulka.players, self.language)

    def filename(self, ext: str) -> str:
        return filename(self.pulka.name, self.pulka.played, ext)

    def weight(self) -> int:
        """Bytes this presenter keeps, about: its views (VIEW_BYTES a deal's, CHAIN_BYTES a deal for the
        sheet's chains) and the texts it built (what sys.getsizeof says), counted as each is built. The
        replay is its pulka's, weighed with the pulka in the store's cache: every read asks for both, one
        after the other, so they leave the cache one after the other too."""
        return self._bytes

    def _built(self, weight: int, part: T) -> T:
        """A part just built, counted: here, and by the cache that keeps this presenter."""
        with self._lock:
            self._bytes += weight
        self.grew(self, weight)
        return part

    def _text(self, text: str) -> str:
        return self._built(sys.getsizeof(text), text)

    def _once(self, cache: dict[Hashable, T], key: Hashable, build: Callable[[], T],
              weigh: Callable[[T], int] = sys.getsizeof) -> T:
        """cache[key], built by the first to ask: whoever asks meanwhile waits for that build, not a second one."""
        found = cache.get(key)
        if found is None:
            with self._lock:
                building = self._building.setdefault((id(cache), key), threading.Lock())
            with building:
                found = cache.get(key)
                if found is None:
                    try:
                        made = build()
                        found = cache[key] = self._built(weigh(made), made)
                    finally:
                        with self._lock:
                            self._building.pop((id(cache), key), None)
        return found


def _kept_nowhere(presenter: Presenter, weight: int) -> None:
    """A presenter no cache keeps (a write's answer, a test's) tells nobody of its growth."""


# What a cached item keeps alive, in bytes, measured with tracemalloc on 1,000- and 5,000-deal pulkas
# (benchmarks/memory.py prints it again): a replayed deal about 2,200, a deal's view in the protocol about
# 2,800, the sheet's chains about 40 per deal; texts weigh what sys.getsizeof says.
REPLAY_BYTES, VIEW_BYTES, CHAIN_BYTES, ITEM_BYTES = 2200, 2800, 40, 4096


def weight(item: Pulka | Presenter) -> int:
    """The weight of an item of the app's cache: a replayed pulka or a presenter."""
    if isinstance(item, Presenter):
        return item.weight()
    return ITEM_BYTES + REPLAY_BYTES * len(item.deals)
