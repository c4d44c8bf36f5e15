"""A table that can trust it, in a real browser at 390×844, in Russian and in English: the owner makes Boris's
scorer link on the page and passes it on; Boris's phone shows the sheet from his seat; both phones enter deal 1
and the second is asked, never renumbered silently; the owner's phone says who wrote; a checked ten's form
keeps its footer to a third of the screen; the rules are said in words; the settlement says who pays whom with an arrow; "same players
again" keeps Boris's link, which opens the table's next pulka. Visible words are checked; screenshots go to
the artifacts folder. (Offline, the next deal: tests/web/browser/test_offline.py, in both languages too.)"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..conftest import create
from .test_browser import CHROMIUM, CHROMIUM_ARGS, live, login, watch  # noqa: F401  (fixtures)
from .test_walkthrough import enter, shot

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"locale": "en-GB", "names": ["Anna", "Boris", "Vera"], "name": "Friday at Boris's", "currency": "",
           "scorer": "a scorer", "make": "Make the link", "pass": ("Send the link", "Copy the link"),
           "copied": "Copied: paste it in a message", "you": "you", "changed": "Not saved: the pulka changed meanwhile",
           "meanwhile": "Deal 1 added by owner", "that_one": "Is your deal that one?", "as": "Enter it as deal 2",
           "saved": "Deal 2 saved", "by": "Deal 2 added by Boris", "pays": "Who pays whom", "again": "Again",
           "transfer": r"(?P<payer>\w+) pays (?P<payee>\w+) \d+\.\d\d",
           "second": "Friday at Boris's, 2", "nt": "NT", "next": "Deal 1 · Vera deals", "enter": "Enter deal 1"},
    "ru": {"locale": "ru-RU", "names": ["Анна", "Борис", "Вера"], "name": "Пятница у Бориса", "currency": "₽",
           "scorer": "записывающего", "make": "Создать ссылку", "pass": ("Отправить ссылку", "Скопировать ссылку"),
           "copied": "Скопировано: вставьте в сообщение", "you": "вы", "changed": "Не сохранено: пулька изменилась",
           "meanwhile": "Записана сдача 1 — owner", "that_one": "Ваша сдача — эта?", "as": "Записать как сдачу 2",
           "saved": "Сдача 2 записана", "by": "Записана сдача 2 — Борис", "pays": "Кто кому платит",
           "transfer": r"(?P<payer>\w+) → (?P<payee>\w+): \d+,\d\d\xa0₽",  # no case to decline, a decimal comma
           "again": "Ещё раз", "second": "Пятница у Бориса, 2", "nt": "БК", "next": "Сдача 1 · сдаёт Вера",
           "enter": "Записать сдачу 1"},
}


@pytest.fixture(params=sorted(WORDS))
def table(request, live):
    """Two phones in the table's language (chromium at 390×844): the owner's, logged in, and Boris's."""
    from playwright.sync_api import sync_playwright

    app, base, client = live
    words = WORDS[request.param]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phones = []
        for _ in range(2):
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale=words["locale"])
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
            phones.append(context.new_page())
        errors = [error for page in phones for error in [watch(page)]]
        login(phones[0], base)
        yield request.param, words, base, client, phones
        browser.close()
        assert errors == [[], []]


