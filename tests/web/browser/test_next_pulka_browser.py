"""A finished pulka at the table, in a real browser at 390×844, in Russian and in English (issue 30, items 1
and 7): each phone is told what it can do with the frozen pulka (the owner reopens it, right there; Boris's
scorer link nothing more, and no edit or delete is offered); when the owner starts the next pulka with the
same players, Vera's viewer phone, still on the finished sheet, is told without a reload and taken there in
one tap; opened afresh, the old pulka's page leads there too. Screenshots go to the artifacts folder."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..conftest import SOCHI, add, create
from .test_browser import CHROMIUM, CHROMIUM_ARGS, live, login, watch  # noqa: F401  (fixtures)
from .test_walkthrough import shot

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"locale": "en-GB", "name": "Friday", "second": "Friday, 2",
           "owner_can": "To change a deal, reopen the pulka", "reopen": "Reopen to change it",
           "scorer_can": "Only its owner can reopen it.", "promise": "You can still edit or delete",
           "again": "Same players again", "heard": "owner started the table's next pulka",
           "moved": "The table has gone on to the next pulka: Friday, 2.", "open": "Open it",
           "no_more": "The pulka is finished: no more deals.", "edit": "Edit", "delete": "Delete"},
    "ru": {"locale": "ru-RU", "name": "Пятница", "second": "Пятница, 2",
           "owner_can": "Чтобы исправить сдачу, откройте пульку снова", "reopen": "Открыть снова, чтобы изменить",
           "scorer_can": "Открыть пульку снова может только её владелец.",
           "promise": "Прежние сдачи ещё можно исправить или удалить",
           "again": "Ещё раз тем же составом", "heard": "Начата следующая пулька — owner",
           "moved": "Стол перешёл к следующей пульке: Пятница, 2.", "open": "Перейти",
           "no_more": "Пулька расписана: сдач больше нет.", "edit": "Исправить", "delete": "Удалить"},
}


@pytest.fixture(params=sorted(WORDS))
def table(request, live):
    """The owner's phone (logged in), Boris's (a scorer link) and Vera's (a viewer link), in the table's
    language, on a finished pulka of the evening."""
    from playwright.sync_api import sync_playwright

    app, base, client = live
    words = WORDS[request.param]
    uid = create(client, name=words["name"])
    for deal in SOCHI["deals"]:
        assert add(client, uid, deal).status_code == 201
    links = {role: "/s/" + client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": role}).json["token"]
             for role in ("scorer", "viewer")}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phones = [browser.new_context(viewport={"width": 390, "height": 844}, locale=words["locale"]).new_page()
                  for _ in range(3)]
        errors = [watch(phone) for phone in phones]
        login(phones[0], base)
        for phone, role in zip(phones[1:], ("scorer", "viewer")):
            phone.goto(f"{base}{links[role]}")
            phone.wait_for_url(f"{base}/p/{uid}")
        yield request.param, words, base, client, uid, phones
        browser.close()
        assert errors == [[], [], []]


def test_a_frozen_pulka_tells_each_phone_what_it_can_do(table):
    language, words, base, client, uid, (owner, boris, vera) = table
    # The owner: what reopening does, with its button right there.
    owner.goto(f"{base}/p/{uid}")
    banner = owner.locator(".banner-finished")
    expect(banner).to_contain_text(words["owner_can"])
    expect(owner.locator(f"form[action='/p/{uid}/reopen'] button")).to_have_text(words["reopen"])
    expect(owner.locator(f"form[action='/p/{uid}/reopen'] button")).to_be_in_viewport()
    shot(owner, language, "frozen-owner")
    # Boris's scorer link: nothing more, on the sheet, the history and the deal form he may still have.
    for path in (f"/p/{uid}", f"/p/{uid}/history"):
        boris.goto(f"{base}{path}")
        expect(boris.locator(".banner-finished")).to_contain_text(words["scorer_can"])
        expect(boris.locator("main")).not_to_contain_text(words["promise"])
        expect(boris.locator(f"form[action='/p/{uid}/reopen']")).to_have_count(0)
        expect(boris.locator(f"main a:text-is('{words['edit']}'), main a:text-is('{words['delete']}')")).to_have_count(0)
    shot(boris, language, "frozen-scorer-history")
    boris.goto(f"{base}/p/{uid}/deal")
    boris.wait_for_url(f"{base}/p/{uid}")
    expect(boris.locator("main")).to_contain_text(words["no_more"])
    expect(boris.locator(".banner-finished")).to_contain_text(words["scorer_can"])
    expect(boris.locator("main")).not_to_contain_text(words["promise"])
    # Vera's viewer link: neither; she reads it.
    expect(vera.locator(".banner-finished")).not_to_contain_text(words["scorer_can"])
    expect(vera.locator(".banner-finished")).not_to_contain_text(words["owner_can"])
    # The owner reopens it where he was told to: Boris may enter again.
    owner.locator(f"form[action='/p/{uid}/reopen'] button").click()
    owner.wait_for_url(re.compile(rf"{base}/p/{uid}"))
    expect(owner.locator(".banner-finished")).not_to_contain_text(words["owner_can"])
    boris.goto(f"{base}/p/{uid}/history")
    expect(boris.locator(f"a[href='/p/{uid}/deals/10/edit']")).to_be_visible()


def test_a_viewer_is_taken_to_the_tables_next_pulka_in_one_tap(table):
    language, words, base, client, uid, (owner, boris, vera) = table
    vera.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # reading the sheet's table, far down
    vera.evaluate("window.notReloaded = true")
    owner.goto(f"{base}/p/{uid}")
    owner.locator(f"form.again button:has-text('{words['again']}')").click()
    owner.wait_for_url(re.compile(rf"{base}/p/(?!{uid})[\w-]+"))
    second = owner.url.split("?")[0].rsplit("/", 1)[1]

    # Vera's phone, still on the finished sheet, hears of it at once: a note that stays, with the way there.
    note = vera.locator(".live-note")
    expect(note).to_contain_text(words["heard"], timeout=15_000)
    expect(vera.locator(".banner-next")).to_contain_text(words["moved"])
    assert vera.evaluate("window.notReloaded") is True  # no reload: the page was brought up to date
    link = note.locator("a[data-next-pulka]")
    expect(link).to_have_text(words["open"])
    expect(link).to_be_in_viewport()
    shot(vera, language, "next-pulka-heard")
    link.click()  # the one tap
    vera.wait_for_url(f"{base}/p/{second}")
    expect(vera.locator("h1")).to_have_text(words["second"])
    expect(vera.locator(".banner-next")).to_have_count(0)

    # Opened afresh, the old pulka's page says it and leads there too, for the viewer and the scorer alike.
    for phone in (vera, boris):
        phone.goto(f"{base}/p/{uid}")
        expect(phone.locator(".banner-next")).to_contain_text(words["moved"])
        phone.locator(".banner-next a[data-next-pulka]").click()
        phone.wait_for_url(f"{base}/p/{second}")
        expect(phone.locator("h1")).to_have_text(words["second"])
    shot(vera, language, "next-pulka-opened")
