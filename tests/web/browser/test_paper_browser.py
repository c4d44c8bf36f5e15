"""A paper sheet in a real browser at 390×844, in Russian and in English: found from the log-in page without an
account, typed in (the balances answer as it is typed), a mistake refused on its field, the result told step
by step; then, logged in, kept as a pulka and continued from it for three deals."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.files import pulyafile

from .test_browser import live  # noqa: F401  (fixture)
from .test_ledger_browser import register
from .test_walkthrough import WORDS, enter, shot, table  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

SAY = {
    "en": {"link": "Settle a paper sheet", "amnesty": "Amnesty: the smallest gora, 42, is struck from every gora.",
           "pair": "{a}–{b}: 350 − 64 = 286; for the pulya +20: 306.", "pays": "{v} → {a}: 227.50",
           "wrong": "takes a whole number", "keep": "Keep it as a pulka", "reopen": "Reopen to change it"},
    "ru": {"link": "Посчитать бумажную пулю", "amnesty": "Амнистия: наименьшая гора, 42, списывается со всех гор.",
           "pair": "{a}–{b}: 350 − 64 = 286; за пулю +20: 306.", "pays": "{v} → {a}: 227,50",
           "wrong": "нужно целое число", "keep": "Сохранить как пульку",
           "reopen": "Открыть снова, чтобы изменить"},
}
# [MM]'s sheet (docs/rules.md §9.2), by seat
PULYA, GORA = (20, 14, 20), (42, 96, 132)
WHISTS = {(0, 1): 170, (0, 2): 60, (1, 0): 64, (1, 2): 178, (2, 0): 88, (2, 1): 95}
DEALS = [
    {"type": "game", "declarer": 1, "contract": (6, "D")},  # both pass: Борис 14 → 16
    {"type": "game", "declarer": 0, "contract": (6, "S")},  # Аня's pulya is closed: she helps Борис, 16 → 18
    {"type": "raspasy", "tricks": {1: 4, 2: 3}},  # Аня dealt the first: the third deal is hers to deal
]


def fill(page, names: tuple[str, ...]) -> None:
    for seat, name in enumerate(names):
        page.fill(f"input[name=player_{seat}]", name)
    page.fill("input[name=whist_price]", "0,5" if page.locator("html").get_attribute("lang") == "ru" else "0.5")
    for seat in range(3):
        page.fill(f"input[name=pulya_{seat}]", str(PULYA[seat]))
        page.fill(f"input[name=gora_{seat}]", str(GORA[seat]))
    for (i, j), whists in WHISTS.items():
        page.fill(f"input[name=whists_{i}_{j}]", str(whists))


def test_a_paper_sheet_settled_kept_and_continued(table):
    language, words, base, page = table
    say, (a, b, v) = SAY[language], words["names"]

    page.goto(f"{base}/login")
    page.click(f"text={say['link']}")
    page.wait_for_url(f"{base}/paper")
    fill(page, (a, b, v))
    # the grid as the paper: a row per player, headed by his name as typed; a table of three shows no fourth
    grid = page.locator("table.paper-grid")
    expect(grid.locator("tbody tr:visible th")).to_have_text([a, b, v])
    expect(grid.locator("thead tr").nth(1).locator("th:visible")).to_have_text([a, b, v])
    box = grid.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    # as typed, the server's settlement: who pays whom
    expect(page.locator("#paper-live")).to_contain_text(say["pays"].format(a=a, v=v))

    # a mistake, refused on its field, nothing guessed
    page.fill("input[name=pulya_1]", "14,5")
    page.click("main button.primary[type=submit]")
    field = page.locator("input[name=pulya_1]")
    expect(field).to_have_attribute("aria-invalid", "true")
    error = page.locator(f"#{field.get_attribute('aria-describedby')}")
    expect(error).to_contain_text(say["wrong"])
    expect(error).to_contain_text(b)  # the cell named as players name it
    expect(page.locator("#paper-result")).to_have_count(0)
    shot(page, language, "paper-mistake")

    page.fill("input[name=pulya_1]", "14")
    page.click("main button.primary[type=submit]")
    result = page.locator("#paper-result")
    expect(result).to_contain_text(say["amnesty"])
    expect(result).to_contain_text(say["pair"].format(a=a, b=b))
    shot(page, language, "paper-result")

    # logged in, the sheet is kept as a pulka of his
    register(page, base)
    page.goto(f"{base}/paper")
    fill(page, (a, b, v))
    page.click(f"text={say['keep']}")
    page.wait_for_url(re.compile(r".*/p/[\w-]+$"))
    uid = page.url.rsplit("/", 1)[1]

    # kept closed, as the paper left it: the table reopens it and goes on from it in the app
    assert page.request.get(f"{base}/api/v1/pulkas/{uid}").json()["result"]["ending"] == "closed"
    page.click(f"text={say['reopen']}")
    page.wait_for_url(re.compile(r".*/p/[\w-]+$"))
    page.goto(f"{base}/p/{uid}/deal")
    for deal in DEALS:
        enter(page, deal)
        page.wait_for_load_state()
    exported = page.request.get(f"{base}/api/v1/pulkas/{uid}/export").json()
    assert len(exported["deals"]) == 3 and exported["opening"]["pulya"] == dict(zip((a, b, v), PULYA))
    expected = pulyafile.result_json(pulyafile.parse(exported))
    assert expected["sheet"]["pulya"] == {a: 20, b: 18, v: 20}
    assert expected["sheet"]["whists"][a][b] == 170 + 20
    settled = page.request.get(f"{base}/api/v1/pulkas/{uid}/settlement").json()
    assert [round(p["net"], 2) for p in settled["players"]] == list(expected["settlement"]["balance"].values())
    shot(page, language, "paper-continued")


def test_a_table_of_four_fits_a_phone(table):
    language, words, base, page = table
    page.goto(f"{base}/paper")
    grid = page.locator("table.paper-grid")
    expect(grid.locator("tbody tr:visible")).to_have_count(3)  # no fourth seat until it has a name
    names = (*words["names"], "Григорий" if language == "ru" else "Gregory")
    for seat, name in enumerate(names):
        page.fill(f"input[name=player_{seat}]", name)
    expect(grid.locator("tbody tr:visible th")).to_have_text(list(names))
    page.fill("input[name=whists_0_1]", "1170")
    cell = page.locator("input[name=whists_0_1]")
    widths = cell.evaluate("input => [input.scrollWidth, input.clientWidth]")
    assert widths[0] <= widths[1], widths  # four digits shown whole
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page never scrolls sideways
    box = grid.bounding_box()
    assert box["x"] + box["width"] <= 390
    shot(page, language, "paper-four")


def test_the_size_the_table_played(table):
    """The pulya size beside the preset, the preset's shown: the live answer reads it (a pulya written down
    from 10 cannot have 15 left), and a sheet of pulya 10 closed 10/10/10 is kept as a finished pulka."""
    language, words, base, page = table
    a, b, v = words["names"]
    register(page, base)
    page.goto(f"{base}/paper")
    size = page.locator("input[name=pulya_size]")
    expect(size).to_have_value("20")  # Sochi's
    size.fill("10")
    page.select_option("select[name=preset]", "rostov")
    expect(size).to_have_value("10")  # the table's own size stays when the preset changes
    page.select_option("select[name=preset]", "sochi")
    for seat, name in enumerate((a, b, v)):
        page.fill(f"input[name=player_{seat}]", name)
        page.fill(f"input[name=gora_{seat}]", ("0", "30", "0")[seat])
    page.check("input[name=pulya_counts_down]")
    page.fill("input[name=pulya_0]", "15")
    expect(page.locator("input[name=pulya_0]")).to_have_attribute("aria-invalid", "true")
    for seat in range(3):
        page.fill(f"input[name=pulya_{seat}]", "0")  # nothing left of 10: every pulya closed
    expect(page.locator("#paper-live")).to_contain_text(f"{b} → ")
    page.click(f"text={SAY[language]['keep']}")
    page.wait_for_url(re.compile(r".*/p/[\w-]+$"))
    uid = page.url.rsplit("/", 1)[1]
    pulka = page.request.get(f"{base}/api/v1/pulkas/{uid}").json()
    assert (pulka["rules"]["pulya_size"], pulka["result"]["ending"]) == (10, "finished")
    expect(page.locator("main")).to_contain_text("пуля 10" if language == "ru" else "pulya 10")
    shot(page, language, "paper-kept-finished")
