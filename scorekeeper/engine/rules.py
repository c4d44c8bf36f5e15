"""Rule sets: every parameter of docs/rules.md §14 with its domain, and the three presets.

The parameter table is data: the pulka file, the web form and the engine all
read it, so a new parameter is one row here plus its use in scoring.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cached_property, lru_cache, partial
from typing import Any, TypeGuard

from .contracts import CONTRACTS, Contract
from .problems import Code, Problem
from .texts import Text, quoted

NOT_AN_OBJECT = Text("rules must be an object: a preset and any parameters")
NO_PRESET = Text("rules.preset is missing: use sochi, leningrad or rostov")
PRESET_UNKNOWN = Text("unknown preset {preset}: use sochi, leningrad or rostov")
PARAMETER_UNKNOWN = Text("unknown rule parameter {name}")
VALUE_OUTSIDE = Text("{name} must be {domain}, not {value}")

# The domains of the parameters' kinds, as `VALUE_OUTSIDE` names them.
AN_INTEGER = Text("an integer {bounds}")
FROM_TO = Text("from {low} to {high}")
TRUE_OR_FALSE = Text("true or false")
ONE_OF = Text("one of {choices}")
# No list has a length of 1 today; the plural is for Russian, which inflects "integers" by the length.
A_LIST_OF = Text("a list of {length} integer {bounds}", "a list of {length} integers {bounds}", "length")
A_LIST = Text("a list of 1 to {most} integers {bounds}")
LEVELS_FROM = Text("a list of levels from {levels}")
AN_AMOUNT = Text("a number {bounds} with at most 4 decimals")


class Preset(StrEnum):
    SOCHI = "sochi"
    LENINGRAD = "leningrad"
    ROSTOV = "rostov"


# The choice parameters: a value is a member, so a misspelt one is an error, never an `else`.


class SingleWhistMade(StrEnum):
    WHISTER_ALL = "whister_all"
    EACH_OWN = "each_own"


class SingleWhistRemiz(StrEnum):
    GREEDY = "greedy"
    GENTLEMAN = "gentleman"


class ShortfallSplit(StrEnum):
    PERSONAL = "personal"
    CAPPED = "capped"


class Q1Responsible(StrEnum):
    SECOND_WHISTER = "second_whister"
    SPLIT = "split"
    BOTH = "both"


class RaspasyScoring(StrEnum):
    GORA = "gora"
    WHISTS = "whists"


class RaspasyTie(StrEnum):
    SPLIT = "split"
    FULL = "full"


class RaspasyExitOn(StrEnum):
    MADE = "made"
    ANY = "any"


class RaspasyDealer(StrEnum):
    TALON = "talon"
    PULYA_ONE = "pulya_one"


class PulkaEnd(StrEnum):
    ALL_CLOSED = "all_closed"
    TOTAL = "total"


class Overflow(StrEnum):
    HELP_THEN_WRITEOFF = "help_then_writeoff"
    WRITEOFF = "writeoff"


# A parameter's value as the engine holds it, and as JSON data.
Value = bool | int | Decimal | Fraction | StrEnum | tuple[int, ...]
JsonValue = bool | int | float | str | list[int]
# What a parameter's `choices` hold: members of its StrEnum, contract levels, or exact factors.
Choice = StrEnum | int | Fraction


class Kind(StrEnum):
    INT = "int"
    BOOL = "bool"
    CHOICE = "choice"
    INT_LIST = "int_list"
    LEVELS = "levels"  # a subset of contract levels
    MONEY = "money"  # decimal >= 0 with at most 4 decimals
    FACTOR = "factor"  # one of a few exact fractions


@dataclass(frozen=True)
class Parameter:
    """One rule parameter and its domain. Numbers run from `low` to `high` (a list's items too) and a list
    has `length` items, or 1 to `most`: every value is bounded, so that no pulka file or form can make the
    engine compute with numbers or lists of any size (the web app, its OpenAPI document and the form's
    min/max read these same bounds)."""

    name: str
    kind: Kind
    meaning: Text  # what it decides, in a line
    low: int = 0
    high: int | None = None
    choices: tuple[Choice, ...] = ()
    length: int | None = None
    title: Text | None = None  # its name as players say it ("Pulya size"); the code name is `name`
    most: int | None = None  # the longest list, when `length` is not fixed

    def parse(self, value: object) -> Value:
        """The canonical value, or ParameterError, whose message names the domain."""
        parser = _PARSERS[self.kind]
        result = parser(self, value)
        if result is None:
            raise ParameterError(VALUE_OUTSIDE(name=self.name, domain=self.domain, value=quoted(value)))
        return result

    @property
    def bounds(self) -> Text:
        """"from low to high", of a number parameter (each has both) or a list's items."""
        assert self.high is not None, f"{self.name} has no upper bound"
        return FROM_TO(low=self.low, high=self.high)

    @property
    def domain(self) -> Text:
        """The values the parameter takes, in words."""
        choices = ", ".join(str(json_value(c)) for c in self.choices)  # values as the file spells them
        if self.kind is Kind.INT:
            return AN_INTEGER(bounds=self.bounds)
        if self.kind is Kind.INT_LIST:
            if self.length:
                return A_LIST_OF(length=self.length, bounds=self.bounds)
            assert self.most is not None, "every list parameter is bounded"
            return A_LIST(most=self.most, bounds=self.bounds)
        if self.kind is Kind.LEVELS:
            return LEVELS_FROM(levels=choices)
        if self.kind in (Kind.CHOICE, Kind.FACTOR):
            return ONE_OF(choices=choices)
        if self.kind is Kind.BOOL:
            return TRUE_OR_FALSE
        assert self.kind is Kind.MONEY
        return AN_AMOUNT(bounds=self.bounds)


class ParameterError(ValueError):
    """A value outside a parameter's domain; `message` says which domain."""

    def __init__(self, message: Text):
        super().__init__(message.text(()))
        self.message = message


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_int(p: Parameter, value: object) -> int | None:
    if _is_int(value) and value >= p.low and (p.high is None or value <= p.high):
        return value
    return None


def _parse_bool(p: Parameter, value: object) -> bool | None:
    return value if isinstance(value, bool) else None


def _parse_choice(p: Parameter, value: object) -> StrEnum | None:
    for choice in p.choices:
        if isinstance(choice, StrEnum) and isinstance(value, str) and choice == value:
            return choice
    return None


def _parse_int_list(p: Parameter, value: object) -> tuple[int, ...] | None:
    if not isinstance(value, (list, tuple)) or not value:
        return None
    if len(value) != (p.length or len(value)) or (p.most is not None and len(value) > p.most):
        return None
    items = [item for item in map(partial(_parse_int, p), value) if item is not None]
    return tuple(items) if len(items) == len(value) else None


def _parse_levels(p: Parameter, value: object) -> tuple[int, ...] | None:
    if not isinstance(value, (list, tuple)):
        return None
    levels = {v for v in value if _is_int(v) and v in p.choices}
    return tuple(sorted(levels)) if len(levels) == len(value) else None


def _parse_money(p: Parameter, value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    amount = Decimal(str(value))  # via str: the float 0.1 means 0.1, not its binary expansion
    # The bounds first: Fraction() of a huge Decimal (1E+999999999) would build an integer of that many digits.
    if not amount.is_finite() or amount < p.low or (p.high is not None and amount > p.high):
        return None
    if (Fraction(amount) * 10_000).denominator != 1:
        return None
    return amount


def _parse_factor(p: Parameter, value: object) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction, Decimal)):
        return None
    factor = Fraction(value)
    return factor if factor in p.choices else None


