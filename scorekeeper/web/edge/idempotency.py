"""Idempotency keys and the unit of work: a write sent again (a phone that never heard the answer, a double
tap) is made once, and every write is one transaction.

A write may come with a key: the `Idempotency-Key` header, or the `idempotency_key` field that the app
renders, fresh, into each of its forms. A write route opens a unit of work (services.unit) before it runs and
looks its key up there, once, as the caller's own (its account, or the share link it writes through) on that
route: the same request sent again gets the stored answer, marked `Idempotent-Replayed: true`, and writes
nothing, whichever server process it reaches; the key with another request is refused
(idempotency_key_reused). The route's use case writes through the unit; its answer is built here, from what
the use case returned, and stored with the key in the write's own transaction (so a crash keeps both or
neither). A refused write stores nothing, its key included: sent again, it is tried again. A retry that came
while its first sending was being written is refused by what the first one wrote (the version it moved on,
the key it stored): it looks its key up again, and answers the first answer.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from collections.abc import Callable
from typing import IO, Any, TypeVar, cast

from flask import Response, current_app, flash, g, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response as Answering  # what a redirect is: flask's Response is one

from ...i18n.words import Msg
from ..domain.idempotency import Answer, Key, KeyTaken
from ..domain.limits import IDEMPOTENCY_KEY_MAX
from ..domain.refusals import Refused
from ..services.unit import UnitOfWork
from .caller import scope
from .context import store

T = TypeVar("T")
HEADER = "Idempotency-Key"
FIELD = "idempotency_key"  # the forms' hidden field


def new_key() -> str:
    """A key for one form shown (templates call it as idempotency_key())."""
    return secrets.token_urlsafe(16)


View = Callable[..., ResponseReturnValue]


class Answered(Exception):
    """The write of this key was made already: what it answered."""

    def __init__(self, answer: Answer):
        super().__init__(answer.status)
        self.answer = answer


def idempotent(view: View) -> View:
    """A write route: it runs in a unit of work of its own, and the same request sent again with its key
    answers what the first one answered, before the route runs (what the route would check may no longer
    hold: the deal it deleted is gone)."""

    @functools.wraps(view)
    def route(**args: Any) -> ResponseReturnValue:
        key = _key()
        with store().unit() as opened:
            unit: UnitOfWork = opened
            g.unit, g.key = unit, key
            try:
                answer = unit.answered(key) if key is not None else None
                if answer is None:
                    return view(**args)
            except Answered as made:  # sent again while the first was being written
                answer = made.answer
        response = respond(answer)
        response.headers["Idempotent-Replayed"] = "true"
        return response

    setattr(route, "idempotent", True)  # the OpenAPI test finds the header documented on each of these
    return route


def write(make: Callable[[UnitOfWork], T], answer: Callable[[T], Answer],
          then: Callable[[T], None] | None = None) -> Answering:
    """Make the write through the route's unit of work (`make`: a use case, given the unit), answer it as
    `answer` says of what it made (a pulka, a payment), and commit. Under a key the answer is built before
    the commit and stored with the key in the same transaction; `answer` must then not keep anything by the
    new version (presenting.answering), as the transaction may still roll back. `then`: what the edge does
    with what was made once it is committed (a new account signed in), which a retry answered from its key
    does not do again."""
    unit, key = cast(UnitOfWork, g.unit), cast(Key | None, g.key)
    try:
        made = make(unit)
        if key is None:
            unit.commit()
            given = answer(made)
        else:
            given = answer(made)
            unit.remember(key, given)
            unit.commit()
    except (Refused, KeyTaken):
        if key is not None:
            # Refused by what its first sending wrote meanwhile (it waited for its lock): that one's answer.
            unit.rollback()
            if (first := unit.answered(key)) is not None:
                raise Answered(first) from None
        raise
    if then is not None:
        then(made)
    return respond(given)


def made_before() -> bool:
    """Whether this very request was made already under its key, by this caller on this route: a retry of a
    write that removed what its route names (a pulka deleted), which the access check lets through to be
    answered as the first sending was. A key reused or malformed, or none: False, and the check refuses as
    it would."""
    try:
        key = _key()
        return key is not None and store().keys.answered(key) is not None
    except Refused:
        return False


def went(location: str, *flashes: tuple[str, str]) -> Answer:
    """A form's answer: the page it leads to and the messages shown there."""
    return Answer(302, location=location, flashes=flashes)


def json_answer(status: int, value: object, location: str | None = None) -> Answer:
    return Answer(status, current_app.json.dumps(value), location)


def respond(answer: Answer) -> Answering:
    """The answer as a response: a page's redirect with its messages, or the API's JSON."""
    for category, message in answer.flashes:
        flash(message, category)
    if 300 <= answer.status < 400 and answer.location:
        return redirect(answer.location, answer.status)
    # An answer without a body (204) is no JSON: as Flask answers ("", 204).
    response = Response(answer.body, answer.status, mimetype="application/json" if answer.body else None)
    if answer.location:
        response.headers["Location"] = answer.location
    return response


def _key() -> Key | None:
    """The request's key, or None: none sent, a request that writes nothing (showing a form, a preview), or
    a caller without an account or a share link (registering), under whom no key is kept."""
    if request.method in ("GET", "HEAD") or request.form.get("action") == "preview":
        return None
    key = request.headers.get(HEADER) or request.form.get(FIELD)
    if not key:
        return None
    if len(key) > IDEMPOTENCY_KEY_MAX or not (key.isascii() and key.isprintable()):
        raise Refused(Msg("an idempotency key is 1 to {most} printable ASCII characters")(most=IDEMPOTENCY_KEY_MAX),
                      HEADER)
    whose = scope()
    return Key(whose, f"{request.method} {request.path}", key, _fingerprint()) if whose is not None else None


def _fingerprint() -> str:
    """The request as a hash, to tell the same request sent again from another one under the same key: the
    query, and the JSON body however it is spaced and its keys ordered, or the form's fields (but the CSRF
    token and the key) and files."""
    parts: list[object] = [sorted(request.args.items(multi=True))]
    if request.is_json:
        data = request.get_json(silent=True)
        parts.append(request.get_data(as_text=True) if data is None else data)
    else:
        parts.append(sorted((name, value) for name, value in request.form.items(multi=True)
                            if name not in ("csrf_token", FIELD)))
        parts.append(sorted((name, _digest(upload.stream)) for name, upload in request.files.items(multi=True)))
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _digest(stream: IO[bytes]) -> str:
    digest = hashlib.sha256(stream.read()).hexdigest()  # a body is at most MAX_CONTENT_LENGTH
    stream.seek(0)  # the route reads the file after
    return digest
