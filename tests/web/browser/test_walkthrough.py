"""An evening at the table, in a real browser at 390×844, once in Russian and once in English: an account
made on the page, a Sochi pulka for three started on the page, ten deals of every kind entered by tapping (a
remiz with two whisters, a half-whist, misère made and failed, two raspasy, a 10), a refused deal, undo and
restore, an edit, the drawing both ways, the language switched, the PDF in the table's language. The page's
words are checked, not only what is stored; screenshots of the main screens go to the artifacts folder.
(A deal saved without a connection: tests/web/browser/test_offline.py, in both languages too.)"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_browser import CHROMIUM, CHROMIUM_ARGS, live, watch  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
ARTIFACTS = Path(os.environ.get("SCOREKEEPER_ARTIFACTS", Path(__file__).parents[3] / "test-artifacts")) / "screens"
PASSWORD = "a long password"

# What the table sees, in each language. The names are the players'; the rest is the app's.
WORDS = {
    "en": {
        "locale": "en-GB", "names": ("Anna", "Boris", "Vera"), "currency": "",
        "saved": "Deal {n} saved", "edited": "Deal {n} edited", "deal": "Deal {n}", "not_saved": "Not saved", "removed": "Deal {n} removed",
        "sheet": ("pulya", "gora", "whists"), "pdf": ("pulya", "gora"), "other": "ru", "other_h1": "Сдача {n}",
    },
    "ru": {
        "locale": "ru-RU", "names": ("Анна", "Борис", "Вера"), "currency": "₽",
        "saved": "Сдача {n} записана", "edited": "Сдача {n} исправлена", "deal": "Сдача {n}", "not_saved": "Не сохранено",
        "removed": "Сдача {n} отменена",
        "sheet": ("пуля", "гора", "висты"), "pdf": ("пуля", "гора"), "other": "en", "other_h1": "Deal {n}",
    },
}

# The ten deals, each as tapped (players A, B, C by seat) and what it must write by docs/rules.md §3–§8 (Sochi,
# whist price by level: 6 → 2, 7 → 4, 10 → 10; misère 10): the API's English summary, in any order.
DEALS = [
    ("game, one whister, made",
     {"type": "game", "declarer": 2, "contract": (7, "H"), "whist": {0: "whist"}, "tricks": {2: 7}},
     {"C: pulya +4", "A: 12 whists on C"}),
    ("remiz, two whisters",  # 7♣ one down: gora 4; consolation 4 each; 4 a trick to each whister
     {"type": "game", "declarer": 1, "contract": (7, "C"), "whist": {2: "whist", 0: "whist"},
      "tricks": {1: 6, 2: 3, 0: 1}},
     {"B: gora +4", "C: 16 whists on B", "A: 8 whists on B"}),
    ("half-whist",
     {"type": "game", "declarer": 2, "contract": (6, "S"), "whist": {0: "pass", 1: "half"}},
     {"C: pulya +2", "B: 4 whists on C"}),
    ("misère made", {"type": "misere", "declarer": 0, "tricks": {0: 0}}, {"A: pulya +10"}),
    ("misère failed", {"type": "misere", "declarer": 1, "tricks": {1: 2}}, {"B: gora +20"}),
    ("a checked 10, made", {"type": "game", "declarer": 2, "contract": (10, "S"), "tricks": {2: 10}},
     {"C: pulya +10"}),
    ("game, both pass", {"type": "game", "declarer": 0, "contract": (6, "D")}, {"A: pulya +2"}),
    ("one whister, remiz",  # 6♦ one down, greedy: the whister writes for the defence's 5 tricks
     {"type": "game", "declarer": 1, "contract": (6, "D"), "whist": {2: "whist"}, "tricks": {1: 5}},
     {"B: gora +2", "C: 12 whists on B", "A: 2 whists on B"}),
    ("raspasy", {"type": "raspasy", "tricks": {0: 4, 1: 3}}, {"A: gora +4", "B: gora +3", "C: gora +3"}),
    ("raspasy again", {"type": "raspasy", "tricks": {2: 5, 0: 0}},  # the second in a row: doubled
     {"C: gora +10", "B: gora +10", "A: pulya +2"}),
]


@pytest.fixture(params=sorted(WORDS))
def table(request, live):
    """A phone in the table's language: chromium at 390×844 with its locale (so its Accept-Language)."""
    from playwright.sync_api import sync_playwright

    app, base, client = live
    words = WORDS[request.param]
    assert CHROMIUM, "Debian's chromium is missing: `make test` installs it (scripts/system-packages.sh)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}, locale=words["locale"]).new_page()
        errors = watch(page)
        yield request.param, words, base, page
        browser.close()
        assert errors == []


def named(lines: set[str], names: tuple[str, ...]) -> set[str]:
    """The expected lines with the table's names for A, B and C."""
    return {re.sub(r"\b[ABC]\b", lambda m: names["ABC".index(m.group())], line) for line in lines}


def shot(page, language: str, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{language}-{name}.png"), full_page=True)


def tap(page, name: str, value: object) -> None:
    chip = page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])")
    if not chip.locator("input").is_checked():
        chip.click()


