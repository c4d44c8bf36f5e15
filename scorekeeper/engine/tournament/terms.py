"""An event's terms as the director sets them (docs/tournament.md §2): table size, rounds, the draw, the scoring
scheme, the tie-breaks and the seed, read from JSON values into typed ones. A value that is not one of them is
refused with an `EventRefusal` naming its top-level key; the players and the rules are read where names and
rules are (the web's names, docs/files.md §1)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from ..texts import Text, quoted

TABLE_SIZES = (3, 4)
MOST_ROUNDS = 30


class RefusalCode(StrEnum):
    """Why an event's input is refused: a term that is not one (400, on its field), manual tables that do not
    seat the round (400 `bad_tables`)."""

    BAD_REQUEST = "bad_request"
    BAD_TABLES = "bad_tables"


class EventRefusal(ValueError):
    """An event's input that is refused: `field` its top-level key, `message` what is wrong."""

    def __init__(self, field: str, message: Text, code: RefusalCode = RefusalCode.BAD_REQUEST) -> None:
        self.field, self.message, self.code = field, message, code
        super().__init__(f"{field}: {message.text(())}")


class DrawMethod(StrEnum):
    """How the rounds after the first are drawn (the first is drawn by lot unless manual)."""

    FEWEST_REPEATS = "fewest_repeats"
    SWISS = "swiss"
    MANUAL = "manual"


class Scheme(StrEnum):
    """How a table's result becomes a player's points for the round."""

    WHISTS = "whists"  # his whist balance b itself
    BANDS = "bands"  # |b| cut at limits, each part times its coefficient, with b's sign
    PLACES = "places"  # points by his place at the table, shared places splitting their points


class Tiebreak(StrEnum):
    WHISTS = "whists"  # the sum of his raw balances, higher first
    BEST_ROUND = "best_round"  # his highest round points, a bye's included
    LOTS = "lots"  # an order drawn once from the seed


DEFAULT_TIEBREAKS = (Tiebreak.WHISTS, Tiebreak.BEST_ROUND, Tiebreak.LOTS)


@dataclass(frozen=True)
class Band:
    """One band of `bands`: the part of |b| up to `limit` (from the limit before; None: no limit) counts ×
    `coefficient`."""

    limit: Fraction | None
    coefficient: Fraction


@dataclass(frozen=True)
class Scoring:
    """A scoring scheme and what it takes: `bands` under bands; `three` and `four`, the points of the places at a
    table of 3 and of 4, and `bonus_positive` under places."""

    scheme: Scheme
    bands: tuple[Band, ...] = ()
    three: tuple[Fraction, ...] = ()
    four: tuple[Fraction, ...] = ()
    bonus_positive: Fraction = Fraction(0)

    def place_points(self, size: int) -> tuple[Fraction, ...]:
        """The points of the places at a table of `size`, first place first."""
        if size not in TABLE_SIZES:
            raise ValueError(f"a table seats 3 or 4 players, not {size}")
        return self.three if size == 3 else self.four

    def json(self) -> dict[str, object]:
        """The scheme as the event's JSON gives it (whole numbers as int, others as float)."""
        if self.scheme is Scheme.BANDS:
            return {"scheme": self.scheme.value,
                    "bands": [[None if b.limit is None else _number(b.limit), _number(b.coefficient)]
                              for b in self.bands]}
        if self.scheme is Scheme.PLACES:
            return {"scheme": self.scheme.value, "points": {"3": [_number(p) for p in self.three],
                                                            "4": [_number(p) for p in self.four]},
                    "bonus_positive": _number(self.bonus_positive)}
        return {"scheme": self.scheme.value}


@dataclass(frozen=True)
class EventTerms:
    """What an event is played by, beside its players and its rules."""

    table_size: int
    rounds: int  # planned
    draw: DrawMethod
    scoring: Scoring
    tiebreaks: tuple[Tiebreak, ...] = DEFAULT_TIEBREAKS
    seed: int | None = None  # None: not given (the server draws one)

    @classmethod
    def of(cls, data: Mapping[str, object]) -> EventTerms:
        """The terms of an event's JSON (its other keys are not read here); the first term that is not one is
        refused, in the order docs/tournament.md §2 lists them."""
        return cls(table_size_of(data.get("table_size")), rounds_of(data.get("rounds")), draw_of(data.get("draw")),
                   scoring_of(data.get("scoring")), tiebreaks_of(data.get("tiebreaks")), seed_of(data.get("seed")))


# -- the refusals, on the field each names

TABLE_SIZE = Text("a table seats 3 or 4 players: table_size must be 3 or 4, not {value}")
ROUNDS = Text("an event has 1 to 30 rounds, not {value}")
DRAW = Text("the draw is fewest_repeats, swiss or manual, not {value}")
SCORING = Text("scoring must be an object with a scheme: whists, bands or places")
SCHEME = Text("the scoring scheme is whists, bands or places, not {value}")
SCORING_KEYS = Text("the {scheme} scheme takes {keys}: {value} is not one of them")
BANDS = Text("bands must be a list of [limit, coefficient] pairs, the last limit null")
BAND_LIMIT = Text("the band limits must be numbers above 0 that increase, not {value}")
BAND_LAST = Text("the last band's limit must be null (no limit)")
BAND_COEFFICIENT = Text("a band's coefficient must be a number from 0 to 1, not {value}")
POINTS = Text("points must give the places' points of a table of 3 and of 4: \"3\" with 3 numbers, \"4\" with 4")
POINTS_LENGTH = Text("the points of a table of {size} must be {size} numbers, not {value}")
BONUS = Text("bonus_positive must be a number, not {value}")
TIEBREAKS = Text("tiebreaks must be a list taken from whists, best_round and lots")
TIEBREAK = Text("the tie-break {value} is not whists, best_round or lots")
TIEBREAK_TWICE = Text("the tie-break {value} is listed twice")
SEED = Text("the seed must be a whole number, not {value}")

