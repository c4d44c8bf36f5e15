"""A page cached for every caller of one role shows each caller himself: his name, his links, his CSRF token,
never the first visitor's (the administrator's "Accounts" link, his username)."""

from __future__ import annotations

import re

import pytest

from ..conftest import create, signed_in

HEADER = re.compile(r'<header class="top">.*?</header>', re.S)
PASSWORD = "a long password"


def _header(response) -> str:
    assert response.status_code == 200
    return HEADER.search(response.get_data(as_text=True)).group(0)


def _browser(app, username: str):
    client = app.test_client()
    client.post("/api/v1/accounts", json={"username": username, "password": PASSWORD})
    assert client.post("/login", data={"username": username, "password": PASSWORD}).status_code == 302
    return client


@pytest.mark.parametrize("role", ["viewer", "scorer"])
@pytest.mark.parametrize("orientation", ["", "?orientation=upright"])
def test_each_caller_of_one_role_sees_himself_on_a_cached_sheet(app, role, orientation):
    admin = _browser(app, "admin")  # the first account: the administrator
    owner = signed_in(app, "owner")
    pulka = create(owner)
    token = owner.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": role}).json["token"]
    boris, guest = _browser(app, "boris"), app.test_client()
    callers = {"admin": admin, "boris": boris, "guest": guest}
    for client in callers.values():
        client.get(f"/s/{token}")
    for rounds in range(2):  # the first round fills the cache (whoever comes first), the second reads it
        headers = {name: _header(client.get(f"/p/{pulka}{orientation}")) for name, client in callers.items()}
        assert "admin" in headers["admin"] and "/admin" in headers["admin"]
        assert "boris" in headers["boris"] and "/admin" not in headers["boris"] and "admin<" not in headers["boris"]
        assert "boris" not in headers["guest"] and "admin" not in headers["guest"]
        assert len(set(headers.values())) == 3
    owner_header = _header(owner.get(f"/p/{pulka}{orientation}"))
    assert "owner" in owner_header and "/admin" not in owner_header


def test_the_cached_sheet_carries_each_caller_s_csrf_token(app):
    owner = signed_in(app, "owner")
    pulka = create(owner)
    token = owner.post(f"/api/v1/pulkas/{pulka}/shares", json={"role": "scorer"}).json["token"]
    tokens = set()
    for name in ("anna", "boris"):
        client = _browser(app, name)
        client.get(f"/s/{token}")
        client.get(f"/p/{pulka}")
        page = client.get(f"/p/{pulka}").get_data(as_text=True)
        with client.session_transaction() as session:
            assert session["csrf_token"]
        found = set(re.findall(r'name="csrf_token" value="([^"]+)"', page))
        assert len(found) == 1 and "\x00" not in page
        tokens |= found
    assert len(tokens) == 2