_PARSERS: dict[Kind, Callable[[Parameter, object], Value | None]] = {
    Kind.INT: _parse_int,
    Kind.BOOL: _parse_bool,
    Kind.CHOICE: _parse_choice,
    Kind.INT_LIST: _parse_int_list,
    Kind.LEVELS: _parse_levels,
    Kind.MONEY: _parse_money,
    Kind.FACTOR: _parse_factor,
}

HALF = Fraction(1, 2)


def json_value(value: Value) -> JsonValue:
    """A parameter value as JSON data (tuples as lists, exact numbers as int or float, choices as str)."""
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, (Fraction, Decimal)):
        return int(value) if value == int(value) else float(value)
    return value


def _p(name: str, kind: Kind, title: str, meaning: str, **domain: Any) -> Parameter:
    return Parameter(name, kind, Text(meaning), title=Text(title), **domain)


# Each choice as players say it (the form lists these, not the codes); by enum, as two enums share a code.
CHOICE_TITLES: dict[type[StrEnum], dict[StrEnum, Text]] = {
    SingleWhistMade: {SingleWhistMade.WHISTER_ALL: Text("the whister writes for both"),
                      SingleWhistMade.EACH_OWN: Text("each for his own tricks")},
    SingleWhistRemiz: {SingleWhistRemiz.GREEDY: Text("greedy: all to the whister"),
                       SingleWhistRemiz.GENTLEMAN: Text("gentleman's: split in half")},
    ShortfallSplit: {ShortfallSplit.PERSONAL: Text("each for his own deficit"),
                     ShortfallSplit.CAPPED: Text("capped at the pair's shortfall")},
    Q1Responsible: {Q1Responsible.SECOND_WHISTER: Text("the second whister answers"),
                    Q1Responsible.SPLIT: Text("split between the two"),
                    Q1Responsible.BOTH: Text("both answer in full")},
    RaspasyScoring: {RaspasyScoring.GORA: Text("in gora"), RaspasyScoring.WHISTS: Text("in whists")},
    RaspasyTie: {RaspasyTie.SPLIT: Text("each writes half"), RaspasyTie.FULL: Text("each writes all")},
    RaspasyExitOn: {RaspasyExitOn.MADE: Text("a game made"), RaspasyExitOn.ANY: Text("any game or misère")},
    RaspasyDealer: {RaspasyDealer.TALON: Text("the talon's tricks are the dealer's"),
                    RaspasyDealer.PULYA_ONE: Text("the dealer writes 1 into his pulya")},
    PulkaEnd: {PulkaEnd.ALL_CLOSED: Text("every pulya closed"), PulkaEnd.TOTAL: Text("the pulyas' total reached")},
    Overflow: {Overflow.HELP_THEN_WRITEOFF: Text("help, then write off gora"), Overflow.WRITEOFF: Text("write off gora")},
}