def test_two_phones_one_link_for_the_evening(table):
    language, words, base, client, (owner, boris) = table
    names = words["names"]
    uid = create(client, names, name=words["name"], currency=words["currency"])

    # Boris's scorer link, made on the page and passed on in a tap.
    owner.goto(f"{base}/p/{uid}/shares")
    owner.click(f"label.chip:has-text('{words['scorer']}')")
    owner.select_option("select[name=player]", names[1])
    owner.click(f"button:has-text('{words['make']}')")
    link = owner.locator("li.share").first
    expect(link).to_contain_text(names[1])
    button = link.locator("button[data-share-url]")
    expect(button).to_be_visible()
    assert button.inner_text() in words["pass"]
    if button.inner_text() == words["pass"][1]:  # no share sheet on this phone: copied
        button.click()
        expect(link.locator(".share-said")).to_have_text(words["copied"])
    url = link.locator(".share-url input").input_value()

    # His phone: the sheet from his seat, his line marked.
    boris.goto(url)
    expect(boris.locator('g.sector[data-side="bottom"]')).to_have_attribute("data-player", names[1])
    expect(boris.locator("table.sheet tr.mine th")).to_have_text(f"{names[1]} {words['you']}")

    # Both enter deal 1; the owner saves first. Boris is asked, never renumbered silently.
    owner.goto(f"{base}/p/{uid}/deal")
    boris.goto(f"{base}/p/{uid}/deal")
    enter(owner, {"type": "raspasy", "tricks": {0: 4, 1: 3}})
    owner.wait_for_url(re.compile(rf"{base}/p/{uid}/deal"))
    owner.goto(f"{base}/p/{uid}")  # watching the sheet
    enter(boris, {"type": "game", "declarer": 1, "contract": (6, "S")})
    problem = boris.locator(".conflict")
    expect(problem).to_contain_text(words["changed"])
    expect(problem).to_contain_text(words["meanwhile"])
    expect(problem).to_contain_text(words["that_one"])
    shot(boris, language, "conflict")
    boris.click(f"button:has-text('{words['as']}')")
    expect(boris.locator("main")).to_contain_text(words["saved"])
    stored = client.get(f"/api/v1/pulkas/{uid}/deals").json["deals"]
    assert [deal["deal"]["type"] for deal in stored] == ["raspasy", "game"]  # nothing doubled
    expect(owner.locator(".live-note")).to_contain_text(words["by"], timeout=15_000)  # his link's name

    # A checked ten: what will be written and Save take at most a third of the screen.
    owner.goto(f"{base}/p/{uid}/deal")
    expect(owner.locator("label.chip:has(input[name=strain][value=NT])")).to_have_text(words["nt"])  # one notation
    enter_without_saving(owner, {"type": "game", "declarer": 2, "contract": (10, "S")})
    expect(owner.locator(".preview")).to_be_visible()
    footer = owner.locator(".actions.sticky").bounding_box()
    assert footer and footer["height"] <= 844 / 3, footer
    shot(owner, language, "checked-ten")

    # The settlement: who pays whom in the table's words (in Russian with an arrow: no name to decline).
    owner.goto(f"{base}/p/{uid}/settlement")
    expect(owner.locator("main")).to_contain_text(words["pays"])
    transfers = owner.locator(".transfers li").all_inner_texts()
    found = [re.fullmatch(words["transfer"], line) for line in transfers]
    assert transfers and all(found), transfers
    assert {(m["payer"], m["payee"]) for m in found} == {(names[0], names[1]), (names[2], names[1])}
    shot(owner, language, "settlement")

    # The rules in the players' words, never a parameter's name or a raw value.
    owner.goto(f"{base}/p/{uid}/settings")
    rules = owner.locator("main").inner_text()
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|\b(True|False|true|false|null)\b|§", rules), rules

    # Same players again: Boris's link opens the next pulka, a scorer still; Vera deals first (she would next).
    owner.goto(f"{base}/")
    owner.click(f"form.again button:has-text('{words['again']}')")
    owner.wait_for_url(re.compile(rf"{base}/p/(?!{uid})[\w-]+"))
    boris.goto(url)
    expect(boris.locator("h1")).to_have_text(words["second"])
    expect(boris.locator(".next-line")).to_contain_text(words["next"])
    expect(boris.locator(".next a.button")).to_have_text(words["enter"])
    expect(boris.locator('g.sector[data-side="bottom"]')).to_have_attribute("data-player", names[1])


def enter_without_saving(page, deal: dict) -> None:
    from .test_walkthrough import tap

    tap(page, "type", deal["type"])
    tap(page, "declarer", deal["declarer"])
    tap(page, "level", deal["contract"][0])
    tap(page, "strain", deal["contract"][1])
