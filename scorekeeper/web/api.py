"""The JSON API under /api/v1 (described by /api/v1/openapi.json). Players appear by name, deals as in
the pulka file. Each route parses its body, calls one use case, and answers what the presenter built;
a refused request gets a 4xx with the problem's code, and nothing is stored."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from .. import pulyafile
from ..engine import PARAMETERS, PRESETS, Deal
from ..render.svg import ORIENTATIONS
from . import accounts, i18n, services
from .access import actor, caller
from .domain import Answer, Msg, Pulka, Refused, Share, literal, read_deal, read_number, read_pulka_file, read_settings
from .forms import deal_from_fields
from .idempotency import idempotent, json_answer, write
from .inputs import FORM_TYPES, json_body
from .openapi import document
from .models import PULKA_NAME_MAX
from .presenters import Presenter, download, entry_view, jsonable, presenter, share_url, summary, written
from .repository import current as repository

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _expected(data: dict[str, Any]) -> int | None:
    """The optional `version` a client last saw (in the body, else the query): a write on a pulka that changed
    since is refused (409). Sent, it must be a version: null, true, 3.0 or "٣" is refused, not taken as none."""
    if "version" in data:
        return read_number(data["version"], "version")
    if "version" in request.args:
        return read_number(request.args["version"], "version")
    return None


def _deal(data: dict[str, Any], pulka: Pulka, number: int) -> Deal:
    """The deal in a body: `{"deal": {...}}` or the deal object itself, as in the pulka file."""
    return read_deal(data.get("deal", {k: v for k, v in data.items() if k != "version"}), pulka.players, number)


def pulka_json(view: Presenter) -> dict[str, Any]:
    uid = view.pulka.uid
    return view.pulka_json | {"links": {"sheet": url_for("api.sheet", uid=uid),
                                        "page": url_for("pages.sheet", uid=uid)}}


def deal_json(view: Presenter, number: int) -> dict[str, Any]:
    return jsonable(view.deal(number)) | {"version": view.pulka.version}


# What a write answers is built of the pulka it made, by a presenter of its own: with an idempotency key it is
# built in the write's transaction, and presenters are kept by version (idempotency.write).


def _created(pulka: Pulka) -> Answer:
    return json_answer(201, pulka_json(Presenter(pulka)), url_for("api.get_pulka", uid=pulka.uid))


def _counts(pulka: Pulka) -> Answer:
    return json_answer(200, {"version": pulka.version, "deals": len(pulka.deals)})


def _me() -> int:
    return caller().account.id


# -- accounts and tokens -------------------------------------------------------------------


@bp.post("/accounts")
def create_account():
    """A new account: while registration is open, or by the administrator's token."""
    data = json_body()
    account = accounts.register(repository(), data.get("username"), data.get("password"),
                                open_registration=current_app.config["REGISTRATION"] == "open", by=caller().account)
    return jsonify({"username": account.username, "admin": account.is_admin}), 201


@bp.post("/tokens")
def create_token():
    """A token for `Authorization: Bearer`, in exchange for the username and password."""
    data = json_body()
    account = accounts.authenticate(repository(), data.get("username"), data.get("password"),
                                    request.remote_addr or "")
    return jsonify({"token": accounts.new_token(repository(), account), "username": account.username}), 201


@bp.delete("/tokens/current")
def revoke_token():
    """Revoke the token this request carries."""
    token = caller().bearer
    if not token or not token.startswith(accounts.TOKEN_PREFIX):
        raise Refused(Msg("call this with the token to revoke, as Authorization: Bearer <token>"), "Authorization")
    accounts.revoke_token(repository(), token)
    return "", 204


# -- reference data ------------------------------------------------------------------------


@bp.get("/openapi.json")
def openapi():
    return jsonify(document())


@bp.get("/parameters")
def parameters():
    return jsonify({
        "parameters": [{"name": p.name, "kind": p.kind.value, "title": i18n.say(p.title or literal(p.name)),
                        "meaning": i18n.say(p.meaning), "domain": i18n.say(p.domain)} for p in PARAMETERS],
        "presets": {preset.value: rules.to_dict() for preset, rules in PRESETS.items()},
    })


@bp.get("/players")
def players():
    return jsonify({"players": services.player_names(repository(), _me())})


# -- pulkas --------------------------------------------------------------------------------


@bp.get("/pulkas")
def list_pulkas():
    return jsonify({"pulkas": [{"id": s.uid, "name": s.name, "players": list(s.players), "deals": s.deals,
                                "updated_at": s.updated_at.isoformat(), "role": s.role.value}
                               for s in services.list_pulkas(repository(), _me())]})


@bp.post("/pulkas")
@idempotent
def create_pulka():
    body = json_body()
    if "currency" not in body:
        body = {**body, "currency": i18n.DEFAULT_CURRENCY[i18n.language()]}  # a Russian table plays for roubles
    settings = read_settings(body, say=i18n.say)
    return write(lambda once: services.create_pulka(repository(), _me(), settings, once=once), _created)


@bp.get("/pulkas/<uid>")
def get_pulka(uid: str):
    return jsonify(pulka_json(presenter(services.get_pulka(repository(), uid))))


@bp.patch("/pulkas/<uid>")
def patch_pulka(uid: str):
    data = json_body()
    expected = _expected(data)
    pulka = services.get_pulka(repository(), uid)
    settings = read_settings({k: v for k, v in data.items() if k != "version"}, pulka.settings)
    return jsonify(pulka_json(presenter(services.change_settings(repository(), uid, settings, expected, actor()))))


@bp.delete("/pulkas/<uid>")
def delete_pulka(uid: str):
    services.delete_pulka(repository(), uid)
    return "", 204


# -- deals ---------------------------------------------------------------------------------


