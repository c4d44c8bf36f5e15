"""Pulkas: the list, a new one, one's settings, deleting it, the version watching phones poll, its sheet,
settlement and files, and an import."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ...render.svg import ORIENTATIONS
from ...i18n.words import Msg
from ..domain.idempotency import Answer
from ..domain.limits import PULKA_NAME_MAX
from ..domain.paper import read_opening
from ..domain.pulkas import Pulka, read_settings
from ..domain.reading import read_number, read_pulka_file
from ..domain.refusals import ErrorCode, Refused
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import actor, me
from ..edge.context import store
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body, version_sent
from ..edge.presenting import answering, download, presenter
from ..services import pulkas as pulka_service
from ..views.filters import jsonable
from ..views.pulkas import Presenter
from .blueprint import bp


def pulka_json(view: Presenter) -> dict[str, Any]:
    uid = view.pulka.uid
    return view.pulka_json | {"links": {"sheet": url_for("api.sheet", uid=uid),
                                        "page": url_for("pages.sheet", uid=uid)}}


# What a write answers is built of the pulka it made, by a presenter of its own: with an idempotency key it is
# built in the write's transaction, and presenters are kept by version (idempotency.write).


def _created(pulka: Pulka) -> Answer:
    return json_answer(201, pulka_json(answering(pulka)), url_for("api.get_pulka", uid=pulka.uid))


@bp.get("/pulkas")
@needs(Need.ACCOUNT)
def list_pulkas() -> ResponseReturnValue:
    return jsonify({"pulkas": [{"id": s.uid, "name": s.name, "players": list(s.players), "deals": s.deals,
                                "updated_at": s.updated_at.isoformat(), "role": s.role.value}
                               for s in pulka_service.list_pulkas(store().pulkas, me())]})


@bp.post("/pulkas")
@needs(Need.ACCOUNT)
@idempotent
def create_pulka() -> ResponseReturnValue:
    body = json_body()
    if "currency" not in body:
        body = {**body, "currency": i18n.DEFAULT_CURRENCY[i18n.language()]}  # a Russian table plays for roubles
    given = "opening" in body
    opening = body.pop("opening", None)
    settings = read_settings(body, say=i18n.say)
    if given:  # a table that began on paper goes on here (FORMAT.md §5)
        settings = dataclasses.replace(settings, opening=read_opening(opening, settings.players, settings.rules))
    return write(lambda once: pulka_service.create_pulka(store().pulkas, me(), settings, once=once), _created)


@bp.get("/pulkas/<uid>")
@needs(Need.READ)
def get_pulka(uid: str) -> ResponseReturnValue:
    return jsonify(pulka_json(presenter(pulka_service.get_pulka(store().pulkas, uid))))


@bp.patch("/pulkas/<uid>")
@needs(Need.OWN)
def patch_pulka(uid: str) -> ResponseReturnValue:
    data = json_body()
    expected = version_sent(data)
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    settings = read_settings({k: v for k, v in data.items() if k != "version"}, pulka.settings)
    return jsonify(pulka_json(presenter(pulka_service.change_settings(store().pulkas, uid, settings, expected, actor()))))


@bp.delete("/pulkas/<uid>")
@needs(Need.OWN)
def delete_pulka(uid: str) -> ResponseReturnValue:
    pulka_service.delete_pulka(store().pulkas, uid)
    return "", 204


@bp.get("/pulkas/<uid>/version")
@needs(Need.READ, polled=True)
def version(uid: str) -> ResponseReturnValue:
    """What a watching phone asks every few seconds: the version and the last change, with an ETag, so
    that while nothing changes the answer is an empty 304. `since`: the version the phone shows (its own
    last write's, say): the answer is never older."""
    seen = read_number(request.args["since"], "since") if "since" in request.args else 0
    stamp = pulka_service.version(store().pulkas, uid, seen)
    response = jsonify({"version": stamp.version, "deals": stamp.deals, "change": stamp.change})
    response.set_etag(f"v{stamp.version}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@bp.get("/pulkas/<uid>/sheet")
@needs(Need.READ)
def sheet(uid: str) -> ResponseReturnValue:
    return Response(presenter(pulka_service.get_pulka(store().pulkas, uid)).sheet_json, mimetype="application/json")


@bp.get("/pulkas/<uid>/settlement")
@needs(Need.READ)
def settlement(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    return jsonify(jsonable(presenter(pulka).settlement) | {"version": pulka.version})


@bp.get("/pulkas/<uid>/export")
@needs(Need.READ)
def export(uid: str) -> ResponseReturnValue:
    return Response(presenter(pulka_service.get_pulka(store().pulkas, uid)).export, mimetype="application/json")


@bp.get("/pulkas/<uid>/pdf")
@needs(Need.READ)
def pdf(uid: str) -> ResponseReturnValue:
    view = presenter(pulka_service.get_pulka(store().pulkas, uid))
    orientation = request.args.get("orientation", "table")
    if orientation not in ORIENTATIONS:
        raise Refused(Msg("orientation is one of {choices}")(choices=", ".join(ORIENTATIONS)), "orientation")
    return download(view.pdf(orientation), "application/pdf", view.filename("pdf"))


@bp.post("/import")
@needs(Need.ACCOUNT)
@idempotent
def import_pulka() -> ResponseReturnValue:
    if not request.is_json:
        raise Refused(Msg("send the pulka file as application/json"), code=ErrorCode.UNSUPPORTED_MEDIA_TYPE)
    file, name = read_pulka_file(request.get_data()), request.args.get("name", "")[:PULKA_NAME_MAX]
    return write(lambda once: pulka_service.import_pulka(store().pulkas, me(), file, name, once, i18n.say),
                 _created)
