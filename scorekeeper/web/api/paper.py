"""Settling a paper sheet: `POST /api/v1/settle` takes a `pulya-sheet/1` body and answers what
`scorekeeper settle --json` prints (FORMAT.md §4). No account is needed: nothing is stored."""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ...files import sheetfile
from ...i18n.words import Msg
from ..domain.paper import read_sheet_text
from ..domain.refusals import ErrorCode, Refused
from ..edge.access import Need, needs
from .blueprint import bp


@bp.post("/settle")
@needs(Need.ANYONE)  # a paper sheet's settlement: nothing is stored
def settle() -> ResponseReturnValue:
    if not request.is_json:
        raise Refused(Msg("send the sheet as application/json"), code=ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    # The body read as the file is, not by Flask's reader, which takes NaN and Infinity.
    return jsonify(sheetfile.result_json(read_sheet_text(request.get_data())))