@bp.get("/pulkas/<uid>/deals")
def list_deals(uid: str):
    pulka = services.get_pulka(repository(), uid)
    return jsonify({"version": pulka.version, "deals": jsonable(presenter(pulka).protocol)})


@bp.post("/pulkas/<uid>/deals")
@idempotent
def add_deal(uid: str):
    data = json_body()
    expected = _expected(data)
    pulka = services.get_pulka(repository(), uid)
    deal = _deal(data, pulka, len(pulka.deals) + 1)

    def added(saved: Pulka) -> Answer:
        number = len(saved.deals)
        return json_answer(201, deal_json(Presenter(saved), number), url_for("api.get_deal", uid=uid, number=number))

    return write(lambda once: services.add_deal(repository(), uid, deal, expected, actor(), once), added)


@bp.post("/pulkas/<uid>/deals/preview")
def preview_deal(uid: str):
    """What a deal would write, without storing it. Takes the API's JSON deal, or the deal form's own
    fields (form-encoded, seats as numbers) so the page's live preview shares the form's reading."""
    pulka = services.get_pulka(repository(), uid)
    number = read_number(request.args["number"], "number", low=1) if "number" in request.args else None
    if number is not None:
        pulka.result(number)
    at = len(pulka.deals) + 1 if number is None else number
    if request.mimetype in FORM_TYPES:
        deal = deal_from_fields(request.form, pulka.replay.sheet_before(at), pulka.rules)
    else:
        deal = _deal(json_body(), pulka, at)
    result = services.preview(pulka, deal, number)
    return jsonify({"n": at, "deal": pulyafile.deal_to_json(deal, pulka.players),
                    "entries": jsonable([entry_view(e, pulka.players) for e in result.entries]),
                    "summary": summary(result.entries, pulka.players),
                    "lines": written(result.entries, pulka.players)})


@bp.get("/pulkas/<uid>/deals/<int:number>")
def get_deal(uid: str, number: int):
    return jsonify(deal_json(presenter(services.get_pulka(repository(), uid)), number))


@bp.put("/pulkas/<uid>/deals/<int:number>")
@idempotent
def edit_deal(uid: str, number: int):
    data = json_body()
    expected = _expected(data)
    pulka = services.get_pulka(repository(), uid)
    pulka.result(number)
    deal = _deal(data, pulka, number)
    return write(lambda once: services.edit_deal(repository(), uid, number, deal, expected, actor(), once),
                 lambda saved: json_answer(200, deal_json(Presenter(saved), number)))


@bp.delete("/pulkas/<uid>/deals/<int:number>")
@idempotent
def delete_deal(uid: str, number: int):
    expected = _expected({})
    return write(lambda once: services.delete_deal(repository(), uid, number, expected, actor(), once), _counts)


@bp.post("/pulkas/<uid>/undo")
@idempotent
def undo(uid: str):
    expected = _expected(json_body(optional=True))
    return write(lambda once: services.undo(repository(), uid, expected, actor(), once), _counts)


@bp.get("/pulkas/<uid>/version")
def version(uid: str):
    """What a watching phone asks every few seconds: the version and the last change, with an ETag, so
    that while nothing changes the answer is an empty 304."""
    pulka = services.get_pulka(repository(), uid)
    response = jsonify({"version": pulka.version, "deals": len(pulka.deals), "change": pulka.last_change})
    response.set_etag(f"v{pulka.version}")
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


# -- share links ---------------------------------------------------------------------------


def share_json(share: Share) -> dict[str, Any]:
    return {"id": share.id, "role": share.role.value, "label": share.label, "token": share.token,
            "url": share_url(share.token), "created_at": share.created_at.isoformat(),
            "last_used_at": share.last_used_at.isoformat() if share.last_used_at else None}


@bp.get("/pulkas/<uid>/shares")
def list_shares(uid: str):
    return jsonify({"shares": [share_json(s) for s in services.list_shares(repository(), uid)]})


@bp.post("/pulkas/<uid>/shares")
def create_share(uid: str):
    data = json_body()
    share = services.create_share(repository(), uid, data.get("role"), data.get("label", ""))
    return jsonify(share_json(share)), 201


@bp.delete("/pulkas/<uid>/shares/<share_id>")
def delete_share(uid: str, share_id: str):
    services.revoke_share(repository(), uid, share_id)
    return "", 204


# -- sheet, settlement, files ----------------------------------------------------------------


@bp.get("/pulkas/<uid>/sheet")
def sheet(uid: str):
    return Response(presenter(services.get_pulka(repository(), uid)).sheet_json, mimetype="application/json")


@bp.get("/pulkas/<uid>/settlement")
def settlement(uid: str):
    pulka = services.get_pulka(repository(), uid)
    return jsonify(jsonable(presenter(pulka).settlement) | {"version": pulka.version})


@bp.get("/pulkas/<uid>/export")
def export(uid: str):
    return Response(presenter(services.get_pulka(repository(), uid)).export, mimetype="application/json")


@bp.get("/pulkas/<uid>/pdf")
def pdf(uid: str):
    view = presenter(services.get_pulka(repository(), uid))
    orientation = request.args.get("orientation", "table")
    if orientation not in ORIENTATIONS:
        raise Refused(Msg("orientation is one of {choices}")(choices=", ".join(ORIENTATIONS)), "orientation")
    return download(view.pdf(orientation), "application/pdf", view.filename("pdf"))


@bp.post("/import")
@idempotent
def import_pulka():
    if not request.is_json:
        raise Refused(Msg("send the pulka file as application/json"), code="unsupported_media_type")
    file, name = read_pulka_file(request.get_data()), request.args.get("name", "")[:PULKA_NAME_MAX]
    return write(lambda once: services.import_pulka(repository(), _me(), file, name, once, i18n.say),
                 _created)