def choice_title(choice: StrEnum) -> Text:
    """A choice parameter's value as players say it."""
    return CHOICE_TITLES[type(choice)][choice]


PARAMETERS: tuple[Parameter, ...] = (
    _p("pulya_size", Kind.INT, "Pulya size", "points each player must write into his pulya", low=1, high=1000),
    _p("whist_price", Kind.MONEY, "Whist price", "money per whist", high=10_000),
    _p("pulya_point_whists", Kind.INT, "Pulya point in whists", "worth of a pulya point at settlement, in whists", low=0, high=1000),
    _p("gora_point_whists", Kind.INT, "Gora point in whists", "worth of a gora point at settlement, in whists", low=0, high=1000),
    _p("whist_factor", Kind.INT, "Whists per trick", "whists per defender trick = whist_factor × price", low=1, high=100),
    _p("remiz_factor", Kind.INT, "Remiz per undertrick", "declarer's gora per undertrick = remiz_factor × price", low=1, high=100),
    _p("consolation_factor", Kind.INT, "Consolation per undertrick", "consolation per undertrick = max(consolation_factor × price, consolation_min)", low=0, high=100),
    _p("consolation_min", Kind.INT, "Least consolation", "the least consolation per undertrick, whatever the contract", low=0, high=1000),
    _p("consolation_by_passer", Kind.BOOL, "Consolation by the passer", "a defender who passed writes consolation too"),
    _p("consolation_by_dealer", Kind.BOOL, "Consolation by the dealer", "with 4 players the sitting-out dealer writes consolation too"),
    _p("single_whist_made", Kind.CHOICE, "One whister, contract made", "contract made, one whister: he writes for both defenders' tricks, or each for his own",
       choices=tuple(SingleWhistMade)),
    _p("single_whist_remiz", Kind.CHOICE, "One whister, remiz", "remiz, one whister: whister writes for all defenders' tricks (greedy) or they are split (gentleman)",
       choices=tuple(SingleWhistRemiz)),
    _p("shortfall_factor", Kind.FACTOR, "Whister's shortfall", "a whister's gora per missing trick = shortfall_factor × price",
       choices=(Fraction(0), HALF, Fraction(1))),
    _p("shortfall_split", Kind.CHOICE, "Two whisters short", "two whisters short on a 6 or 7: each answers for his own deficit, or capped at the pair's",
       choices=tuple(ShortfallSplit)),
    _p("q1_responsible", Kind.CHOICE, "Who answers for the missing trick", "8, 9, 10 with two whisters who took nothing: who answers for the missing trick",
       choices=tuple(Q1Responsible)),
    _p("half_whist", Kind.LEVELS, "Half-whist", "levels on which half-whist is allowed", choices=(6, 7)),
    _p("stalingrad", Kind.BOOL, "Stalingrad", "6♠ must be whisted by both defenders"),
    _p("ten_checked", Kind.BOOL, "Checked ten", "a 10 is checked, not whisted"),
    _p("checked_ten_whists", Kind.BOOL, "Whists on a failed checked ten", "on a failed checked 10 each defender also writes whists for his own tricks"),
    _p("misere_gora_per_trick", Kind.INT, "Failed misère", "failed misère: gora per trick taken", low=1, high=1000),
    _p("raspasy_scoring", Kind.CHOICE, "Raspasy scored in", "raspasy are scored in gora, or in whists by the fewest-tricks player",
       choices=tuple(RaspasyScoring)),
    _p("raspasy_gora", Kind.INT_LIST, "Raspasy gora per trick", "gora per trick on the 1st, 2nd, 3rd … raspasy of a streak", low=1, high=1000, most=20),
    _p("raspasy_zero_pulya", Kind.INT_LIST, "Raspasy with no trick", "pulya for a player who took no trick on the 1st, 2nd, 3rd … raspasy", low=0, high=1000, most=20),
    _p("raspasy_whists_per_trick", Kind.INT, "Raspasy whists per trick", "whists the fewest-tricks player writes per trick of each other player", low=1, high=1000),
    _p("raspasy_tie", Kind.CHOICE, "Raspasy tie", "two players tie for fewest tricks: each writes half or all of the whists",
       choices=tuple(RaspasyTie)),
    _p("raspasy_exit", Kind.INT_LIST, "Way out of raspasy", "lowest contract level after 1, 2, 3 or more raspasy in a row",
       low=6, high=8, length=3),
    _p("raspasy_exit_on", Kind.CHOICE, "What ends raspasy", "which game or misère ends a raspasy streak: only one that is made, or any",
       choices=tuple(RaspasyExitOn)),
    _p("raspasy_dealer", Kind.CHOICE, "Raspasy, the dealer (4 players)", "4 players, raspasy: talon tricks are the dealer's, or he writes 1 into his pulya",
       choices=tuple(RaspasyDealer)),
    _p("pulka_end", Kind.CHOICE, "End of the pulka", "the pulka ends when every pulya is closed, or when the pulyas together reach n × pulya_size",
       choices=tuple(PulkaEnd)),
    _p("overflow", Kind.CHOICE, "Points beyond the pulya", "points beyond a closed pulya: help the others first, or write them off the gora",
       choices=tuple(Overflow)),
    _p("help_whists_per_point", Kind.INT, "Help: whists per point", "whists the helper writes on the helped player per pulya point he gives", low=0, high=1000),
    _p("writeoff_gora_per_point", Kind.INT, "Write-off: gora per point", "gora written off per surplus pulya point nobody needs", low=1, high=1000),
)

