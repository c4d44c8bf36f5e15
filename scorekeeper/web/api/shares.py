"""Share links."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from ..domain.shares import Share
from ..edge.access import Need, needs
from ..edge.context import store
from ..edge.inputs import json_body
from ..edge.presenting import share_url
from ..services import pulkas as pulka_service
from ..services import shares as share_service
from .blueprint import bp


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
def create_share(uid: str) -> ResponseReturnValue:
    data = json_body()
    players = pulka_service.get_pulka(store().pulkas, uid).players
    share = share_service.create_share(store().shares, uid, data.get("role"), data.get("label", ""),
                                       data.get("player"), players)
    return jsonify(share_json(share, players)), 201


@bp.delete("/pulkas/<uid>/shares/<share_id>")
@needs(Need.OWN)
def delete_share(uid: str, share_id: str) -> ResponseReturnValue:
    share_service.revoke_share(store().shares, uid, share_id)
    return "", 204
