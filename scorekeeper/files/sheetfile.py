"""The paper sheet's file `pulya-sheet/1` and its settlement (docs/files.md §4): what `scorekeeper settle`,
`POST /api/v1/settle` and the paper sheet's page read, and the `pulya-result/1` object they answer.

Names become seats here, as in pulyafile; the settlement is the engine's, of the sheet as given.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .columns import columns_json, read_columns
from ..engine import Code, Problem, Rules, Sheet, quoted, settle
from .pulyafile import MISSING, RESULT_FORMAT, FileError, check_players, decode, describe_problems, read_rules, settlement_json
from ..engine.settled import Settled, settled
from ..i18n.words import Msg

FORMAT = "pulya-sheet/1"
_KEYS = {"format", "name", "currency", "started", "players", "rules", "pulya", "pulya_counts_down", "gora", "whists"}
_REQUIRED = ("format", "players", "rules", "gora")


@dataclass(frozen=True)
class PaperSheet:
    """A sheet brought from paper: the players by name, the rules, and the totals by seat."""

    players: tuple[str, ...]
    rules: Rules
    sheet: Sheet
    name: str | None = None
    currency: str | None = None
    started: datetime | None = None

    def settled(self) -> Settled:
        return settled(self.players, self.sheet, self.rules, settle(self.sheet, self.rules))


def loads(text: str | bytes) -> PaperSheet:
    return parse(decode(text))


def parse(data: object) -> PaperSheet:
    """Read a `pulya-sheet/1` object; FileError with the first problem in docs/files.md §3's order."""
    if not isinstance(data, dict):
        raise FileError(Problem(Code.BAD_FORMAT, "", Msg("a paper sheet is a JSON object")))
    problems = [Problem(Code.BAD_FORMAT, key, Msg("unknown key {key}")(key=quoted(key))) for key in data.keys() - _KEYS]
    problems += [Problem(Code.BAD_FORMAT, key, MISSING(key=quoted(key))) for key in _REQUIRED if key not in data]
    if "format" in data and data["format"] != FORMAT:
        problems.append(Problem(Code.BAD_FORMAT, "format", Msg("format must be {format}")(format=repr(FORMAT))))
    down = data.get("pulya_counts_down", False)
    if not isinstance(down, bool):
        problems.append(Problem(Code.BAD_FORMAT, "pulya_counts_down", Msg("pulya_counts_down must be true or false")))
    problems += describe_problems(data)
    why = check_players(data["players"]) if "players" in data else None
    if why:
        problems.append(Problem(Code.BAD_PLAYERS, "players", why))
    rules = read_rules(data["rules"], problems) if "rules" in data else None
    players = tuple(data["players"]) if why is None and "players" in data else ()
    columns = None
    if why is None and rules is not None and "players" in data:
        seat = {name: i for i, name in enumerate(players)}
        columns = read_columns(data, seat, problems, down_from=rules.pulya_size if down is True else None)
    if problems or rules is None or columns is None:
        found = sorted(problems, key=lambda p: p.code.rank)  # stable: §3's order, then the file's
        raise FileError(found[0], players, found)
    sheet = columns.sheet(len(players), rules)
    started = data.get("started")
    return PaperSheet(players, rules, sheet, data.get("name"), data.get("currency"),
                      None if started is None else datetime.fromisoformat(started))


def result_json(paper: PaperSheet) -> dict[str, Any]:
    """What `settle --json` prints and `POST /api/v1/settle` answers (docs/files.md §4)."""
    return {
        "format": RESULT_FORMAT,
        "players": list(paper.players),
        "rules": paper.rules.to_dict(),
        "sheet": columns_json(paper.sheet, paper.players),
        "settlement": settlement_json(paper.settled()),
    }


def to_json(paper: PaperSheet) -> dict[str, Any]:
    """The `pulya-sheet/1` object: the pulya as points written, the rules as the preset and what differs."""
    described = {"name": paper.name, "currency": paper.currency,
                 "started": paper.started.isoformat() if paper.started else None}
    return ({"format": FORMAT} | {key: value for key, value in described.items() if value is not None}
            | {"players": list(paper.players), "rules": paper.rules.overrides()}
            | columns_json(paper.sheet, paper.players))


def dumps(paper: PaperSheet) -> str:
    return json.dumps(to_json(paper), ensure_ascii=False, indent=2) + "\n"
