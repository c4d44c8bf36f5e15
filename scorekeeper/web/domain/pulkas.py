"""A pulka as the web layer knows it: one stored pulka replayed by the engine, the settings a table agrees
before the first deal (checked by `read_settings` for the form, the API and import alike), and a pulka in
the list of an account."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from fractions import Fraction
from functools import cached_property

from ...files import pulyafile
from ...engine import DealResult, Deal, Replay, Rules, RulesError, Settlement, Sheet, Text, settle
from ...i18n.words import Msg
from .limits import CURRENCY_MAX, PULKA_NAME_MAX
from .days import played_day
from .names import seated_fault
from .reading import blank, text_fault, trimmed, visible
from .refusals import Fault, NotFound, PulkaFrozen, SettingsInvalid
from .results import Ending, Result
from .shares import Role

Note = Mapping[str, object]  # what a write did and who did it, for the phones watching the sheet


@dataclass(frozen=True, eq=False)
class Pulka:
    """A pulka as stored at one version, replayed. Immutable: one copy serves every request until the next write."""

    uid: str
    version: int
    name: str
    currency: str
    players: tuple[str, ...]
    first_dealer: int
    rules: Rules
    deals: tuple[Deal, ...]
    replay: Replay
    created_at: datetime
    updated_at: datetime
    owner_id: int | None = None
    last_change: Note | None = None  # what the last write did, and who did it
    table: str = ""  # the table that plays it: its first pulka's uid (views.tables)
    opening: Sheet | None = None  # the sheet as paper left it, when the table began there (docs/files.md §5)
    frozen: Result | None = None  # what its end settled (domain.results); None while it goes on
    utc_offset: int | None = None  # minutes: the offset its start was recorded with, when known
    played_on: date | None = None  # the day it was played, when its owner says so (a game entered afterwards)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def started(self) -> datetime:
        """When it started, in the offset it was recorded with (UTC when none was): its players' own date. On
        the date played when its owner gave one, at the time of day it was entered (the file's `started`
        is a date-time: docs/files.md §1)."""
        entered = self.created_at.astimezone(timezone(timedelta(minutes=self.utc_offset or 0)))
        if self.played_on is None:
            return entered
        return datetime.combine(self.played_on, entered.timetz())

    @property
    def played(self) -> date | datetime:
        """When it was played, as its pages and files say it: the date its owner gave (no time: the time it
        was entered is not when it was played), else when it started."""
        return self.played_on if self.played_on is not None else self.started

    @property
    def ended(self) -> datetime | None:
        """When it ended, in the offset it started with; None while it goes on."""
        return self.frozen.at.astimezone(self.started.tzinfo) if self.frozen else None

    @property
    def sheet(self) -> Sheet:
        return self.replay.sheet

    @cached_property
    def settlement(self) -> Settlement:
        return settle(self.sheet, self.rules)

    @property
    def stamp(self) -> Stamp:
        return Stamp(self.version, len(self.deals), self.last_change)

    @property
    def settings(self) -> Settings:
        return Settings(self.name, self.currency, self.players, self.first_dealer, self.rules, self.opening,
                        self.played_on)

    def settled_now(self, ending: Ending, at: datetime, by: str = "") -> Result:
        """Its result if it ended `at` as it stands."""
        return Result.settled(self.settlement, self.replay, ending, at, by)

    def result(self, number: int) -> DealResult:
        """Deal `number` (1-based) and what it wrote; NotFound for a deal the pulka does not have."""
        if not 1 <= number <= len(self.deals):
            raise NotFound("deal")
        return self.replay.results[number - 1]


@dataclass(frozen=True)
class Settings:
    name: str
    currency: str
    players: tuple[str, ...]
    first_dealer: int
    rules: Rules
    opening: Sheet | None = None  # the deals go on from it: it is not a setting a form changes
    played_on: date | None = None  # the day it was played, if not the day it was entered (changes any time)

    @property
    def seating(self) -> tuple[tuple[str, ...], int, Rules]:
        """What the first deal fixes: the players, the first dealer and the rules."""
        return self.players, self.first_dealer, self.rules

@dataclass(frozen=True)
class Stamp:
    """A pulka's version as the phones watching its sheet ask for it: the version, its deals, and what the
    last write did and who did it."""

    version: int
    deals: int
    change: Note | None


@dataclass(frozen=True)
class Successor:
    """The pulka a table plays now, seen from one of its earlier pulkas: where their pages lead. The table's
    share links open it as they open every pulka of the table (store.shares), so each reader of the earlier
    one may open it too."""

    uid: str
    name: str


@dataclass(frozen=True)
class PulkaStanding:
    """Where a pulka stands, as the home list shows it: kept with the pulka by every write, so that the list
    is read, never replayed."""

    deals: int
    finished: bool
    leaders: tuple[str, ...]  # those with the best balance, when it is above zero
    best: Fraction

    @classmethod
    def of(cls, pulka: Pulka) -> PulkaStanding:
        net = pulka.settlement.net
        best = max(net)
        leaders = tuple(name for name, value in zip(pulka.players, net) if value == best) if best > 0 else ()
        return cls(len(pulka.deals), pulka.sheet.finished, leaders, Fraction(best))

    def stored(self) -> dict[str, object]:
        return {"deals": self.deals, "finished": self.finished, "leaders": list(self.leaders), "best": str(self.best)}

    @classmethod
    def read(cls, data: object) -> PulkaStanding | None:
        """From what `stored` wrote; None for anything else (a row from before standings were kept)."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(int(data["deals"]), bool(data["finished"]), tuple(map(str, data["leaders"])),
                       Fraction(str(data["best"])))
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            return None


