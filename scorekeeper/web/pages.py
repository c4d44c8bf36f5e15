"""The HTML pages. Each route parses its form, calls one use case, and shows what the presenter built."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any

from flask import (Blueprint, current_app, flash, get_flashed_messages, make_response, redirect, render_template,
                   request, session, url_for)
from flask_babel import gettext, ngettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from .. import pulyafile
from ..engine import PARAMETERS, PRESETS, Kind, Parameter, choice_title, json_value
from . import i18n, services
from .access import actor, caller, remember_share, role
from .domain import Answer, Msg, Pulka, Refused, VersionConflict, read_deal, read_pulka_file, read_settings
from .errors import STATUS, field_errors
from .forms import (ADVANCED, ConfirmForm, DealForm, ImportForm, PulkaForm, ShareForm, bounds, deal_from_fields,
                    fields_of, form_field, text_of)
from .idempotency import idempotent, new_key, write
from .models import PULKA_NAME_MAX
from .presenters import Presenter, card, download, orientation_of, presenter, qr_svg, share_url, written
from .repository import current as repository

bp = Blueprint("pages", __name__)
# Every form that writes carries a fresh idempotency key: sent twice (a double tap, a browser that retries,
# a phone that never heard back), it is saved once.
bp.add_app_template_global(new_key, "idempotency_key")

ORIENTATION_COOKIE = "orientation"
RESTORE = "restore"  # the kind of message that carries the deal an undo took back, offered on the sheet
# Stand for the CSRF token and for each form's idempotency key in a cached page; each request puts its own in.
_TOKEN = "\x00csrf-token\x00"
_KEY = "\x00idempotency-key\x00"


def _me() -> int:
    return caller().account.id


def _went(location: str, *flashes: tuple[str, str]) -> Answer:
    """A form's answer: the page it leads to and the messages shown there. Built of the pulka the write made
    by a presenter of its own (see idempotency.write)."""
    return Answer(302, location=location, flashes=flashes)


@bp.get("/")
def index():
    return render_template("index.html", pulkas=[card(summary, pulka) for summary, pulka
                                                 in services.pulkas_as_they_stand(repository(), _me())])


# -- a new pulka, and its settings ---------------------------------------------------------


def _presets_json() -> str:
    return json.dumps({preset.value: {p.name: json_value(getattr(rules, p.name)) for p in PARAMETERS}
                       for preset, rules in PRESETS.items()})


def _choices(p: Parameter) -> list[tuple[str, str]]:
    """A choice parameter's options: each value, and how players say it in the page's language."""
    return [(text_of(c), i18n.say(choice_title(c)) if isinstance(c, StrEnum) else text_of(c)) for c in p.choices]


def _settings_page(form: PulkaForm, errors: dict[str, list[str]], pulka: Pulka | None = None, status: int = 200):
    return render_template("pulka_form.html", form=form, errors=errors, pulka=pulka, advanced=ADVANCED, Kind=Kind,
                           say=i18n.say,  # a parameter's title, meaning and domain in the page's language
                           advanced_open=any(field.startswith("p_") for field in errors),
                           choices=_choices, bounds=bounds,
                           presets=PRESETS, presets_json=_presets_json(),
                           known=services.player_names(repository(), _me()), frozen=bool(pulka and pulka.deals)), status


@bp.route("/new", methods=["GET", "POST"])
@idempotent
def new_pulka():
    form = PulkaForm()
    if request.method == "GET":
        form.fill_rules(PRESETS[form.preset.data or "sochi"])
        form.currency.data = i18n.DEFAULT_CURRENCY[i18n.language()]
        return _settings_page(form, {})

    def started(pulka: Pulka) -> Answer:
        return _went(url_for(".sheet", uid=pulka.uid), ("message", gettext(
            "%(name)s: %(dealer)s deals first. Enter the deals as they end.",
            name=pulka.name, dealer=pulka.players[pulka.first_dealer])))

    try:
        settings = read_settings(form.settings_data(), say=i18n.say)
        return write(lambda once: services.create_pulka(repository(), _me(), settings, once=once), started)
    except Refused as error:
        return _settings_page(form, field_errors(error, form_field), status=STATUS[error.code])


@bp.post("/p/<uid>/again")
@idempotent
def again(uid: str):
    """"Same players again": a new pulka with this one's seats and rules, opened at once."""
    return write(lambda once: services.again(repository(), _me(), uid, once),
                 lambda pulka: _went(url_for(".sheet", uid=pulka.uid), ("message", gettext(
                     "A new pulka for the same table: %(dealer)s deals first.",
                     dealer=pulka.players[pulka.first_dealer]))))


