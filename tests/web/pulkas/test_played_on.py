"""The date a pulka was played (issue 30, item 8): yesterday's game entered today is given its day on the new
pulka's form, its settings or through the API; the sheet says it, the list puts it under that evening, its
file's `started` (docs/files.md §1) and file names carry it, an import of that file keeps it, the statistics
count it on that day (with no time at the table), and "same players again" keeps the evening's day. A day
that is not one, or still to come, is refused on its field and nothing is stored."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

import pytest

from scorekeeper.web.domain.days import read_day

from ..conftest import SOCHI, add, create, snapshot, text
from .test_pulka_pages import new_pulka_form

TODAY = datetime.now(timezone.utc).date()
DAY = TODAY - timedelta(days=9)  # a game played nine days ago, entered now
EN, RU = {"Accept-Language": "en"}, {"Accept-Language": "ru"}
MONTHS_RU = ("января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября",
             "ноября", "декабря")


def _uid(response) -> str:
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]


def _sochi_on(client, played_on: str | None) -> str:
    uid = create(client, name="Friday", **({"played_on": played_on} if played_on is not None else {}))
    for deal in SOCHI["deals"]:
        assert add(client, uid, deal).status_code == 201
    return uid


@pytest.mark.parametrize("typed", [DAY.isoformat(), DAY.strftime("%d.%m.%Y"), f" {DAY.day}.{DAY.month}.{DAY.year} "])
def test_the_new_pulka_form_takes_the_date_played(client, typed):
    """A date input's value, or the date as typed where the browser shows a text box."""
    assert 'type="date" name="played_on"' in client.get("/new").get_data(as_text=True)
    uid = _uid(client.post("/new", data=new_pulka_form(played_on=typed, utc_offset="180")))
    pulka = client.get(f"/api/v1/pulkas/{uid}").json
    assert pulka["played_on"] == DAY.isoformat()
    english = text(client.get(f"/p/{uid}", headers=EN))
    assert f"played {DAY.day} {DAY.strftime('%B')} {DAY.year}" in english
    russian = text(client.get(f"/p/{uid}", headers=RU))
    assert f"сыграна {DAY.day} {MONTHS_RU[DAY.month - 1]} {DAY.year}" in russian
    # its file: `started` on that day, at the time of day it was entered, in the players' offset
    started = datetime.fromisoformat(client.get(f"/api/v1/pulkas/{uid}/export").json["started"])
    assert started.date() == DAY and started.utcoffset() == timedelta(hours=3)


def test_without_a_date_it_is_the_day_it_was_entered(client):
    uid = _uid(client.post("/new", data=new_pulka_form()))
    assert client.get(f"/api/v1/pulkas/{uid}").json["played_on"] is None
    assert "played " not in text(client.get(f"/p/{uid}", headers=EN))
    assert datetime.fromisoformat(client.get(f"/api/v1/pulkas/{uid}/export").json["started"]).date() in (
        TODAY, TODAY + timedelta(days=1), TODAY - timedelta(days=1))  # the server's today, in some offset


@pytest.mark.parametrize("value", ["2026-13-01", "31.02.2026", "1899-12-31", "x", "2026-1-5", "tomorrow",
                                   (TODAY + timedelta(days=2)).isoformat(), "28.11.26", "٢٠٢٦-١١-٢٨"])
def test_a_day_that_is_not_one_is_refused_on_its_field_and_nothing_is_stored(app, client, value):
    before = snapshot(app)
    page = client.post("/new", data=new_pulka_form(played_on=value))
    assert page.status_code == 400
    assert re.search(r'name="played_on"[^>]*>\s*</label>\s*<p class="error" role="alert">the date played is a date '
                     r'like 28\.11\.2026', page.get_data(as_text=True))
    api = client.post("/api/v1/pulkas", json={"players": ["A", "B", "C"], "played_on": value})
    assert api.status_code == 400 and api.json["error"]["field"] == "played_on"
    assert snapshot(app) == before
    assert read_day(value) is None


@pytest.mark.parametrize("value", [7, ["2026-11-28"], {"day": 1}, True])
def test_the_api_refuses_a_day_that_is_not_text(app, client, value):
    before = snapshot(app)
    response = client.post("/api/v1/pulkas", json={"players": ["A", "B", "C"], "played_on": value})
    assert (response.status_code, response.json["error"]["field"]) == (400, "played_on")
    assert snapshot(app) == before


def test_tomorrow_is_taken_as_the_players_today_may_be_the_servers_tomorrow(client):
    tomorrow = (TODAY + timedelta(days=1)).isoformat()
    assert client.post("/api/v1/pulkas", json={"players": ["A", "B", "C"], "played_on": tomorrow}).status_code == 201


def test_the_settings_change_and_clear_it_and_show_it(client):
    uid = create(client)
    settings = client.get(f"/p/{uid}/settings").get_data(as_text=True)
    assert re.search(r'type="date" name="played_on" class="short" value=""', settings)
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"played_on": DAY.isoformat()}).json["played_on"] == DAY.isoformat()
    assert f'value="{DAY.isoformat()}"' in client.get(f"/p/{uid}/settings").get_data(as_text=True)
    add(client, uid, SOCHI["deals"][0])  # after the first deal the form keeps only the name, currency and date
    form = {"name": "Friday", "currency": "₽", "played_on": (DAY - timedelta(days=1)).strftime("%d.%m.%Y")}
    assert client.post(f"/p/{uid}/settings", data=form).status_code == 302
    assert client.get(f"/api/v1/pulkas/{uid}").json["played_on"] == (DAY - timedelta(days=1)).isoformat()
    assert client.post(f"/p/{uid}/settings", data=form | {"played_on": ""}).status_code == 302
    assert client.get(f"/api/v1/pulkas/{uid}").json["played_on"] is None
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"played_on": DAY.isoformat()}).status_code == 200
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"name": "Renamed"}).json["played_on"] == DAY.isoformat()
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"played_on": None}).json["played_on"] is None


