"""A pulka's pages: the list, a new one (or the same table again), its settings and deletion, the sheet, the
settlement, its files, and an import."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from enum import StrEnum

from flask import current_app, make_response, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext, ngettext
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ...engine import PARAMETERS, PRESETS, Kind, Parameter, Preset, choice_title, json_value
from ...render.text import rules_in_words
from ..domain.idempotency import Answer
from ..domain.limits import PULKA_NAME_MAX
from ..domain.pulkas import ChangeSettings, DeletePulka, ImportPulka, Pulka, read_settings
from ..domain.reading import blank, number_text, read_pulka_file, text_fault
from ..domain.refusals import Refused
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import Caller, actor, caller, me, own_seat, role
from ..edge.context import limits, store
from ..edge.errors import STATUS, field_errors
from ..edge.forms import ADVANCED, ConfirmForm, ImportForm, PulkaForm, bounds, form_field, text_of
from ..edge.idempotency import idempotent, new_key, went, write
from ..edge.presenting import busy_list, csv_download, download, home_gate, pdf_turn, presenter
from ..edge.security import remember_choice
from ..services import ledger as ledger_service
from ..services import pulkas as pulka_service
from ..views.filters import orientation_of
from ..views.gate import Busy
from ..views.ledger import AtTheTable, at_the_table, table_lines
from ..views.pulkas import card
from ..views.settlement import CASH_COOKIE, CASH_UNITS, cash_unit, in_cash_view
from .blueprint import bp
from .notices import told, undone

ORIENTATION_COOKIE = "orientation"
# Stand for the CSRF token and for each form's idempotency key in a cached page; each request puts its own in.
_TOKEN = "\x00csrf-token\x00"
_KEY = "\x00idempotency-key\x00"
_WHO = Markup("\x00who\x00")


@bp.get("/")
@needs(Need.ACCOUNT)
def index() -> ResponseReturnValue:
    gate = home_gate(me())
    try:
        with gate.entered():
            return gate.run(lambda: render_template("pulkas/index.html", pulkas=[
                card(summary, standing) for summary, standing in pulka_service.pulkas_as_they_stand(store().pulkas,
                                                                                                     me())]))
    except Busy:
        return busy_list()


# -- a new pulka, and its settings ---------------------------------------------------------


def _presets_json() -> str:
    return json.dumps({preset.value: {p.name: json_value(getattr(rules, p.name)) for p in PARAMETERS}
                       for preset, rules in PRESETS.items()})


def _choices(p: Parameter) -> list[tuple[str, str]]:
    """A choice parameter's options: each value, and how players say it in the page's language."""
    return [(text_of(c), i18n.say(choice_title(c)) if isinstance(c, StrEnum) else text_of(c)) for c in p.choices]


def _settings_page(form: PulkaForm, errors: dict[str, list[str]], pulka: Pulka | None = None, status: int = 200) -> ResponseReturnValue:
    return render_template("pulkas/pulka_form.html", form=form, errors=errors, pulka=pulka, advanced=ADVANCED, Kind=Kind,
                           say=i18n.say,  # a parameter's title, meaning and domain in the page's language
                           advanced_open=any(field.startswith("p_") for field in errors),
                           choices=_choices, bounds=bounds,
                           presets=PRESETS, presets_json=_presets_json(),
                           known=pulka_service.player_names(store().pulkas, me()), frozen=bool(pulka and pulka.deals),
                           rules_words=rules_in_words(pulka.rules, i18n.language()) if pulka else [],
                           # the latest date played the picker offers (domain.days.read_day's bound)
                           tomorrow=(datetime.now(timezone.utc).date() + timedelta(days=1)).isoformat()), status


@bp.route("/new", methods=["GET", "POST"])
@needs(Need.ACCOUNT)
@idempotent
def new_pulka() -> ResponseReturnValue:
    form = PulkaForm()
    if request.method == "GET":
        form.fill_rules(PRESETS[Preset(form.preset.data or "sochi")])
        form.currency.data = i18n.DEFAULT_CURRENCY[i18n.language()]
        return _settings_page(form, {})

    def started(pulka: Pulka) -> Answer:
        return went(url_for(".sheet", uid=pulka.uid), ("message", gettext(
            "%(name)s: %(dealer)s deals first. Enter the deals as they end.",
            name=pulka.name, dealer=pulka.players[pulka.first_dealer])))

    try:
        settings = read_settings(form.settings_data(), say=i18n.say)
        return write(lambda unit: pulka_service.create_pulka(unit.pulkas, me(), settings, started=_now_here(),
                                                             limits=limits()), started)
    except Refused as error:
        return _settings_page(form, field_errors(error, form_field), status=STATUS[error.code])


def _now_here() -> datetime | None:
    """Now, in the offset of the browser starting the pulka (static/js/pulka.js says it): the pulka is dated
    by its players' calendar. None (the server's UTC) without the script, or for anything but an offset."""
    minutes = number_text(request.form.get("utc_offset", ""), signed=True, whole=True)
    if minutes is not None and abs(minutes) <= 14 * 60:
        return datetime.now(timezone(timedelta(minutes=int(minutes))))
    return None


@bp.post("/p/<uid>/again")
@needs(Need.OWN)
@idempotent
def again(uid: str) -> ResponseReturnValue:
    """"Same players again": the table's next pulka, with this one's seats, rules and links, opened at once; the
    first dealer follows on from the last deal, or is chosen (`first_dealer`, a player's name)."""
    dealer = request.form.get("first_dealer")
    by = actor()
    return write(lambda unit: pulka_service.again(unit.pulkas, me(), uid, dealer, limits(), by),
                 lambda pulka: went(url_for(".sheet", uid=pulka.uid), ("message", gettext(
                     "A new pulka for the same table: %(dealer)s deals first.",
                     dealer=pulka.players[pulka.first_dealer]))))


@bp.route("/p/<uid>/settings", methods=["GET", "POST"])
@needs(Need.OWN)
@idempotent
def settings(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    form = PulkaForm()
    if request.method == "GET":
        form.version.data = pulka.version
        form.fill(pulka.name, pulka.currency, pulka.players, pulka.first_dealer, pulka.rules, pulka.played_on)
        return _settings_page(form, {}, pulka)
    try:
        data = form.names_and_currency() if pulka.deals else form.settings_data()
        command = ChangeSettings(uid, read_settings(data, pulka.settings), form.expected(pulka.version))
        return write(lambda unit: pulka_service.change_settings(unit.pulkas, command, actor()),
                     lambda _: went(url_for(".sheet", uid=uid), ("message", gettext("Settings saved."))))
    except Refused as error:
        return _settings_page(form, field_errors(error, form_field), pulka, STATUS[error.code])


@bp.route("/p/<uid>/remove", methods=["GET", "POST"])
@needs(Need.OWN)
@idempotent
def remove(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    form = ConfirmForm()
    if request.method == "POST":
        return write(lambda unit: pulka_service.delete_pulka(unit.pulkas, DeletePulka(uid)),
                     lambda _: went(url_for(".index"), ("message", gettext("%(name)s was deleted.", name=pulka.name))))
    return render_template("confirm.html", pulka=pulka, form=form, title=gettext("Delete %(name)s?", name=pulka.name),
                           message=ngettext("The pulka and its %(num)d deal are deleted for good. Export it first if "
                                            "you may want it back.",
                                            "The pulka and its %(num)d deals are deleted for good. Export it first if "
                                            "you may want it back.", len(pulka.deals)),
                           action=url_for(".remove", uid=uid), button=gettext("Delete the pulka"))


# -- the sheet, the settlement, the files ----------------------------------------------------------


@bp.get("/p/<uid>")
@needs(Need.READ)
def sheet(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    view = presenter(pulka)
    chosen = request.args.get("orientation")
    orientation = orientation_of(chosen or request.cookies.get(ORIENTATION_COOKIE))

    notices = told(pulka)
    mine = own_seat()  # a player's own link: the sheet from his seat, his line marked
    later = pulka_service.played_now(store().pulkas, uid)  # the table went on to it: one tap there

    def render(token: str | None = None, once: str | None = None, **nobody: object) -> str:
        return render_template("pulkas/sheet.html", pulka=pulka, view=view.sheet, balances=view.balances, token=token,
                               once=once, orientation=orientation, mine=mine, people=role() == "owner",
                               drawing=Markup(view.drawing(orientation, mine or 0)), restore=undone(pulka), told=notices,
                               later=later, **nobody)

    if notices or session.get("_flashes") or not current_app.config.get("PAGE_CACHE", True):
        page = render()  # a page with messages is this request's own
    else:
        # Kept for every caller of one role and seat (a viewer's page has no buttons to change the pulka; a
        # player's link turns the drawing), so rendered as nobody's: the caller's name and links go in per
        # request, like the CSRF token and the keys.
        key = ("pulkas/sheet.html", orientation, role(), mine, later)
        page = view.page(key, lambda: render(_TOKEN, _KEY, caller=Caller(), who=_WHO))
        page = page.replace(_TOKEN, generate_csrf()).replace(_WHO, render_template("_who.html"))
        page = re.sub(_KEY, lambda _: new_key(), page)
    response = make_response(page)
    if chosen == orientation:
        # Remembered for every pulka, so the sheet keeps its turn after each deal's redirect.
        remember_choice(response, ORIENTATION_COOKIE, orientation)
    return response


@bp.get("/p/<uid>/settlement")
@needs(Need.READ)
def settlement(uid: str) -> ResponseReturnValue:
    """The settlement; `?cash=10` (remembered by this browser) also rounds the money to the unit paid in."""
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    view = presenter(pulka)
    chosen = request.args.get("cash")
    unit = cash_unit(chosen if chosen is not None else request.cookies.get(CASH_COOKIE))
    cash = in_cash_view(pulka.players, pulka.settlement, unit) if unit is not None else None
    response = make_response(render_template("pulkas/settlement.html", pulka=pulka, view=view.settlement,
                                             balances=view.balances, cash=cash, units=CASH_UNITS,
                                             table=_in_the_ledger(pulka, unit),
                                             people=caller().account is not None,
                                             later=pulka_service.played_now(store().pulkas, uid)))
    if chosen is not None:
        remember_choice(response, CASH_COOKIE, str(unit or ""))
    return response


@bp.get("/p/<uid>/export")
@needs(Need.READ)
def export(uid: str) -> ResponseReturnValue:
    view = presenter(pulka_service.get_pulka(store().pulkas, uid))
    return download(view.export, "application/json", view.filename("pulya.json"))


@bp.get("/p/<uid>/pulka.pdf")
@needs(Need.READ)
def pdf(uid: str) -> ResponseReturnValue:
    pulka = pulka_service.get_pulka(store().pulkas, uid)
    view = presenter(pulka)
    table = _in_the_ledger(pulka)  # as on the settlement page, to the cent, with when it was read
    ledger = table_lines(table, i18n.language(), i18n.catalog().gettext) if table else None
    orientation = orientation_of(request.args.get("orientation"))
    return download(view.pdf(pdf_turn(), orientation, ledger), "application/pdf", view.filename("pdf"))


def _in_the_ledger(pulka: Pulka, unit: Decimal | None = None) -> AtTheTable | None:
    """Where a frozen pulka's players stand in the caller's ledger now (docs/club.md §4); None for a pulka
    still going on, or a caller with no ledger (a link's viewer)."""
    if pulka.frozen is None or caller().account is None:
        return None
    table = ledger_service.at_the_table(store().ledger, me(), pulka.uid, pulka.currency)
    return at_the_table(table, pulka.started.tzinfo or timezone.utc, unit)


@bp.get("/p/<uid>/protocol.csv")
@needs(Need.READ)
def protocol(uid: str) -> ResponseReturnValue:
    view = presenter(pulka_service.get_pulka(store().pulkas, uid))
    return csv_download(view.csv(), view.filename("csv"))


def _title_of(filename: str) -> str:
    """An uploaded file's name as the pulka's, when it makes one (a short text, cut to the length); else ""
    (the pulka is named after its players): nobody typed it, so it is not refused."""
    title = filename.rsplit(".pulya", 1)[0].rsplit(".json", 1)[0][:PULKA_NAME_MAX]
    return title if text_fault(title, "name", PULKA_NAME_MAX) is None else ""


@bp.route("/import", methods=["GET", "POST"])
@needs(Need.ACCOUNT)
@idempotent
def import_pulka() -> ResponseReturnValue:
    form = ImportForm()
    if request.method == "GET":
        return render_template("pulkas/import.html", form=form, error=None)
    upload = request.files.get("file")
    text = upload.read() if upload and upload.filename else (form.text.data or "").encode()
    if not text.strip():
        return render_template("pulkas/import.html", form=form, error=gettext("Choose a pulka file or paste its text.")), 400
    name = form.name.data or ""  # read as any pulka's name (ImportPulka)
    try:
        file = read_pulka_file(text)
        if blank(name) and not file.name and upload and upload.filename:  # a file without a name of its own
            name = _title_of(upload.filename)
        command = ImportPulka.of(file, name, i18n.say)
        return write(lambda unit: pulka_service.import_pulka(unit.pulkas, me(), command, limits()),
                     lambda pulka: went(url_for(".sheet", uid=pulka.uid),
                                         ("message", ngettext("Imported %(name)s: %(num)d deal.",
                                                              "Imported %(name)s: %(num)d deals.",
                                                              len(pulka.deals), name=pulka.name))))
    except Refused as error:
        return render_template("pulkas/import.html", form=form, error=i18n.say(error)), STATUS[error.code]