PARAMETER = {p.name: p for p in PARAMETERS}


@dataclass(frozen=True)
class Rules:
    """One resolved rule set: `Rules.from_dict` from JSON data, `Rules.of(preset, **overrides)` in code."""

    preset: Preset
    pulya_size: int
    whist_price: Decimal
    pulya_point_whists: int
    gora_point_whists: int
    whist_factor: int
    remiz_factor: int
    consolation_factor: int
    consolation_min: int
    consolation_by_passer: bool
    consolation_by_dealer: bool
    single_whist_made: SingleWhistMade
    single_whist_remiz: SingleWhistRemiz
    shortfall_factor: Fraction
    shortfall_split: ShortfallSplit
    q1_responsible: Q1Responsible
    half_whist: tuple[int, ...]
    stalingrad: bool
    ten_checked: bool
    checked_ten_whists: bool
    misere_gora_per_trick: int
    raspasy_scoring: RaspasyScoring
    raspasy_gora: tuple[int, ...]
    raspasy_zero_pulya: tuple[int, ...]
    raspasy_whists_per_trick: int
    raspasy_tie: RaspasyTie
    raspasy_exit: tuple[int, ...]
    raspasy_exit_on: RaspasyExitOn
    raspasy_dealer: RaspasyDealer
    pulka_end: PulkaEnd
    overflow: Overflow
    help_whists_per_point: int
    writeoff_gora_per_point: int

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Rules from `{"preset": …, <parameter>: value, …}`, as the pulka file and the API hold them.

        RulesError lists every problem, each on the field it concerns: "preset" or
        the parameter's name, or "" when `data` is not a mapping at all.
        """
        if not isinstance(data, Mapping):
            raise RulesError([Problem(Code.BAD_FORMAT, "", NOT_AN_OBJECT)])
        problems = []
        base = None
        if "preset" not in data:
            problems.append(Problem(Code.BAD_FORMAT, "preset", NO_PRESET))
        else:
            try:
                base = PRESETS[Preset(data["preset"])]
            except ValueError:
                problems.append(Problem(Code.UNKNOWN_PRESET, "preset", PRESET_UNKNOWN(preset=quoted(data["preset"]))))
        # Each value has the type of its Rules field, as the parameter's kind makes sure;
        # no static type says that of values looked up by name.
        values: dict[str, Any] = {}
        for name, value in data.items():
            parameter = PARAMETER.get(name)
            if parameter is None:
                if name != "preset":
                    problems.append(Problem(Code.UNKNOWN_PARAMETER, str(name), PARAMETER_UNKNOWN(name=quoted(name))))
                continue
            try:
                values[name] = parameter.parse(value)
            except ParameterError as error:
                problems.append(Problem(Code.BAD_PARAMETER, name, error.message))
        if problems or base is None:
            raise RulesError(problems)
        return dataclasses.replace(base, **values)

    @classmethod
    def of(cls, preset: str | Preset, **overrides: object) -> Rules:
        """The preset with overrides: `from_dict` for callers that name them in code."""
        return cls.from_dict({"preset": preset, **overrides})

    def checked_ten(self, contract: Contract | None) -> bool:
        """Is this a 10 that is checked, not whisted (`ten_checked`, §1.9)? Nobody whists it,
        it is always played, and the defenders carry no obligation."""
        return contract is not None and contract.level == 10 and self.ten_checked

    @cached_property
    def terms(self) -> dict[tuple[int, str], Terms]:
        """What each contract is worth under these rules, by its level and strain: the table scoring reads
        for every game, worked out once (a Rules is frozen; the table is kept beside its fields, and shared by
        equal rules: every pulka read from the database has a Rules of its own, most of them alike)."""
        return _terms(self)

    def to_dict(self) -> dict[str, JsonValue]:
        """JSON data: the preset and every parameter, resolved."""
        return {"preset": self.preset.value} | {p.name: json_value(getattr(self, p.name)) for p in PARAMETERS}

    def overrides(self) -> dict[str, JsonValue]:
        """JSON data: the preset and only the parameters that differ from it."""
        base = PRESETS[self.preset]
        return {"preset": self.preset.value} | {
            p.name: json_value(getattr(self, p.name))
            for p in PARAMETERS
            if getattr(self, p.name) != getattr(base, p.name)
        }


@dataclass(frozen=True, slots=True)
class Terms:
    """What a contract is worth under a rule set (§4, §5, W2)."""

    price: int
    per_trick: int  # whists a defender writes per trick: whist_factor × price
    remiz: int  # the declarer's gora per undertrick: remiz_factor × price
    consolation: int  # per undertrick: consolation_factor × price, at least consolation_min
    shortfall: int | Fraction  # a whister's gora per missing trick: shortfall_factor × price
    duty: int  # the tricks the defenders undertake together
    label: Text | str  # the contract as a value in a text
    checked: bool  # a ten that is checked, not whisted

    @classmethod
    def of(cls, contract: Contract, rules: Rules) -> Terms:
        price = contract.price
        shortfall = rules.shortfall_factor * price
        return cls(price, rules.whist_factor * price, rules.remiz_factor * price,
                   max(rules.consolation_factor * price, rules.consolation_min),
                   shortfall.numerator if shortfall.denominator == 1 else shortfall, contract.obligation,
                   contract.label_text, rules.checked_ten(contract))


@lru_cache(maxsize=64)
def _terms(rules: Rules) -> dict[tuple[int, str], Terms]:
    return {(c.level, c.strain): Terms.of(c, rules) for c in CONTRACTS.values()}


class RulesError(ValueError):
    """Every problem of a rule set, in the order of its keys (deal None, field as in `Rules.from_dict`)."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(problem.text(()) for problem in problems))
        self.problems = problems


