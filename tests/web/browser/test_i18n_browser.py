"""The app in Russian in a real browser at 390×844: the longer Russian labels still fit the phone (no
sideways scrolling, no element past the edge, every tap target at least 44 px), and what the scripts (static/js) show (the
preview's heading, a player's stand-in name, the note about a change) is in Russian too, from the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..conftest import add, create
from .test_browser import CHROMIUM, CHROMIUM_ARGS, live, login, watch  # noqa: F401  (fixtures)
from .test_table_ux import LONG, nothing_overflows, small_targets

pytestmark = pytest.mark.browser


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "Debian's chromium is missing: `make test` installs it (scripts/system-packages.sh)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU").new_page()
        errors = watch(page)
        yield page
        browser.close()
        assert errors == []


def fits(page) -> None:
    nothing_overflows(page)
    assert small_targets(page) == []


def test_every_page_fits_a_phone_in_russian(live, page):
    app, base, client = live
    uid = create(client, ["Анна", LONG, "Вера", "Глеб"], rules={"preset": "leningrad", "pulya_size": 20})
    login(page, base)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    for path in ("/", "/new", "/import", "/account", "/admin"):
        page.goto(f"{base}{path}")
        fits(page)
    page.goto(f"{base}/p/{uid}/deal")
    expect(page.locator("h1")).to_have_text("Сдача 1")
    fits(page)
    page.locator("label.chip:has(input[name='declarer'][value='2'])").click()  # Вера declares
    for name, value in (("level", 6), ("strain", "S")):
        page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])").click()
    expect(page.locator(".preview h2")).to_have_text("Будет записано")
    expect(page.get_by_role("radio", name="Глеб: вист")).to_be_visible()
    page.get_by_role("radio", name="Глеб: вист").check()
    expect(page.get_by_role("radio", name="Вера: 6 взяток")).to_be_visible()
    for label in ("Глеб: 1\u00a0взятка", "Глеб: 2\u00a0взятки", "Глеб: 5\u00a0взяток"):  # a number and its noun stay together
        assert page.locator(f"input[aria-label='{label}']").count() == 1
    page.locator("label.chip:has(input[name='t2'][value='6'])").click()
    fits(page)
    page.click("button[value=save]")
    expect(page.locator("h1")).to_have_text("Сдача 2")
    # Raspasy where the counts cannot add up: the preview says so in Russian.
    for name, value in (("type", "raspasy"), ("t2", 9), ("t3", 3)):
        page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])").click()
    expect(page.locator(".preview h2")).to_have_text("Пока нельзя записать")
    fits(page)
    for path in ("", "/history", "/settlement", "/shares", "/settings", "/deals/1/edit", "/deals/1/delete"):
        page.goto(f"{base}/p/{uid}{path}")
        fits(page)
        page.screenshot(path=f"/tmp/ru-390{path.replace('/', '-')}.png", full_page=True)


def test_what_the_script_says_is_russian(live, page):
    app, base, client = live
    login(page, base)
    page.goto(f"{base}/new")
    expect(page.locator("[data-player='0']")).to_have_text("игрок 1")
    page.fill("input[name=player0]", "Аня")
    expect(page.locator("[data-player='0']")).to_have_text("Аня")
    page.fill("input[name=player0]", "")
    expect(page.locator("[data-player='0']")).to_have_text("игрок 1")

    uid = create(client)
    page.goto(f"{base}/p/{uid}")
    assert add(client, uid, {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}}).status_code == 201
    expect(page.locator(".live-note")).to_have_text(re.compile(r"^Записана сдача 1\s—\sowner$"), timeout=5000)
    expect(page.locator("main")).to_contain_text("1 сдача")
    assert client.delete(f"/api/v1/pulkas/{uid}/deals/1").status_code in (200, 204)
    expect(page.locator(".live-note")).to_contain_text("сдача 1", timeout=5000)
    assert "deal" not in page.inner_text(".live-note").lower()
