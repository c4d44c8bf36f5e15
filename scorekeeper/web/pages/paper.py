"""The paper sheet's page, open to anyone: the grid of a sheet kept on paper, and its settlement told in the
players' words. A plain form POST answers with the result (or each problem on its field): no script needed;
static/js/paper.js answers as the grid is typed, from POST /api/v1/settle."""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from ..domain.paper import grid_field, read_sheet, sheet_of_form
from ..domain.refusals import Refused
from ..edge import i18n
from ..edge.errors import STATUS, field_errors
from ..services.paper import settle_sheet
from ..views.paper import grid, result
from .blueprint import bp


@bp.route("/paper", methods=["GET", "POST"])
def paper() -> ResponseReturnValue:
    form = request.form.to_dict() if request.method == "POST" else {}
    if not form:
        form = {"preset": "sochi", "currency": i18n.DEFAULT_CURRENCY[i18n.language()]}
        return render_template("paper/sheet.html", grid=grid(form), errors={}, result=None)
    try:
        paper = read_sheet(sheet_of_form(form))
    except Refused as error:
        errors = field_errors(error, lambda field: grid_field(field, form))
        return render_template("paper/sheet.html", grid=grid(form), errors=errors, result=None), STATUS[error.code]
    settlement, settled = settle_sheet(paper)
    words = i18n.catalog()
    shown = result(paper, settlement, settled, i18n.language(), words.gettext, words.ngettext)
    return render_template("paper/sheet.html", grid=grid(form), errors={}, result=shown)
