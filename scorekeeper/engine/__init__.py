"""The pure scoring core: no Flask, no database, no I/O.

texts       a text a player reads: a declared template and its values, in English or translated
problems    problem codes and messages, the error a refused deal raises
contracts   the ladder, prices, obligations
rules       every parameter of docs/rules.md §14 and the three presets
deals       a deal as entered, and who sits where in it
sheet       the sheet at one moment and what follows from it for the next deal
validation  every problem of a deal at a given sheet
scoring     what a deal writes on the sheet, line by line, with reasons
pulka       replaying a pulka's deals into its sheet
settlement  balances, money and transfers
paper       a sheet kept on paper: its totals as a sheet, and the pairs a player checks by hand
roles       one player's deals counted by role, and what each seat did in each deal
records     what the figures keep of a pulka, and which pulkas count
figures     a player's sums over the pulkas that count, the standings, running totals
career      a player's results one by one: his evenings, runs, rival and nemesis
ledger      the club ledger: obligations and payments, balances, who owes since when, the fewest payments to settle
tournament  a club's tournament: the draw of its rounds, round points and standings (a package of its own)

Each module imports only those above it in this list.
"""

from . import contracts, problems, pulka, rules, scoring, validation
from .contracts import Contract, Strain
from .deals import Deal, DealType, Word, defenders, seats_in_play
from .problems import Code, Problem, PulkaError
from .pulka import DealResult, Replay, replay
from .rules import (
    CHOICE_TITLES, PARAMETER, PARAMETERS, PRESETS, Kind, Overflow, Parameter, ParameterError, Preset, PulkaEnd, Q1Responsible,
    RaspasyDealer,
    RaspasyExitOn, RaspasyScoring, RaspasyTie, Rules, RulesError, ShortfallSplit, SingleWhistMade, SingleWhistRemiz,
    choice_title, json_value,
)
from .scoring import Column, Entry
from .settlement import Settlement, Transfer, settle
from .paper import Pair, pairs, paper_sheet
from .ledger import (
    LedgerStanding, Obligation, ObligationStatus, Open, Owed, Payment, PaymentKind, SettleUp, balances, balances_of,
    debtor_standing, ledger_standing, mark_paid, order_key, paid, reversal, settle_up, unmark,
)
from .sheet import Points, Sheet
from .texts import Gettext, Ngettext, Seat, Text, quoted
from .roles import DealLine, DealRole, Roles, deal_lines, roles
from .records import Filter, Record, merged
from .figures import (Chart, HeadToHead, PlayerStanding, PlayerStats, Running, player_stats, running, running_pair,
                      standings)
from .career import Career, PulkaLine, Rivals, career, pulka_lines, rivals
from .tournament import draw as _draw, terms as _terms

__all__ = [
    "Code", "Column", "Contract", "Deal", "DealResult", "DealType", "Entry", "Filter", "Gettext", "HeadToHead", "Kind",
    "Ngettext", "Pair", "PlayerStats", "Record", "Roles", "Running", "PlayerStanding",
    "Career", "Chart", "DealLine", "DealRole", "PulkaLine", "Rivals", "career", "deal_lines", "pulka_lines", "rivals",
    "CHOICE_TITLES", "Overflow", "PARAMETER", "PARAMETERS", "PRESETS", "Parameter", "ParameterError", "Points", "Preset", "Problem",
    "PulkaEnd", "PulkaError", "Q1Responsible", "RaspasyDealer", "RaspasyExitOn", "RaspasyScoring", "RaspasyTie",
    "Replay", "Rules", "RulesError", "Seat", "Settlement", "Sheet", "ShortfallSplit", "SingleWhistMade",
    "SingleWhistRemiz", "Strain", "Text", "Transfer", "Word", "all_texts", "choice_title", "defenders", "json_value",
    "merged", "pairs", "paper_sheet", "player_stats", "quoted", "replay", "roles", "running", "running_pair",
    "seats_in_play", "settle", "standings",
    # the ledger
    "LedgerStanding", "Obligation", "ObligationStatus", "Open", "Owed", "Payment", "PaymentKind", "SettleUp", "balances",
    "balances_of", "debtor_standing", "ledger_standing", "mark_paid", "order_key", "paid", "reversal", "settle_up",
    "unmark",
]


def all_texts() -> tuple[Text, ...]:
    """Every text the engine writes, each once, in the order of the modules: a catalog's msgids.

    A module declares its texts as constants, so they are found among its names; the
    parameters' meanings and titles are rows of the parameter table. A text is declared in one module
    only: two declarations of one msgid would be two translations of it.
    """
    found: dict[str, Text] = {}
    declared = [value for module in (problems, contracts, rules, validation, scoring, pulka, _terms, _draw)
                for name, value in vars(module).items() if isinstance(value, Text) and name.isupper()]
    titles = [text for choices in CHOICE_TITLES.values() for text in choices.values()]
    for text in [*declared, *(p.meaning for p in PARAMETERS), *(p.title for p in PARAMETERS if p.title), *titles]:
        if found.setdefault(text.msgid, text) is not text:
            raise ValueError(f"{text.msgid!r} is declared twice")
    return tuple(found.values())
