"""The HTML pages: a thin layer over the store, the converters and the views."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from flask import Blueprint, Response, flash, make_response, redirect, render_template, request, session, url_for
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from .. import pulyafile
from ..engine import PARAMETERS, PRESETS, Kind, Sheet, Strain
from ..engine.deals import defenders
from ..engine.rules import json_value
from . import convert, store, views
from .errors import Refused
from .forms import ADVANCED, ConfirmForm, DealForm, ImportForm, PulkaForm, refused_settings, text_of
from .service import State

bp = Blueprint("pages", __name__)

STRAINS = [(s.value, s.symbol) for s in Strain]


def _version(form) -> int | None:
    text = (form.version.data or "").strip()
    return int(text) if text.isdigit() else None


@bp.get("/")
def index():
    return render_template("index.html", pulkas=store().summaries())


# -- a new pulka, and its settings ---------------------------------------------------------


def _presets_json() -> str:
    return json.dumps({preset.value: {p.name: json_value(getattr(rules, p.name)) for p in PARAMETERS}
                       for preset, rules in PRESETS.items()})


def _settings_page(form: PulkaForm, errors: dict[str, list[str]], state: State | None = None, status: int = 200):
    return render_template("pulka_form.html", form=form, errors=errors, state=state, advanced=ADVANCED, Kind=Kind,
                           advanced_open=any(field.startswith("p_") for field in errors),
                           choice_texts=lambda p: [text_of(c) for c in p.choices],
                           presets=PRESETS, presets_json=_presets_json(), known=store().player_names(),
                           frozen=bool(state and state.deals)), status


@bp.route("/new", methods=["GET", "POST"])
def new_pulka():
    form = PulkaForm()
    if request.method == "GET":
        form.fill_rules(PRESETS[form.preset.data or "sochi"])
        return _settings_page(form, {})
    settings, errors = form.read()
    if errors:
        return _settings_page(form, errors, status=422)
    state = store().create(**settings)
    flash(f"{state.name}: {state.players[state.first_dealer]} deals first. Enter the deals as they end.")
    return redirect(url_for(".sheet", pulka_id=state.id))


@bp.route("/p/<int:pulka_id>/settings", methods=["GET", "POST"])
def settings(pulka_id: int):
    state = store().get(pulka_id)
    form = PulkaForm()
    if request.method == "GET":
        form.version.data = str(state.version)
        form.name.data, form.currency.data, form.first_dealer.data = state.name, state.currency, str(state.first_dealer)
        for seat, name in enumerate(state.players):
            getattr(form, f"player{seat}").data = name
        form.fill_rules(state.rules)
        return _settings_page(form, {}, state)
    try:
        if state.deals:
            name = (form.name.data or "").strip() or state.name
            currency = (form.currency.data or "").strip()
            if len(name) > 80 or len(currency) > 8:
                raise Refused(422, "bad_format", "a name has at most 80 characters, a currency at most 8",
                              "name" if len(name) > 80 else "currency")
            store().update_settings(pulka_id, _version(form), name=name, currency=currency)
        else:
            values, errors = form.read()
            if errors:
                raise refused_settings(errors)
            store().update_settings(pulka_id, _version(form), **values)
    except Refused as error:
        return _settings_page(form, error.field_errors(), state, error.status)
    flash("Settings saved.")
    return redirect(url_for(".sheet", pulka_id=pulka_id))


@bp.route("/p/<int:pulka_id>/remove", methods=["GET", "POST"])
def remove(pulka_id: int):
    state = store().get(pulka_id)
    form = ConfirmForm()
    if request.method == "POST":
        store().delete_pulka(pulka_id)
        flash(f"{state.name} was deleted.")
        return redirect(url_for(".index"))
    return render_template("confirm.html", state=state, form=form, title=f"Delete {state.name}?",
                           message=f"The pulka and its {len(state.deals)} deals are deleted for good. "
                                   "Export it first if you may want it back.",
                           action=url_for(".remove", pulka_id=pulka_id), button="Delete the pulka")


# -- the sheet --------------------------------------------------------------------------


# Stands for the CSRF token in a cached sheet page; each request puts its own token in.
_TOKEN = "\x00csrf-token\x00"


ORIENTATION_COOKIE = "orientation"


def _sheet_page(state: State, orientation: str, token: str | None = None) -> str:
    return render_template("sheet.html", state=state, view=views.sheet_view(state), token=token,
                           orientation=orientation, drawing=Markup(views.drawing(state, orientation)))


@bp.get("/p/<int:pulka_id>")
def sheet(pulka_id: int):
    state = store().get(pulka_id)
    chosen = request.args.get("orientation")
    orientation = views.orientation_of(chosen or request.cookies.get(ORIENTATION_COOKIE))
    if session.get("_flashes"):
        page = _sheet_page(state, orientation)
    else:
        # The sheet is read far more often than it changes: render it once per pulka version and orientation.
        key = f"sheet.html:{orientation}"
        page = state.cache.get(key)
        if page is None:
            page = state.cache[key] = _sheet_page(state, orientation, _TOKEN)
        page = page.replace(_TOKEN, generate_csrf())
    response = make_response(page)
    if chosen == orientation:
        # Remembered for every pulka, so the sheet keeps its turn after each deal's redirect.
        response.set_cookie(ORIENTATION_COOKIE, orientation, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.post("/p/<int:pulka_id>/undo")
def undo(pulka_id: int):
    form = ConfirmForm()
    try:
        state = store().delete_deal(pulka_id, None, _version(form))
    except Refused as error:
        if error.status == 404:
            raise
        flash(error.message, "error")
        return redirect(url_for(".sheet", pulka_id=pulka_id)), 303
    flash(f"Deal {len(state.deals) + 1} undone.")
    return redirect(url_for(".sheet", pulka_id=pulka_id))


# -- entering and editing a deal ------------------------------------------------------------


def _deal_page(state: State, form: DealForm, number: int, data: dict[str, Any], errors: dict[str, list[str]],
               preview: list[str] | None = None, status: int = 200):
    sheet: Sheet = state.sheet_before(number)
    names, rules = state.players, state.rules
    active = sheet.active
    form.version.data = str(state.version)
    talon = sheet.sitting_out if sheet.sitting_out is not None and rules.raspasy_dealer == "talon" else None
    order = {seat: defenders(active, seat) for seat in active}
    context = {
        "state": state, "form": form, "number": number, "data": data, "errors": errors, "preview": preview,
        "editing": number <= len(state.deals), "names": names,
        "dealer": names[sheet.dealer], "first_hand": names[active[0]],
        "sitting_out": names[sheet.sitting_out] if sheet.sitting_out is not None else None,
        "active": [(seat, names[seat]) for seat in active], "talon": talon,
        "least_level": sheet.least_level(rules), "streak": sheet.streak,
        "strains": STRAINS, "levels": range(6, 11),
        "defenders_json": json.dumps({str(s): list(d) for s, d in order.items()}),
        "half_levels": list(rules.half_whist), "ten_checked": rules.ten_checked,
    }
    return render_template("deal_form.html", **context), status


def _deal_post(state: State, number: int, save):
    form = DealForm()
    data = form.deal_data()
    sheet = state.sheet_before(number)
    try:
        if request.form.get("action") == "preview":
            result = state.preview(convert.deal_from_form(data, sheet, state.rules),
                                   number if number <= len(state.deals) else None)
            return _deal_page(state, form, number, data, {}, views.summary(result.entries, state.players))
        saved = save(form, data)
    except Refused as error:
        if error.status == 409:
            # Show the form again on the pulka as it is now: a new deal becomes the next one.
            editing = number <= len(state.deals)
            state = store().get(state.id)
            if editing:
                state.result(number)
            else:
                number = len(state.deals) + 1
            return _deal_page(state, form, number, data, {"": [error.message]}, status=409)
        return _deal_page(state, form, number, data, error.field_errors(), status=error.status)
    result = saved.replay.results[number - 1]
    closed = views.closed_by(result, saved.sheet_before(number).pulya, saved.rules.pulya_size)
    message = f"Deal {number} saved: " + "; ".join(views.summary(result.entries, saved.players))
    if closed:
        message += ". " + ", ".join(saved.players[s] for s in closed) + " closed the pulya"
    flash(message + ("." if not message.endswith(".") else ""))
    if saved.sheet.finished and not state.sheet.finished:
        flash("The pulka is finished. See the settlement.", "finished")
    return redirect(url_for(".sheet", pulka_id=state.id))


@bp.route("/p/<int:pulka_id>/deal", methods=["GET", "POST"])
def new_deal(pulka_id: int):
    state = store().get(pulka_id)
    number = len(state.deals) + 1
    if request.method == "GET":
        if state.sheet.finished:
            flash("The pulka is finished: no more deals. You can still edit or delete earlier ones.", "error")
            return redirect(url_for(".sheet", pulka_id=pulka_id))
        # Both defenders pass unless tapped otherwise: the commonest words cost no tap.
        defaults = {"type": "game", "open": "closed"} | {f"w{seat}": "pass" for seat in state.sheet.active}
        return _deal_page(state, DealForm(), number, defaults, {})

    def save(form, data):
        return store().add_deal(pulka_id, lambda s: convert.deal_from_form(data, s.sheet, s.rules), _version(form))

    return _deal_post(state, number, save)


@bp.route("/p/<int:pulka_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(pulka_id: int, number: int):
    state = store().get(pulka_id)
    result = state.result(number)
    if request.method == "GET":
        return _deal_page(state, DealForm(), number, convert.deal_to_form(result.deal), {})

    def save(form, data):
        return store().edit_deal(
            pulka_id, number, lambda s: convert.deal_from_form(data, s.sheet_before(number), s.rules), _version(form))

    return _deal_post(state, number, save)


@bp.route("/p/<int:pulka_id>/deals/<int:number>/delete", methods=["GET", "POST"])
def delete_deal(pulka_id: int, number: int):
    state = store().get(pulka_id)
    result = state.result(number)
    form = ConfirmForm()
    page = dict(state=state, form=form, title=f"Delete deal {number}?",
                message=f"Deal {number} ({views.describe(result.deal, state.players, result.k)}) is removed and "
                        "every later deal is scored again. The later deals keep their dealer order, so a deal "
                        "that no longer fits makes the deletion refused.",
                action=url_for(".delete_deal", pulka_id=pulka_id, number=number), button=f"Delete deal {number}")
    if request.method == "POST":
        try:
            store().delete_deal(pulka_id, number, _version(form))
        except Refused as error:
            return render_template("confirm.html", error=error.message, **page), error.status
        flash(f"Deal {number} deleted; the sheet is scored again.")
        return redirect(url_for(".history", pulka_id=pulka_id))
    form.version.data = str(state.version)
    return render_template("confirm.html", **page)


# -- history, settlement, files ----------------------------------------------------------------


@bp.get("/p/<int:pulka_id>/history")
def history(pulka_id: int):
    state = store().get(pulka_id)
    return render_template("history.html", state=state, deals=views.protocol(state), undo=ConfirmForm())


@bp.get("/p/<int:pulka_id>/settlement")
def settlement(pulka_id: int):
    state = store().get(pulka_id)
    return render_template("settlement.html", state=state, view=views.settlement_view(state))


def _filename(state: State, ext: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in state.name.encode("ascii", "ignore").decode())
    return f"{safe.strip('-') or 'pulka'}-{state.id}.{ext}"


@bp.get("/p/<int:pulka_id>/export")
def export(pulka_id: int):
    state = store().get(pulka_id)
    return Response(pulyafile.dumps(state.pulka()), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{_filename(state, "pulya.json")}"'})


def pdf_response(state: State, orientation: str = "table") -> Response:
    """The pulka as an A4 PDF download: the drawing, the protocol, the settlement."""
    from ..render.pdf import pdf_filename, render_pdf

    # A PDF takes about a second to make; the same version of the pulka always gives the same file.
    key = f"pulka.pdf:{orientation}"
    data = state.cache.get(key)
    if data is None:
        data = state.cache[key] = render_pdf(state.players, state.rules, state.replay, state.settlement,
                                             title=state.name, created=state.created_at, currency=state.currency,
                                             orientation=orientation)
    return Response(data, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{pdf_filename(state.name, state.created_at)}"'})


@bp.get("/p/<int:pulka_id>/pulka.pdf")
def pdf(pulka_id: int):
    return pdf_response(store().get(pulka_id), views.orientation_of(request.args.get("orientation")))


CSV_COLUMNS = ["deal", "dealer", "type", "declarer", "contract", "whist", "open", "tricks",
               "player", "column", "on", "points", "reason"]


def protocol_csv(state: State) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for view in views.protocol(state):
        deal = view["deal"]
        head = [view["n"], view["dealer"], deal["type"], deal.get("declarer", ""), deal.get("contract", ""),
                " ".join(f"{k}:{v}" for k, v in deal.get("whist", {}).items()), "open" if deal.get("open") else "",
                " ".join(f"{k}:{v}" for k, v in deal.get("tricks", {}).items())]
        for entry in view["entries"] or [{}]:
            writer.writerow(head + [entry.get("player", ""), entry.get("column", ""), entry.get("on", ""),
                                    views.jsonable(entry.get("points", "")), entry.get("reason", "")])
    return out.getvalue()


@bp.get("/p/<int:pulka_id>/protocol.csv")
def protocol(pulka_id: int):
    state = store().get(pulka_id)
    return Response(protocol_csv(state), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{_filename(state, "csv")}"'})


@bp.route("/import", methods=["GET", "POST"])
def import_pulka():
    form = ImportForm()
    if request.method == "GET":
        return render_template("import.html", form=form, error=None)
    upload = request.files.get("file")
    text = upload.read() if upload and upload.filename else (form.text.data or "").encode()
    name = (form.name.data or "").strip()[:80]
    if not text.strip():
        return render_template("import.html", form=form, error="Choose a pulka file or paste its text."), 400
    try:
        state = import_text(text, name or (upload.filename.rsplit(".pulya", 1)[0].rsplit(".json", 1)[0]
                                           if upload and upload.filename else ""))
    except Refused as error:
        return render_template("import.html", form=form, error=error.message), error.status
    flash(f"Imported {state.name}: {len(state.deals)} deals.")
    return redirect(url_for(".sheet", pulka_id=state.id))


def import_text(text: bytes | str, name: str = "") -> State:
    """A pulya/1 file as a new pulka; Refused with the file's error code."""
    try:
        pulka = pulyafile.loads(text)
        pulka.replay()
    except pulyafile.FileError as error:
        p = error.problem
        status = 400 if p.code.value in ("bad_json", "bad_format") else 422
        raise Refused(status, p.code.value, error.message, p.field, p.deal) from None
    return store().create(name[:80] or "Imported pulka of " + ", ".join(pulka.players), pulka.players,
                          pulka.first_dealer, pulka.rules, "", pulka.deals)
