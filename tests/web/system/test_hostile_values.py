"""Values a hostile caller sends that once broke other people's pages: date-times out of any database's
range, texts longer than their columns, and control characters bound for a header. Each is refused where it
is read (a 4xx naming its field, nothing stored) or made harmless, on SQLite and PostgreSQL alike; on
PostgreSQL the session time zone is east of UTC, where the year 9999 could not be shown."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from scorekeeper.files.pulyafile import YEARS
from scorekeeper.web.store.backup import backup

from ..conftest import OWNER, SOCHI, make_app, signed_in, snapshot

BOUNDED = settings(max_examples=40, derandomize=True, deadline=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture
def east_app(database_url, tmp_path):
    """The app on a database whose sessions are at UTC+14 (PostgreSQL; SQLite keeps no time zone)."""
    url = database_url
    if url.startswith("postgresql"):
        parsed = make_url(url)
        options = f"{parsed.query['options']} -ctimezone=Pacific/Kiritimati"
        url = parsed.update_query_dict({"options": options}).render_as_string(hide_password=False)
    app = make_app(url, tmp_path)
    yield app
    app.extensions["scorekeeper"].db.engine.dispose()


def _import(client, started: str):
    return client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:2], "started": started})


# -- 1. dates --------------------------------------------------------------------------------------

OUT_OF_RANGE = ["9999-12-31T23:59:59+00:00", "0001-01-01T00:00:00+23:59", "0001-01-01T00:00:00-23:59",
                "1899-12-31T23:59:59+00:00", "2101-01-01T00:00:00+00:00", "2100-12-31T23:00:00-05:00",
                "1900-01-01T03:00:00+05:00", "9999-12-31T23:59:59.999999-23:59"]
IN_RANGE = ["1900-01-01T00:00:00+00:00", "2100-12-31T23:59:59+00:00", "2026-11-29T19:30:00+14:00",
            "1900-01-01T00:00:00-12:00", "2100-12-31T12:00:00+11:59"]


def test_a_date_time_out_of_range_is_refused_and_one_in_range_shows_everywhere(east_app, tmp_path):
    client = signed_in(east_app)
    before = snapshot(east_app)
    for started in OUT_OF_RANGE:
        response = _import(client, started)
        assert (response.status_code, response.json["error"]["code"], response.json["error"]["field"]) == (
            400, "bad_format", "started"), started
        assert client.post("/import", data={"text": str(SOCHI | {"started": started}).replace("'", '"')}
                           ).status_code == 400
    assert snapshot(east_app) == before
    for started in IN_RANGE:
        assert _import(client, started).status_code == 201, started
    assert client.get("/").status_code == 200
    assert client.get("/api/v1/pulkas").status_code == 200
    backup(east_app.config["DATABASE_URL"], tmp_path / "all.json.gz")  # the whole server's backup still reads them


offsets = st.integers(min_value=-(24 * 60 - 1), max_value=24 * 60 - 1).map(lambda m: timedelta(minutes=m))


@BOUNDED
@given(moment=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)), offset=offsets)
def test_any_date_time_is_stored_only_within_the_years(east_app, moment, offset):
    client = signed_in(east_app)
    started = moment.replace(tzinfo=timezone(offset))
    response = _import(client, started.isoformat())
    utc = (moment - offset).year
    if YEARS[0] <= moment.year <= YEARS[1] and YEARS[0] <= utc <= YEARS[1]:
        assert response.status_code == 201, response.json
        assert client.get("/").status_code == 200
    else:
        assert (response.status_code, response.json["error"]["field"]) == (400, "started")


# -- 2. lengths ------------------------------------------------------------------------------------

LENGTHS = [41, 121, 199, 200, 201, 1000, 20_000]
LONG_TEXTS = [c * n for n in LENGTHS for c in ("a", "ж", "ﷺ")]


def test_long_usernames_and_tokens_are_refused_without_a_lookup(app):
    signed_in(app, *OWNER)  # the administrator exists: the others are plain registrations
    for i, name in enumerate(LONG_TEXTS):
        anonymous = app.test_client()
        anonymous.environ_base["REMOTE_ADDR"] = f"10.0.0.{i}"  # under the limit per address, for the test's sake
        for response in (anonymous.post("/api/v1/tokens", json={"username": name, "password": "x" * 10}),
                         anonymous.post("/login", data={"username": name, "password": "x" * 10})):
            assert response.status_code == 401, (len(name), response.status_code)
        response = anonymous.post("/api/v1/accounts", json={"username": name, "password": "a long password"})
        assert (response.status_code, response.json["error"]["field"]) == (422, "username")
        assert anonymous.post("/register", data={"username": name, "password": "a long password"}).status_code == 422
        assert anonymous.post("/api/v1/tokens", json={"username": "owner", "password": name}).status_code == 401
        stranger = app.test_client()
        stranger.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {name}"
        assert stranger.get("/api/v1/pulkas").status_code in (401, 403)
        assert stranger.get(f"/api/v1/pulkas/{name}").status_code in (401, 404)
        assert anonymous.get(f"/s/{name}").status_code == 404
    # Failed log-ins were counted, under keys of one length.
    with app.extensions["scorekeeper"].db.engine.connect() as connection:
        keys = [row[0] for row in connection.exec_driver_sql("SELECT key FROM login_failures")]
    assert keys and max(map(len, keys)) <= 80


@BOUNDED
@given(name=st.text(min_size=30, max_size=400))
def test_any_username_logs_in_nobody_and_breaks_nothing(app, name):
    anonymous = app.test_client()
    anonymous.environ_base["REMOTE_ADDR"] = f"10.1.{len(name) % 250}.{len(name) // 250}"
    response = anonymous.post("/api/v1/tokens", json={"username": name, "password": "a long password"})
    assert response.status_code in (400, 401, 429), response.status_code
    response = anonymous.post("/api/v1/accounts", json={"username": name, "password": "a long password"})
    assert response.status_code in (201, 400, 422), response.status_code


# -- 3. headers ------------------------------------------------------------------------------------

NEXTS = ["/p/x\nSet-Cookie: a=b", "/\r\nLocation: //evil", "/p/\x01", "/p/\x7f", "/p/\x85", "/p/\u2028",
         "/\\evil.example", "//evil.example", "/p/ж", "/\t/evil", "https://evil.example/", " /p/x", "/" + "a" * 5000]


def _signed_in_browser(app):
    client = app.test_client()
    client.post("/api/v1/accounts", json={"username": "anna", "password": "a long password"})
    return client


def test_a_next_with_a_control_character_goes_to_the_list(app):
    client = _signed_in_browser(app)
    for target in NEXTS:
        response = client.post("/login", query_string={"next": target},
                               data={"username": "anna", "password": "a long password"})
        assert (response.status_code, response.headers["Location"]) == (302, "/"), repr(target)
        response = client.post("/language", data={"language": "ru", "next": target})
        assert (response.status_code, response.headers["Location"]) == (303, "/"), repr(target)
    response = client.post("/language", data={"language": "en", "next": "/p/abc?orientation=upright"})
    assert response.headers["Location"] == "/p/abc?orientation=upright"  # a path of the site still goes back


@BOUNDED
@given(target=st.text(max_size=60).map(lambda text: "/" + text))
def test_every_location_header_is_one_line_of_the_site(app, target):
    client = _signed_in_browser(app)
    response = client.post("/language", data={"language": "en", "next": target})
    if response.status_code == 400:  # NUL or a lone surrogate: no text with one is read at all
        assert "next" in response.get_data(as_text=True)
        return
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.isascii() and location.isprintable() and location.startswith("/")
    assert not location.startswith("//") and "\\" not in location
