"""What the web layer knows of a pulka, without HTTP or the database.

`Pulka` is one stored pulka replayed by the engine; `Settings` are what a
table agrees before the first deal, checked by `read_settings` for the form,
the API and import alike; `Refused` and its kinds are the errors use cases
raise. Each carries a `code`: `errors.STATUS` alone turns codes into HTTP.

A refusal's message is a `Text` (the engine's pure type): a template declared with `Msg`, which
scorekeeper.catalogs extracts into the `messages` catalog, and its values. Nothing here knows the
request's language: the edge (errors.py, the routes' flashes) writes the text with `Refused.say`
and the request's catalog. `message` is the English, for logs and scripts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cached_property

from .. import pulyafile
from ..words import Msg, literal
from ..engine import (Deal, DealResult, Gettext, Ngettext, Problem, PulkaError, Replay, Rules, RulesError,
                      Settlement, Sheet, Text, settle)
from . import models


class Role(StrEnum):
    """What a caller may do with one pulka, each role all that the one before may."""

    VIEWER = "viewer"  # the sheet, the drawing, history, settlement, PDF and export
    SCORER = "scorer"  # and add, edit, delete and undo deals
    OWNER = "owner"  # and settings, renaming, deleting the pulka, share links

    def allows(self, needed: Role) -> bool:
        return _RANK[self] >= _RANK[needed]


_RANK = {role: rank for rank, role in enumerate(Role)}


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    is_admin: bool = False
    disabled: bool = False
    session_epoch: int = 1
    created_at: datetime | None = None
    language: str | None = None  # chosen on a page; None: the browser's


@dataclass(frozen=True)
class Share:
    """A share link of a pulka; `token` is the secret part of its address."""

    id: str
    pulka_uid: str
    token: str
    role: Role
    label: str
    created_at: datetime
    last_used_at: datetime | None


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
    last_change: Mapping[str, object] | None = None  # what the last write did, and who did it

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def sheet(self) -> Sheet:
        return self.replay.sheet

    @cached_property
    def settlement(self) -> Settlement:
        return settle(self.sheet, self.rules)

    @property
    def settings(self) -> Settings:
        return Settings(self.name, self.currency, self.players, self.first_dealer, self.rules)

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

    @property
    def seating(self) -> tuple[tuple[str, ...], int, Rules]:
        """What the first deal fixes: the players, the first dealer and the rules."""
        return self.players, self.first_dealer, self.rules


# -- idempotency keys ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What a write answered, kept with its idempotency key so that a retry gets it again: a status and a
    JSON body (the API), or where a page redirected and the messages it flashed."""

    status: int
    body: str = ""
    location: str | None = None
    flashes: tuple[tuple[str, str], ...] = ()  # (category, message)


@dataclass
class Once:
    """An idempotency key that a write came with: the write is made once. The key is the caller's own
    (`scope`: an account or a share link) on one `route`; `fingerprint` tells a retry of the same request
    from another request sent under the same key. The repository stores `answer(pulka)` of the pulka the
    write made with the key, in the write's own transaction, and sets `given` to it."""

    scope: str
    route: str
    key: str
    fingerprint: str
    answer: Callable[[Pulka], Answer] | None = None
    given: Answer | None = None


class Answered(Exception):
    """The write of this key was made already (by the same request sent again, which arrived while the
    first was being written): what it answered."""

    def __init__(self, answer: Answer):
        super().__init__(answer.status)
        self.answer = answer


SETTING_KEYS = ("name", "currency", "players", "first_dealer", "rules")


PULKA_OF = Msg("Pulka of {players}")
IMPORTED_PULKA_OF = Msg("Imported pulka of {players}")


def english(text: Text) -> str:
    return text.text(())


def default_name(players: Sequence[str], say: Callable[[Text], str] = english, imported: bool = False) -> str:
    """A pulka's name after its players, in the language of `say` (the edge's: i18n.say)."""
    return say((IMPORTED_PULKA_OF if imported else PULKA_OF)(players=", ".join(players)))[:models.PULKA_NAME_MAX]


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
        if isinstance(dealer, str) and dealer in players:
            first_dealer = players.index(dealer)
        elif players:
            faults.append(Fault.of("bad_players", "first_dealer", Msg("the first dealer must be one of the players")))
    rules = base.rules if base else Rules.of("sochi")
    if "rules" in data:
        rules = _rules(data["rules"], faults) or rules
    name = _text(data, "name", models.PULKA_NAME_MAX, faults, base.name if base else "")
    currency = _text(data, "currency", models.CURRENCY_MAX, faults, base.currency if base else "")
    if faults:
        raise SettingsInvalid(faults)
    return Settings(name or default_name(players, say), currency, players, first_dealer, rules)


