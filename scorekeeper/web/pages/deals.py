"""A pulka's deals: entering one, editing or deleting any, undo and restore, the history."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, make_response, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ...i18n.words import Msg
from ..domain.deals import DeleteDeal, EditDeal, EnterDeal, UndoDeal, deal_from_fields, fields_of
from ..domain.idempotency import Answer
from ..domain.pulkas import Pulka
from ..domain.reading import read_deal
from ..domain.refusals import Refused, VersionConflict
from ..domain.results import Ending
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import actor
from ..edge.context import limits, store
from ..edge.errors import STATUS, field_errors
from ..edge.forms import ConfirmForm, DealForm
from ..edge.idempotency import idempotent, went, write
from ..edge.presenting import presenter
from ..services import deals as deal_service
from ..services import pulkas as pulka_service
from ..views.deals import written
from .blueprint import bp
from .notices import Said, said, told, undone
from .pulkas import sheet


@bp.post("/p/<uid>/undo")
@needs(Need.SCORE)
@idempotent
def undo(uid: str) -> ResponseReturnValue:
    """Never lost silently: the deal taken back is kept with the undo, and the sheet and the history offer
    it back (a plain form, so without JavaScript too) until anything else is written."""
    before = pulka_service.get_pulka(store().pulkas, uid)
    try:
        # Against the version read here when the page sent none: the deal offered back is the one taken.
        expected = ConfirmForm().expected(before.version)
        return write(lambda unit: deal_service.undo(unit.pulkas, UndoDeal(uid, expected), actor()),
                     lambda pulka: went(url_for(".sheet", uid=uid, said=said(Said.UNDONE, len(before.deals)))))
    except Refused as error:
        if error.code == "not_found":
            raise
        flash(i18n.say(error), "error")
        return redirect(url_for(".sheet", uid=uid)), 303


@bp.post("/p/<uid>/restore")
@needs(Need.SCORE)
@idempotent
def restore(uid: str) -> ResponseReturnValue:
    """The deal an undo took back, added again as it was; refused (409, on the sheet as it is now) when the pulka
    changed since the undo, like any stale save."""
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    number = len(pulka.deals) + 1
    try:
        # The app's parser (inputs.JSONProvider): too deep a nesting is malformed JSON too.
        deal = read_deal(current_app.json.loads(request.form.get("deal") or "null"), pulka.players, number)
        expected = ConfirmForm().expected()
        by = actor()
        return write(lambda unit: deal_service.add_deal(unit.pulkas, EnterDeal(uid, deal, expected), by, limits()),
                     lambda saved: went(url_for(".sheet", uid=uid, said=said(Said.RESTORED, number))))
    except ValueError:
        raise Refused(Msg("the deal to restore is not a pulya/1 deal")) from None
    except VersionConflict as error:
        flash(gettext("Not restored: %(why)s.", why=i18n.say(error)), "error")
        response = make_response(sheet(uid))
        response.status_code = STATUS[error.code]
        return response


# -- entering and editing a deal ------------------------------------------------------------


def _deal_page(pulka: Pulka, number: int, data: dict[str, Any], errors: dict[str, list[str]],
               preview: list[dict[str, str]] | None = None, status: int = 200,
               conflict: dict[str, Any] | None = None) -> ResponseReturnValue:
    form = DealForm(formdata=None)
    form.version.data, form.number.data = pulka.version, str(number)
    return render_template("deals/deal_form.html", pulka=pulka, form=form, data=data, errors=errors, preview=preview,
                           told=told(pulka), conflict=conflict, **presenter(pulka).deal_form(number)), status


def _meanwhile(pulka: Pulka) -> str:
    """What the last write did and who did it, in the players' words ("Deal 13 added by Anna")."""
    change = pulka.last_change or {}
    what, deal, by = change.get("what"), change.get("deal"), change.get("by")
    if what == "settings":
        return str(gettext("Settings changed by %(by)s", by=by) if by else gettext("Settings changed"))
    if what in ("again", "closed", "reopened"):  # the pulka's own news: no deal of it changed
        return _news(str(what), str(by or ""))
    texts = {"added": ("Deal %(deal)s added", "Deal %(deal)s added by %(by)s"),
             "edited": ("Deal %(deal)s edited", "Deal %(deal)s edited by %(by)s"),
             "deleted": ("Deal %(deal)s deleted", "Deal %(deal)s deleted by %(by)s"),
             "undone": ("Deal %(deal)s taken back", "Deal %(deal)s taken back by %(by)s")}
    alone, with_by = texts.get(str(what), ("Deal %(deal)s changed", "Deal %(deal)s changed by %(by)s"))
    return str(gettext(with_by, deal=deal, by=by) if by else gettext(alone, deal=deal))


