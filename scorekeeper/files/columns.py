"""The columns of a paper sheet as a file holds them (docs/files.md §4 and §5): `pulya`, `gora` and `whists` by
player name, read into seats with every value checked on its field. Shared by the `pulya-sheet/1` file and
the `opening` of a `pulya/1` pulka, which take the same columns with the same domains."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..engine import Code, Points, Problem, PulkaEnd, Rules, Sheet, json_value, paper_sheet, quoted
from ..i18n.words import Msg

MOST_PULYA = 10_000
MOST_GORA = 10_000
MOST_WHISTS = 1_000_000

WHOLE = Msg("{field} takes a whole number from {low} to {high}, not {value}")
HALVES = Msg("{field} takes a number from {low} to {high} in steps of 0.5, not {value}")
MISSING_VALUE = Msg("{field} is missing: the column has a value for every player")
NOT_A_PLAYER = Msg("{name} is not one of the players")
ON_HIMSELF = Msg("{field}: a player writes no whists on himself")
NOT_AN_OBJECT = Msg("{field} must be an object from player names to values")
OPENING_KEYS = {"pulya", "gora", "whists"}
LEFT_ABOVE = Msg("{field}: counting down, what is left is at most the pulya size {size}, not {value}")
# A cell named as players name it (its `field` says where in the file): a page shows it on the cell.
_CELLS = {"pulya": Msg("{name}'s pulya"), "gora": Msg("{name}'s gora")}
_WHISTS_CELL = Msg("{name}'s whists on {on}")


@dataclass
class Columns:
    """What the columns say, by seat; None where the file leaves a column out."""

    pulya: list[int] | None = None
    gora: list[Points] | None = None
    whists: dict[tuple[int, int], Points] = field(default_factory=dict)

    def sheet(self, n: int, rules: Rules, first_dealer: int = 0) -> Sheet:
        return paper_sheet(n, self.pulya, self.gora, self.whists, rules, first_dealer)


def number(value: object, *, low: int, high: int, halves: bool) -> Points | None:
    """The value as exact points when it is a JSON number of the field's kind and range, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and (not halves or value != value or value in (float("inf"), float("-inf"))):
        return None
    exact = Fraction(value)
    if not low <= exact <= high or (exact * 2).denominator != 1:
        return None
    return exact.numerator if exact.denominator == 1 else exact


