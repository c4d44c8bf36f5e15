"""Sessions: every cookie the app sets is SameSite=Lax and HttpOnly (Secure over HTTPS); a session is kept
on the server, so log-out (and log-in) ends it there: a cookie copied before opens neither the account nor
the share links it had opened, and nothing of one person's session (links, CSRF token) passes to the next."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

from http.cookies import SimpleCookie

from ..conftest import create, make_app, signed_in

PASSWORD = "a long password"


def _cookies(response) -> list[str]:
    return response.headers.getlist("Set-Cookie")


def _browser(app, username="anna"):
    client = app.test_client()
    client.post("/api/v1/accounts", json={"username": username, "password": PASSWORD})
    assert client.post("/login", data={"username": username, "password": PASSWORD}).status_code == 302
    return client


def _session_cookie(client) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def _walk(app, client, base_url="http://localhost"):
    """Every kind of answer that sets a cookie: the log-in, a share link, the three choices, the log-out."""
    owner = signed_in(app, "owner")
    pulka = create(owner)
    token = owner.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": "viewer"}).json["token"]
    kw = {"base_url": base_url}
    yield client.post("/api/v1/accounts", json={"username": "vera", "password": PASSWORD}, **kw)
    yield client.post("/login", data={"username": "vera", "password": PASSWORD}, **kw)
    yield client.get(f"/s/{token}", **kw)
    yield client.get(f"/p/{pulka}?orientation=upright", **kw)
    yield client.get(f"/p/{pulka}/settlement?cash=10", **kw)
    yield client.post("/language", data={"language": "ru"}, **kw)
    yield client.get("/login", **kw)
    yield client.post("/logout", **kw)


def test_every_cookie_is_same_site_lax_and_http_only(app):
    seen = set()
    for response in _walk(app, app.test_client()):
        for header in _cookies(response):
            cookie = SimpleCookie(header)
            (name, morsel), = cookie.items()
            seen.add(name)
            assert morsel["samesite"] == "Lax", header
            assert morsel["httponly"], header
            assert not morsel["secure"], header  # plain HTTP: a Secure cookie would never come back
            if morsel["expires"] and morsel.value:
                left = parsedate_to_datetime(morsel["expires"]) - datetime.now(timezone.utc)
                assert timedelta(days=360) < left <= timedelta(days=366), header
    assert {"session", "lang", "orientation", "cash"} <= seen


def test_over_https_every_cookie_is_secure(app):
    headers = [h for r in _walk(app, app.test_client("https"), "https://localhost") for h in _cookies(r)]
    assert headers and all("Secure" in h and "SameSite=Lax" in h for h in headers)


def test_the_config_and_the_environment_still_choose(database_url, tmp_path, monkeypatch):
    app = make_app(database_url, tmp_path, SESSION_COOKIE_SAMESITE="Strict")
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Strict"
    assert app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=365)  # not Flask's 31
    app.extensions["scorekeeper"].db.engine.dispose()
    monkeypatch.setenv("FLASK_PERMANENT_SESSION_LIFETIME", "3600")
    app = make_app(database_url, tmp_path)
    assert app.permanent_session_lifetime == timedelta(hours=1)
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    app.extensions["scorekeeper"].db.engine.dispose()


def _copy(app, cookie: str):
    thief = app.test_client()
    thief.set_cookie("session", cookie)
    return thief


def test_a_cookie_copied_before_log_out_opens_nothing_after(app):
    owner = signed_in(app, "owner")
    pulka = create(owner)
    token = owner.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": "scorer"}).json["token"]
    anna = _browser(app)
    anna.get(f"/s/{token}")
    copied = _session_cookie(anna)
    assert _copy(app, copied).get(f"/p/{pulka}").status_code == 200  # the copy works while the session lives
    assert _copy(app, copied).get("/").status_code == 200
    anna.post("/logout")
    for client in (_copy(app, copied), anna):
        assert client.get("/").status_code == 302  # to the log-in
        assert client.get(f"/p/{pulka}").status_code == 404  # and the link it had opened is shut too
        assert client.get(f"/api/v1/pulkas/{pulka}/version").status_code == 404


def test_a_link_opened_without_an_account_ends_at_log_out_too(app):
    owner = signed_in(app, "owner")
    pulka = create(owner)
    token = owner.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": "viewer"}).json["token"]
    guest = app.test_client()
    guest.get(f"/s/{token}")
    copied = _session_cookie(guest)
    assert _copy(app, copied).get(f"/api/v1/pulkas/{pulka}/version").status_code == 200
    guest.post("/logout")
    assert _copy(app, copied).get(f"/p/{pulka}").status_code == 404
    assert guest.get(f"/p/{pulka}").status_code == 404


def test_log_in_starts_a_fresh_session(app):
    owner = signed_in(app, "owner")
    pulka = create(owner)
    token = owner.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": "viewer"}).json["token"]
    app.test_client().post("/api/v1/accounts", json={"username": "boris", "password": PASSWORD})
    phone = app.test_client()
    phone.get(f"/s/{token}")
    before = _session_cookie(phone)
    phone.get("/login")
    with phone.session_transaction() as session:
        csrf = session.get("csrf_token")
    assert phone.post("/login", data={"username": "boris", "password": PASSWORD}).status_code == 302
    with phone.session_transaction() as session:
        assert "shares" not in session and session.get("csrf_token") != csrf or csrf is None
    assert phone.get(f"/p/{pulka}").status_code == 404  # the link the guest opened is not Boris's
    assert _copy(app, before).get(f"/p/{pulka}").status_code == 404  # and the guest's session ended


def test_a_password_change_ends_the_other_sessions_of_the_account(app):
    first, second = _browser(app), app.test_client()
    second.post("/login", data={"username": "anna", "password": PASSWORD})
    copied = _session_cookie(second)
    assert first.post("/account", data={"current": PASSWORD, "new": "another long password"}).status_code == 302
    assert first.get("/").status_code == 200  # the browser that changed it starts again
    assert second.get("/").status_code == 302 and _copy(app, copied).get("/").status_code == 302


def test_a_forged_or_unknown_session_id_is_nobody(app):
    anna = _browser(app)
    with anna.session_transaction() as session:
        session["sid"] = "x" * 10_000
    assert anna.get("/").status_code == 302
    with anna.session_transaction() as session:
        session["sid"], session["_user_id"] = ["not", "text"], "1:1"
    assert anna.get("/").status_code == 302


def test_every_answer_names_its_session_for_the_service_worker(app):
    """static/sw.js keeps one session's pages: the name changes with the session, and opens nothing."""
    anna = _browser(app)
    first = anna.get("/").headers["Scorekeeper-Session"]
    assert first == anna.get("/account").headers["Scorekeeper-Session"] != "none"
    assert first not in _session_cookie(anna)
    assert anna.post("/login", data={"username": "anna", "password": PASSWORD}).headers["Scorekeeper-Session"] != first
    assert anna.post("/logout").headers["Scorekeeper-Session"] == "none"
    assert app.test_client().get("/login").headers["Scorekeeper-Session"] == "none"
