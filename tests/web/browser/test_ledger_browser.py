"""The ledger in a real browser at 390×844, in Russian and in English: a pulka finished by its last deal, its
debts in the ledger, one marked paid and the mark taken back, then the same players again the next evening,
whose settlement shows what is carried over."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..conftest import SOCHI, signed_in
from ..ledger.test_ledger import _renamed
from .test_browser import live  # noqa: F401, F811  (fixture)
from .test_walkthrough import PASSWORD, WORDS, enter, shot, table  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

# docs/rules.md §10's pulka at a whist price of 3: Boris owes Anna 644, Vera owes Anna 146
SAY = {
    "en": {"owes": "{b} owes {a} 644.00\u00a0₽ since", "marked": "Marked paid.", "unmarked": "Paid mark taken back.",
           "mark": "Mark paid", "unmark": "Take the mark back", "before": "Owed from before", "ledger": "Ledger"},
    "ru": {"owes": "{b} → {a}: 644,00\u00a0₽, долг с", "marked": "Отмечено как оплаченное.",
           "unmarked": "Отметка об оплате снята.", "mark": "Отметить оплату", "unmark": "Снять отметку",
           "before": "Долги с прошлых вечеров", "ledger": "Долги"},
}


def register(page, base: str) -> None:
    """Anna makes an account on the phone and lands on her (empty) list."""
    page.goto(f"{base}/register")
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_a_finished_pulka_in_the_ledger_marked_and_unmarked_then_carried_over(table, live):
    language, words, base, page = table
    say, (a, b, v) = SAY[language], words["names"]
    register(page, base)
    # nine deals through the API, as another phone of the table would send them; the last one tapped here
    phone = signed_in(live[0], "anna", PASSWORD)
    uid = phone.post("/api/v1/pulkas", json={"players": [a, b, v], "currency": "₽", "rules": {
        "preset": "sochi", "pulya_size": 10, "whist_price": 3}}).json["id"]
    for deal in SOCHI["deals"][:9]:
        assert phone.post(f"/api/v1/pulkas/{uid}/deals", json=_renamed(deal, dict(zip("ABC", (a, b, v))))
                          ).status_code == 201
    page.goto(f"{base}/p/{uid}/deal")
    enter(page, {"type": "game", "declarer": 1, "contract": (9, "NT"), "whist": {2: "pass", 0: "pass"}})  # B's 9NT
    expect(page.locator("main")).to_contain_text(words["saved"].format(n=10))

    page.click(f"header >> text={say['ledger']}")
    page.wait_for_url(f"{base}/ledger")
    expect(page.locator("main")).to_contain_text(say["owes"].format(a=a, b=b))
    page.locator("main table").nth(1).get_by_role("button", name=say["mark"]).first.click()
    expect(page.locator("main")).to_contain_text(say["marked"])
    expect(page.locator("main").get_by_role("button", name=say["unmark"])).to_have_count(1)
    shot(page, language, "ledger-marked")
    page.get_by_role("button", name=say["unmark"]).click()
    expect(page.locator("main")).to_contain_text(say["unmarked"])
    expect(page.locator("main").get_by_role("button", name=say["unmark"])).to_have_count(0)

    # the next evening: the same players again; its settlement shows what they owe from before
    page.goto(f"{base}/p/{uid}")
    page.click("form.again button[type=submit]")
    page.wait_for_url(lambda url: url.startswith(f"{base}/p/") and uid not in url)
    page.goto(page.url.rstrip("/") + "/settlement")
    section = page.locator(f"section[aria-label='{say['before']}']")
    expect(section).to_contain_text(say["owes"].format(a=a, b=b))
    shot(page, language, "ledger-carried")
