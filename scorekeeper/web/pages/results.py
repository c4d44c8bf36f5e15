"""A pulka's end by its owner: closing it as it stands (after a confirmation that shows what it settles to),
and reopening it."""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext

from ..domain.pulkas import Pulka
from ..domain.refusals import Refused
from ..domain.results import ClosePulka, ReopenPulka
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import actor
from ..edge.context import store
from ..edge.forms import ConfirmForm
from ..edge.idempotency import idempotent, went, write
from ..edge.presenting import presenter
from ..services import pulkas as pulka_service
from ..services import results
from ..services.unit import UnitOfWork
from .blueprint import bp


@bp.route("/p/<uid>/close", methods=["GET", "POST"])
@needs(Need.OWN)
@idempotent
def close(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    form = ConfirmForm()
    if request.method == "POST":
        command = ClosePulka(uid, form.expected(pulka.version))
        return _written(uid, lambda unit: results.close(unit.pulkas, command, actor()),
                        gettext("Closed: the result is kept as it stands."))
    form.version.data = pulka.version
    return render_template(
        "results/close.html", pulka=pulka, form=form, balances=presenter(pulka).balances,
        title=gettext("Close %(name)s?", name=pulka.name),
        message=ngettext("The pulka ends after %(num)d deal and is settled as it stands, each player's missing "
                         "pulya points counted against him. Its result is kept: the statistics and the ledger "
                         "count it. You can reopen it to go on.",
                         "The pulka ends after %(num)d deals and is settled as it stands, each player's missing "
                         "pulya points counted against him. Its result is kept: the statistics and the ledger "
                         "count it. You can reopen it to go on.", len(pulka.deals)))


@bp.post("/p/<uid>/reopen")
@needs(Need.OWN)
@idempotent
def reopen(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    command = ReopenPulka(uid, ConfirmForm().expected(pulka.version))
    return _written(uid, lambda unit: results.reopen(unit.pulkas, command, actor()),
                    gettext("Reopened: its deals can be changed again; it is kept again when it finishes or you "
                            "close it."))


def _written(uid: str, make: Callable[[UnitOfWork], Pulka], done: str) -> ResponseReturnValue:
    """The write, and back to the sheet with `done`; a refusal (a change seen first, a pulka already closed)
    is said there."""
    try:
        return write(make, lambda _: went(url_for(".sheet", uid=uid), ("message", done)))
    except Refused as error:
        if error.code == "not_found":
            raise
        flash(i18n.say(error), "error")
        return redirect(url_for(".sheet", uid=uid)), 303
