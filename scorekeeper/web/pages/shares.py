"""A pulka's share links, each as an address and a QR code to scan across the table, and opening one."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ..domain.refusals import NotFound, Refused
from ..domain.shares import RevokeShare, read_share
from ..edge.access import Need, needs
from ..edge.caller import caller
from ..edge.context import store
from ..edge.errors import STATUS, field_errors
from ..edge.forms import ConfirmForm, ShareForm
from ..edge.idempotency import idempotent, went, write
from ..edge.presenting import share_url
from ..edge.sessions import remember_share
from ..services import pulkas as pulka_service
from ..services import shares as share_service
from ..views.shares import qr_svg
from .blueprint import bp


@bp.route("/p/<uid>/shares", methods=["GET", "POST"])
@needs(Need.OWN)
@idempotent
def shares(uid: str) -> ResponseReturnValue:
    """The pulka's share links, each as an address and a QR code to scan across the table."""
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    form = ShareForm()
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        try:
            command = read_share(uid, form.role.data, form.label.data or "", form.player.data or None, pulka.players)
            return write(lambda unit: share_service.create_share(unit.shares, command),
                         lambda made: went(url_for(".shares", uid=uid, _anchor=f"share-{made.id}"), ("message", gettext(
                             "A viewer link is ready: let them scan it.") if made.role == "viewer"
                             else gettext("A scorer link is ready: let them scan it."))))
        except Refused as error:
            errors, status = field_errors(error), STATUS[error.code]
    links = [(share, share_url(share.token)) for share in share_service.list_shares(store().shares, uid)]
    return render_template("shares/shares.html", pulka=pulka, form=form, errors=errors, links=links, qr=qr_svg), status


@bp.route("/p/<uid>/shares/<share_id>/revoke", methods=["GET", "POST"])
@needs(Need.OWN)
@idempotent
def revoke_share(uid: str, share_id: str) -> ResponseReturnValue:
    """A link revoked after a confirmation that says what it stops (a page of its own: without JavaScript
    too); the confirmation's POST revokes it."""
    if request.method == "POST":
        return write(lambda unit: share_service.revoke_share(unit.shares, RevokeShare(uid, share_id)),
                     lambda _: went(url_for(".shares", uid=uid), ("message", gettext(
                         "The link is revoked: it no longer opens the pulka, on any phone."))))
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    share = next((s for s in share_service.list_shares(store().shares, uid) if s.id == share_id), None)
    if share is None:
        raise NotFound("share link")
    name = share.label or (gettext("Scorer link") if share.role == "scorer" else gettext("Viewer link"))
    return render_template(
        "confirm.html", pulka=pulka, form=ConfirmForm(), title=gettext("Revoke “%(name)s”?", name=name),
        message=gettext("Every phone that opened it stops seeing this table's pulkas at once, and its address and "
                        "code open nothing any more. This cannot be undone: to share again, make a new link."),
        action=url_for(".revoke_share", uid=uid, share_id=share_id), button=gettext("Revoke the link"),
        cancel=url_for(".shares", uid=uid, _anchor=f"share-{share_id}"))


@bp.get("/s/<token>")
@needs(Need.ANYONE)
def open_share(token: str) -> ResponseReturnValue:
    """A share link: this browser may see (or score) the pulka from now on, with or without an account."""
    share = share_service.open_share(store().shares, token, caller().account_id)
    remember_share(token)
    return redirect(url_for(".sheet", uid=share.pulka_uid))
