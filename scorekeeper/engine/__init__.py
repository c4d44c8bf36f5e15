"""The pure scoring core: no Flask, no database, no I/O.

contracts  the ladder, prices, obligations
rules      every parameter of rules.md §14 and the three presets
deals      a deal as entered, and its validation
scoring    what a deal writes on the sheet, line by line, with reasons
sheet      replaying a pulka's deals into its sheet
settlement balances, money and transfers
"""

from .contracts import Contract, Strain
from .deals import Code, Deal, DealType, Problem, Word
from .rules import PARAMETER, PARAMETERS, PRESETS, Kind, Parameter, Preset, Rules, RulesError
from .scoring import Column, Entry
from .settlement import Settlement, Transfer, settle
from .sheet import DealResult, PulkaError, Replay, Sheet, replay

__all__ = [
    "Code", "Column", "Contract", "Deal", "DealResult", "DealType", "Entry", "Kind", "PARAMETER", "PARAMETERS",
    "PRESETS", "Parameter", "Preset", "Problem", "PulkaError", "Replay", "Rules", "RulesError", "Settlement",
    "Sheet", "Strain", "Transfer", "Word", "replay", "settle",
]
