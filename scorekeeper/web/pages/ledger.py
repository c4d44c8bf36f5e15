"""The ledger's page (docs/club.md §3): one currency at a time, what each player is owed or owes, who owes since
when (from the balances), the fewest payments to settle it all (recorded in one tap), every obligation with what
is open on it, its status and a paid mark to set or take back, every payment with its reversal (both a page at a
time, the latest first); a payment entered by hand; every row as CSV. Its writes also serve a pulka's settlement
page (a table's settle-up)."""

from __future__ import annotations

from decimal import Decimal

from flask import flash, make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ..domain.ledger import Ledger, MarkPaid, RecordPayment, RecordSettleUp, TakeBack, read_payment, read_settle_up
from ..domain.paging import Older, read_cursor
from ..domain.refusals import Refused
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import actor, me
from ..edge.context import limits, store
from ..edge.errors import STATUS
from ..edge.idempotency import idempotent, went, write
from ..edge.presenting import csv_download
from ..edge.security import remember_choice
from ..services import ledger as ledger_service
from ..services.unit import UnitOfWork
from ..views.ledger import csv_text, page
from ..views.settlement import CASH_COOKIE, CASH_UNITS, cash_unit
from .blueprint import bp


@bp.get("/ledger")
@needs(Need.ACCOUNT)
def ledger() -> ResponseReturnValue:
    """The ledger, its obligations and payments a page at a time (`?cursor=`: the page its older link names;
    `?all=1`, which listed every row before there were pages, is the first page); `?cash=10` (remembered by this
    browser, as on the settlement page) settles up in that unit."""
    start = read_cursor(request.args.get("cursor"))
    book = ledger_service.ledger(store().ledger, me(), request.args.get("currency"))
    chosen = request.args.get("cash")
    unit = cash_unit(chosen if chosen is not None else request.cookies.get(CASH_COOKIE))
    response = make_response(_page(book, unit, start))
    if chosen is not None:
        remember_choice(response, CASH_COOKIE, str(unit or ""))
    return response


def _page(book: Ledger, unit: Decimal | None, start: Older | None = None) -> str:
    return render_template("ledger/ledger.html", units=CASH_UNITS, view=page(book, start, limits().page_rows, unit))


@bp.get("/ledger.csv")
@needs(Need.ACCOUNT)
def ledger_csv() -> ResponseReturnValue:
    book = ledger_service.ledger(store().ledger, me(), request.args.get("currency"))
    return csv_download(csv_text(book), f"ledger-{book.currency or 'money'}.csv")


@bp.post("/ledger")
@needs(Need.ACCOUNT)  # the ledger's owner writes, as the use case decides
@idempotent
def ledger_write() -> ResponseReturnValue:
    """One of the page's writes, by its `action`; a refusal is said on the page, and nothing is stored. A table's
    settle-up, sent from its pulka's settlement page (`pulka`), goes back there."""
    action = request.form.get("action", "")
    pulka = request.form.get("pulka") if action == "settle" else None
    back = url_for(".settlement", uid=pulka) if pulka else url_for(".ledger", currency=request.form.get("currency", ""))
    done = {"pay": gettext("Payment recorded."), "take_back": gettext("Payment taken back."),
            "mark": gettext("Marked paid."), "unmark": gettext("Paid mark taken back."),
            "settle": gettext("The settle-up is recorded as payments.")}
    try:
        if action not in done:
            raise Refused(gettext("Choose what to do."), "action")
        command = _command(action)
        return write(lambda unit: _do(unit, command), lambda _: went(back, ("message", done[action])))
    except Refused as error:
        if error.code == "not_found":
            raise
        # Said on the ledger page, answered with the refusal's status: nothing was stored, and a write the phone
        # kept offline stays in its outbox with this reason (static/sw.js), not taken as sent.
        flash(i18n.say(error), "error")
        return _page(_shown(request.form.get("currency")), cash_unit(request.cookies.get(CASH_COOKIE))), \
            STATUS[error.code]


def _shown(currency: str | None) -> Ledger:
    """The ledger a refused write is said on: in the form's currency, or the default when that is none."""
    try:
        return ledger_service.ledger(store().ledger, me(), currency)
    except Refused:
        return ledger_service.ledger(store().ledger, me())


def _command(action: str) -> RecordPayment | TakeBack | MarkPaid | RecordSettleUp:
    """What the form asks for, by its `action`."""
    form = request.form
    if action == "pay":
        body = {key: form.get(key) for key in ("from", "to", "amount", "currency", "note")}
        return read_payment(body | {"obligation": form.get("obligation") or None})
    if action == "take_back":
        return TakeBack(form.get("payment", ""))
    if action in ("mark", "unmark"):
        return MarkPaid(form.get("obligation", ""), paid=action == "mark")
    return read_settle_up(form.get("currency", ""), form.get("note"), form.get("cash") or None,
                          form.get("pulka") or None)


def _do(unit: UnitOfWork, command: RecordPayment | TakeBack | MarkPaid | RecordSettleUp) -> object:
    repo, by, account = unit.ledger, actor(), me()
    if isinstance(command, RecordPayment):
        return ledger_service.pay(repo, account, command, by)
    if isinstance(command, TakeBack):
        return ledger_service.take_back(repo, account, command, by)
    if isinstance(command, MarkPaid):
        return ledger_service.mark(repo, account, command, by)
    return ledger_service.settle(repo, account, command, by)
