"""The pure scoring core: no Flask, no database, no I/O.

problems    problem codes and messages, the error a refused deal raises
contracts   the ladder, prices, obligations
rules       every parameter of rules.md §14 and the three presets
deals       a deal as entered, and who sits where in it
sheet       the sheet at one moment and what follows from it for the next deal
validation  every problem of a deal at a given sheet
scoring     what a deal writes on the sheet, line by line, with reasons
pulka       replaying a pulka's deals into its sheet
settlement  balances, money and transfers

Each module imports only those above it in this list.
"""

from .contracts import Contract, Strain
from .deals import Deal, DealType, Word, defenders, seats_in_play
from .problems import Code, Problem, PulkaError, literal
from .pulka import DealResult, Replay, replay
from .rules import (
    PARAMETER, PARAMETERS, PRESETS, Kind, Overflow, Parameter, Preset, PulkaEnd, Q1Responsible, RaspasyDealer,
    RaspasyExitOn, RaspasyScoring, RaspasyTie, Rules, RulesError, ShortfallSplit, SingleWhistMade, SingleWhistRemiz,
    json_value,
)
from .scoring import Column, Entry
from .settlement import Settlement, Transfer, settle
from .sheet import Points, Sheet

__all__ = [
    "Code", "Column", "Contract", "Deal", "DealResult", "DealType", "Entry", "Kind", "Overflow", "PARAMETER",
    "PARAMETERS", "PRESETS", "Parameter", "Points", "Preset", "Problem", "PulkaEnd", "PulkaError", "Q1Responsible",
    "RaspasyDealer", "RaspasyExitOn", "RaspasyScoring", "RaspasyTie", "Replay", "Rules", "RulesError",
    "Settlement", "Sheet", "ShortfallSplit", "SingleWhistMade", "SingleWhistRemiz", "Strain", "Transfer", "Word",
    "defenders", "json_value", "literal", "replay", "seats_in_play", "settle",
]
