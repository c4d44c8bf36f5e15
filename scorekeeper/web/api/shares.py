"""Share links."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from ..domain.limits import SHARE_LABEL_MAX
from ..domain.idempotency import Answer
from ..domain.shares import RevokeShare, Share, read_share
from ..edge.access import Need, needs
from ..edge.context import store
from ..edge.idempotency import idempotent, json_answer, write
from ..edge.inputs import json_body
from ..edge.presenting import share_url
from ..services import pulkas as pulka_service
from ..services import shares as share_service
from .blueprint import bp
from .openapi import describe
from .schema import IDEMPOTENCY_KEY, PULKA_ID, answer, errors, ref


def share_json(share: Share, players: Sequence[str]) -> dict[str, Any]:
    return {"id": share.id, "role": share.role.value, "label": share.label, "token": share.token,
            "url": share_url(share.token), "created_at": share.created_at.isoformat(),
            "last_used_at": share.last_used_at.isoformat() if share.last_used_at else None,
            "player": players[share.player] if share.player is not None else None}


@bp.get("/pulkas/<uid>/shares")
@needs(Need.OWN)
def list_shares(uid: str) -> ResponseReturnValue:
    players = pulka_service.get_pulka(store().pulkas, uid).players
    return jsonify({"shares": [share_json(s, players) for s in share_service.list_shares(store().shares, uid)]})


@bp.post("/pulkas/<uid>/shares")
@needs(Need.OWN)
@idempotent
def create_share(uid: str) -> ResponseReturnValue:
    data = json_body()
    players = pulka_service.get_pulka(store().pulkas, uid).players
    command = read_share(uid, data.get("role"), data.get("label", ""), data.get("player"), players)
    return write(lambda unit: share_service.create_share(unit.shares, command),
                 lambda share: json_answer(201, share_json(share, players)))


@bp.delete("/pulkas/<uid>/shares/<share_id>")
@needs(Need.OWN)
@idempotent
def delete_share(uid: str, share_id: str) -> ResponseReturnValue:
    return write(lambda unit: share_service.revoke_share(unit.shares, RevokeShare(uid, share_id)),
                 lambda _: Answer(204))


# This module's part of the API's document (openapi.py assembles the parts).
describe({
    "/api/v1/pulkas/{uid}/shares": {
        "parameters": [PULKA_ID],
        "get": {"summary": "The pulka's share links (owner)",
                "responses": {"200": {"description": "the links"}} | errors(404)},
        "post": {"summary": "A new share link for a viewer or a scorer (owner)", "parameters": [IDEMPOTENCY_KEY],
                 "requestBody": {"required": True, "content": {"application/json": {"schema": {
                     "type": "object", "required": ["role"], "properties": {
                         "role": {"enum": ["viewer", "scorer"]},
                         "label": {"type": "string", "maxLength": SHARE_LABEL_MAX},
                         "player": {"type": ["string", "null"], "description": "one of the players: his link"}}}}}},
                 "responses": {"201": answer(ref("Share"), "created")} | errors(400, 404, 415, 422)}},
    "/api/v1/pulkas/{uid}/shares/{share_id}": {
        "parameters": [PULKA_ID, {"name": "share_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "delete": {"summary": "Revoke a share link: it stops working at once (owner)",
                   "parameters": [IDEMPOTENCY_KEY],
                   "responses": {"204": {"description": "revoked"}} | errors(400, 404, 422)}},
}, {
    "Share": {"type": "object", "required": ["id", "token", "url", "role"], "properties": {
        "id": {"type": "string", "description": "names the link; not secret"},
        "token": {"type": "string", "description": "the secret part of the link; also a bearer token for "
                                                   "this pulka, with this role"},
        "url": {"type": "string"}, "role": {"enum": ["viewer", "scorer"]}, "label": {"type": "string"},
        "created_at": {"type": "string"}, "last_used_at": {"type": ["string", "null"]},
        "player": {"type": ["string", "null"], "description": "the player whose link it is: his phone shows "
                                                              "the sheet from his seat"}}},
})