def _preset(preset: Preset, **values: object) -> Rules:
    parsed: dict[str, Any] = {name: PARAMETER[name].parse(value) for name, value in values.items()}  # as in from_dict
    return Rules(preset=preset, **parsed)


_COMMON = dict(
    pulya_size=20, whist_price=1, gora_point_whists=10, consolation_by_passer=True, consolation_by_dealer=True,
    single_whist_made="whister_all", shortfall_split="personal", q1_responsible="second_whister",
    half_whist=[6, 7], stalingrad=False, ten_checked=True, checked_ten_whists=True,
    raspasy_whists_per_trick=5, raspasy_tie="split", raspasy_exit_on="made",
    overflow="help_then_writeoff",
)

PRESETS: dict[Preset, Rules] = {
    Preset.SOCHI: _preset(
        Preset.SOCHI, **_COMMON, pulya_point_whists=10, whist_factor=1, remiz_factor=1, consolation_factor=1,
        consolation_min=0, single_whist_remiz="greedy", shortfall_factor=1, misere_gora_per_trick=10,
        raspasy_scoring="gora", raspasy_gora=[1, 2, 3], raspasy_zero_pulya=[1, 2, 3], raspasy_exit=[6, 6, 6],
        raspasy_dealer="talon", pulka_end="all_closed", help_whists_per_point=10, writeoff_gora_per_point=1,
    ),
    Preset.LENINGRAD: _preset(
        Preset.LENINGRAD, **_COMMON, pulya_point_whists=20, whist_factor=2, remiz_factor=2, consolation_factor=2,
        consolation_min=0, single_whist_remiz="gentleman", shortfall_factor=1, misere_gora_per_trick=20,
        raspasy_scoring="gora", raspasy_gora=[2, 4, 6], raspasy_zero_pulya=[1, 2, 3], raspasy_exit=[6, 7, 7],
        raspasy_dealer="talon", pulka_end="total", help_whists_per_point=20, writeoff_gora_per_point=2,
    ),
    Preset.ROSTOV: _preset(
        Preset.ROSTOV, **_COMMON, pulya_point_whists=10, whist_factor=1, remiz_factor=1, consolation_factor=1,
        consolation_min=10, single_whist_remiz="gentleman", shortfall_factor=HALF, misere_gora_per_trick=10,
        raspasy_scoring="whists", raspasy_gora=[1], raspasy_zero_pulya=[1], raspasy_exit=[6, 6, 6],
        raspasy_dealer="pulya_one", pulka_end="all_closed", help_whists_per_point=10, writeoff_gora_per_point=1,
    ),
}