_SCHEME_KEYS = {Scheme.WHISTS: ("scheme",), Scheme.BANDS: ("scheme", "bands"),
                Scheme.PLACES: ("scheme", "points", "bonus_positive")}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def exact(value: object) -> Fraction | None:
    """A JSON number as an exact fraction (a float as its shortest decimal: 0.1 is 1/10), None for anything else
    (a bool, a string, a NaN or an infinity)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value):
        return Fraction(Decimal(repr(value)))
    if isinstance(value, Decimal) and value.is_finite():
        return Fraction(value)
    return None


def _values(kind: type[StrEnum]) -> set[str]:
    return {member.value for member in kind}


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def table_size_of(value: object) -> int:
    if not _whole(value) or value not in TABLE_SIZES:
        raise EventRefusal("table_size", TABLE_SIZE(value=quoted(value)))
    assert isinstance(value, int)
    return value


def rounds_of(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MOST_ROUNDS:
        raise EventRefusal("rounds", ROUNDS(value=quoted(value)))
    return value


def draw_of(value: object) -> DrawMethod:
    if not isinstance(value, str) or value not in _values(DrawMethod):
        raise EventRefusal("draw", DRAW(value=quoted(value)))
    return DrawMethod(value)


def scoring_of(value: object) -> Scoring:
    """The scoring scheme of an event's `scoring` object."""
    if not isinstance(value, Mapping):
        raise EventRefusal("scoring", SCORING())
    scheme = value.get("scheme")
    if not isinstance(scheme, str) or scheme not in _values(Scheme):
        raise EventRefusal("scoring", SCHEME(value=quoted(scheme)))
    keys = _SCHEME_KEYS[Scheme(scheme)]
    for key in value:
        if key not in keys:
            raise EventRefusal("scoring", SCORING_KEYS(scheme=scheme, keys=", ".join(keys), value=quoted(key)))
    if scheme == Scheme.BANDS:
        return Scoring(Scheme.BANDS, bands=_bands(value.get("bands")))
    if scheme == Scheme.PLACES:
        three, four = _places(value.get("points"))
        bonus = exact(value.get("bonus_positive", 0))
        if bonus is None:
            raise EventRefusal("scoring", BONUS(value=quoted(value.get("bonus_positive"))))
        return Scoring(Scheme.PLACES, three=three, four=four, bonus_positive=bonus)
    return Scoring(Scheme.WHISTS)


def _bands(value: object) -> tuple[Band, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        raise EventRefusal("scoring", BANDS())
    bands: list[Band] = []
    for item in value:
        if not isinstance(item, Sequence) or isinstance(item, str) or len(item) != 2:
            raise EventRefusal("scoring", BANDS())
        raw_limit, raw_coefficient = item
        limit = None if raw_limit is None else exact(raw_limit)
        below = bands[-1].limit if bands else Fraction(0)
        if raw_limit is not None and (limit is None or below is None or limit <= below):
            raise EventRefusal("scoring", BAND_LIMIT(value=quoted(raw_limit)))
        if raw_limit is None and bands and bands[-1].limit is None:  # a second unlimited band: not increasing
            raise EventRefusal("scoring", BAND_LIMIT(value=quoted(raw_limit)))
        coefficient = exact(raw_coefficient)
        if coefficient is None or not 0 <= coefficient <= 1:
            raise EventRefusal("scoring", BAND_COEFFICIENT(value=quoted(raw_coefficient)))
        bands.append(Band(limit, coefficient))
    if bands[-1].limit is not None:
        raise EventRefusal("scoring", BAND_LAST())
    return tuple(bands)


def _places(value: object) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    if not isinstance(value, Mapping) or set(value) != {"3", "4"}:
        raise EventRefusal("scoring", POINTS())
    out = []
    for size in TABLE_SIZES:
        raw = value[str(size)]
        numbers = [exact(p) for p in raw] if isinstance(raw, Sequence) and not isinstance(raw, str) else []
        if len(numbers) != size or None in numbers:
            raise EventRefusal("scoring", POINTS_LENGTH(size=size, value=quoted(raw)))
        out.append(tuple(p for p in numbers if p is not None))
    return out[0], out[1]


def tiebreaks_of(value: object) -> tuple[Tiebreak, ...]:
    """The tie-breaks in the order given; absent (None), the default order."""
    if value is None:
        return DEFAULT_TIEBREAKS
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise EventRefusal("tiebreaks", TIEBREAKS())
    seen: list[Tiebreak] = []
    for item in value:
        if not isinstance(item, str) or item not in _values(Tiebreak):
            raise EventRefusal("tiebreaks", TIEBREAK(value=quoted(item)))
        if item in seen:
            raise EventRefusal("tiebreaks", TIEBREAK_TWICE(value=quoted(item)))
        seen.append(Tiebreak(item))
    return tuple(seen)


def seed_of(value: object) -> int | None:
    """The seed given, or None when there is none (the server draws one)."""
    if value is None:
        return None
    if not _whole(value):
        raise EventRefusal("seed", SEED(value=quoted(value)))
    assert isinstance(value, int)
    return value