def _news(what: str, by: str) -> str:
    """A write on the pulka as a whole, in the words the watching phones show (templates/base.html)."""
    texts = {"again": (gettext("The table started the next pulka"), gettext("%(by)s started the table's next pulka", by=by)),
             "closed": (gettext("The pulka was closed"), gettext("The pulka was closed by %(by)s", by=by)),
             "reopened": (gettext("The pulka was reopened"), gettext("The pulka was reopened by %(by)s", by=by))}
    alone, with_by = texts[what]
    return str(with_by if by else alone)


def _conflict(pulka: Pulka, asked: int, number: int, data: dict[str, Any], editing: bool) -> ResponseReturnValue:
    """The form again on the pulka as it is now, with what was written meanwhile and by whom: never a silent
    renumbering. A new deal that was meant as deal `asked` and would now be deal `number` is entered as that
    only on an explicit tap (or dropped: it may be the deal another phone wrote)."""
    view = presenter(pulka)
    written = [view.deal(n) for n in range(asked, number) if 1 <= n <= len(pulka.deals)]
    conflict = {"asked": asked, "number": number, "written": written, "meanwhile": _meanwhile(pulka),
                "renumbered": not editing and asked != number}
    return _deal_page(pulka, number, data, {}, status=STATUS[VersionConflict.code], conflict=conflict)


def _deal_post(pulka: Pulka, number: int) -> ResponseReturnValue:
    """Preview or save the deal form as deal `number` (a new deal when it is one past the last)."""
    form = DealForm()
    data = form.fields()
    editing = number <= len(pulka.deals)
    asked = number if editing else (form.number_sent() or number)
    try:
        if asked != number:  # opened for another deal than the one it would now be
            raise VersionConflict()
        deal = deal_from_fields(data, pulka.replay.sheet_before(number), pulka.rules)
        if request.form.get("action") == "preview":
            result = deal_service.preview(pulka, deal, number if editing else None)
            return _deal_page(pulka, number, data, {}, written(result.entries, pulka.players, i18n.language()))
        # The deal was read on the sheet of this version: it is written on that version or not at all.
        expected, by = form.expected(pulka.version), actor()
        if editing:
            return write(lambda unit: deal_service.edit_deal(unit.pulkas, EditDeal(pulka.uid, number, deal, expected), by),
                         lambda saved: _deal_saved(pulka, saved, number))
        entered = EnterDeal(pulka.uid, deal, expected)
        return write(lambda unit: deal_service.add_deal(unit.pulkas, entered, by, limits()),
                     lambda saved: _deal_saved(pulka, saved, len(saved.deals)))
    except VersionConflict:
        now = pulka_service.get_pulka(store().pulkas, pulka.uid)
        if editing:
            now.result(number)  # the deal being edited may be gone: 404
        return _conflict(now, asked, number if editing else len(now.deals) + 1, data, editing)
    except Refused as error:
        if error.code == "not_found":
            raise
        errors = field_errors(error)
        if "contract" in errors and data.get("type", "game") == "game" and not (data.get("level") and data.get("strain")):
            # Not the file's words (6-10 and S, C, D, H or NT): the form has chips to tap.
            errors["contract"] = [gettext("Choose the level and the suit of the game.")]
        return _deal_page(pulka, number, data, errors, status=STATUS[error.code])