@bp.route("/p/<uid>/settings", methods=["GET", "POST"])
def settings(uid: str):
    pulka = services.get_pulka(repository(), uid)
    form = PulkaForm()
    if request.method == "GET":
        form.version.data = pulka.version
        form.fill(pulka.name, pulka.currency, pulka.players, pulka.first_dealer, pulka.rules)
        return _settings_page(form, {}, pulka)
    try:
        data = form.names_and_currency() if pulka.deals else form.settings_data()
        services.change_settings(repository(), uid, read_settings(data, pulka.settings), form.expected(pulka.version),
                                 actor())
    except Refused as error:
        return _settings_page(form, field_errors(error, form_field), pulka, STATUS[error.code])
    flash(gettext("Settings saved."))
    return redirect(url_for(".sheet", uid=uid))


@bp.route("/p/<uid>/remove", methods=["GET", "POST"])
def remove(uid: str):
    pulka = services.get_pulka(repository(), uid)
    form = ConfirmForm()
    if request.method == "POST":
        services.delete_pulka(repository(), uid)
        flash(gettext("%(name)s was deleted.", name=pulka.name))
        return redirect(url_for(".index"))
    return render_template("confirm.html", pulka=pulka, form=form, title=gettext("Delete %(name)s?", name=pulka.name),
                           message=ngettext("The pulka and its %(num)d deal are deleted for good. Export it first if "
                                            "you may want it back.",
                                            "The pulka and its %(num)d deals are deleted for good. Export it first if "
                                            "you may want it back.", len(pulka.deals)),
                           action=url_for(".remove", uid=uid), button=gettext("Delete the pulka"))


# -- the sheet --------------------------------------------------------------------------


