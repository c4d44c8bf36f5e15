"""A player's statistics in a real browser at 390×844, in Russian and in English: from a name on the sheet to
his page, a filter kept in the address, head to head with one table mate, and his pulkas as CSV."""

from __future__ import annotations

import csv

import pytest
from playwright.sync_api import expect

from ..conftest import SOCHI, signed_in
from ..ledger.test_ledger import _renamed
from .test_browser import live  # noqa: F401, F811  (fixture)
from .test_ledger_browser import register
from .test_walkthrough import PASSWORD, WORDS, shot, table  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

SAY = {
    "en": {"three": "3 pulkas", "two": "2 pulkas", "show": "Show", "versus": "Head to head with {a}",
           "link": "head to head", "csv": "These pulkas as CSV", "rules": "Rules"},
    "ru": {"three": "3 пульки", "two": "2 пульки", "show": "Показать", "versus": "Один на один: {a}",
           "link": "один на один", "csv": "Эти пули в CSV", "rules": "Правила"},
}


def test_from_a_name_on_the_sheet_to_his_figures_a_filter_head_to_head_and_the_csv(table, live, tmp_path):
    language, words, base, page = table
    say, (a, b, v) = SAY[language], words["names"]
    register(page, base)
    # two finished Sochi evenings and a Leningrad one closed after four deals, as another phone sent them
    phone = signed_in(live[0], "anna", PASSWORD)
    uids = []
    for preset, deals in (("sochi", 10), ("sochi", 10), ("leningrad", 4)):
        uid = phone.post("/api/v1/pulkas", json={"players": [a, b, v], "currency": "₽", "rules": {
            "preset": preset, "pulya_size": 10, "whist_price": 1}}).json["id"]
        for deal in SOCHI["deals"][:deals]:
            assert phone.post(f"/api/v1/pulkas/{uid}/deals", json=_renamed(deal, dict(zip("ABC", (a, b, v))))
                              ).status_code == 201
        uids.append(uid)
    assert phone.post(f"/api/v1/pulkas/{uids[2]}/close").status_code == 200

    page.goto(f"{base}/p/{uids[0]}")
    page.locator("main table.sheet").get_by_role("link", name=b).click()
    page.wait_for_url(lambda url: "/players/" in url)
    expect(page.locator("h1")).to_have_text(b)
    expect(page.locator("main .summary").first).to_contain_text(say["three"])
    page.select_option("select[name=preset]", "sochi")
    page.get_by_role("button", name=say["show"]).click()
    page.wait_for_url(lambda url: "preset=sochi" in url)
    expect(page.locator("main .summary").first).to_contain_text(say["two"])

    row = page.locator("main table tr", has=page.get_by_role("link", name=a, exact=True))
    row.get_by_role("link", name=say["link"]).click()
    page.wait_for_url(lambda url: "with=" in url and "preset=sochi" in url)  # the filter kept
    versus = page.locator(f"section[aria-label='{say['versus'].format(a=a)}']")
    expect(versus.locator("svg.chart")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
    shot(page, language, "player-head-to-head")

    with page.expect_download() as download:
        page.get_by_role("link", name=say["csv"]).click()
    rows = list(csv.reader(download.value.path().read_text(encoding="utf-8-sig").splitlines()))
    assert len(rows) == 3 and {r[1] for r in rows[1:]} == set(uids[:2])  # the filter in force: Sochi only
    assert {r[3] for r in rows[1:]} == {b}
