"""Who is calling: an account (logged in through the session cookie, or by an API token in an
`Authorization: Bearer` header), and/or the holder of share links (opened in this browser, or a link's
token as the bearer). The access check (edge.access) finds the caller before every route; a route asks it
here.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import g, request
from flask_login import current_user

from ...i18n.words import Msg
from ..domain.accounts import TOKEN_PREFIX, Account
from ..domain.limits import SHARE_TOKEN_MAX
from ..domain.refusals import Unauthorized
from ..domain.shares import Role
from ..services import accounts
from .context import store
from .sessions import REMEMBERED, shares_opened


@dataclass(frozen=True)
class Caller:
    account: Account | None = None
    share_tokens: tuple[str, ...] = ()
    bearer: str | None = None  # the token of an Authorization header: no cookie, so no CSRF to fear

    @property
    def account_id(self) -> int | None:
        return self.account.id if self.account else None


def identify() -> Caller:
    """The caller of this request, by its Authorization header, else by its session."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized(Msg("send Authorization: Bearer <token>"))
        if token.startswith(TOKEN_PREFIX):
            account = accounts.token_account(store().accounts, token, remembered=REMEMBERED)
            if account is None:
                raise Unauthorized(Msg("this token is wrong or revoked"))
            return Caller(account, bearer=token)
        # A share link's token: whether it opens the pulka of the request is the role query's to say.
        if len(token) > SHARE_TOKEN_MAX:
            raise Unauthorized(Msg("this token is wrong or revoked"))  # no token is so long: nothing to look up
        return Caller(share_tokens=(token,), bearer=token)
    account = current_user.account if current_user.is_authenticated else None
    return Caller(account, shares_opened())


def caller() -> Caller:
    return g.caller  # type: ignore[no-any-return]  # set by the access check before every route


def my_account() -> Account:
    """The calling account, on a route that needs one (the access check saw to it)."""
    account = caller().account
    assert account is not None, "a route of Need.ACCOUNT or Need.ADMIN"
    return account


def me() -> int:
    """The calling account's id, on a route that needs an account."""
    return my_account().id


def role() -> Role | None:
    """The caller's role on the pulka of this request (None on a route without a pulka)."""
    held: Role | None = g.get("role")
    return held


def own_seat() -> int | None:
    """The seat of the player whose link lets the caller in ("Boris's link"), if it names one."""
    seat: int | None = g.get("share_player")
    return seat


def scope() -> str | None:
    """Whose idempotency keys a request's key is one of: the account's, else those of the share link that
    lets the caller in; None for a caller who is neither (registering), whose keys are nobody's to keep."""
    who = caller()
    if who.account is not None:
        return f"account:{who.account.id}"
    share: str | None = g.get("share_id")
    return f"share:{share}" if share is not None else None


def actor() -> str:
    """Who is writing, for the note other phones show: the account, or the share link's name."""
    who = caller()
    if who.account is not None:
        return who.account.username
    return g.get("share_label") or f"a {role() or 'shared'} link"