def _players(value: object, faults: list[Fault]) -> tuple[str, ...]:
    why = pulyafile.check_players(value)
    if not why and not all(map(one_line, value)):
        why = Msg("a player's name is one line of text, without control characters")
    if why:
        faults.append(Fault.of("bad_players", "players", why))
        return ()
    return tuple(value)


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
    value = data[key]
    if not isinstance(value, str) or len(value.strip()) > most or not one_line(value.strip()):
        faults.append(Fault.of("bad_format", key, Msg("{key} must be one line of text of at most {most} characters")(
            key=key, most=most)))
        return default
    return value.strip()


# -- text and numbers as requests send them ------------------------------------------------------

# NUL, which PostgreSQL cannot store and SQLite can (a pulka holding one could not move from one to the
# other), and lone surrogates, which no UTF-8 encodes: no text the app keeps or looks up may hold them.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# A name, a currency or a link's label is one line: no control character (C0, DEL, C1) either.
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def unstorable(text: str) -> bool:
    return _UNSTORABLE.search(text) is not None


def one_line(text: str) -> bool:
    return _NOT_ONE_LINE.search(text) is None


def first_unstorable(data: object) -> str | None:
    """The field ("players[1]", "deal.whist") of the first string of JSON data, key or value, that
    `unstorable` refuses; None when there is none. A loop, not recursion: JSON may nest a thousand deep."""
    pending: list[tuple[str, object]] = [("", data)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, str):
            if unstorable(value):
                return path
        elif isinstance(value, dict):
            if any(unstorable(key) for key in value):
                return path  # the key itself cannot be named in the answer
            pending += [(f"{path}.{key}" if path else key, item) for key, item in value.items()]
        elif isinstance(value, list):
            pending += [(f"{path}[{i}]", item) for i, item in enumerate(value)]
    return None


def digits(text: str) -> int | None:
    """'42' → 42; None for anything but ASCII digits (int() also takes '٣', '３', '1_0' and ' 7 ') or more
    of them than any count or id here has (int() of thousands of digits is slow)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def read_number(value: object, field: str, low: int = 0, high: int = models.INT_MAX) -> int:
    """A whole number from JSON (an int: not a bool, a float or null) or from text (ASCII digits), from `low`
    to `high`; Refused, naming `field`, for anything else."""
    number = digits(value) if isinstance(value, str) else value
    if isinstance(number, int) and not isinstance(number, bool) and low <= number <= high:
        return number
    raise Refused(Msg("{field} must be a whole number from {low} to {high}")(field=field, low=low, high=high), field)


def read_pulka_file(text: bytes | str) -> pulyafile.Pulka:
    """A pulya/1 file, refused with the file's own problem code; text that no database here stores (a key
    too, which a refusal would name) is refused first."""
    try:
        data = pulyafile.decode(text)
        field = first_unstorable(data)
        if field is not None:
            raise Unstorable(field)
        return pulyafile.parse(data)
    except pulyafile.FileError as error:
        p = error.problem
        raise Refused(p.full, p.field, p.deal, code=p.code.value, names=error.players) from None


def read_deal(item: object, players: Sequence[str], number: int) -> Deal:
    """A deal as the pulka file writes it (players by name), read as deal `number`; DealRefused when it is not
    one (the problems ranked, as the engine ranks them)."""
    deal, problems = pulyafile.read_deal(item, {name: seat for seat, name in enumerate(players)}, number)
    if problems:
        raise DealRefused(sorted(problems, key=lambda p: p.code.rank), players)
    return deal


# -- refusals ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fault:
    """One problem of a refused request, on one field: `message` in English, `text` the template and values
    that `say` writes in any language (with the players' `names` where a value is a seat)."""

    code: str
    field: str
    message: str
    deal: int | None = None
    text: Text | None = None
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, code: str, field: str, text: Text, deal: int | None = None, names: Sequence[str] = ()) -> Fault:
        return cls(code, field, text.text(names), deal, text, tuple(names))

    def say(self, gettext: Gettext, ngettext: Ngettext) -> str:
        return self.message if self.text is None else self.text.render(self.names, gettext, ngettext)


