"""What a request sends, read at the edge, the same way on SQLite and PostgreSQL: no route meets a path
number the database cannot hold, text it cannot store, or JSON the parser cannot take, and a bad input is
a 4xx naming its field (never a 500, never an exception from deep inside the database).

`init` sets it up for an app: numbers in paths (the `int` converter), every path, query and form value,
file name and bearer token (`check_text`, before any route or access check), and the JSON parser. The API's
routes read their bodies with `json_body`.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import NotFound
from werkzeug.routing import IntegerConverter

from ...engine import Code
from ...i18n.words import Msg
from ..domain.limits import INT_MAX
from ..domain.reading import first_unstorable, read_number, unstorable
from ..domain.refusals import ErrorCode, Refused, Unstorable

# The bodies that a browser's form sends (fetch() of a FormData is multipart).
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class PathNumber(IntegerConverter):
    """A number in a path (a deal, an account): ASCII digits from 1 to the largest id the database holds.
    Anything else (0, '٣', twenty digits) matches no route: 404, as for any address that does not exist.
    Werkzeug's own takes any Unicode digit and any size."""

    regex = "[0-9]{1,10}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= INT_MAX:
            # Not werkzeug's ValidationError: the address would then match the route's other methods, 405.
            raise NotFound()
        return number


class SeatNumber(IntegerConverter):
    """A seat in a path, as the engine counts them: 0 to 3 (the first player's is 0, which PathNumber refuses)."""

    regex = "[0-3]"


class JSONProvider(DefaultJSONProvider):
    """JSON nested deeper than Python's recursion limit ('[' × 100,000) is malformed JSON like any other
    (a ValueError: request.get_json answers 400, or None when silent), not a RecursionError. Names are
    written as they are, and keys in the order given (the pulka file's order: whist, tricks, as entered)."""

    ensure_ascii = False
    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("the JSON is nested too deeply") from None


def check_text() -> None:
    """Every name and value of the path, the query and a form, every uploaded file's name and the bearer token,
    as text a database here may store (domain.unstorable); refused before anything is looked up with it."""
    form = request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")  # else none is parsed
    values = chain((request.view_args or {}).items(), request.args.items(multi=True),
                   request.form.items(multi=True) if form else (),
                   ((name, upload.filename or "") for name, upload in request.files.items(multi=True)) if form else (),
                   [("Authorization", request.headers.get("Authorization", ""))])
    for name, value in values:
        if unstorable(name or ""):  # a multipart part may come without a name
            raise Unstorable("")
        if isinstance(value, str) and unstorable(value):
            raise Unstorable(name)


def json_body(optional: bool = False) -> dict[str, Any]:
    """The JSON object a route reads: 415 for a body of another type (a form, text/plain, none said), 400
    when it is not JSON or not an object, and for text that no database here may store (naming its field).
    `optional`: no body at all is {}."""
    if not request.is_json:
        if optional and not request.content_length:
            return {}
        raise Refused(Msg("send the body as application/json"), code=ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    data = request.get_json(silent=True)
    if data is None:
        raise Refused(Msg("the body is not JSON"), code=Code.BAD_JSON)
    if not isinstance(data, dict):
        raise Refused(Msg("the body must be a JSON object"))
    field = first_unstorable(data)
    if field is not None:
        raise Unstorable(field)
    return data


def version_sent(data: dict[str, Any]) -> int | None:
    """The optional `version` a client last saw (in the body, else the query): a write on a pulka that changed
    since is refused (409). Sent, it must be a version: null, true, 3.0 or "٣" is refused, not taken as none."""
    if "version" in data:
        return read_number(data["version"], "version")
    if "version" in request.args:
        return read_number(request.args["version"], "version")
    return None


def init(app: Flask) -> None:
    """Before the routes are added: the converter is taken when a rule is."""
    app.url_map.converters["int"] = PathNumber
    app.url_map.converters["seat"] = SeatNumber
    app.json = JSONProvider(app)
    app.before_request(check_text)