def test_its_files_are_dated_by_it_and_an_import_of_its_file_keeps_it(client):
    uid = _sochi_on(client, DAY.isoformat())
    exported = client.get(f"/api/v1/pulkas/{uid}/export")
    started = exported.json["started"]
    assert datetime.fromisoformat(started).date() == DAY
    for path in (f"/p/{uid}/export", f"/p/{uid}/pulka.pdf", f"/p/{uid}/protocol.csv"):
        assert DAY.isoformat() in client.get(path).headers["Content-Disposition"], path
    imported = client.post("/api/v1/import", json=exported.json).json["id"]
    again = client.get(f"/api/v1/pulkas/{imported}/export").json
    assert again["started"] == started  # the same day and time, both ways
    assert client.post(f"/api/v1/pulkas/{imported}/reopen").status_code == 200
    patched = client.patch(f"/api/v1/pulkas/{imported}", json={"played_on": (DAY - timedelta(days=1)).isoformat()})
    assert datetime.fromisoformat(client.get(f"/api/v1/pulkas/{imported}/export").json["started"]).date() == \
        DAY - timedelta(days=1) and patched.status_code == 200


def test_the_list_puts_it_under_the_evening_it_was_played(client):
    today = create(client, name="Tonight")
    entered_later = create(client, name="Last week", played_on=DAY.isoformat())
    page = text(client.get("/", headers=EN))
    evenings = re.findall(r"Evening of (\d{1,2} [A-Z][a-z]+ \d{4})", page)
    assert evenings == [f"{TODAY.day} {TODAY.strftime('%B')} {TODAY.year}", f"{DAY.day} {DAY.strftime('%B')} {DAY.year}"]
    assert page.index("Tonight") < page.index(evenings[1]) < page.index("Last week")
    add(client, entered_later, SOCHI["deals"][0])  # changed last, it stays under its own evening
    page = text(client.get("/", headers=EN))
    assert re.findall(r"Evening of (\d{1,2} [A-Z][a-z]+ \d{4})", page) == evenings
    assert [p["id"] for p in client.get("/api/v1/pulkas").json["pulkas"]] == [today, entered_later]


def test_the_statistics_count_it_on_its_day_with_no_time_at_the_table(app, client):
    uid = _sochi_on(client, DAY.isoformat())
    players = {p["name"]: p["id"] for p in client.get("/api/v1/players").json["players"]}
    on_the_day = client.get(f"/api/v1/players/{players['A']}/stats",
                            query_string={"from": DAY.isoformat(), "to": DAY.isoformat()}).json
    assert on_the_day["pulkas"] == 1
    after = client.get(f"/api/v1/players/{players['A']}/stats",
                       query_string={"from": (DAY + timedelta(days=1)).isoformat()}).json
    assert after["pulkas"] == 0
    store = app.extensions["scorekeeper"].players
    owner_id = app.extensions["scorekeeper"].accounts.account(username="owner").id
    _, records, _ = store.records(owner_id)
    record = next(r for r in records if r.pulka == uid)
    assert (record.started, record.minutes) == (DAY, 0)  # entered in a minute: not how long it was played


def test_same_players_again_keeps_the_evenings_day(client):
    uid = _sochi_on(client, DAY.isoformat())
    second = client.post(f"/p/{uid}/again").headers["Location"].split("?")[0].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/pulkas/{second}").json["played_on"] == DAY.isoformat()


def test_a_frozen_pulkas_day_is_changed_after_reopening_it_as_any_setting(client):
    uid = _sochi_on(client, None)
    refused = client.patch(f"/api/v1/pulkas/{uid}", json={"played_on": DAY.isoformat()})
    assert (refused.status_code, refused.json["error"]["code"]) == (409, "pulka_frozen")
    assert client.post(f"/api/v1/pulkas/{uid}/reopen").status_code == 200
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"played_on": DAY.isoformat()}).status_code == 200


def test_the_migration_adds_an_empty_date_to_every_pulka(tmp_path):
    """A database at 0014 comes up with no date played for its pulkas, each dated as before."""
    from sqlalchemy import text as sql

    from scorekeeper.web.store.db import Database, upgrade

    database = Database(f"sqlite:///{tmp_path / 'old.sqlite'}")
    upgrade(database.engine, "0014")
    with database.engine.begin() as connection:
        connection.execute(sql("INSERT INTO pulkas (id, uid, table_uid, name, rules, currency, first_dealer, version, "
                               "created_at, updated_at) VALUES (1, 'u1', 'u1', 'p', '{\"preset\": \"sochi\"}', '', 0, 1, "
                               "'2026-11-01 19:00:00', '2026-11-01 19:00:00')"))
    database.upgrade()
    with database.engine.connect() as connection:
        assert connection.execute(sql("SELECT played_on FROM pulkas")).all() == [(None,)]
    database.engine.dispose()


def test_read_day_takes_the_two_ways_a_day_is_written():
    assert read_day("2026-11-28") == date(2026, 11, 28) == read_day("28.11.2026") == read_day("28.11.2026 ")
    assert read_day("1.2.2026") == date(2026, 2, 1)
    assert read_day("2026-11-28T10:00") is None and read_day("") is None and read_day(None) is None
