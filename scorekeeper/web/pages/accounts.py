"""The account pages: log in, log out, register, the language, the password; the administrator's accounts."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from flask_login import login_user, logout_user

from ...i18n.words import Msg
from ..domain.accounts import Account, ChangePassword, ResetPassword, read_account, text_or_nothing
from ..domain.idempotency import Answer
from ..domain.reading import local_path
from ..domain.refusals import Refused
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import caller, my_account
from ..edge.context import store
from ..edge.errors import STATUS, field_errors, waits
from ..edge.security import remember_choice
from ..edge.sessions import User, end_session, start_session
from ..edge.forms import AccountForm, ConfirmForm, LoginForm, PasswordForm
from ..edge.idempotency import idempotent, went, write
from ..services import accounts as account_service
from .blueprint import bp


def sign_in(account: Account | None) -> None:
    """A new session keeps the account for a year in this browser (a phone at the table stays signed in),
    until it logs out."""
    assert account is not None, "an account that was just found"
    start_session(account)
    login_user(User(account))


def registration_open() -> bool:
    return bool(current_app.config["REGISTRATION"] == "open")


def _next() -> str:
    """Where to go after logging in or switching the language: a path on this site only, and only one that a
    header may carry (a newline or a control character in `next=` goes to the list instead)."""
    return local_path(request.values.get("next")) or url_for("pages.index")


@bp.route("/login", methods=["GET", "POST"])
@needs(Need.ANYONE)
def login() -> ResponseReturnValue:
    form = LoginForm()
    if request.method == "GET":
        return render_template("accounts/login.html", form=form, errors={}, open=registration_open())
    try:
        account = account_service.authenticate(store().accounts, form.username.data, form.password.data,
                                        request.remote_addr or "")
    except Refused as error:
        return render_template("accounts/login.html", form=form, errors=field_errors(error), open=registration_open()), \
            STATUS[error.code], waits(error)
    sign_in(account)
    return redirect(_next())


@bp.post("/logout")
@needs(Need.ANYONE)
def logout() -> ResponseReturnValue:
    logout_user()
    end_session()  # the next person on this phone starts with nothing of this one's
    flash(gettext("Logged out."))
    return redirect(url_for("pages.login"))


@bp.post("/language")
@needs(Need.ANYONE)
@idempotent
def language() -> ResponseReturnValue:
    """The switch on every page: remembered by this browser, and by the account when logged in."""
    choice = i18n.chosen(request.form.get("language"))
    if choice is None:
        raise Refused(Msg("the language is one of {choices}")(choices=", ".join(i18n.LANGUAGES)), "language")
    back = _next()
    if (who := caller().account) is not None:
        response = write(lambda unit: account_service.set_language(unit.accounts, who, choice),
                         lambda _: Answer(303, location=back))
    else:
        response = redirect(back, 303)
    remember_choice(response, i18n.COOKIE, choice)
    return response


@bp.route("/register", methods=["GET", "POST"])
@needs(Need.ANYONE)
@idempotent
def register() -> ResponseReturnValue:
    form = AccountForm()
    if not registration_open():
        return render_template("accounts/register.html", form=form, errors={}, closed=True), STATUS["registration_closed"]
    if request.method == "GET":
        return render_template("accounts/register.html", form=form, errors={})
    try:
        command = read_account(form.username.data, form.password.data)
        # Signed in once the account is there for good (the session's row refers to it).
        return write(lambda unit: account_service.register(unit.accounts, command, open_registration=True),
                     lambda made: went(url_for("pages.index"), ("message", gettext(
                         "Welcome, %(name)s.", name=made.username) + (" " + gettext(
                             "This account administers the server.") if made.is_admin else ""))), then=sign_in)
    except Refused as error:
        return render_template("accounts/register.html", form=form, errors=field_errors(error)), STATUS[error.code]


@bp.route("/account", methods=["GET", "POST"])
@needs(Need.ACCOUNT)
@idempotent
def account() -> ResponseReturnValue:
    form = PasswordForm()
    who = my_account()
    if request.method == "POST":
        command = ChangePassword(text_or_nothing(form.current.data), text_or_nothing(form.new.data))
        try:
            # The password change ends every session, this one too: it starts again at the new epoch.
            return write(lambda unit: account_service.change_password(unit.accounts, who, command),
                         lambda _: went(url_for("pages.account"), ("message", gettext(
                             "Password changed; every other browser and API token is signed out."))),
                         then=lambda _: sign_in(store().accounts.account(account_id=who.id)))
        except Refused as error:
            return render_template("accounts/account.html", form=form, errors=field_errors(error)), STATUS[error.code]
    return render_template("accounts/account.html", form=form, errors={})


@bp.route("/admin", methods=["GET", "POST"])
@needs(Need.ADMIN)
@idempotent
def admin() -> ResponseReturnValue:
    """Every account; a new one (how accounts are made while registration is closed)."""
    form = AccountForm()
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        try:
            command = read_account(form.username.data, form.password.data)
            return write(lambda unit: account_service.register(unit.accounts, command,
                                                               open_registration=registration_open(),
                                                               by=caller().account),
                         lambda made: went(url_for("pages.admin"), ("message", gettext(
                             "Account %(name)s created.", name=made.username))))
        except Refused as error:
            errors, status = field_errors(error), STATUS[error.code]
    return render_template("accounts/admin.html", form=form, errors=errors, accounts=store().accounts.accounts(),
                           confirm=ConfirmForm(), open=registration_open()), status


@bp.post("/admin/accounts/<int:account_id>")
@needs(Need.ADMIN)
@idempotent
def admin_account(account_id: int) -> ResponseReturnValue:
    """Disable or enable an account, or set its password."""
    action = request.form.get("action")
    back = url_for("pages.admin")
    try:
        if action in ("disable", "enable"):
            disabling = action == "disable"
            return write(lambda unit: account_service.set_disabled(unit.accounts, my_account(), account_id, disabling),
                         lambda _: went(back, ("message", gettext("Account disabled.") if disabling
                                               else gettext("Account enabled."))))
        if action == "password":
            command = ResetPassword(account_id, text_or_nothing(request.form.get("password", "")))
            return write(lambda unit: account_service.reset_password(unit.accounts, command),
                         lambda _: went(back, ("message", gettext(
                             "Password set; the account's sessions and tokens are signed out."))))
        raise Refused(Msg("choose disable, enable or password"), "action")
    except Refused as error:
        flash(i18n.say(error), "error")
        return redirect(back), 303
