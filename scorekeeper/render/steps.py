"""A settlement told step by step in the players' words (docs/rules.md §9.2, the amnesty form): what a table
says when it checks the sheet by hand. The same steps for the command line, the paper sheet's page and its
PDF; each a `Text` whose numbers are written in the language it is said in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import translate
from ..engine import Points, Rules, Settlement, Sheet, Text, pairs
from ..engine.texts import SEATS, Value
from ..engine.settled import Settled
from ..i18n.words import Msg
from .text import amount, points, signed

AMNESTY = Msg("Amnesty: the smallest gora, {amnesty}, is struck from every gora.")
NO_AMNESTY = Msg("Amnesty: the smallest gora is 0, so nothing is struck.")
GORA = Msg("{player}'s {left} gora points: {whists} whists from each of the others ({left} × {worth} ÷ {n}).")
NO_GORA = Msg("{player}: no gora left after the amnesty, nothing is written for it.")
PAIR = Msg("{winner}–{loser}: {mine} − {theirs} = {net}.")
PAIR_PULYA = Msg("{winner}–{loser}: {mine} − {theirs} = {difference}; for the pulya {pulya}: {net}.")
PAIR_EVEN = Msg("{winner}–{loser}: {mine} − {theirs} = 0, they are even.")
BALANCE = Msg("{player}: {balance} whists, {money}.")
PAYS = Msg("{payer} pays {payee} {amount}.")
NOBODY = Msg("Nobody owes anybody.")


@dataclass(frozen=True)
class Steps:
    amnesty: Text
    gora: tuple[Text, ...]  # one per player
    pairs: tuple[Text, ...]  # one per pair, told from the side that wins it
    balances: tuple[Text, ...]
    payments: tuple[Text, ...]


def steps(sheet: Sheet, rules: Rules, settlement: Settlement, s: Settled, currency: str = "",
          language: str = "en") -> Steps:
    """The settlement of `sheet` in steps, its numbers as `language` writes them."""
    n, seat = sheet.n, SEATS

    def num(value: Points) -> str:
        return points(value, language)

    gora = []
    for i, row in enumerate(s.standings):
        if row.gora_left:
            gora.append(GORA(player=seat[i], left=num(row.gora_left), whists=num(row.gora_whists),
                             worth=str(rules.gora_point_whists), n=str(n)))
        else:
            gora.append(NO_GORA(player=seat[i]))
    told = []
    for p in pairs(sheet, rules, settlement):
        values: dict[str, Value] = dict(winner=seat[p.winner], loser=seat[p.loser], mine=num(p.mine), theirs=num(p.theirs))
        if p.pulya:
            told.append(PAIR_PULYA(**values, difference=num(p.mine - p.theirs), pulya=signed(p.pulya, language),
                                   net=num(p.net)))
        elif p.net:
            told.append(PAIR(**values, net=num(p.net)))
        else:
            told.append(PAIR_EVEN(**values))
    return Steps(
        amnesty=AMNESTY(amnesty=num(s.amnesty)) if s.amnesty else NO_AMNESTY,
        gora=tuple(gora),
        pairs=tuple(told),
        balances=tuple(BALANCE(player=seat[i], balance=signed(row.net, language),
                               money=amount(row.money, currency, sign=True, language=language))
                       for i, row in enumerate(s.standings)),
        payments=tuple(PAYS(payer=seat[s.players.index(p.payer)], payee=seat[s.players.index(p.payee)],
                            amount=amount(p.amount, currency, language=language)) for p in s.payments) or (NOBODY,),
    )


GORA_HEAD = Msg("The gora in whists:")
PAIRS_HEAD = Msg("Pair by pair:")
TABLE_HEAD = Msg("What the row wins from the column, in whists:")
BALANCE_HEAD = Msg("Balance (whists, money):")
PAYS_HEAD = Msg("Who pays whom:")


def column_width(names: Sequence[str]) -> int:
    """The width of a column of the command line's tables: the longest name, at least 8, and two spaces."""
    return max(8, *(len(name) for name in names)) + 2


def for_people(players: Sequence[str], sheet: Sheet, rules: Rules, settlement: Settlement, s: Settled,
               currency: str = "", language: str = "en") -> list[str]:
    """The settlement as `scorekeeper settle` prints it: the paper's steps and their result."""
    say = translate.writer(players, language)

    def part(head: Text, texts: Sequence[Text]) -> list[str]:
        return ["", say(head), *("  " + say(text) for text in texts)]

    told = steps(sheet, rules, settlement, s, currency, language)
    width = column_width(players)
    table = [say(TABLE_HEAD), "  " + "".ljust(width) + "".join(name.rjust(width) for name in players)]
    for i, name in enumerate(players):
        table.append("  " + name.ljust(width) + "".join(
            ("—" if i == j else signed(s.pairwise[i][j], language)).rjust(width) for j in range(len(players))))
    return [say(told.amnesty), *part(GORA_HEAD, told.gora), *part(PAIRS_HEAD, told.pairs), "", *table,
            *part(BALANCE_HEAD, told.balances), *part(PAYS_HEAD, told.payments)]