def _deal_saved(before: Pulka, saved: Pulka, number: int) -> Answer:
    """To the next deal's form (the sheet after an edit or the last deal), saying what deal `number` wrote."""
    if number <= len(before.deals):  # an edit: the sheet
        return went(url_for(".sheet", uid=before.uid, said=said(Said.EDITED, number)))
    if saved.sheet.finished:
        return went(url_for(".sheet", uid=before.uid, said=said(Said.ADDED, number)))
    # The next deal follows at once: its form, with what this one wrote at the top.
    return went(url_for(".new_deal", uid=before.uid, said=said(Said.ADDED, number)))


@bp.route("/p/<uid>/deal", methods=["GET", "POST"])
@needs(Need.SCORE)
@idempotent
def new_deal(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    number = len(pulka.deals) + 1
    if request.method == "POST":
        return _deal_post(pulka, number)
    if pulka.frozen is not None:
        return _over(pulka, ".sheet")
    if pulka.sheet.finished:  # reopened, and finished still: its deals can be changed until it is kept again
        flash(gettext("The pulka is finished: no more deals. You can still edit or delete earlier ones."), "error")
        return redirect(url_for(".sheet", uid=uid))
    # Both defenders pass unless tapped otherwise: the commonest words cost no tap (every seat's, for the
    # form seated ahead too).
    defaults = {"type": "game", "open": "closed"} | {f"w{seat}": "pass" for seat in range(pulka.n)}
    return _deal_page(pulka, number, defaults, {})


@bp.route("/p/<uid>/deals/<int:number>/edit", methods=["GET", "POST"])
@needs(Need.SCORE)
@idempotent
def edit_deal(uid: str, number: int) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    result = pulka.result(number)
    if request.method == "POST":
        return _deal_post(pulka, number)
    if pulka.frozen is not None:
        return _over(pulka, ".history")
    return _deal_page(pulka, number, fields_of(result.deal), {})


def _over(pulka: Pulka, page: str) -> ResponseReturnValue:
    """A form a frozen pulka takes nothing from is not shown: to `page` (the sheet for a new deal, the history
    for an edit or a delete), whose banner says what this caller can do about it (its owner reopens it, a
    link nothing more)."""
    assert pulka.frozen is not None
    closed = pulka.frozen.ending is Ending.CLOSED
    if page == ".sheet":
        flash(gettext("The pulka is closed: no more deals.") if closed
              else gettext("The pulka is finished: no more deals."), "error")
    else:
        flash(gettext("The pulka is closed: its deals cannot be changed now.") if closed
              else gettext("The pulka is finished: its deals cannot be changed now."), "error")
    return redirect(url_for(page, uid=pulka.uid))


@bp.route("/p/<uid>/deals/<int:number>/delete", methods=["GET", "POST"])
@needs(Need.SCORE)
@idempotent
def delete_deal(uid: str, number: int) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    shown = presenter(pulka).deal(number)
    form = ConfirmForm()
    page = dict(pulka=pulka, form=form, title=gettext("Delete deal %(number)d?", number=number),
                message=gettext("Deal %(number)d (%(deal)s) is removed and every later deal is scored again. The "
                                "later deals keep their dealer order, so a deal that no longer fits makes the "
                                "deletion refused.", number=number, deal=shown["text"]),
                action=url_for(".delete_deal", uid=uid, number=number),
                button=gettext("Delete deal %(number)d", number=number))
    if request.method == "GET" and pulka.frozen is not None:
        return _over(pulka, ".history")
    if request.method == "POST":
        try:
            expected = form.expected()
            return write(lambda unit: deal_service.delete_deal(unit.pulkas, DeleteDeal(uid, number, expected), actor()),
                         lambda _: went(url_for(".history", uid=uid, said=said(Said.DELETED, number))))
        except Refused as error:
            return render_template("confirm.html", error=i18n.say(error), **page), STATUS[error.code]
    form.version.data = pulka.version
    return render_template("confirm.html", **page)


@bp.get("/p/<uid>/history")
@needs(Need.READ)
def history(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    return render_template("deals/history.html", pulka=pulka, deals=presenter(pulka).protocol, undo=ConfirmForm(),
                           told=told(pulka), restore=undone(pulka), later=pulka_service.played_now(store().pulkas, uid))
