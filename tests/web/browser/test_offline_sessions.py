"""The pages a phone keeps for reading offline (static/sw.js) are one session's: when the session ends any
way but the Log out button (a password changed elsewhere, another account logging in on the phone) or a
page's link is revoked (its version poll answers 404), they are dropped, and offline the next person sees
the "No connection" page, never the last one's sheet. In chromium, against a real server process."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..system.test_processes import Server
from .test_browser import CHROMIUM, CHROMIUM_ARGS, watch

pytestmark = pytest.mark.browser
PASSWORD = "a long password"
NO_CONNECTION = "No connection"


@pytest.fixture
def phone(tmp_path):
    """A server with anna (and her pulka) and boris; `open(context)` makes a phone page, service worker in
    control. Yields (server, anna's token, the pulka id, browser)."""
    from playwright.sync_api import sync_playwright

    server = Server(f"sqlite:///{tmp_path / 'phone.sqlite'}", tmp_path / "instance")
    try:
        for name in ("anna", "boris"):
            assert server.call("POST", "/api/v1/accounts", {"username": name, "password": PASSWORD})[0] == 201
        token = server.call("POST", "/api/v1/tokens", {"username": "anna", "password": PASSWORD})[1]["token"]
        status, pulka, _ = server.call("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"], "rules": {
            "preset": "sochi", "pulya_size": 10}}, token)
        assert status == 201
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield server, token, pulka["id"], browser
            browser.close()
    finally:
        server.stop()


def _page(browser, server):
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
    errors = watch(page)
    page.goto(f"{server.base}/login")
    assert page.evaluate("navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)"
                         ".then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    return page, errors


def _log_in(page, server, name):
    page.goto(f"{server.base}/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{server.base}/")


def _kept_offline(page, url) -> str:
    """What the phone shows for `url` without a connection."""
    page.context.set_offline(True)
    try:
        page.goto(url)
        return page.locator("main").inner_text()
    finally:
        page.context.set_offline(False)


def test_a_sheet_is_kept_while_its_session_lives(phone):
    server, _, uid, browser = phone
    page, errors = _page(browser, server)
    _log_in(page, server, "anna")
    page.goto(f"{server.base}/p/{uid}")
    page.goto(f"{server.base}/")
    assert NO_CONNECTION not in _kept_offline(page, f"{server.base}/p/{uid}")  # what offline is for
    assert errors == []


def test_another_account_logging_in_drops_the_last_one_s_pages(phone):
    server, _, uid, browser = phone
    page, _ = _page(browser, server)
    _log_in(page, server, "anna")
    page.goto(f"{server.base}/p/{uid}")
    _log_in(page, server, "boris")  # no Log out button pressed
    assert NO_CONNECTION in _kept_offline(page, f"{server.base}/p/{uid}")


def test_a_session_ended_elsewhere_drops_the_pages(phone):
    server, _, uid, browser = phone
    page, _ = _page(browser, server)
    _log_in(page, server, "anna")
    page.goto(f"{server.base}/p/{uid}")
    other, _ = _page(browser, server)  # anna on another phone changes her password
    _log_in(other, server, "anna")
    other.goto(f"{server.base}/account")
    other.fill("input[name=current]", PASSWORD)
    other.fill("input[name=new]", "another long password")
    other.click("main button[type=submit]")
    other.wait_for_url(f"{server.base}/account")
    page.goto(f"{server.base}/")  # the first phone is sent to the log-in page
    assert page.url.startswith(f"{server.base}/login")
    assert NO_CONNECTION in _kept_offline(page, f"{server.base}/p/{uid}")


def test_a_revoked_link_shows_nothing_offline(phone):
    server, token, uid, browser = phone
    status, share, _ = server.call("POST", f"/api/v1/pulkas/{uid}/shares", {"role": "viewer"}, token)
    assert status == 201
    page, _ = _page(browser, server)
    page.goto(share["url"])
    page.wait_for_url(f"{server.base}/p/{uid}")
    assert server.call("DELETE", f"/api/v1/pulkas/{uid}/shares/{share['id']}", token=token)[0] == 204
    expect(page.get_by_text("This pulka is no longer shared with you.")).to_be_visible(timeout=15_000)
    assert NO_CONNECTION in _kept_offline(page, f"{server.base}/p/{uid}")