@dataclass(frozen=True)
class Summary:
    """A pulka in an account's list: the account's own, or one shared with it (the best role it holds)."""

    uid: str
    name: str
    players: tuple[str, ...]
    deals: int
    updated_at: datetime
    role: Role = Role.OWNER
    standing: PulkaStanding | None = None  # None: kept before standings were, replayed once to show it
    ended: datetime | None = None  # frozen: when it ended, in the offset it started with
    played: date | None = None  # the day it was played (its evening), in its players' calendar


SETTING_KEYS = ("name", "currency", "players", "first_dealer", "rules", "played_on")


PULKA_OF = Msg("Pulka of {players}")
IMPORTED_PULKA_OF = Msg("Imported pulka of {players}")


@dataclass(frozen=True)
class ChangeSettings:
    """A pulka's settings as the caller would have them: name and currency any time, the players, first
    dealer and rules only before the first deal (services.pulkas.change_settings)."""

    uid: str
    settings: Settings
    expected: int | None = None  # the version the caller last saw; None: any


@dataclass(frozen=True)
class DeletePulka:
    """A pulka deleted by its owner, with its deals (services.pulkas.delete_pulka)."""

    uid: str


@dataclass(frozen=True)
class ImportPulka:
    """A pulka file as a new pulka, named `name`, else as the file names it, else `untitled` (after its
    players, in the caller's language: default_name)."""

    file: pulyafile.PulkaFile
    name: str
    untitled: str

    @classmethod
    def of(cls, file: pulyafile.PulkaFile, name: str = "", say: Callable[[Text], str] | None = None) -> ImportPulka:
        """The file to import, `untitled` worded by `say` (the edge's i18n.say; None: in English); a `name` left
        blank names it as the file does."""
        return cls(file, "" if blank(name) else name, default_name(file.players, say or english, imported=True))


def ended(settings: Settings, replayed: Replay, at: datetime, closed_by: str | None = None) -> Result | None:
    """The result a pulka written now is frozen with: finished when its sheet is (docs/rules.md §8.1: by its
    last deal, or by the paper sheet it goes on from), else closed by `closed_by` as it stands; None while it
    goes on."""
    if replayed.sheet.finished:
        return Result.settled(settle(replayed.sheet, settings.rules), replayed, Ending.FINISHED, at)
    if closed_by is None:
        return None
    return Result.settled(settle(replayed.sheet, settings.rules), replayed, Ending.CLOSED, at, closed_by)


def writable(pulka: Pulka) -> Pulka:
    """The pulka, if a write may change it: once over its result is kept (PulkaFrozen), until its owner
    reopens it."""
    if pulka.frozen is not None:
        raise PulkaFrozen()
    return pulka


def english(text: Text) -> str:
    return text.text(())


