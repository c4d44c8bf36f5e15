"""Settling a paper sheet: `POST /api/v1/settle` takes a `pulya-sheet/1` body and answers what
`scorekeeper settle --json` prints (docs/files.md §4). No account is needed: nothing is stored."""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ...files import sheetfile
from ...i18n.words import Msg
from ..domain.paper import read_sheet_text
from ..domain.refusals import ErrorCode, Refused
from ..edge.access import Need, needs
from .blueprint import bp
from .openapi import describe
from .schema import answer, errors, ref


@bp.post("/settle")
@needs(Need.ANYONE)  # a paper sheet's settlement: nothing is stored
def settle() -> ResponseReturnValue:
    if not request.is_json:
        raise Refused(Msg("send the sheet as application/json"), code=ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    # The body read as the file is, not by Flask's reader, which takes NaN and Infinity.
    return jsonify(sheetfile.result_json(read_sheet_text(request.get_data())))


# This module's part of the API's document (openapi.py assembles the parts).
describe({
    "/api/v1/settle": {
        "post": {"summary": "Settle a paper sheet's totals as `scorekeeper settle --json` does; nothing is stored",
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("PulyaSheet")}}},
                 "responses": {"200": answer(ref("PulyaResult"), "the settlement")} | errors(400, 415, 422)}},
}, {
    "PulyaSheet": {"type": "object", "description": "a paper sheet's totals, pulya-sheet/1 (docs/files.md §4)",
                   "required": ["format", "players", "rules", "gora"]},
    "PulyaResult": {"type": "object", "description": "pulya-result/1 of a paper sheet: players, rules, sheet, "
                                                     "settlement (balance, money, transfers, amnesty, pairwise)",
                    "required": ["format", "players", "rules", "sheet", "settlement"]},
})