def read_columns(data: Mapping[str, Any], seat: Mapping[str, int], problems: list[Problem], *,
                 prefix: str = "", down_from: int | None = None, every: bool = True) -> Columns:
    """The columns of `data`, their problems added to `problems` (fields under `prefix`). `down_from`: the
    pulya was written down from that size, so each value is what was left. `every`: a column given has a
    value for every player (a sheet's); else a player left out has 0 (an opening's)."""
    columns = Columns()
    names = list(seat)

    def column(key: str) -> dict[str, Any] | None:
        if key not in data:
            return None
        value = data[key]
        if not isinstance(value, dict):
            problems.append(Problem(Code.BAD_FORMAT, prefix + key, NOT_AN_OBJECT(field=prefix + key)))
            return None
        return value

    def cells(key: str, values: dict[str, Any], low: int, high: int, halves: bool) -> list[Points]:
        found: dict[int, Points] = {}
        for name, value in values.items():
            # Every fault of the cell is said: where it has two, §3's order of codes picks the one reported.
            path, cell = f"{prefix}{key}.{name}", _CELLS[key](name=name)
            points = number(value, low=low, high=high, halves=halves)
            counted_down = down_from if key == "pulya" else None  # the pulya's size it was written down from
            if points is None:
                kind = HALVES if halves else WHOLE
                problems.append(Problem(Code.BAD_NUMBER, path, kind(field=cell, low=low, high=high, value=quoted(value))))
            elif counted_down is not None and points > counted_down:
                problems.append(Problem(Code.BAD_NUMBER, path, LEFT_ABOVE(field=cell, size=counted_down, value=points)))
                points = None
            if name not in seat:
                problems.append(Problem(Code.UNKNOWN_PLAYER, path, NOT_A_PLAYER(name=quoted(name))))
            elif points is not None:
                found[seat[name]] = counted_down - points if counted_down is not None else points
        for name in names if every else ():
            if name not in values:
                problems.append(Problem(Code.BAD_NUMBER, f"{prefix}{key}.{name}",
                                        MISSING_VALUE(field=_CELLS[key](name=name))))
        return [found.get(i, 0) for i in range(len(names))]

    pulya = column("pulya")
    if pulya is not None:
        columns.pulya = [int(p) for p in cells("pulya", pulya, 0, MOST_PULYA, halves=False)]
    gora = column("gora")
    if gora is not None:
        columns.gora = cells("gora", gora, -MOST_GORA, MOST_GORA, halves=True)
    whists = column("whists")
    for writer, row in (whists or {}).items():
        path = f"{prefix}whists.{writer}"
        if writer not in seat:
            problems.append(Problem(Code.UNKNOWN_PLAYER, path, NOT_A_PLAYER(name=quoted(writer))))
        if not isinstance(row, dict):
            problems.append(Problem(Code.BAD_FORMAT, path, NOT_AN_OBJECT(field=path)))
            continue
        for on, value in row.items():
            # As in `cells`: each fault said, the order of codes picks one (bad_number before self_whists).
            where, cell = f"{path}.{on}", _WHISTS_CELL(name=writer, on=on)
            points = number(value, low=0, high=MOST_WHISTS, halves=True)
            if points is None:
                problems.append(Problem(Code.BAD_NUMBER, where,
                                        HALVES(field=cell, low=0, high=MOST_WHISTS, value=quoted(value))))
            if on not in seat:
                problems.append(Problem(Code.UNKNOWN_PLAYER, where, NOT_A_PLAYER(name=quoted(on))))
            elif on == writer:
                problems.append(Problem(Code.SELF_WHISTS, where, ON_HIMSELF(field=cell)))
            elif points and writer in seat:
                columns.whists[(seat[writer], seat[on])] = points
    return columns


def columns_json(sheet: Sheet, players: tuple[str, ...]) -> dict[str, Any]:
    """The sheet's columns as a file writes them: by name, the whists without a player's own cell."""
    return {
        "pulya": {name: json_value(sheet.pulya[i]) for i, name in enumerate(players)},
        "gora": {name: json_value(sheet.gora[i]) for i, name in enumerate(players)},
        "whists": {name: {players[j]: json_value(sheet.whists[i][j]) for j in range(len(players)) if j != i}
                   for i, name in enumerate(players)},
    }


def read_opening(data: object, seat: dict[str, int], rules: Rules, problems: list[Problem]) -> Sheet | None:
    """The opening's sheet (docs/files.md §5), its problems added to `problems` under "opening."."""
    if not isinstance(data, dict):
        problems.append(Problem(Code.BAD_FORMAT, "opening", Msg("opening must be an object of pulya, gora and whists")))
        return None
    problems += [Problem(Code.BAD_FORMAT, f"opening.{key}", Msg("unknown key {key}")(key=quoted(key)))
                 for key in sorted(data.keys() - OPENING_KEYS)]
    columns = read_columns(data, seat, problems, prefix="opening.", every=False)
    if rules.pulka_end is PulkaEnd.ALL_CLOSED:
        for name, points in zip(seat, columns.pulya or ()):
            if points > rules.pulya_size:
                problems.append(Problem(Code.BAD_OPENING, f"opening.pulya.{name}", Msg(
                    "opening.pulya.{name}: a pulya closes at {size}, so {points} cannot stand on the sheet")(
                    name=name, size=rules.pulya_size, points=points)))
    return columns.sheet(len(seat), rules)
