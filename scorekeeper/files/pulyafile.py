"""The pulka file `pulya/1` and the replay result `pulya-result/1` (docs/files.md).

This is an edge of the engine: names become seats here on the way in and
seats become names on the way out. Problems keep the engine's codes. The file's
own messages are English only: a `Text` made here, in no catalog yet.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, TextIO

from .columns import columns_json, read_opening
from ..engine import (
    Code, Contract, Deal, DealResult, DealType, Entry, Problem, PulkaError, Replay, Rules, RulesError, Settlement,
    Sheet, Text, json_value, quoted, replay, settle,
)
from ..engine.settlement import round_half_away
from ..engine.settled import Settled, settled
from ..i18n.words import Msg

FORMAT = "pulya/1"
RESULT_FORMAT = "pulya-result/1"
MAX_NAME = 40
MAX_PULKA_NAME = 80
MAX_CURRENCY = 8

_TOP_KEYS = {"format", "name", "currency", "started", "players", "first_dealer", "rules", "opening", "deals"}


class _Kind(NamedTuple):
    """A deal type as the file has it: its required keys, all the keys it may have, and what it holds."""

    type: DealType
    required: set[str]
    allowed: set[str]
    declared: bool  # a declarer
    bid: bool  # a contract and the defenders' words


# By the type's name: a file has thousands of deals, and calling an enum (or reaching its member) is slow.
_DEAL_KINDS = {kind.type.value: kind for kind in (
    _Kind(DealType.GAME, {"type", "declarer", "contract"}, {"type", "declarer", "contract", "whist", "open", "tricks"},
          True, True),
    _Kind(DealType.MISERE, {"type", "declarer"}, {"type", "declarer", "tricks"}, True, False),
    _Kind(DealType.RASPASY, {"type"}, {"type", "tricks"}, False, False),
)}


class FileError(ValueError):
    """The one problem a pulka file is reported for (docs/files.md §3); `problems`, every one found beside it, for
    a form that marks each field it has to mend."""

    def __init__(self, problem: Problem, players: tuple[str, ...] = (), problems: Sequence[Problem] = ()):
        self.problem = problem
        self.players = players
        self.problems = tuple(problems) or (problem,)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return self.problem.text(self.players)

    def to_json(self) -> dict[str, Any]:
        p = self.problem
        return {"error": {"deal": p.deal, "field": p.field, "code": p.code.value, "message": self.message}}


@dataclass(frozen=True)
class PulkaFile:
    """A pulka as the file holds it: players by name, the rules, and the deals in seats."""

    players: tuple[str, ...]
    rules: Rules
    deals: tuple[Deal, ...] = ()
    first_dealer: int = 0
    # What the file says about the pulka; none of it is scored.
    name: str | None = None
    currency: str | None = None
    started: datetime | None = None  # with its offset
    opening: Sheet | None = None  # the sheet as paper left it, when the pulka began there (docs/files.md §5)

    def replay(self, say: Callable[[Entry], Any] | None = None) -> Replay:
        """The engine's replay (`say` as its); FileError (with names) if a deal is invalid."""
        try:
            return replay(self.rules, len(self.players), self.deals, self.first_dealer, self.opening, say=say)
        except PulkaError as error:
            raise FileError(error.problems[0], self.players) from None

    def settle(self, result: Replay | None = None) -> Settlement:
        result = result or self.replay()
        return settle(result.sheet, self.rules)


def check_players(players: object) -> Text | None:
    """Why `players` is not 3 or 4 distinct non-empty names of at most 40 characters, or None."""
    if not isinstance(players, list) or len(players) not in (3, 4):
        return Msg("a pulka has 3 or 4 players, listed in clockwise seating order")
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            return Msg("a player's name is 1 to {most} characters, not {name}")(most=MAX_NAME, name=repr(name))
    if len(set(players)) != len(players):
        return Msg("two players have the same name")
    return None


def loads(text: str | bytes) -> PulkaFile:
    """Parse a pulka file; its deals are checked against the rules when it is replayed."""
    return parse(decode(text))


def decode(text: str | bytes) -> object:
    """The JSON data of a file; FileError (bad_json) when it is not JSON."""
    try:
        return json.loads(text, parse_constant=_not_json)
    except (ValueError, RecursionError) as error:
        raise FileError(Problem(Code.BAD_JSON, "", Msg("the file is not JSON: {error}")(error=str(error)))) from None


def _not_json(constant: str) -> None:
    """NaN and Infinity, which Python's reader takes and JSON has not (docs/files.md §4)."""
    raise ValueError(f"{constant} is not a JSON number")


