"""The page and its limits: security headers on every answer, no inline script or style, CSV cells a
spreadsheet will not run, a request-size limit really in effect, a limit on deals per pulka."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from ..conftest import SOCHI, add, create, make_app, signed_in, snapshot, sochi

RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}


def test_every_answer_carries_the_security_headers(app, client):
    pulka_id = sochi(client, 2)
    anonymous = app.test_client()
    for response in (client.get(f"/p/{pulka_id}"), client.get(f"/api/v1/pulkas/{pulka_id}/sheet"),
                     client.get("/static/app.css"), anonymous.get("/login"), anonymous.get("/nowhere"),
                     anonymous.get(f"/api/v1/pulkas/{pulka_id}"), client.post("/api/v1/pulkas", json={})):
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "same-origin"


INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=", re.I)


def test_no_page_has_inline_script_or_style(app, client):
    pulka_id = sochi(client, 4)
    client.post(f"/api/v1/pulkas/{pulka_id}/shares", json={"role": "viewer"})
    anonymous = app.test_client()
    pages = [client.get(url) for url in (
        "/", "/new", "/import", f"/p/{pulka_id}", f"/p/{pulka_id}?orientation=upright", f"/p/{pulka_id}/deal",
        f"/p/{pulka_id}/history", f"/p/{pulka_id}/settlement", f"/p/{pulka_id}/settings", f"/p/{pulka_id}/shares",
        f"/p/{pulka_id}/deals/1/edit", f"/p/{pulka_id}/deals/1/delete", f"/p/{pulka_id}/remove", "/account",
        "/admin")] + [anonymous.get(url) for url in ("/login", "/register", "/nowhere")]
    for page in pages:
        html = page.get_data(as_text=True)
        assert "<html" in html and not INLINE.search(html), INLINE.search(html)


def test_csv_cells_that_would_start_a_formula_are_neutralised(client):
    players = ["=HYPERLINK(\"http://x\")", "+Boris", "@Vera"]
    pulka_id = create(client, players)
    deal = {"type": "raspasy", "tricks": {players[0]: 5, players[1]: 4, players[2]: 1}}
    assert add(client, pulka_id, deal).status_code == 201
    rows = list(csv.reader(io.StringIO(client.get(f"/p/{pulka_id}/protocol.csv").get_data(as_text=True).lstrip("\ufeff"))))
    cells = [cell for row in rows[1:] for cell in row]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'+Boris" in cells and "'@Vera" in cells
    assert not any(cell[:1] in "=+@\t\r" for cell in cells if cell)
    assert sorted(row[11] for row in rows[1:]) == ["1", "4", "5"]  # numbers stay numbers (pulkas/test_pulka_pages.py: -1 too)


def test_a_body_larger_than_the_limit_is_refused_unread(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_MAX_UPLOAD", "64K")
    app = make_app(database_url, tmp_path)
    client = signed_in(app)
    before = snapshot(app)
    big = SOCHI | {"name": "x" * 70_000}
    response = client.post("/api/v1/import", json=big)
    assert (response.status_code, response.json["error"]["code"]) == (413, "too_large")
    assert "0.0625 MiB" in response.json["error"]["message"]
    response = client.post("/import", data={"text": json.dumps(big)})
    assert response.status_code == 413 and "nothing was read or saved" in response.get_data(as_text=True)
    assert snapshot(app) == before
    app.extensions["scorekeeper"].db.engine.dispose()


def test_the_default_limit_is_two_mebibytes(app, client):
    assert app.config["MAX_CONTENT_LENGTH"] == 2 * 2**20
    response = client.post("/api/v1/import", data=b"{" + b" " * (2 * 2**20 + 1) + b"}", content_type="application/json")
    assert response.status_code == 413


def test_a_pulka_holds_at_most_the_deals_the_server_allows(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_MAX_DEALS", "3")
    app = make_app(database_url, tmp_path)
    client = signed_in(app)
    pulka_id = create(client, rules={"preset": "sochi", "pulya_size": 100})
    for _ in range(3):
        assert add(client, pulka_id, RASPASY).status_code == 201
    before = snapshot(app)
    response = add(client, pulka_id, RASPASY)
    assert (response.status_code, response.json["error"]["code"]) == (422, "too_many_deals")
    response = client.post("/api/v1/import", json=SOCHI)
    assert (response.status_code, response.json["error"]["code"]) == (422, "too_many_deals")
    assert snapshot(app) == before
    app.extensions["scorekeeper"].db.engine.dispose()


@pytest.mark.parametrize("value", ["lots", "2X"])
def test_a_bad_limit_stops_the_start_with_one_line(database_url, tmp_path, monkeypatch, value):
    from scorekeeper.web.store.db import Unavailable

    monkeypatch.setenv("SCOREKEEPER_MAX_UPLOAD", value)
    with pytest.raises(Unavailable, match="SCOREKEEPER_MAX_UPLOAD is a size such as 2M"):
        make_app(database_url, tmp_path)
