"""The pages when a request goes wrong: an error page that looks like the app, a crash that leaves nothing
half-written, a write resting on the session cookie without its CSRF token."""

from __future__ import annotations

import re

from ..conftest import SOCHI, add, create, form_fields, snapshot, sochi, text


def test_error_pages_look_like_the_app(client):
    for url, status in (("/nowhere", 404), ("/p/42", 404), ("/p/42/history", 404), ("/p/42/deals/1/edit", 404)):
        response = client.get(url)
        assert response.status_code == status
        assert "scorekeeper" in text(response) and "To the pulkas" in text(response)
        assert "app.css" in response.get_data(as_text=True)
    pulka_id = sochi(client, 1)
    assert client.get(f"/p/{pulka_id}/deals/5/edit").status_code == 404
    response = client.post("/")
    assert response.status_code == 405 and "To the pulkas" in text(response)


def test_a_crash_leaves_nothing_half_written(app, client, monkeypatch):
    pulka_id = sochi(client, 3)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.testing = False
    before = snapshot(app)
    from scorekeeper.web.store import changes, pulkas

    def boom(deal):
        raise RuntimeError("the disk is full")

    # The version is already bumped and the rows loaded when storing the deal fails (a write's rows are
    # store.changes', a new pulka's store.pulkas').
    monkeypatch.setattr(changes, "deal_values", boom)
    monkeypatch.setattr(pulkas, "deal_values", boom)
    response = client.post(f"/p/{pulka_id}/deal", data=form_fields(SOCHI["deals"][3]))
    assert response.status_code == 500
    assert "Nothing was saved" in text(response) and "To the pulkas" in text(response)
    assert client.post(f"/api/v1/pulkas/{pulka_id}/deals", json=SOCHI["deals"][3]).status_code == 500
    response = client.post("/api/v1/import", json=SOCHI)
    assert response.status_code == 500 and response.json["error"]["code"] == "server_error"
    assert snapshot(app) == before


def test_csrf_guards_every_write_resting_on_the_cookie(database_url, tmp_path):
    """Forms need their token; the API needs it too when the session cookie is what authenticates the
    request, and not with a bearer token (no cookie, nothing for another site to borrow)."""
    from ..conftest import OWNER, make_app, signed_in

    app = make_app(database_url, tmp_path, WTF_CSRF_ENABLED=True)
    bearer = signed_in(app)
    pulka_id = create(bearer)  # a bearer token needs no CSRF token
    browser = app.test_client()
    login = browser.get("/login").get_data(as_text=True)
    assert browser.post("/login", data={"username": OWNER[0], "password": OWNER[1]}).status_code == 400
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login)[1]
    response = browser.post("/login", data={"username": OWNER[0], "password": OWNER[1], "csrf_token": token})
    assert response.status_code == 302
    before = snapshot(app)
    response = browser.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t0": "3", "t1": "3", "t2": "4"})
    assert response.status_code == 400 and "The form had expired" in text(response)
    deal = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}
    response = browser.post(f"/api/v1/pulkas/{pulka_id}/deals", json=deal)
    assert (response.status_code, response.json["error"]["code"]) == (400, "csrf")
    assert snapshot(app) == before
    page = browser.get(f"/p/{pulka_id}/deal").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
    response = browser.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t0": "3", "t1": "3", "t2": "4",
                                                         "csrf_token": token})
    assert response.status_code == 302
    response = browser.post(f"/api/v1/pulkas/{pulka_id}/deals", json=deal, headers={"X-CSRFToken": token})
    assert response.status_code == 201
    assert add(bearer, pulka_id, deal).status_code == 201
    app.extensions["scorekeeper"].db.engine.dispose()
