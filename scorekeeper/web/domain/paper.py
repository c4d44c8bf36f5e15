"""A paper sheet as the app takes it (docs/files.md §4): a `pulya-sheet/1` body, or the page's grid of fields
made into one, so that the form, the API and the command line check the same values with the same codes.

The grid's fields: `player_0` … `player_3` in seating order, `preset`, `pulya_size` (the size the table
played: the sheet finishes where every pulya reached it), the two rates `pulya_point_whists` and
`gora_point_whists`, `whist_price`, `currency`, `pulya_counts_down`; per seat
`pulya_<i>` and `gora_<i>`, and `whists_<i>_<j>` for what seat i wrote on seat j. A problem's field in
the file (`gora.Аня`) is named back as the grid's (`gora_0`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...files import columns, pulyafile, sheetfile
from ...engine import PRESETS as PRESET_RULES
from ...engine import Code, Preset, Problem, PulkaEnd, Rules, Sheet, Text
from ...files.sheetfile import PaperSheet
from ...i18n.words import Msg
from .names import seated_fault
from .pulkas import default_name, english
from .limits import CURRENCY_MAX, PULKA_NAME_MAX
from .reading import blank, first_unstorable, number_text, text_fault, trimmed
from .refusals import Fault, Refused, Unstorable

SEATS = 4
PRESETS = ("sochi", "leningrad", "rostov")
RATES = ("pulya_point_whists", "gora_point_whists")
# The size each preset plays to: what the grid shows until the table says otherwise.
PULYA_SIZES = {preset: PRESET_RULES[Preset(preset)].pulya_size for preset in PRESETS}


@dataclass(frozen=True)
class KeepSheet:
    """A paper sheet kept as a closed pulka (services.paper.keep): named as the sheet names it, else
    `untitled` (after its players, in the caller's language: domain.pulkas.default_name); reopened, its next
    deal is dealt by `first_dealer` (a player's name; None: the first player)."""

    sheet: PaperSheet
    untitled: str
    first_dealer: str | None = None

    @classmethod
    def of(cls, sheet: PaperSheet, say: Callable[[Text], str] | None = None,
           first_dealer: str | None = None) -> KeepSheet:
        """The sheet to keep, `untitled` worded by `say` (the edge's i18n.say; None: in English)."""
        return cls(sheet, default_name(sheet.players, say or english), first_dealer)


def read_sheet(data: object) -> PaperSheet:
    """A `pulya-sheet/1` object, refused with the file's own problem code on its field; on the name or the
    currency when it is no short text (reading.text_fault); or (bad_players) where a name is none, two names
    read as one or one shows nothing."""
    field = first_unstorable(data)
    if field is not None:
        raise Unstorable(field)
    try:
        paper = sheetfile.parse(data)
    except pulyafile.FileError as error:
        p = error.problem
        faults = [Fault.of(q.code.value, q.field, q.full, None, error.players) for q in error.problems]
        raise Refused(p.full, p.field, code=p.code.value, names=error.players, faults=faults) from None
    for text, field, most in ((paper.name, "name", PULKA_NAME_MAX), (paper.currency, "currency", CURRENCY_MAX)):
        fault = None if text is None else text_fault(text, field, most)  # as a pulka's, which a kept sheet is
        if fault is not None:
            raise Refused(fault, field)
    why = seated_fault(paper.players)  # the app's rule beside the file's (docs/club.md §1)
    if why is not None:
        raise Refused(why, "players", code=Code.BAD_PLAYERS.value)
    return paper


def check_opening(paper: PaperSheet) -> None:
    """Refused (bad_opening, on the player's pulya) when a pulya stands above the size it closes at: a sheet
    that settles, but that no pulka could have written (docs/files.md §5)."""
    rules = paper.rules
    if rules.pulka_end is PulkaEnd.ALL_CLOSED:
        for name, points in zip(paper.players, paper.sheet.pulya):
            if points > rules.pulya_size:
                raise Refused(Msg("{name}'s pulya is {points}, above the {size} it closes at: a pulka cannot go on "
                                  "from it")(name=name, points=points, size=rules.pulya_size),
                              f"pulya.{name}", code=Code.BAD_OPENING.value)


def read_opening(data: object, players: Sequence[str], rules: Rules) -> Sheet:
    """A create body's `opening` (docs/files.md §5) for these players and rules; Refused with its first problem."""
    problems: list[Problem] = []
    found = first_unstorable(data)
    if found is not None:
        raise Unstorable(f"opening.{found}")
    sheet = columns.read_opening(data, {name: i for i, name in enumerate(players)}, rules, problems)
    if problems or sheet is None:
        p = min(problems, key=lambda p: p.code.rank)
        raise Refused(p.full, p.field, code=p.code.value, names=players)
    return sheet


def read_sheet_text(text: bytes | str) -> PaperSheet:
    """A body as sent: JSON (NaN and Infinity refused as not JSON), then `read_sheet`."""
    try:
        data = pulyafile.decode(text)
    except pulyafile.FileError as error:
        raise Refused(error.problem.full, code=error.problem.code.value) from None
    return read_sheet(data)


def value(text: str) -> object:
    """A number as a player types it (12, 12,5, −4, +3: reading.number_text) as JSON would hold it; anything
    else (١٢, １２, 1 000, 1e3) as typed, for the sheet's reader to refuse on its field. Nothing is guessed: ""
    stays "", which no field takes."""
    number = number_text(text, signed=True)
    if number is None:
        return trimmed(text)
    return int(number) if number == number.to_integral_value() else float(number)


def _filled(form: Mapping[str, str], key: str) -> bool:
    return not blank(form.get(key, ""))


def players_of(form: Mapping[str, str]) -> list[str]:
    """The names typed, in seating order, the empty seats left out (a table of three leaves the fourth)."""
    return [trimmed(form[f"player_{i}"]) for i in range(SEATS) if _filled(form, f"player_{i}")]


def sheet_of_form(form: Mapping[str, str]) -> dict[str, Any]:
    """The grid as a `pulya-sheet/1` object: an empty whists cell is 0 (the format's missing pair), an empty
    pulya row is no pulya at all, an empty gora cell is missing (the gora is required). A cell or a seat is
    empty when it holds nothing but spaces; anything else in it is read, and refused on its field when it is
    no number or no name."""
    seats = [i for i in range(SEATS) if _filled(form, f"player_{i}")]
    names = {i: trimmed(form[f"player_{i}"]) for i in seats}
    rules: dict[str, Any] = {"preset": form.get("preset", "sochi")}
    for key in ("pulya_size", *RATES, "whist_price"):
        if _filled(form, key):
            rules[key] = value(form[key])
    data: dict[str, Any] = {"format": sheetfile.FORMAT, "players": [names[i] for i in seats], "rules": rules}
    if _filled(form, "currency"):
        data["currency"] = trimmed(form["currency"])
    if form.get("pulya_counts_down"):
        data["pulya_counts_down"] = True
    pulya = {names[i]: value(form[f"pulya_{i}"]) for i in seats if _filled(form, f"pulya_{i}")}
    if pulya:
        data["pulya"] = pulya
    data["gora"] = {names[i]: value(form[f"gora_{i}"]) for i in seats if _filled(form, f"gora_{i}")}
    whists = {names[i]: {names[j]: value(form[f"whists_{i}_{j}"]) for j in seats
                         if j != i and _filled(form, f"whists_{i}_{j}")} for i in seats}
    data["whists"] = {name: row for name, row in whists.items() if row}
    return data


def grid_field(field: str, form: Mapping[str, str]) -> str:
    """The grid's field for a field of the file: `gora.Аня` → `gora_0`, `whists.Аня.Борис` → `whists_0_1`,
    `rules.whist_price` → `whist_price`; "players" for the names, "" for the sheet as a whole."""
    seat = {trimmed(form[f"player_{i}"]): i for i in range(SEATS) if _filled(form, f"player_{i}")}
    column, _, rest = field.partition(".")
    if column == "rules":
        return "preset" if rest in ("", "preset") else rest
    if column in ("pulya", "gora") and rest in seat:
        return f"{column}_{seat[rest]}"
    if column == "whists":
        writer, _, on = rest.partition(".")
        if writer in seat and on in seat:
            return f"whists_{seat[writer]}_{seat[on]}"
    if column in ("players", "currency", "pulya_counts_down", "first_dealer"):
        return column
    return ""
