"""The command line's text for people: a replayed pulka and a paper sheet as tables and sentences, in the
language asked for (`--lang`) or the environment's. The commands (cli.py) print it; --json prints the
files' objects instead, without these renderers."""

from __future__ import annotations

import os
from collections.abc import Callable

from .engine import Replay, Sheet, Text, settle
from .engine.settled import settled
from .files.pulyafile import PulkaFile
from .files.sheetfile import PaperSheet
from .i18n.words import Msg

PULKA_HEAD = Msg("Pulka of {players}: {preset} rules, pulya {size}, whist price {price}, {count} deal",
                 "Pulka of {players}: {preset} rules, pulya {size}, whist price {price}, {count} deals", "count")
PAPER_HEAD = Msg("Paper sheet of {players}: {preset} rules, a pulya point {pulya} whists, a gora point {gora} whists, "
                 "whist price {price}")
FINISHED = Msg("The pulka is finished.")
NOT_FINISHED = Msg("The pulka is not finished; next to deal: {player}.")
COLUMNS = (Msg("pulya"), Msg("gora"), Msg("whists on"))


def language_wanted(asked: str | None) -> str:
    """`--lang`, else the environment's as gettext reads it; English for a language the app does not speak."""
    from .i18n.translate import catalog_path, language_of

    wanted = asked or next((os.environ[name] for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
                            if os.environ.get(name)), "")
    language = language_of(wanted.split(":")[0])
    return language if catalog_path(language).is_file() else "en"


def format_result(pulka: PulkaFile, replayed: Replay, language: str = "en") -> str:
    """The replay result for people: the sheet, the balances, who pays whom."""
    from .i18n.translate import writer
    from .render.steps import BALANCE_HEAD, NOBODY, PAYS, column_width
    from .render.text import PRESET_TITLES, amount, decimal, signed  # the renderers (and Babel): not for --json

    names, rules, sheet = pulka.players, pulka.rules, replayed.sheet
    say = writer(names, language)
    settlement = settled(names, sheet, rules, pulka.settle(replayed))
    width = column_width(names)
    lines = [
        say(PULKA_HEAD(players=", ".join(names), preset=PRESET_TITLES[rules.preset], size=rules.pulya_size,
                       price=decimal(rules.whist_price, language), count=len(replayed.results))),
        "",
        *sheet_lines(names, sheet, say, language),
        "",
        say(FINISHED if sheet.finished else NOT_FINISHED(player=names[sheet.dealer])),
        "",
        say(BALANCE_HEAD),
    ]
    for row in settlement.standings:
        lines.append(f"  {row.name.ljust(width)}{signed(row.balance, language).rjust(10)}"
                     f"{signed(row.money, language).rjust(12)}")
    lines.append("")
    lines += ["  " + say(PAYS(payer=p.payer, payee=p.payee, amount=amount(p.amount, language=language)))
              for p in settlement.payments] or ["  " + say(NOBODY)]
    return "\n".join(lines)


def sheet_lines(names: tuple[str, ...], sheet: Sheet, say: Callable[[Text], str], language: str) -> list[str]:
    """The sheet's totals as a table: pulya, gora, and the whists each wrote on each."""
    from .render.steps import column_width
    from .render.text import points

    pulya, gora, whists_on = (say(column) for column in COLUMNS)
    width = column_width(names)
    gap = "   " + whists_on.ljust(9)
    lines = ["".ljust(width) + pulya.rjust(7) + gora.rjust(7) + gap + "".join(p.rjust(width) for p in names)]
    for i, name in enumerate(names):
        whists = "".join(("—" if j == i else points(sheet.whists[i][j], language)).rjust(width)
                         for j in range(len(names)))
        lines.append(name.ljust(width) + points(sheet.pulya[i], language).rjust(7)
                     + points(sheet.gora[i], language).rjust(7) + " " * len(gap) + whists)
    return lines


def format_paper(paper: PaperSheet, language: str = "en") -> str:
    """A paper sheet's settlement for people: the sheet, then the steps a table checks by hand."""
    from .i18n.translate import writer
    from .render.steps import for_people
    from .render.text import PRESET_TITLES, decimal, points

    rules, sheet = paper.rules, paper.sheet
    say = writer(paper.players, language)
    settlement = settle(sheet, rules)
    head = [say(PAPER_HEAD(players=", ".join(paper.players), preset=PRESET_TITLES[rules.preset],
                           pulya=points(rules.pulya_point_whists, language),
                           gora=points(rules.gora_point_whists, language),
                           price=decimal(rules.whist_price, language))),
            "", *sheet_lines(paper.players, sheet, say, language), ""]
    s = settled(paper.players, sheet, rules, settlement)
    return "\n".join(head + for_people(paper.players, sheet, rules, settlement, s, paper.currency or "", language))
