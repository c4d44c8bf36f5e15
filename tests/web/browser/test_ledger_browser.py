"""The ledger in a real browser at 390×844, in Russian and in English: a pulka finished by its last deal and another
of the same table the next evening, the ledger saying who owes since when (from the balances), a paid mark set
and taken back, then the table's settle-up recorded in one tap on the first pulka's settlement page: after it
nothing is owed on either page (docs/club.md §3-§4). Screenshots of both pages before and after the settle-up."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..conftest import SOCHI, signed_in
from ..ledger.test_ledger import _renamed
from .test_browser import live  # noqa: F401, F811  (fixture)
from .test_walkthrough import PASSWORD, WORDS, enter, shot, table  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

# docs/rules.md §10's pulka at a whist price of 3, twice: the first evening Boris owes Anna 644 and Vera 146 to
# Anna; the next, Vera owes Boris 644 and Anna 146 to Boris. Balances: Anna +644, Boris +146, Vera −790.
SAY = {
    "en": {"owes": "{v} owes 790.00\u00a0₽ since", "marked": "Marked paid.", "unmarked": "Paid mark taken back.",
           "mark": "Mark paid", "unmark": "Take the mark back", "now": "In the ledger now", "ledger": "Ledger",
           "record": "Record these payments", "recorded": "The settle-up is recorded as payments.",
           "table_settled": "Everyone at this table is at 0 in the ledger: nobody owes anything.",
           "nobody": "Nobody owes anything.", "settled": "settled by the balance", "open": "not paid yet",
           "pays": ("{v} pays {a} 644.00\u00a0₽", "{v} pays {b} 146.00\u00a0₽"), "before": "before"},
    "ru": {"owes": "{v}: долг 790,00\u00a0₽ с", "marked": "Отмечено как оплаченное.",
           "unmarked": "Отметка об оплате снята.", "mark": "Отметить оплату", "unmark": "Снять отметку",
           "now": "Долги сейчас", "ledger": "Долги", "record": "Записать эти платежи",
           "recorded": "Расчёт записан платежами.",
           "table_settled": "Все за этим столом в расчёте: никто никому ничего не должен.",
           "nobody": "Никто никому не должен.", "settled": "погашено по балансу", "open": "не оплачено",
           "pays": ("{v} → {a}: 644,00\u00a0₽", "{v} → {b}: 146,00\u00a0₽"), "before": "прошлых вечеров"},
}


def register(page, base: str) -> None:
    """Anna makes an account on the phone and lands on her (empty) list."""
    page.goto(f"{base}/register")
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_two_evenings_in_the_ledger_then_the_tables_settle_up_in_one_tap(table, live):
    language, words, base, page = table
    say, (a, b, v) = SAY[language], words["names"]
    names = {"a": a, "b": b, "v": v}
    register(page, base)
    # nine deals through the API, as another phone of the table would send them; the last one tapped here
    phone = signed_in(live[0], "anna", PASSWORD)
    rules = {"preset": "sochi", "pulya_size": 10, "whist_price": 3}
    uid = phone.post("/api/v1/pulkas", json={"players": [a, b, v], "currency": "₽", "rules": rules}).json["id"]
    for deal in SOCHI["deals"][:9]:
        assert phone.post(f"/api/v1/pulkas/{uid}/deals", json=_renamed(deal, dict(zip("ABC", (a, b, v))))
                          ).status_code == 201
    page.goto(f"{base}/p/{uid}/deal")
    enter(page, {"type": "game", "declarer": 1, "contract": (9, "NT"), "whist": {2: "pass", 0: "pass"}})  # B's 9NT
    expect(page.locator("main")).to_contain_text(words["saved"].format(n=10))
    # the next evening, the same table, Boris winning
    nxt = phone.post("/api/v1/pulkas", json={"players": [b, v, a], "currency": "₽", "rules": rules}).json["id"]
    for deal in SOCHI["deals"]:
        assert phone.post(f"/api/v1/pulkas/{nxt}/deals", json=_renamed(deal, dict(zip("ABC", (b, v, a))))
                          ).status_code == 201

    page.click(f"header >> text={say['ledger']}")
    page.wait_for_url(f"{base}/ledger")
    main = page.locator("main")
    expect(main).to_contain_text(say["owes"].format(**names))
    # Vera's two are open; Anna's and Boris's are settled by their balances, so only Vera's can be marked
    expect(main.get_by_role("button", name=say["mark"])).to_have_count(2)
    main.locator("table").nth(1).get_by_role("button", name=say["mark"]).first.click()
    expect(main).to_contain_text(say["marked"])
    expect(main.get_by_role("button", name=say["unmark"])).to_have_count(1)
    page.get_by_role("button", name=say["unmark"]).click()
    expect(main).to_contain_text(say["unmarked"])
    expect(main.get_by_role("button", name=say["unmark"])).to_have_count(0)
    expect(main).to_contain_text(say["settled"])
    shot(page, language, "ledger-before-settle-up")

    # the first evening's settlement: its table now, both evenings included, and the fewest payments
    page.goto(f"{base}/p/{uid}/settlement")
    section = page.locator(f"section[aria-label='{say['now']}']")
    for line in say["pays"]:
        expect(section).to_contain_text(line.format(**names))
    expect(section).not_to_contain_text(say["before"])
    shot(page, language, "settlement-before-settle-up")
    section.get_by_role("button", name=say["record"]).click()
    page.wait_for_url(f"{base}/p/{uid}/settlement")
    expect(main).to_contain_text(say["recorded"])
    expect(section).to_contain_text(say["table_settled"])
    expect(section.locator("table, ul, button")).to_have_count(0)  # lists nothing
    shot(page, language, "settlement-after-settle-up")

    page.goto(f"{base}/ledger")
    expect(main).to_contain_text(say["nobody"])
    expect(main).not_to_contain_text(say["owes"].format(**names))
    expect(main).not_to_contain_text(say["open"])
    expect(main.get_by_role("button", name=say["mark"])).to_have_count(0)
    shot(page, language, "ledger-after-settle-up")
    # the next evening's page: the same table, all at 0
    page.goto(f"{base}/p/{nxt}/settlement")
    expect(section).to_contain_text(say["table_settled"])
