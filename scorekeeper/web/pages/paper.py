"""The paper sheet's page, open to anyone: the grid of a sheet kept on paper, and its settlement told in the
players' words. A plain form POST answers with the result (or each problem on its field): no script needed;
static/js/paper.js answers as the grid is typed, from POST /api/v1/settle. A logged-in player may keep the
sheet as a pulka of his (POST /paper/keep)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from flask import render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ...render.text import filename
from ...files.sheetfile import PaperSheet
from ..domain.paper import PULYA_SIZES, KeepSheet, grid_field, read_sheet, sheet_of_form
from ..domain.pulkas import Pulka
from ..domain.refusals import Refused
from ..domain.results import Ending
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import actor, caller, me
from ..edge.context import limits
from ..edge.errors import STATUS, field_errors
from ..edge.idempotency import idempotent, went, write
from ..edge.presenting import download, pdf_turn
from ..services import paper as paper_service
from ..views.paper import grid, result
from ..views.paper import pdf as paper_pdf_of
from .blueprint import bp


def _page(form: Mapping[str, str], paper: PaperSheet | None = None, error: Refused | None = None) -> ResponseReturnValue:
    errors = field_errors(error, lambda field: grid_field(field, form)) if error else {}
    shown = None
    if paper is not None:
        settlement, settled = paper_service.settle_sheet(paper)
        words = i18n.catalog()
        shown = result(paper, settlement, settled, i18n.language(), words.gettext, words.ngettext)
    page = render_template("paper/sheet.html", grid=grid(form), errors=errors, result=shown,
                           can_keep=caller().account is not None)
    return (page, STATUS[error.code]) if error else page


@bp.route("/paper", methods=["GET", "POST"])
@needs(Need.ANYONE)  # settling a paper sheet stores nothing
def paper() -> ResponseReturnValue:
    form = request.form.to_dict() if request.method == "POST" else {}
    if not form:
        return _page({"preset": "sochi", "pulya_size": str(PULYA_SIZES["sochi"]),
                      "currency": i18n.DEFAULT_CURRENCY[i18n.language()]})
    try:
        return _page(form, read_sheet(sheet_of_form(form)))
    except Refused as error:
        return _page(form, error=error)


@bp.post("/paper/pdf")
@needs(Need.ANYONE)  # nor does its PDF
def paper_pdf() -> ResponseReturnValue:
    """The sheet as the paper pulya drawn, its settlement step by step and its tables, as an A4 PDF."""
    form = request.form.to_dict()
    try:
        sheet = read_sheet(sheet_of_form(form))
    except Refused as error:
        return _page(form, error=error)
    settlement, settled = paper_service.settle_sheet(sheet)
    words = i18n.catalog()
    title = sheet.name or gettext("Paper sheet of %(players)s", players=", ".join(sheet.players))
    data = paper_pdf_of(sheet, settlement, settled, title, i18n.language(), pdf_turn(), words.gettext, words.ngettext)
    return download(data, "application/pdf", filename(title, date.today(), "pdf"))


def _kept(pulka: Pulka) -> str:
    if pulka.frozen is not None and pulka.frozen.ending is Ending.FINISHED:
        return str(gettext("Kept as %(name)s: every pulya on the sheet is closed, so the pulka is finished.",
                           name=pulka.name))
    return str(gettext("Kept as %(name)s, closed; reopen it to go on from the paper sheet.", name=pulka.name))


@bp.post("/paper/keep")
@needs(Need.ACCOUNT)
@idempotent
def keep_paper() -> ResponseReturnValue:
    form = request.form.to_dict()
    try:
        sheet = read_sheet(sheet_of_form(form))
        dealer = form.get(f"player_{form.get('first_dealer', '')}", "").strip() or None
        command = KeepSheet.of(sheet, i18n.say, dealer)
        return write(lambda unit: paper_service.keep(unit.pulkas, me(), command, actor(), limits()),
                     lambda pulka: went(url_for(".sheet", uid=pulka.uid), ("message", _kept(pulka))))
    except Refused as error:
        return _page(form, error=error)
