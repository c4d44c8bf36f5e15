"""A club's tournament night (docs/tournament.md): the draw of its rounds, their points and the standings. Pure, as
the rest of the engine: players are opaque keys (names or the web's ids), numbers exact, lots drawn from the
event's seed.

lots       the lots drawn from a seed: a small generator of its own, the same on every machine
search     the searches behind the fewest-repeats draw, on numbered players
terms      the event's terms (table size, rounds, draw, scoring, tie-breaks, seed) read and refused
draw       table sizes, byes by turn, and the round's seating: fewest_repeats, swiss, manual
points     a table's result as round points under each scheme, a bye's points, rounding at the edge
standings  the standings after the complete rounds: sums, ranks, tie-breaks

Each module imports only those above it in this list (and the engine's records and texts).
"""

from .draw import (
    Round, TableSizes, bye_order, byes_due, draw_round, fewest_repeats, manual, meetings, random_round, repeats, swiss,
    table_sizes,
)
from .lots import Lots
from .points import banded, bye_points, rounded, table_points
from .standings import EventStanding, RoundResult, event_standings, lots_order, round_points
from .terms import (
    DEFAULT_TIEBREAKS, Band, DrawMethod, EventRefusal, EventTerms, RefusalCode, Scheme, Scoring, Tiebreak, draw_of,
    rounds_of, scoring_of, seed_of, table_size_of, tiebreaks_of,
)

__all__ = [
    "DEFAULT_TIEBREAKS", "Band", "DrawMethod", "EventRefusal", "EventStanding", "EventTerms", "Lots", "RefusalCode",
    "Round", "RoundResult", "Scheme", "Scoring", "TableSizes", "Tiebreak", "banded", "bye_order", "bye_points",
    "byes_due", "draw_of", "draw_round", "event_standings", "fewest_repeats", "lots_order", "manual", "meetings",
    "random_round", "repeats", "round_points", "rounded", "rounds_of", "scoring_of", "seed_of", "swiss",
    "table_points", "table_size_of", "table_sizes", "tiebreaks_of",
]
