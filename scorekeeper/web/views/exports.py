"""A pulka as files: the pulya/1 file, and the protocol as CSV."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import Any

from ...i18n import translate
from ...files import pulyafile
from ...i18n.words import Msg
from ..domain.pulkas import Pulka
from .csvfile import CsvWriter, Figure, drained
from .filters import jsonable

CSV_COLUMNS = [Msg("deal"), Msg("dealer"), Msg("type"), Msg("declarer"), Msg("contract"), Msg("whist"), Msg("open"),
               Msg("tricks"), Msg("player"), Msg("column"), Msg("on"), Msg("points"), Msg("reason")]
# The words of the CSV's cells, as its headers are in the presenter's language.
CSV_WORDS = {"game": Msg("game"), "misere": Msg("misère"), "raspasy": Msg("raspasy"), "pulya": Msg("pulya"),
             "gora": Msg("gora"), "whists": Msg("whists")}


def pulka_file(pulka: Pulka) -> str:
    """The pulya/1 file."""
    return pulyafile.dumps(pulyafile.PulkaFile(pulka.players, pulka.rules, pulka.deals, pulka.first_dealer,
                                           name=pulka.name, currency=pulka.currency, started=pulka.started,
                                           opening=pulka.opening))


def protocol_csv(protocol: Sequence[dict[str, Any]], names: Sequence[str], language: str) -> Iterator[str]:
    """The protocol (deal views), one line per entry, its words in `language`."""
    out = io.StringIO()
    writer = CsvWriter(out)
    say = translate.writer(names, language)

    def number(value: object) -> object:
        """A point as a spreadsheet in the language reads it: 2.5, or 2,5 in Russian (still a number)."""
        value = jsonable(value)
        return Figure(str(value).replace(".", ",")) if language == "ru" and isinstance(value, float) else value

    def word(value: str) -> str:
        found = CSV_WORDS.get(value)
        return say(found) if found else value

    writer.writerow([say(column) for column in CSV_COLUMNS])
    opened = say(Msg("open"))
    for view in protocol:
        deal = view["deal"]
        head = [view["n"], view["dealer"], word(deal["type"]), deal.get("declarer", ""), deal.get("contract", ""),
                " ".join(f"{k}:{v}" for k, v in deal.get("whist", {}).items()),
                opened if deal.get("open") else "",
                " ".join(f"{k}:{v}" for k, v in deal.get("tricks", {}).items())]
        for entry in view["entries"] or [{}]:
            row = head + [entry.get("player", ""), word(entry.get("column", "")), entry.get("on", ""),
                          number(entry.get("points", "")), entry.get("reason", "")]
            writer.writerow(row)
        yield drained(out)
    yield drained(out)