def enter(page, deal: dict) -> None:
    """A deal tapped on the deal form, as a player would: a count the page filled in is not tapped again."""
    tap(page, "type", deal["type"])
    if "declarer" in deal:
        tap(page, "declarer", deal["declarer"])
    if "contract" in deal:
        tap(page, "level", deal["contract"][0])
        tap(page, "strain", deal["contract"][1])
    for seat, word in deal.get("whist", {}).items():
        tap(page, f"w{seat}", word)
    for seat, count in deal.get("tricks", {}).items():
        if page.locator(f".tricks-row[data-seat='{seat}']").is_visible():
            tap(page, f"t{seat}", count)
    page.click("button[value=save]")


def test_an_evening_at_the_table(table):
    language, words, base, page = table
    api = page.request

    # An account, made on the page: the first of the server.
    page.goto(f"{base}/register")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")

    # A Sochi pulka for three, started on the page; the currency follows the language.
    page.goto(f"{base}/new")
    for seat, name in enumerate(words["names"]):
        page.fill(f"input[name=player{seat}]", name)
    assert page.input_value("input[name=currency]") == words["currency"]
    tap(page, "preset", "sochi")
    page.fill("input[name=pulya_size]", "100")  # long enough that no pulya closes tonight
    shot(page, language, "new-pulka")
    page.click("main button.primary[type=submit]")
    page.wait_for_url(re.compile(r".*/p/[\w-]+$"))
    uid = page.url.rsplit("/", 1)[1]

    # Ten deals by tapping; after each save the next deal's form, with the saved deal's result at the top.
    page.goto(f"{base}/p/{uid}/deal")
    for n, (kind, deal, writes) in enumerate(DEALS, start=1):
        expect(page.locator("h1")).to_have_text(words["deal"].format(n=n))
        enter(page, deal)
        expect(page.locator("main")).to_contain_text(words["saved"].format(n=n), timeout=5000)
        stored = api.get(f"{base}/api/v1/pulkas/{uid}/deals/{n}", headers={"Accept-Language": "en"})
        assert stored.ok, (kind, page.inner_text("main"))
        assert set(stored.json()["summary"]) == named(writes, words["names"]), kind
        if n == 2:
            shot(page, language, "deal-saved")

    # A deal the rules refuse: the problem at the top, in view, the choices kept, nothing stored.
    tap(page, "type", "raspasy")
    tap(page, "t0", 9)
    tap(page, "t1", 3)
    page.click("button[value=save]")
    summary = page.locator(".error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text(words["not_saved"])
    assert page.is_checked("input[name=t0][value='9']")
    shot(page, language, "refused")
    assert api.get(f"{base}/api/v1/pulkas/{uid}").json()["deals"] == 10

    # The sheet: its words, the drawing both ways.
    page.goto(f"{base}/p/{uid}")
    main = page.inner_text("main").lower()
    assert all(word in main for word in words["sheet"]), main[:500]
    shot(page, language, "sheet")
    page.click("a[href='?orientation=upright']")
    page.wait_for_url("**orientation=upright")
    assert page.get_attribute(".drawing svg", "data-orientation") == "upright"
    shot(page, language, "drawing-upright")
    page.click("a[href='?orientation=table']")
    page.wait_for_url("**orientation=table")
    assert page.get_attribute(".drawing svg", "data-orientation") == "table"

    # Undo, and the deal offered back; restored.
    page.click(f"form[action$='/p/{uid}/undo'] button[type=submit]")
    offer = page.locator(".flash-undone")
    expect(offer).to_contain_text(words["removed"].format(n=10))
    shot(page, language, "undone")
    assert api.get(f"{base}/api/v1/pulkas/{uid}").json()["deals"] == 9
    offer.locator("button[type=submit]").click()
    expect(page.locator(".flash-undone")).to_have_count(0)
    assert api.get(f"{base}/api/v1/pulkas/{uid}").json()["deals"] == 10

    # An edit from the history: deal 1's declarer took one more; every later deal scored again.
    page.goto(f"{base}/p/{uid}/history")
    shot(page, language, "history")
    page.click(f"a[href$='/p/{uid}/deals/1/edit']")
    tap(page, "t2", 8)
    page.click("button[value=save]")
    expect(page.locator("main")).to_contain_text(words["edited"].format(n=1))  # an edit says so (issue 17)
    edited = api.get(f"{base}/api/v1/pulkas/{uid}/deals/1", headers={"Accept-Language": "en"}).json()
    assert set(edited["summary"]) == named({"C: pulya +4", "A: 8 whists on C"}, words["names"])

    page.goto(f"{base}/p/{uid}/settlement")
    shot(page, language, "settlement")

    # The PDF in the table's language.
    pdf = api.get(f"{base}/p/{uid}/pulka.pdf", headers={"Accept-Language": words["locale"]})  # as the browser asks
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf.body(), capture_output=True, check=True).stdout
    assert all(word in text.decode().lower() for word in words["pdf"])

    # The other language, one tap away on every page, and remembered.
    page.click(f"form.languages button[value={words['other']}]")
    expect(page.locator("html")).to_have_attribute("lang", words["other"])
    page.goto(f"{base}/p/{uid}/deal")
    expect(page.locator("h1")).to_have_text(words["other_h1"].format(n=11))