def parse(data: object) -> PulkaFile:
    """Read a `pulya/1` object. Structure and names are checked here, the rules of play by the engine."""
    if not isinstance(data, dict):
        raise FileError(Problem(Code.BAD_FORMAT, "", Msg("a pulka file is a JSON object")))
    problems = _top_problems(data)
    rules = read_rules(data["rules"], problems) if "rules" in data else None
    players = tuple(data["players"]) if "players" in data and not any(p.code is Code.BAD_PLAYERS for p in problems) else ()
    seat = {name: i for i, name in enumerate(players)}
    opening = read_opening(data["opening"], seat, rules, problems) if "opening" in data and players and rules else None
    if problems or rules is None:
        raise FileError(min(problems, key=lambda p: p.code.rank), players)
    first_dealer = seat[data.get("first_dealer", players[0])]
    deals: list[Deal] = []
    for number, item in enumerate(data["deals"], 1):
        deal, problems = read_deal(item, seat, number)
        if problems:
            # The earlier deals may break the rules first: they are reported first.
            PulkaFile(players, rules, tuple(deals), first_dealer, opening=opening).replay()
            raise FileError(min(problems, key=lambda p: p.code.rank), players)
        assert deal is not None  # no problem: a deal
        deals.append(deal)
    started = data.get("started")
    return PulkaFile(players, rules, tuple(deals), first_dealer, data.get("name"), data.get("currency"),
                 None if started is None else _started(started), opening)


MISSING = Msg("the key {key} is missing")


def _top_problems(data: dict[str, Any]) -> list[Problem]:
    problems = []
    for key in data.keys() - _TOP_KEYS:
        problems.append(Problem(Code.BAD_FORMAT, key, Msg("unknown key {key}")(key=quoted(key))))
    for key in sorted({"format", "players", "rules", "deals"} - data.keys()):
        problems.append(Problem(Code.BAD_FORMAT, key, MISSING(key=quoted(key))))
    if "format" in data and data["format"] != FORMAT:
        problems.append(Problem(Code.BAD_FORMAT, "format", Msg("format must be {format}")(format=repr(FORMAT))))
    if "deals" in data and not isinstance(data["deals"], list):
        problems.append(Problem(Code.BAD_FORMAT, "deals", Msg("deals must be a list")))
    problems += describe_problems(data)
    if "players" in data:
        why = check_players(data["players"])
        if why:
            problems.append(Problem(Code.BAD_PLAYERS, "players", why))
        elif data.get("first_dealer", data["players"][0]) not in data["players"]:
            problems.append(Problem(Code.BAD_PLAYERS, "first_dealer", Msg("first_dealer must be one of the players")))
    return problems


def describe_problems(data: dict[str, Any]) -> list[Problem]:
    """What is wrong with the keys that describe a pulka or a sheet and are not scored."""
    problems = []
    name, currency = data.get("name"), data.get("currency")
    if "name" in data and not (isinstance(name, str) and name.strip() and len(name) <= MAX_PULKA_NAME):
        problems.append(Problem(Code.BAD_FORMAT, "name",
                                Msg("name must be text of 1 to {most} characters")(most=MAX_PULKA_NAME)))
    if "currency" in data and not (isinstance(currency, str) and len(currency) <= MAX_CURRENCY):
        problems.append(Problem(Code.BAD_FORMAT, "currency",
                                Msg("currency must be text of at most {most} characters")(most=MAX_CURRENCY)))
    if "started" in data and _started(data["started"]) is None:
        problems.append(Problem(Code.BAD_FORMAT, "started", Msg(
            "started must be an ISO 8601 date-time with its offset from the year {first} to {last}, such as "
            "2026-11-29T19:30:00+03:00")(first=YEARS[0], last=YEARS[1])))
    return problems


# The years a date-time may fall in, in UTC and at its own offset: what every database here stores and
# reads back in any session time zone (PostgreSQL east of UTC cannot show 9999-12-31T23:59Z).
YEARS = (1900, 2100)


def _started(value: object) -> datetime | None:
    """An ISO 8601 date-time with its offset within YEARS, or None for anything else (a date alone, no
    offset, the year 9999)."""
    try:
        started = datetime.fromisoformat(value) if isinstance(value, str) else None
        if started is None or started.utcoffset() is None:
            return None
        years = (started.year, started.astimezone(timezone.utc).year)
    except (ValueError, OverflowError):  # 0001-01-01T00:00+23:59 is before the year 1 in UTC
        return None
    return started if all(YEARS[0] <= year <= YEARS[1] for year in years) else None