def next_at_table(pulka: Pulka, first_dealer: int | None = None) -> Settings:
    """The settings of the next pulka the same table plays: the same players in the same seats, rules and
    currency; the first dealer the one after the last deal's (or `first_dealer`, chosen); the name saying
    which of the evening it is ("Friday at Boris's" → "Friday at Boris's, 2" → "…, 3")."""
    numbered = _NUMBERED.fullmatch(pulka.name)
    base, count = (numbered[1], int(numbered[2])) if numbered else (pulka.name, 1)
    suffix = f", {count + 1}"
    name = base[:PULKA_NAME_MAX - len(suffix)] + suffix
    follows = pulka.sheet.dealer if first_dealer is None else first_dealer
    # The same evening: entered afterwards, its next pulka was played that day too.
    return Settings(name, pulka.currency, pulka.players, follows, pulka.rules, played_on=pulka.played_on)


_NUMBERED = re.compile(r"(.*), (\d{1,4})", re.S)


def default_name(players: Sequence[str], say: Callable[[Text], str] = english, imported: bool = False) -> str:
    """A pulka's name after its players, in the language of `say` (the edge's: i18n.say): their names as they
    show, without the invisible characters a name may hold and a title may not (reading.text_fault)."""
    named = (IMPORTED_PULKA_OF if imported else PULKA_OF)(players=", ".join(map(visible, players)))
    return say(named)[:PULKA_NAME_MAX]


def read_settings(data: Mapping[str, object], base: Settings | None = None,
                  say: Callable[[Text], str] = english) -> Settings:
    """Settings from `data` (keys of SETTING_KEYS; players and the first dealer by name, rules as in the
    pulka file), each missing key taken from `base` (a new pulka: Sochi, first player deals, a name from
    the players). SettingsInvalid lists every problem, each on its field."""
    faults: list[Fault] = [Fault.of("bad_format", str(key), Msg("unknown key {key}")(key=repr(str(key)[:40])))
                           for key in data if key not in SETTING_KEYS]
    players = base.players if base else ()
    if "players" in data or base is None:
        players = _players(data.get("players"), faults)
    first_dealer = base.first_dealer if base and players == base.players else 0
    if "first_dealer" in data:
        dealer = data["first_dealer"]
        if isinstance(dealer, str) and trimmed(dealer) in players:  # as the names are read
            first_dealer = players.index(trimmed(dealer))
        elif players:
            faults.append(Fault.of("bad_players", "first_dealer", Msg("the first dealer must be one of the players")))
    rules = base.rules if base else Rules.of("sochi")
    if "rules" in data:
        rules = _rules(data["rules"], faults) or rules
    name = _text(data, "name", PULKA_NAME_MAX, faults, base.name if base else "")
    currency = _text(data, "currency", CURRENCY_MAX, faults, base.currency if base else "")
    opening = base.opening if base else None
    if opening is not None and players and len(players) != opening.n:
        faults.append(Fault.of("bad_players", "players", Msg("the pulka goes on from a paper sheet of {n} players")(
            n=opening.n)))
    played_on = played_day(data, faults, base.played_on if base else None)
    if faults:
        raise SettingsInvalid(faults)
    return Settings(name or default_name(players, say), currency, players, first_dealer, rules, opening, played_on)


def _players(value: object, faults: list[Fault]) -> tuple[str, ...]:
    """The players' names, trimmed, each read as a name and beside the others (names.seated_fault)."""
    why = pulyafile.check_players(value)
    names = tuple(trimmed(name) for name in value) if not why and isinstance(value, list) else ()
    why = why or pulyafile.check_players(list(names)) or seated_fault(names)  # two names one once trimmed
    if why:
        faults.append(Fault.of("bad_players", "players", why))
        return ()
    return names


def _rules(value: object, faults: list[Fault]) -> Rules | None:
    if not isinstance(value, Mapping):
        faults.append(Fault.of("bad_format", "rules", Msg("rules must be an object with a preset")))
        return None
    try:
        return Rules.from_dict(value)
    except RulesError as error:
        faults += [Fault.of(p.code.value, f"rules.{p.field}", p.full) for p in error.problems]
        return None


def _text(data: Mapping[str, object], key: str, most: int, faults: list[Fault], default: str) -> str:
    if key not in data:
        return default
    why = text_fault(data[key], key, most)
    if why is not None:
        faults.append(Fault.of("bad_format", key, why))
        return default
    return trimmed(str(data[key]))
