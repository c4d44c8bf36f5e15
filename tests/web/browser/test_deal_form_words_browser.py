"""The deal form says why when part of it goes quiet, in a real browser at 390×844, in Russian and in English
(issue 30, item 8): a checked ten's form drops the defenders' words and says «Десятерная проверяется», as the
form without JavaScript does; without a connection the preview says it will come when the phone is back
online, and comes then."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..conftest import create
from .test_browser import CHROMIUM, CHROMIUM_ARGS, live, login, tap, watch  # noqa: F401  (fixtures)
from .test_walkthrough import shot

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"locale": "en-GB", "ten": "A 10 is checked: no words.", "offline": "No connection",
           "why": "What will be written is shown once the phone is back online.", "ok": "Will be written",
           "line": "B: pulya +2"},
    "ru": {"locale": "ru-RU", "ten": "Десятерная проверяется: без слов.", "offline": "Нет связи",
           "why": "Что будет записано, покажем, когда телефон снова будет в сети.", "ok": "Будет записано",
           "line": "B: пуля +2"},
}


@pytest.fixture(params=sorted(WORDS))
def phone(request, live):
    from playwright.sync_api import sync_playwright

    app, base, client = live
    words = WORDS[request.param]
    uid = create(client, ["A", "B", "C"])  # Sochi: a ten is checked
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, locale=words["locale"]).new_page()
        errors = watch(page)
        login(page, base)
        page.goto(f"{base}/p/{uid}/deal")
        yield request.param, words, page
        browser.close()
        assert errors == []


def test_a_checked_ten_says_why_the_words_are_gone(phone):
    language, words, page = phone
    ten = page.locator("[data-part=ten]")
    expect(ten).to_be_hidden()
    tap(page, "declarer", 1)
    tap(page, "level", 9)
    expect(page.locator("[data-part=whist]")).to_be_visible()
    expect(ten).to_be_hidden()
    tap(page, "level", 10)
    expect(page.locator("[data-part=whist]")).to_be_hidden()  # no words for a checked ten
    expect(ten).to_be_visible()
    expect(ten).to_have_text(words["ten"])
    shot(page, language, "checked-ten-said")
    tap(page, "type", "misere")  # not a game: nothing to say
    expect(ten).to_be_hidden()


def test_without_a_connection_the_preview_says_when_it_comes(phone):
    language, words, page = phone
    page.context.set_offline(True)
    tap(page, "declarer", 1)
    tap(page, "level", 6)
    tap(page, "strain", "S")
    preview = page.locator(".preview")
    expect(preview).to_be_visible()
    expect(preview.locator(".preview-toggle")).to_have_text(words["offline"])
    expect(preview).to_contain_text(words["why"])
    shot(page, language, "deal-preview-offline")
    page.context.set_offline(False)  # back online: the preview comes without a tap
    expect(preview.locator(".preview-toggle")).to_have_text(words["ok"], timeout=15_000)
    expect(preview.locator(".what").first).to_have_text(words["line"])
