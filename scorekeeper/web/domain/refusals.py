"""The refusals use cases raise: a request the app does not carry out, and nothing was stored.

Each refusal carries a `code`: one of the engine's problem codes (`engine.Code`) or the web's own
(`ErrorCode`); `edge.errors.STATUS` alone turns codes into HTTP statuses.

A refusal's message is a `Text` (the engine's pure type): a template declared with `Msg`, which
scorekeeper.i18n.catalogs extracts into the `messages` catalog, and its values. Nothing here knows the
request's language: the edge writes the text with `Refused.say` and the request's catalog. `message`
is the English, for logs and scripts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ...engine import Gettext, Ngettext, Problem, PulkaError, Text
from ...i18n.words import Msg, literal


class ErrorCode(StrEnum):
    """The web's refusal codes, beside the engine's problem codes (both are the `code` of a refusal)."""

    BAD_REQUEST = "bad_request"
    CSRF = "csrf"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    REGISTRATION_CLOSED = "registration_closed"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    VERSION_CONFLICT = "version_conflict"
    RULES_FROZEN = "rules_frozen"
    PULKA_FROZEN = "pulka_frozen"
    PULKA_OPEN = "pulka_open"
    NOT_REVERSIBLE = "not_reversible"
    NO_DEALS = "no_deals"
    TOO_LARGE = "too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    BAD_ACCOUNT = "bad_account"
    TOO_MANY_DEALS = "too_many_deals"
    TOO_MANY_PULKAS = "too_many_pulkas"
    ACCOUNT_FULL = "account_full"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    SERVER_ERROR = "server_error"
    BUSY = "busy"
    CANNOT_SAVE = "cannot_save"


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

    code: str = "bad_format"

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


class Duplicate(Exception):
    """The store's own, not a refusal: the database keeps one row of a kind and one is there already (a player's
    name in a circle). The service that asked for the write says what that means to the caller."""


class Unstorable(Refused):
    """Text holding a character that no database here may keep (see `reading.unstorable`)."""

    def __init__(self, field: str):
        message = (Msg("{field} holds a character that cannot be stored (NUL or a lone surrogate)")(field=field)
                   if field else Msg("the request holds a character that cannot be stored (NUL or a lone surrogate)"))
        super().__init__(message, field)


class NotFound(Refused):
    code = ErrorCode.NOT_FOUND

    def __init__(self, what: str = "pulka"):
        super().__init__(_NO_SUCH.get(what) or Msg("there is no such {what}")(what=what))


_NO_SUCH = {"pulka": Msg("there is no such pulka"), "deal": Msg("there is no such deal"),
            "account": Msg("there is no such account"), "share link": Msg("there is no such share link")}


class VersionConflict(Refused):
    code = ErrorCode.VERSION_CONFLICT

    def __init__(self) -> None:
        super().__init__(Msg("the pulka changed since this page was opened (someone entered or edited a deal): "
                             "check the sheet and try again"))


class KeyReused(Refused):
    code = ErrorCode.IDEMPOTENCY_KEY_REUSED

    def __init__(self) -> None:
        super().__init__(Msg("this idempotency key came before with another request, which was saved: a new "
                             "request needs a new key (a form: open it again)"), "Idempotency-Key")


class CannotSave(Refused):
    """The database refuses writes for now (a full disk, a read-only database, a lock held too long, a lost
    connection): the transaction was rolled back. A read that cannot reach the database says so."""

    code = ErrorCode.CANNOT_SAVE

    def __init__(self, reading: bool = False) -> None:
        super().__init__(Msg("the server cannot reach its database right now; try again in a moment") if reading
                         else Msg("the server cannot save right now; nothing was saved"))


class RulesFrozen(Refused):
    code = ErrorCode.RULES_FROZEN

    def __init__(self) -> None:
        super().__init__(Msg("the rules, players and first dealer are fixed once the first deal is entered"))


class PulkaFrozen(Refused):
    code = ErrorCode.PULKA_FROZEN

    def __init__(self) -> None:
        super().__init__(Msg("the pulka is over and its result is kept; its owner reopens it to change it"))


class PulkaOpen(Refused):
    code = ErrorCode.PULKA_OPEN

    def __init__(self) -> None:
        super().__init__(Msg("the pulka is not closed"))


class NothingToUndo(Refused):
    code = ErrorCode.NO_DEALS

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

    code = ErrorCode.UNAUTHORIZED

    def __init__(self, message: Text = Msg("log in first, or send a valid token")):
        super().__init__(message)


class Forbidden(Refused):
    code = ErrorCode.FORBIDDEN

    def __init__(self, message: Text = Msg("this needs more than your access to this pulka allows")):
        super().__init__(message)


class TooManyAttempts(Refused):
    code = ErrorCode.TOO_MANY_ATTEMPTS

    def __init__(self, minutes: int):
        super().__init__(Msg("too many failed attempts to log in: try again in {minutes} minute",
                             "too many failed attempts to log in: try again in {minutes} minutes",
                             "minutes")(minutes=minutes))
        self.minutes = minutes


class AccountInvalid(Refused):
    """A username or password that cannot be used (taken, too short, …)."""

    code = ErrorCode.BAD_ACCOUNT


class RegistrationClosed(Refused):
    code = ErrorCode.REGISTRATION_CLOSED

    def __init__(self) -> None:
        super().__init__(Msg("this server takes new accounts only from its administrator"))


class TooManyPulkas(Refused):
    """An account keeps at most SCOREKEEPER_MAX_PULKAS pulkas: one account must not fill the server."""

    code = ErrorCode.TOO_MANY_PULKAS

    def __init__(self, limit: int):
        super().__init__(Msg("an account here keeps at most {limit} pulka: delete one first",
                             "an account here keeps at most {limit} pulkas: delete one first", "limit")(limit=limit),
                         "pulkas")


class AccountFull(Refused):
    """The deals of all an account's pulkas are at most SCOREKEEPER_MAX_ACCOUNT_DEALS."""

    code = ErrorCode.ACCOUNT_FULL

    def __init__(self, limit: int):
        super().__init__(Msg("the pulkas of an account here hold at most {limit} deal in all: delete a pulka first",
                             "the pulkas of an account here hold at most {limit} deals in all: delete a pulka first",
                             "limit")(limit=limit), "deals")


class TooManyDeals(Refused):
    """A pulka holds at most the app's limit of deals (SCOREKEEPER_MAX_DEALS); `scorekeeper replay` reads
    files of any length."""

    code = ErrorCode.TOO_MANY_DEALS

    def __init__(self, limit: int):
        super().__init__(Msg("a pulka here holds at most {limit} deal: start a new one",
                             "a pulka here holds at most {limit} deals: start a new one", "limit")(limit=limit),
                         "deals")
