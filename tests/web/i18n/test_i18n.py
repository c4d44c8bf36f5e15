"""Which language a page speaks: the account's choice, else this browser's, else Accept-Language; the
switch on every page; the API by Accept-Language alone."""

from __future__ import annotations

import re

import pytest

from ..conftest import signed_in


def lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True)).group(1)


@pytest.mark.parametrize(("header", "expected"), [
    (None, "en"), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"), ("en-GB,en;q=0.9,ru;q=0.5", "en"),
    ("de-DE,de;q=0.9", "en"), ("de,ru;q=0.5", "ru"), ("uk-UA,uk;q=0.9", "ru"), ("be", "ru"),
])
def test_a_page_speaks_the_browsers_language(app, header, expected):
    headers = {"Accept-Language": header} if header else {}
    page = app.test_client().get("/login", headers=headers)
    assert lang(page) == expected
    assert ("Войти" if expected == "ru" else "Log in") in page.get_data(as_text=True)


def test_the_switch_is_remembered_by_the_browser(app):
    browser = app.test_client()
    switched = browser.post("/language", data={"language": "ru", "next": "/register"},
                            headers={"Accept-Language": "en"})
    assert (switched.status_code, switched.headers["Location"]) == (303, "/register")
    assert "HttpOnly" in switched.headers["Set-Cookie"] and "SameSite=Lax" in switched.headers["Set-Cookie"]
    assert lang(browser.get("/login", headers={"Accept-Language": "en"})) == "ru"
    browser.post("/language", data={"language": "en", "next": "/login"})
    assert lang(browser.get("/login", headers={"Accept-Language": "ru"})) == "en"


def test_an_accounts_choice_follows_it_to_every_browser(app):
    phone = app.test_client()
    phone.post("/register", data={"username": "anna", "password": "anna-password"})
    phone.post("/language", data={"language": "ru", "next": "/"})
    laptop = app.test_client()
    laptop.post("/login", data={"username": "anna", "password": "anna-password"})
    assert lang(laptop.get("/", headers={"Accept-Language": "en"})) == "ru"


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "javascript:alert(1)", ""])
def test_the_switch_goes_back_on_this_site_only(app, target):
    switched = app.test_client().post("/language", data={"language": "ru", "next": target})
    assert switched.headers["Location"] in ("/", "/login")


@pytest.mark.parametrize("value", ["de", "", "ru\x00", "RU"])
def test_a_language_the_app_does_not_speak_is_refused(app, value):
    response = app.test_client().post("/language", data={"language": value})
    assert response.status_code == 400
    assert not any(cookie.startswith("lang=") for cookie in response.headers.getlist("Set-Cookie"))


def test_every_page_has_the_switch(app):
    client = signed_in(app)
    page = client.get("/").get_data(as_text=True)
    assert re.findall(r'<button type="submit" name="language" value="(\w+)"', page) == ["ru", "en"]


def test_the_api_follows_accept_language_only(app):
    client = signed_in(app)
    client.post("/language", data={"language": "ru", "next": "/"})
    with app.test_request_context("/api/v1/players", headers={"Accept-Language": "en"}):
        from scorekeeper.web.edge.i18n import select
        assert select() == "en"