class Refused(Exception):
    """A request the app does not carry out; nothing was stored. `code` says why."""

    code = "bad_format"

    def __init__(self, message: str | Text, field: str = "", deal: int | None = None, faults: Sequence[Fault] = (),
                 *, code: str | None = None, general: bool = False, names: Sequence[str] = ()):
        self.text = message if isinstance(message, Text) else literal(message)
        self.names = tuple(names)
        self.message = self.text.text(self.names)  # English
        super().__init__(self.message)
        self.code = code or self.code
        self.field = field
        self.deal = deal
        self.faults = tuple(faults) or (Fault.of(self.code, field, self.text, deal, self.names),)
        # A problem elsewhere than the fields of the form that was sent (a later deal it breaks):
        # shown above the form, not on a field.
        self.general = general

    def say(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """The message in the language of `gettext` and `ngettext`."""
        return self.text.render(self.names, gettext, ngettext)


class Unstorable(Refused):
    """Text holding a character that no database here may keep (see `unstorable`)."""

    def __init__(self, field: str):
        message = (Msg("{field} holds a character that cannot be stored (NUL or a lone surrogate)")(field=field)
                   if field else Msg("the request holds a character that cannot be stored (NUL or a lone surrogate)"))
        super().__init__(message, field)


class NotFound(Refused):
    code = "not_found"

    def __init__(self, what: str = "pulka"):
        super().__init__(_NO_SUCH.get(what) or Msg("there is no such {what}")(what=what))


_NO_SUCH = {"pulka": Msg("there is no such pulka"), "deal": Msg("there is no such deal"),
            "account": Msg("there is no such account"), "share link": Msg("there is no such share link")}


class VersionConflict(Refused):
    code = "version_conflict"

    def __init__(self) -> None:
        super().__init__(Msg("the pulka changed since this page was opened (someone entered or edited a deal): "
                             "check the sheet and try again"))


class KeyReused(Refused):
    code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__(Msg("this idempotency key came before with another request, which was saved: a new "
                             "request needs a new key (a form: open it again)"), "Idempotency-Key")


class CannotSave(Refused):
    """The database refuses writes for now (a full disk, a read-only database, a lock held too long, a lost
    connection): the transaction was rolled back. A read that cannot reach the database says so."""

    code = "cannot_save"

    def __init__(self, reading: bool = False) -> None:
        super().__init__(Msg("the server cannot reach its database right now; try again in a moment") if reading
                         else Msg("the server cannot save right now; nothing was saved"))


class RulesFrozen(Refused):
    code = "rules_frozen"

    def __init__(self) -> None:
        super().__init__(Msg("the rules, players and first dealer are fixed once the first deal is entered"))


class NothingToUndo(Refused):
    code = "no_deals"

    def __init__(self) -> None:
        super().__init__(Msg("there is no deal to undo"))


class SettingsInvalid(Refused):
    def __init__(self, faults: Sequence[Fault]):
        first = faults[0]
        super().__init__(first.text or first.message, first.field, None, faults, code=first.code, names=first.names)


class DealRefused(Refused):
    """The engine's refusal of a deal. Without an `action`, every problem is the deal's own; with one,
    a problem in another deal than `focus` (the deal being written) means the action breaks that later
    deal, and the message says so."""

    def __init__(self, problems: Sequence[Problem], players: Sequence[str], focus: int | None = None,
                 action: Text | None = None):
        first = problems[0]
        faults = [Fault.of(p.code.value, p.field, p.message, p.deal, players) for p in problems]
        if action is None or first.deal == focus:
            super().__init__(first.full, first.field, first.deal, faults, code=first.code.value, names=players)
            return
        message = Msg("{action} would make deal {deal} invalid ({problem}); nothing was changed")(
            action=action, deal=first.deal or 0, problem=first.full)
        super().__init__(message, "", first.deal, faults, code=first.code.value, general=True, names=players)

    @classmethod
    def of(cls, error: PulkaError, players: Sequence[str], focus: int | None = None, action: Text | None = None,
           renumber_from: int | None = None) -> DealRefused:
        """After deleting deal `renumber_from`, the replayed deals from there on are numbered one lower than
        people see them: the problems get the numbers people see."""
        problems = error.problems
        if renumber_from is not None:
            problems = [_renumbered(p, renumber_from) for p in problems]
        return cls(problems, players, focus, action)


def _renumbered(problem: Problem, start: int) -> Problem:
    if problem.deal is None or problem.deal < start:
        return problem
    return Problem(problem.code, problem.field, problem.message, problem.deal + 1)


class Unauthorized(Refused):
    """No credentials where some are needed, or credentials that are wrong, revoked or disabled."""

    code = "unauthorized"

    def __init__(self, message: Text = Msg("log in first, or send a valid token")):
        super().__init__(message)


class Forbidden(Refused):
    code = "forbidden"

    def __init__(self, message: Text = Msg("this needs more than your access to this pulka allows")):
        super().__init__(message)


class TooManyAttempts(Refused):
    code = "too_many_attempts"

    def __init__(self, minutes: int):
        super().__init__(Msg("too many failed attempts to log in: try again in {minutes} minute",
                             "too many failed attempts to log in: try again in {minutes} minutes",
                             "minutes")(minutes=minutes))
        self.minutes = minutes


class AccountInvalid(Refused):
    """A username or password that cannot be used (taken, too short, …)."""

    code = "bad_account"


class RegistrationClosed(Refused):
    code = "registration_closed"

    def __init__(self) -> None:
        super().__init__(Msg("this server takes new accounts only from its administrator"))


class TooManyDeals(Refused):
    """A pulka holds at most the app's limit of deals (SCOREKEEPER_MAX_DEALS); `scorekeeper replay` reads
    files of any length."""

    code = "too_many_deals"

    def __init__(self, limit: int):
        super().__init__(Msg("a pulka here holds at most {limit} deal: start a new one",
                             "a pulka here holds at most {limit} deals: start a new one", "limit")(limit=limit),
                         "deals")