def read_rules(data: object, problems: list[Problem]) -> Rules | None:
    """The file's rules; their problems are added to `problems`, on fields under "rules"."""
    try:
        return Rules.from_dict(data)
    except RulesError as error:
        problems += [replace(p, field=f"rules.{p.field}" if p.field else "rules") for p in error.problems]
        return None


def read_deal(item: object, seat: dict[str, int], number: int) -> tuple[Deal | None, list[Problem]]:
    """A deal's structure and names; what the rules say of it is the engine's to check."""
    problems: list[Problem] = []
    if not isinstance(item, dict):
        return None, [Problem(Code.BAD_FORMAT, "", Msg("a deal is a JSON object"), number)]
    name = item.get("type")
    found = _DEAL_KINDS.get(name) if isinstance(name, str) else None
    if found is None:
        return None, [Problem(Code.BAD_FORMAT, "type",
                              Msg("type must be game, misere or raspasy, not {kind}")(kind=quoted(name)), number)]
    kind, required, allowed, declared, bid = found
    keys = item.keys()
    if not required <= keys <= allowed:
        problems += [Problem(Code.BAD_FORMAT, key, Msg("a {kind} deal has no key {key}")(kind=kind.value, key=quoted(key)), number)
                     for key in sorted(keys - allowed)]
        problems += [Problem(Code.BAD_FORMAT, key, MISSING(key=quoted(key)), number)
                     for key in sorted(required - keys)]
    declarer = None
    if declared and "declarer" in item:
        declarer = _seat(item["declarer"], "declarer", seat, problems, number)
    whist = _by_player(item, "whist", seat, problems, number) if bid else None
    tricks = _by_player(item, "tricks", seat, problems, number)
    is_open = item.get("open", False)
    if not isinstance(is_open, bool):
        problems.append(Problem(Code.BAD_FORMAT, "open", Msg("open must be true or false"), number))
    contract = Contract.parse(item.get("contract")) if bid else None
    return Deal(kind, declarer, contract, whist, tricks, is_open is True), problems


def _seat(name: object, field: str, seat: dict[str, int], problems: list[Problem], number: int) -> int | None:
    found = seat.get(name) if isinstance(name, str) else None
    if found is None:
        problems.append(Problem(Code.UNKNOWN_PLAYER, field, Msg("{name} is not one of the players")(name=quoted(name)), number))
    return found


def _by_player(item: dict[str, Any], field: str, seat: dict[str, int], problems: list[Problem],
               number: int) -> dict[int, object] | None:
    """`{"Anna": 3, …}` as `{0: 3, …}`; unknown names are reported and left out."""
    value = item.get(field)
    if value is None and field not in item:
        return None
    if not isinstance(value, dict):
        problems.append(Problem(Code.BAD_FORMAT, field, Msg("{field} must be an object from player names to values")(field=field),
                                number))
        return None
    try:
        return {seat[name]: v for name, v in value.items()}  # every name a player's, as a valid file has them
    except KeyError:
        return {s: v for name, v in value.items() if (s := _seat(name, field, seat, problems, number)) is not None}


# -- writing -------------------------------------------------------------------


def deal_to_json(deal: Deal, players: tuple[str, ...] | list[str]) -> dict[str, Any]:
    data: dict[str, Any] = {"type": deal.type.value}
    if deal.declarer is not None:
        data["declarer"] = players[deal.declarer]
    if deal.contract is not None:
        data["contract"] = str(deal.contract)
    if deal.whist is not None:
        data["whist"] = {players[s]: str(word) for s, word in deal.whist.items()}
    if deal.open:
        data["open"] = True
    if deal.tricks is not None:
        data["tricks"] = {players[s]: count for s, count in deal.tricks.items()}
    return data


def to_json(pulka: PulkaFile) -> dict[str, Any]:
    """The `pulya/1` object: rules as the preset plus what differs from it; name, currency, started when known."""
    described = {"name": pulka.name, "currency": pulka.currency,
                 "started": pulka.started.isoformat() if pulka.started else None}
    return {"format": FORMAT} | {key: value for key, value in described.items() if value is not None} | {
        "players": list(pulka.players),
        "first_dealer": pulka.players[pulka.first_dealer],
        "rules": pulka.rules.overrides(),
    } | ({"opening": columns_json(pulka.opening, pulka.players)} if pulka.opening is not None else {}) | {
        "deals": [deal_to_json(deal, pulka.players) for deal in pulka.deals],
    }


def dumps(pulka: PulkaFile) -> str:
    return json.dumps(to_json(pulka), ensure_ascii=False, indent=2) + "\n"


