"""The players' pages: the circle's standings, and a player's page (his figures by role, head-to-head, his
running totals), one filter bar on both, kept in the URL; renaming and merging his own players."""

from __future__ import annotations

from datetime import date

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from ...engine import Filter
from ..domain.paging import numbered, read_page
from ..domain.players import FILTER_KEYS, FLOOR, Merge, Rename, Unmerge, filter_query, read_filter, read_name
from ..domain.refusals import Refused
from ..edge import i18n
from ..edge.access import Need, needs
from ..edge.caller import me
from ..edge.context import limits, store
from ..edge.idempotency import idempotent, went, write
from ..edge.presenting import csv_download, download, pdf_turn
from ..services import players as player_service
from ..views.players import charts, csv_rows, deal_csv, every_seat, pair_charts, rows
from .blueprint import bp


def _filter() -> Filter[str]:
    return read_filter({key: request.args.getlist(key) for key in FILTER_KEYS if key in request.args})


@bp.get("/players")
@needs(Need.ACCOUNT)
def players() -> ResponseReturnValue:
    """The standings, a page at a time in their order (`?page=2`: the next page's link)."""
    f = _filter()
    number = read_page(request.args.get("page"))
    circle = player_service.circle(store().players, me(), f)
    standings = player_service.standings_of(circle, FLOOR)
    shown, first, following = numbered(standings, number, limits().page_rows)
    return render_template("players/players.html", lines=[(circle.player(s.player), s) for s in shown], floor=FLOOR,
                           f=f, query=filter_query(f), first=first, total=len(standings), page=number,
                           following=following)


@bp.get("/p/<uid>/players/<seat:seat>")
@needs(Need.ACCOUNT)
def seat_player(uid: str, seat: int) -> ResponseReturnValue:
    """A name on a pulka's pages leads to that player's page (in the caller's circle, merges followed)."""
    return redirect(url_for(".player", player=player_service.seat_player(store().players, me(), uid, seat)))


@bp.get("/players.csv")
@needs(Need.ACCOUNT)
def players_csv() -> ResponseReturnValue:
    """Every counted pulka of the circle, a row for each of its players."""
    f = _filter()
    circle = player_service.circle(store().players, me(), f)
    return csv_download(csv_rows(every_seat(circle.records, f), circle.name_of, circle.titles), "players.csv")


@bp.get("/players/<player>.csv")
@needs(Need.ACCOUNT)
def player_csv(player: str) -> ResponseReturnValue:
    """The player's counted pulkas, a row each."""
    circle, page = player_service.of_player(store().players, me(), player, _filter())
    return csv_download(csv_rows(page.lines, circle.name_of, circle.titles), "player.csv")


@bp.get("/players/<player>/deals.csv")
@needs(Need.ACCOUNT)
def player_deals_csv(player: str) -> ResponseReturnValue:
    """His deals in the counted pulkas, a row each: role, what it was, the whists it moved."""
    circle, page = player_service.of_player(store().players, me(), player, _filter())
    return csv_download(deal_csv(player_service.deals_of(store().pulkas, page), circle.name_of), "deals.csv")


@bp.get("/players/<player>.pdf")
@needs(Need.ACCOUNT)
def player_pdf(player: str) -> ResponseReturnValue:
    """The player's page as A4, the same numbers and charts; made in a PDF worker in the caller's turn."""
    from ...render.pdf import FONTS, html_pdf, in_worker

    f = _filter()
    circle, page = player_service.of_player(store().players, me(), player, f)
    html = render_template("pdf/player.html", page=page, shown=rows(page.stats, circle.name_of), f=f,
                           charts=charts(page.running), circle=circle, today=date.today(), language=i18n.language(),
                           fonts={weight: path.as_uri() for weight, path in FONTS.items()})
    turn = pdf_turn()
    with turn.entered():
        return download(turn.run(lambda: in_worker(turn.running, html_pdf, html)), "application/pdf", "player.pdf")


@bp.route("/players/<player>", methods=["GET", "POST"])
@needs(Need.ACCOUNT)
@idempotent
def player(player: str) -> ResponseReturnValue:
    if request.method == "POST":
        return _edit(player)
    f = _filter()
    circle, page = player_service.of_player(store().players, me(), player, f)
    shown = rows(page.stats, circle.name_of)
    return render_template("players/player.html", page=page, shown=shown, charts=charts(page.running),
                           pair=pair_charts(page.pair), floor=FLOOR, f=f, query=filter_query(f), circle=circle)


def _edit(player: str) -> ResponseReturnValue:
    """Rename, merge into another player of the circle, or undo a merge into this one."""
    form = request.form
    back = url_for(".player", player=player)
    try:
        if form.get("action") == "rename":
            renaming = Rename(player, read_name(form.get("name")))
            return write(lambda unit: player_service.rename(unit.players, me(), renaming),
                         lambda renamed: went(back, ("message", gettext("Renamed %(name)s.", name=renamed.name))))
        if form.get("action") == "merge":
            merging = Merge(player, form.get("into", ""))
            return write(lambda unit: player_service.merge(unit.players, me(), merging),
                         lambda _: went(url_for(".player", player=merging.into), ("message", gettext(
                             "Merged: his pulkas count for the one you chose; the merge can be undone there."))))
        if form.get("action") == "unmerge":
            unmerging = Unmerge(form.get("merged", ""))
            return write(lambda unit: player_service.unmerge(unit.players, me(), unmerging),
                         lambda _: went(back, ("message", gettext("The merge is undone."))))
    except Refused as error:
        if error.code == "not_found":
            raise
        flash(i18n.say(error), "error")
    return redirect(back)