@bp.get("/p/<uid>")
def sheet(uid: str):
    pulka = services.get_pulka(repository(), uid)
    view = presenter(pulka)
    chosen = request.args.get("orientation")
    orientation = orientation_of(chosen or request.cookies.get(ORIENTATION_COOKIE))

    def render(token: str | None = None, once: str | None = None) -> str:
        offers = get_flashed_messages(category_filter=[RESTORE]) if token is None else []
        return render_template("sheet.html", pulka=pulka, view=view.sheet, balances=view.balances, token=token,
                               once=once, orientation=orientation, drawing=Markup(view.drawing(orientation)),
                               restore=json.loads(offers[-1]) if offers else None)

    if session.get("_flashes") or not current_app.config.get("PAGE_CACHE", True):
        page = render()  # a page with messages is this request's own
    else:
        key = ("sheet.html", orientation, role())  # a viewer's page has no buttons to change the pulka
        page = view.page(key, lambda: render(_TOKEN, _KEY)).replace(_TOKEN, generate_csrf())
        page = re.sub(_KEY, lambda _: new_key(), page)
    response = make_response(page)
    if chosen == orientation:
        # Remembered for every pulka, so the sheet keeps its turn after each deal's redirect.
        response.set_cookie(ORIENTATION_COOKIE, orientation, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.post("/p/<uid>/undo")
@idempotent
def undo(uid: str):
    before = services.get_pulka(repository(), uid)

    def offered(pulka: Pulka) -> Answer:
        # Never lost silently: the sheet the undo opens offers the deal back (a plain form, so without
        # JavaScript too), exactly as it was stored, to be written on the version the undo made. It travels
        # as a message of its own kind, so a repeated undo request (its idempotency key) offers it again.
        offer = {"number": len(before.deals), "version": pulka.version,
                 "deal": json.dumps(pulyafile.deal_to_json(before.deals[-1], before.players))}
        return _went(url_for(".sheet", uid=uid), (RESTORE, json.dumps(offer)))

    try:
        # Against the version read here when the page sent none: the deal offered back is the one taken.
        expected = ConfirmForm().expected(before.version)
        return write(lambda once: services.undo(repository(), uid, expected, actor(), once), offered)
    except Refused as error:
        if error.code == "not_found":
            raise
        flash(i18n.say(error), "error")
        return redirect(url_for(".sheet", uid=uid)), 303


@bp.post("/p/<uid>/restore")
@idempotent
def restore(uid: str):
    """The deal an undo took back, added again as it was; refused (409, on the sheet as it is now) when the pulka
    changed since the undo, like any stale save."""
    pulka = services.get_pulka(repository(), uid)
    number = len(pulka.deals) + 1
    try:
        # The app's parser (inputs.JSONProvider): too deep a nesting is malformed JSON too.
        deal = read_deal(current_app.json.loads(request.form.get("deal") or "null"), pulka.players, number)
        expected = ConfirmForm().expected()
        return write(lambda once: services.add_deal(repository(), uid, deal, expected, actor(), once),
                     lambda saved: _went(url_for(".sheet", uid=uid), ("message", gettext(
                         "Deal %(number)d restored: %(lines)s.", number=number,
                         lines="; ".join(Presenter(saved).deal(number)["summary"])))))
    except ValueError:
        raise Refused(Msg("the deal to restore is not a pulya/1 deal")) from None
    except VersionConflict as error:
        flash(gettext("Not restored: %(why)s.", why=i18n.say(error)), "error")
        response = make_response(sheet(uid))
        response.status_code = STATUS[error.code]
        return response


# -- entering and editing a deal ------------------------------------------------------------


def _deal_page(pulka: Pulka, number: int, data: dict[str, Any], errors: dict[str, list[str]],
               preview: list[dict[str, str]] | None = None, status: int = 200):
    form = DealForm(formdata=None)
    form.version.data = pulka.version
    return render_template("deal_form.html", pulka=pulka, form=form, data=data, errors=errors, preview=preview,
                           **presenter(pulka).deal_form(number)), status


def _deal_post(pulka: Pulka, number: int):
    """Preview or save the deal form as deal `number` (a new deal when it is one past the last)."""
    form = DealForm()
    data = form.fields()
    editing = number <= len(pulka.deals)
    try:
        deal = deal_from_fields(data, pulka.replay.sheet_before(number), pulka.rules)
        if request.form.get("action") == "preview":
            result = services.preview(pulka, deal, number if editing else None)
            return _deal_page(pulka, number, data, {}, written(result.entries, pulka.players))
        # The deal was read on the sheet of this version: it is written on that version or not at all.
        expected, by = form.expected(pulka.version), actor()
        if editing:
            return write(lambda once: services.edit_deal(repository(), pulka.uid, number, deal, expected, by, once),
                         lambda saved: _deal_saved(pulka, saved, number))
        return write(lambda once: services.add_deal(repository(), pulka.uid, deal, expected, by, once),
                     lambda saved: _deal_saved(pulka, saved, len(saved.deals)))
    except VersionConflict as error:
        # Show the form again on the pulka as it is now: a new deal becomes the next one.
        now = services.get_pulka(repository(), pulka.uid)
        if editing:
            now.result(number)
        return _deal_page(now, number if editing else len(now.deals) + 1, data, {"": [i18n.say(error)]},
                          status=STATUS[error.code])
    except Refused as error:
        if error.code == "not_found":
            raise
        return _deal_page(pulka, number, data, field_errors(error), status=STATUS[error.code])


def _deal_saved(before: Pulka, saved: Pulka, number: int) -> Answer:
    """To the next deal's form (the sheet after an edit or the last deal), saying what deal `number` wrote."""
    shown = Presenter(saved).deal(number)
    message = gettext("Deal %(number)d saved: %(lines)s", number=number, lines="; ".join(shown["summary"]))
    if shown["pulya_closed"]:
        message += ". " + gettext("%(names)s closed the pulya", names=", ".join(shown["pulya_closed"]))
    flashes = [("message", message + ("" if message.endswith(".") else "."))]
    if saved.sheet.finished and not before.sheet.finished:
        flashes.append(("finished", gettext("The pulka is finished. See the settlement.")))
    if number <= len(before.deals) or saved.sheet.finished:  # an edit, or the end: the sheet
        return _went(url_for(".sheet", uid=before.uid), *flashes)
    # The next deal follows at once: its form, with what this one wrote at the top.
    return _went(url_for(".new_deal", uid=before.uid), *flashes)


@bp.route("/p/<uid>/deal", methods=["GET", "POST"])
@idempotent
def new_deal(uid: str):
    pulka = services.get_pulka(repository(), uid)
    number = len(pulka.deals) + 1
    if request.method == "POST":
        return _deal_post(pulka, number)
    if pulka.sheet.finished:
        flash(gettext("The pulka is finished: no more deals. You can still edit or delete earlier ones."), "error")
        return redirect(url_for(".sheet", uid=uid))
    # Both defenders pass unless tapped otherwise: the commonest words cost no tap.
    defaults = {"type": "game", "open": "closed"} | {f"w{seat}": "pass" for seat in pulka.sheet.active}
    return _deal_page(pulka, number, defaults, {})


@bp.route("/p/<uid>/deals/<int:number>/edit", methods=["GET", "POST"])
@idempotent
def edit_deal(uid: str, number: int):
    pulka = services.get_pulka(repository(), uid)
    result = pulka.result(number)
    if request.method == "POST":
        return _deal_post(pulka, number)
    return _deal_page(pulka, number, fields_of(result.deal), {})


@bp.route("/p/<uid>/deals/<int:number>/delete", methods=["GET", "POST"])
@idempotent
def delete_deal(uid: str, number: int):
    pulka = services.get_pulka(repository(), uid)
    shown = presenter(pulka).deal(number)
    form = ConfirmForm()
    page = dict(pulka=pulka, form=form, title=gettext("Delete deal %(number)d?", number=number),
                message=gettext("Deal %(number)d (%(deal)s) is removed and every later deal is scored again. The "
                                "later deals keep their dealer order, so a deal that no longer fits makes the "
                                "deletion refused.", number=number, deal=shown["text"]),
                action=url_for(".delete_deal", uid=uid, number=number),
                button=gettext("Delete deal %(number)d", number=number))
    if request.method == "POST":
        try:
            expected = form.expected()
            return write(lambda once: services.delete_deal(repository(), uid, number, expected, actor(), once),
                         lambda _: _went(url_for(".history", uid=uid),
                                         ("message", gettext("Deal %(number)d deleted; the sheet is scored again.",
                                                             number=number))))
        except Refused as error:
            return render_template("confirm.html", error=i18n.say(error), **page), STATUS[error.code]
    form.version.data = pulka.version
    return render_template("confirm.html", **page)


# -- history, settlement, files ----------------------------------------------------------------


@bp.get("/p/<uid>/history")
def history(uid: str):
    pulka = services.get_pulka(repository(), uid)
    return render_template("history.html", pulka=pulka, deals=presenter(pulka).protocol, undo=ConfirmForm())


@bp.get("/p/<uid>/settlement")
def settlement(uid: str):
    pulka = services.get_pulka(repository(), uid)
    view = presenter(pulka)
    return render_template("settlement.html", pulka=pulka, view=view.settlement, balances=view.balances)


@bp.get("/p/<uid>/export")
def export(uid: str):
    view = presenter(services.get_pulka(repository(), uid))
    return download(view.export, "application/json", view.filename("pulya.json"))


@bp.get("/p/<uid>/pulka.pdf")
def pdf(uid: str):
    view = presenter(services.get_pulka(repository(), uid))
    return download(view.pdf(orientation_of(request.args.get("orientation"))), "application/pdf",
                    view.filename("pdf"))


@bp.get("/p/<uid>/protocol.csv")
def protocol(uid: str):
    view = presenter(services.get_pulka(repository(), uid))
    return download(view.csv, "text/csv", view.filename("csv"))


@bp.route("/import", methods=["GET", "POST"])
@idempotent
def import_pulka():
    form = ImportForm()
    if request.method == "GET":
        return render_template("import.html", form=form, error=None)
    upload = request.files.get("file")
    text = upload.read() if upload and upload.filename else (form.text.data or "").encode()
    if not text.strip():
        return render_template("import.html", form=form, error=gettext("Choose a pulka file or paste its text.")), 400
    name = (form.name.data or "").strip()
    try:
        file = read_pulka_file(text)
        if not name and not file.name and upload and upload.filename:  # a file without a name of its own
            name = upload.filename.rsplit(".pulya", 1)[0].rsplit(".json", 1)[0]
        return write(lambda once: services.import_pulka(repository(), _me(), file, name[:PULKA_NAME_MAX], once,
                                                         i18n.say),
                     lambda pulka: _went(url_for(".sheet", uid=pulka.uid),
                                         ("message", ngettext("Imported %(name)s: %(num)d deal.",
                                                              "Imported %(name)s: %(num)d deals.",
                                                              len(pulka.deals), name=pulka.name))))
    except Refused as error:
        return render_template("import.html", form=form, error=i18n.say(error)), STATUS[error.code]


# -- share links ---------------------------------------------------------------------------------


@bp.route("/p/<uid>/shares", methods=["GET", "POST"])
def shares(uid: str):
    """The pulka's share links, each as an address and a QR code to scan across the table."""
    pulka = services.get_pulka(repository(), uid)
    form = ShareForm()
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        try:
            made = services.create_share(repository(), uid, form.role.data, form.label.data or "")
            flash(gettext("A viewer link is ready: let them scan it.") if made.role == "viewer"
                  else gettext("A scorer link is ready: let them scan it."))
            return redirect(url_for(".shares", uid=uid, _anchor=f"share-{made.id}"))
        except Refused as error:
            errors, status = field_errors(error), STATUS[error.code]
    links = [(share, share_url(share.token)) for share in services.list_shares(repository(), uid)]
    return render_template("shares.html", pulka=pulka, form=form, errors=errors, links=links, qr=qr_svg,
                           revoke=ConfirmForm()), status


@bp.post("/p/<uid>/shares/<share_id>/revoke")
def revoke_share(uid: str, share_id: str):
    services.revoke_share(repository(), uid, share_id)
    flash(gettext("The link is revoked: it no longer opens the pulka, on any phone."))
    return redirect(url_for(".shares", uid=uid))


@bp.get("/s/<token>")
def open_share(token: str):
    """A share link: this browser may see (or score) the pulka from now on, with or without an account."""
    share = services.open_share(repository(), token, caller().account_id)
    remember_share(token)
    return redirect(url_for(".sheet", uid=share.pulka_uid))