def _by_name(players: tuple[str, ...], values: Iterable[int | Decimal | Fraction]) -> dict[str, Any]:
    return {name: json_value(value) for name, value in zip(players, values)}


def result_json(pulka: PulkaFile, result: Replay | None = None) -> dict[str, Any]:
    """The `pulya-result/1` object of `scorekeeper replay --json`."""
    result = result or pulka.replay()
    players = pulka.players
    return _result_head(pulka, result) | {"deals": [
        # A line the pulka writes twice is said once: each of its entries here an object of its own.
        _deal_json(r, players) | {"entries": [dict(entry) for entry in entries]}
        for r, entries in result.lines(_entry_json(players))
    ]}


def replay_for_result(pulka: PulkaFile) -> Replay:
    """The pulka's replay with its lines already as `write_result` writes them (FileError as `Pulka.replay`)."""
    return pulka.replay(_line_text(pulka.players))


def write_result(pulka: PulkaFile, result: Replay, out: TextIO) -> None:
    """`result_json` as `json.dumps(…, ensure_ascii=False)` writes it, deal by deal: the text and the objects of a
    long pulka's every line are never all in memory at once, and a line the pulka writes again and again (the
    same player writing the same points for the same reason) is written out once. A replay from
    `replay_for_result` has its lines written out already; another's are written again."""
    players = pulka.players
    say = _line_text(players)
    results = zip(result.results, result.said) if result.say is say else result.lines(say)
    head = json.dumps(_result_head(pulka, result), ensure_ascii=False)
    out.write(head[:-1] + ', "deals": [')  # the deals are the last key
    # A deal's object as json.dumps writes _deal_json's, its entries the last key: each name and type as
    # json.dumps writes it, the number as an int.
    names = [json.dumps(name, ensure_ascii=False) for name in players]
    types = {kind: json.dumps(kind.value) for kind in DealType}
    separator = ""
    for r, lines in results:
        out.write(f'{separator}{{"n": {r.number}, "dealer": {names[r.dealer]}, "type": {types[r.deal.type]}, '
                  f'"entries": [{", ".join(lines)}]}}')
        separator = ", "
    out.write("]}")


@functools.lru_cache(maxsize=16)  # the same function for a table of players: a replay's lines are known by it
def _line_text(players: tuple[str, ...]) -> Callable[[Entry], str]:
    entry = _entry_json(players)
    return lambda e: json.dumps(entry(e), ensure_ascii=False)


def _result_head(pulka: PulkaFile, result: Replay) -> dict[str, Any]:
    """The result without its deals."""
    players = pulka.players
    sheet = result.sheet
    return {
        "format": RESULT_FORMAT,
        "players": list(players),
        "rules": pulka.rules.to_dict(),
        "finished": sheet.finished,
        "sheet": {
            "pulya": _by_name(players, sheet.pulya),
            "gora": _by_name(players, sheet.gora),
            "whists": {
                name: {players[j]: json_value(sheet.whists[i][j]) for j in range(len(players)) if j != i}
                for i, name in enumerate(players)
            },
        },
        "settlement": settlement_json(settled(players, sheet, pulka.rules, pulka.settle(result))),
    }


def settlement_json(s: Settled) -> dict[str, Any]:
    """The result's `settlement` (docs/files.md §2 and §4): balances, money, the fewest transfers, the amnesty and
    the pairwise table, each pair rounded half away from zero to 2 decimals."""
    names = s.players
    return {
        "balance": {row.name: json_value(row.balance) for row in s.standings},
        "money": {row.name: json_value(row.money) for row in s.standings},
        "transfers": [{"from": p.payer, "to": p.payee, "amount": json_value(p.amount)} for p in s.payments],
        "amnesty": json_value(s.amnesty),
        "pairwise": {x: {y: json_value(round_half_away(s.pairwise[i][j])) for j, y in enumerate(names) if j != i}
                     for i, x in enumerate(names)},
    }


def _deal_json(r: DealResult, players: tuple[str, ...]) -> dict[str, Any]:
    """A deal of the result, without its entries (`write_result` writes the same keys as text)."""
    return {"n": r.number, "dealer": players[r.dealer], "type": r.deal.type.value}


def _entry_json(players: tuple[str, ...]) -> Callable[[Entry], dict[str, Any]]:
    def entry(e: Entry) -> dict[str, Any]:
        return ({"player": players[e.player], "column": e.column.value}
                | ({"on": players[e.on]} if e.on is not None else {})
                | {"points": json_value(e.points), "reason": e.text(players)})
    return entry
