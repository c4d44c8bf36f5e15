"""The app at the table, in a real browser at 390×844: how many taps each kind of deal takes, the phone
sheet, the deal form's refusals and preview, undo and restore, the home list, dark mode, tap targets."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..conftest import add, create
from .test_browser import live, login, page  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


# -- taps per deal kind ----------------------------------------------------------------------------

# Each kind once, on A, B, C (A deals deal 1), in this order: the deal and what it must write. Tricks name
# what happened at the table; where a count cannot change any score the app need not ask for it.
KINDS = [
    ("game, both pass", {"type": "game", "declarer": "B", "contract": "6S"}, ["B: pulya +2"]),
    ("one whister, made", {"type": "game", "declarer": "C", "contract": "7H", "whist": {"A": "whist"},
                           "tricks": {"C": 7, "A": 2, "B": 1}}, ["C: pulya +4", "A: 12 whists on C"]),
    ("one whister, remiz", {"type": "game", "declarer": "A", "contract": "6D", "whist": {"C": "whist"},
                            "tricks": {"A": 5, "B": 3, "C": 2}},
     ["A: gora +2", "C: 12 whists on A", "B: 2 whists on A"]),
    ("two whisters", {"type": "game", "declarer": "B", "contract": "7C", "whist": {"C": "whist", "A": "whist"},
                      "tricks": {"B": 7, "C": 2, "A": 1}}, ["B: pulya +4", "C: 8 whists on B", "A: 4 whists on B"]),
    ("half-whist", {"type": "game", "declarer": "C", "contract": "6S", "whist": {"A": "pass", "B": "half"}},
     ["C: pulya +2", "B: 4 whists on C"]),
    ("misère", {"type": "misere", "declarer": "A", "tricks": {"A": 0}}, ["A: pulya +10"]),
    ("raspasy", {"type": "raspasy", "tricks": {"C": 4, "A": 3, "B": 3}},
     ["C: gora +4", "A: gora +3", "B: gora +3"]),
    ("checked ten, made", {"type": "game", "declarer": "C", "contract": "10S", "tricks": {"C": 10, "A": 0, "B": 0}},
     ["C: pulya +10"]),
    ("checked ten, failed", {"type": "game", "declarer": "A", "contract": "10H", "tricks": {"A": 9, "B": 1, "C": 0}},
     ["A: gora +10", "B: 20 whists on A", "C: 10 whists on A"]),
]
# Counted on main before the table-ux changes, with the same driver: from the page a save lands on to the
# next deal saved, the save included.
BEFORE = {"game, both pass": 5, "one whister, made": 8, "one whister, remiz": 8, "two whisters": 9,
          "half-whist": 6, "misère": 5, "raspasy": 5, "checked ten, made": 7, "checked ten, failed": 7}
# Now: the next deal's form follows a save, one whister's split is not asked (Sochi: whister_all), and a 10 for
# one hand leaves 0 to the others.
AFTER = {"game, both pass": 4, "one whister, made": 6, "one whister, remiz": 6, "two whisters": 8,
         "half-whist": 5, "misère": 4, "raspasy": 4, "checked ten, made": 5, "checked ten, failed": 6}
SEAT = {"A": 0, "B": 1, "C": 2}


class Taps:
    """Taps the way a player would, only where the page does not already show the right choice, and counts."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, locator) -> None:
        locator.click()
        self.count += 1

    def choose(self, name: str, value: object) -> None:
        chip = self.page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])")
        if not chip.locator("input").is_checked():
            self.click(chip)

    def deal(self, deal: dict) -> None:
        page = self.page
        if page.locator("form.deal-form").count() == 0:
            self.click(page.locator("a.button:has-text('Enter deal')"))
        self.choose("type", deal["type"])
        if "declarer" in deal:
            self.choose("declarer", SEAT[deal["declarer"]])
        if "contract" in deal:
            self.choose("level", deal["contract"][:-1])
            self.choose("strain", deal["contract"][-1])
        for name, word in deal.get("whist", {}).items():
            self.choose(f"w{SEAT[name]}", word)
        # The declarer's count first, then the others in the order the deal names them; a row the page hides
        # is not asked, and a count the page filled in is not tapped again.
        for name, count in deal.get("tricks", {}).items():
            if page.locator(f".tricks-row[data-seat='{SEAT[name]}']").is_visible():
                self.choose(f"t{SEAT[name]}", count)
        self.click(page.locator("button[value=save]"))


def test_taps_per_deal_kind(live, page):
    app, base, client = live
    uid = create(client, rules={"preset": "sochi", "pulya_size": 100})
    login(page, base)
    page.goto(f"{base}/p/{uid}")
    taps = Taps(page)
    taps.deal({"type": "raspasy", "tricks": {"B": 4, "C": 3, "A": 3}})  # so that every counted deal follows a save
    expect(page.locator("main")).to_contain_text("Deal 1 saved")
    counts = {}
    for n, (kind, deal, summary) in enumerate(KINDS, start=2):
        taps.count = 0
        taps.deal(deal)
        expect(page.locator("main")).to_contain_text(f"Deal {n} saved", timeout=3000)
        saved = client.get(f"/api/v1/pulkas/{uid}/deals/{n}")
        assert saved.status_code == 200, (kind, page.inner_text("main"))
        assert saved.json["summary"] == summary, kind
        counts[kind] = taps.count
    print("\n" + "\n".join(f"{kind:22} {BEFORE[kind]:2} → {counts[kind]:2}" for kind in BEFORE))
    assert counts == AFTER
    assert all(AFTER[kind] <= BEFORE[kind] for kind in BEFORE)


# -- the sheet on a phone --------------------------------------------------------------------------------


def long_pulka(client, players=("Anna", "Boris", "Vera"), deals=24) -> str:
    """A pulka of `deals` whisted games round the table: long chains of two- and three-digit numbers."""
    uid = create(client, list(players), rules={"preset": "sochi", "pulya_size": 200}, currency="₽")
    for n in range(deals):
        declarer, whister, passer = players[(n + 1) % 3], players[(n + 2) % 3], players[n % 3]
        made = n % 5 != 3
        tricks = {declarer: 7, whister: 2, passer: 1} if made else {declarer: 6, whister: 3, passer: 1}
        deal = {"type": "game", "declarer": declarer, "contract": "7H", "whist": {whister: "whist", passer: "pass"},
                "tricks": tricks}
        assert add(client, uid, deal).status_code == 201
    return uid


def test_chains_break_between_numbers_and_the_balance_is_near_the_top(live, page):
    app, base, client = live
    uid = long_pulka(client)
    login(page, base)
    page.goto(f"{base}/p/{uid}")
    numbers = page.locator("table.sheet .chain .n")
    assert numbers.count() > 50
    lines = page.evaluate("""() => [...document.querySelectorAll('table.sheet .chain')].map((chain) => ({
        numbers: [...chain.querySelectorAll('.n')].map((n) => n.getClientRects().length),
        tops: new Set([...chain.querySelectorAll('.n')].map((n) => Math.round(n.getBoundingClientRect().top))).size,
    }))""")
    assert all(count == 1 for chain in lines for count in chain["numbers"])  # no number split over two lines
    assert max(chain["tops"] for chain in lines) > 1  # and the long chains do wrap, between numbers
    assert page.locator("table.balances").bounding_box()["y"] < 844  # in the first screen, without scrolling
    assert page.locator("table.balances").bounding_box()["y"] < page.locator(".drawing").bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/ux-sheet-390.png", full_page=True)


def test_whole_whists_and_the_rounding_footnote(live, page):
    app, base, client = live
    uid = create(client, ["Anna", "Boris", "Vera"], rules={"preset": "sochi", "pulya_size": 20}, currency="₽")
    login(page, base)
    page.goto(f"{base}/p/{uid}")
    balances = page.locator("table.balances")
    # A sum and its currency are never split (issue 17): a non-breaking space between them.
    assert balances.locator("tbody tr").first.inner_text().split("\t") == ["Anna", "0", "0.00\u00a0₽"]
    assert page.locator(".footnote").count() == 0
    both_pass = {"type": "game", "declarer": "Boris", "contract": "6S", "whist": {"Vera": "pass", "Anna": "pass"}}
    assert add(client, uid, both_pass).status_code == 201  # pulya +2: thirds of a whist
    page.goto(f"{base}/p/{uid}")
    rows = [row.split("\t") for row in balances.locator("tbody tr").all_inner_texts()]
    # Whists exactly, without ".00"; money to the cent, rounded so that it sums to zero, and said so.
    assert rows == [["Anna", "−6⅔", "−6.66\u00a0₽"], ["Boris", "+13⅓", "+13.33\u00a0₽"], ["Vera", "−6⅔", "−6.67\u00a0₽"]]
    expect(page.locator(".footnote")).to_have_text("Money is rounded to the cent so that it sums to zero.")
    page.goto(f"{base}/p/{uid}/settlement")
    expect(page.locator(".footnote")).to_be_visible()


def test_the_home_list_and_same_players_again(live, page):
    app, base, client = live
    from ..conftest import SOCHI

    finished = create(client, rules={"preset": "sochi", "pulya_size": 10, "whist_price": 0.5}, name="Friday")
    for deal in SOCHI["deals"]:
        assert add(client, finished, deal).status_code == 201
    create(client, ["Anna", "Boris", "Vera"], name="Saturday")
    login(page, base)
    cards = page.locator("ul.pulkas li")
    expect(cards).to_have_count(2)
    # Both were started today: one evening, its date the heading, so a line says only how far each got.
    expect(page.locator("h2.evening")).to_have_count(1)
    expect(page.locator("h2.evening")).to_have_text(re.compile(r"^Evening of \d{1,2} \w+ \d{4}$"))
    assert cards.nth(0).locator("a").inner_text().splitlines()[1] == "not started"
    line = cards.nth(1).locator("a").inner_text().splitlines()[1]
    assert re.fullmatch(r"finished at \d{1,2}:\d\d · A won \+263⅓", line)
    assert "Anna" not in cards.nth(0).inner_text()  # no list of players
    box = cards.nth(1).bounding_box()
    assert box["height"] < 100 and box["x"] + box["width"] <= 390
    page.screenshot(path="/tmp/ux-home-390.png", full_page=True)

    # From the finished pulka's sheet: one tap makes the next pulka of the same table and opens it; the first
    # dealer follows on from the last deal (offered, and changeable, beside the button).
    page.goto(f"{base}/p/{finished}")
    expect(page.locator("form.again select[name=first_dealer]")).to_have_value("B")
    page.click("button:has-text('Same players again')")
    expect(page.locator("main")).to_contain_text("A new pulka for the same table: B deals first.")
    expect(page.locator("h1")).to_have_text("Friday, 2")
    assert page.url.rsplit("/", 1)[1] != finished
    expect(page.locator("a.button:has-text('Enter deal 1')")).to_be_visible()
    # And from the home list.
    page.goto(f"{base}/")
    page.click("ul.pulkas li:has-text('Saturday') button[aria-label='Same players again: Saturday']")
    expect(page.locator("h1")).to_have_text("Saturday, 2")
    page.goto(f"{base}/")
    expect(page.locator("ul.pulkas li")).to_have_count(4)


def test_dark_mode_has_no_bright_bar(live, page):
    app, base, client = live
    uid = long_pulka(client, deals=6)
    login(page, base)
    page.emulate_media(color_scheme="dark")
    page.goto(f"{base}/p/{uid}")
    luminance = page.evaluate("""() => {
        const [r, g, b] = getComputedStyle(document.querySelector('header.top')).backgroundColor.match(/\\d+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    }""")
    assert luminance < 0.2  # as dark as the page, not the bright accent green
    page.screenshot(path="/tmp/ux-dark-390.png", full_page=True)


def test_the_least_level_is_said_only_when_it_restricts(live, page):
    app, base, client = live
    raspasy = {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}}
    sochi_uid = create(client, rules={"preset": "sochi", "pulya_size": 100})  # raspasy_exit 6, 6, 6
    leningrad_uid = create(client, rules={"preset": "leningrad", "pulya_size": 100})  # 6, 7, 7
    for uid in (sochi_uid, leningrad_uid):
        for _ in range(2):
            assert add(client, uid, raspasy).status_code == 201
    login(page, base)
    page.goto(f"{base}/p/{sochi_uid}")
    expect(page.locator(".next .streak")).to_have_text("Raspasy ×2 in a row")
    page.goto(f"{base}/p/{sochi_uid}/deal")
    expect(page.locator(".streak")).to_have_text("Raspasy ×2 in a row.")
    page.goto(f"{base}/p/{leningrad_uid}")
    expect(page.locator(".next .streak")).to_have_text("Raspasy ×2 in a row · the next game is at least 7")
    page.goto(f"{base}/p/{leningrad_uid}/deal")
    expect(page.locator(".streak")).to_have_text("Raspasy ×2 in a row: a game now is at least 7.")


# -- entering a deal ----------------------------------------------------------------------------------------

LONG = "Konstantin Konstantinopolsky-Tsaregradov"  # 40 characters


def nothing_overflows(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(f"""() => [...document.querySelectorAll('body *')]
        .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > {width} + 0.5)
        .map((el) => el.tagName + '.' + el.className)""")
    assert wide == []


def small_targets(page) -> list[str]:
    """Visible buttons, links styled as controls, tabs, toggles and chips less than 44 px high or wide."""
    return page.evaluate("""() => [...document.querySelectorAll(
            '.button, button, nav.tabs a, header a, .toggle a, label.chip > span, summary')]
        .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([el, box]) => box.height < 44 || box.width < 44)
        .map(([el, box]) => `${el.tagName}.${el.className} "${el.textContent.trim()}" ${box.width}×${box.height}`)""")


def test_seats_in_order_long_names_and_labels(live, page):
    app, base, client = live
    uid = create(client, ["Anna", LONG, "Vera", "Gleb"], rules={"preset": "sochi", "pulya_size": 20})
    login(page, base)
    page.goto(f"{base}/p/{uid}/deal")
    seats = "(inputs) => inputs.map((input) => input.value)"
    # Anna deals deal 1 and sits out (greyed, in her place); the long name is first hand, marked.
    assert page.locator("[data-part=declarer] input").evaluate_all(seats) == ["0", "1", "2", "3"]
    assert page.locator("[data-part=declarer] input[value='0']").is_disabled()
    expect(page.locator("[data-part=declarer] label.chip.first")).to_contain_text(f"{LONG}1st hand")
    expect(page.get_by_role("radio", name=f"{LONG}, first hand")).to_be_visible()
    nothing_overflows(page)
    for name, value in (("type", "raspasy"), ("t1", 3), ("t2", 3)):
        page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])").click()
    page.click("button[value=save]")
    expect(page.locator("h1")).to_have_text("Deal 2")
    # The same places on the next deal.
    assert page.locator("[data-part=declarer] input").evaluate_all(seats) == ["0", "1", "2", "3"]
    # Deal 2: the long name deals and sits out, Vera is first hand. Gleb declares: Anna speaks first, then Vera.
    assert page.locator("[data-part=declarer] input[value='1']").is_disabled()
    page.locator("label.chip:has(input[name='declarer'][value='3'])").click()
    page.locator("label.chip:has(input[name='level'][value='6'])").click()
    page.locator("label.chip:has(input[name='strain'][value='S'])").click()
    rows = page.locator(".word-row:visible").evaluate_all("(rows) => rows.map((r) => r.dataset.seat)")
    assert rows == ["0", "2"]
    page.locator("label.chip:has(input[name='declarer'][value='0'])").click()  # Anna declares: Vera, then Gleb
    assert page.locator(".word-row:visible").evaluate_all("(rows) => rows.map((r) => r.dataset.seat)") == ["2", "3"]
    # Each chip names its player for a screen reader.
    expect(page.get_by_role("radio", name="Vera: whist")).to_be_visible()
    expect(page.get_by_role("radio", name="Vera: half-whist")).to_be_hidden()  # only the second defender's
    expect(page.get_by_role("radio", name="Gleb: half-whist")).to_be_visible()
    page.get_by_role("radio", name="Vera: whist").check()
    expect(page.get_by_role("radio", name="Anna: 6 tricks")).to_be_visible()
    assert small_targets(page) == []
    nothing_overflows(page)
    for path in ("", "/history", "/settlement", "/shares", "/settings"):
        page.goto(f"{base}/p/{uid}{path}")
        nothing_overflows(page)
        page.screenshot(path=f"/tmp/ux-long-name{path.replace('/', '-')}.png", full_page=True)
        assert small_targets(page) == []
    page.goto(f"{base}/")
    assert small_targets(page) == []


def test_the_preview_says_why_above_save(live, page):
    app, base, client = live
    uid = create(client, rules={"preset": "sochi", "pulya_size": 4})
    assert add(client, uid, {"type": "game", "declarer": "B", "contract": "6S",
                             "whist": {"C": "pass", "A": "pass"}}).status_code == 201
    login(page, base)
    page.goto(f"{base}/p/{uid}/deal")  # deal 2: B deals, C is first hand
    for name, value in (("declarer", 1), ("level", 7), ("strain", "S")):
        page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])").click()
    preview, save = page.locator(".preview"), page.locator("button[value=save]")
    expect(preview).to_contain_text("helps")
    # B's 4 overfill his pulya of 4 by 2: he helps with them, and each line says so.
    lines = preview.locator("li").all_inner_texts()
    assert lines[0] == "B: pulya +2\nB plays 7♠, both defenders pass: pulya +4 (2 of 4 fit: the pulya closes at 4)"
    assert any(line.startswith("B: 20 whists on ") and "helps" in line for line in lines)
    box, button = preview.bounding_box(), save.bounding_box()
    assert box["y"] + box["height"] <= button["y"] and button["y"] + button["height"] <= 844  # both in view
    page.screenshot(path="/tmp/ux-preview-390.png")


def test_an_edit_rebalances_the_counts(live, page):
    app, base, client = live
    uid = create(client, rules={"preset": "sochi", "pulya_size": 100})
    deal = {"type": "game", "declarer": "B", "contract": "7C", "whist": {"C": "whist", "A": "whist"},
            "tricks": {"B": 7, "C": 2, "A": 1}}
    assert add(client, uid, deal).status_code == 201
    login(page, base)
    page.goto(f"{base}/p/{uid}/deals/1/edit")
    checked = lambda seat: page.locator(f"input[name=t{seat}]:checked").get_attribute("value")  # noqa: E731
    page.locator("label.chip:has(input[name='t1'][value='8'])").click()  # the declarer took one more
    assert (checked(1), checked(2), checked(0)) == ("8", "2", "0")  # from the last hand, A
    page.locator("label.chip:has(input[name='t2'][value='1'])").click()
    assert (checked(1), checked(2), checked(0)) == ("8", "1", "1")  # A's count was filled in: it follows
    page.locator("label.chip:has(input[name='t0'][value='0'])").click()  # a count of a tapped row moves the rest
    assert (checked(1), checked(2), checked(0)) == ("8", "2", "0")
    page.click("button[value=save]")
    expect(page.locator("main")).to_contain_text("Deal 1 edited")  # an edit says so (issue 17)
    assert client.get(f"/api/v1/pulkas/{uid}/deals/1").json["deal"]["tricks"] == {"B": 8, "C": 2, "A": 0}


def test_undo_offers_restore(live, page):
    app, base, client = live
    uid = long_pulka(client, deals=3)
    deal = client.get(f"/api/v1/pulkas/{uid}/deals/3").json["deal"]
    login(page, base)
    page.goto(f"{base}/p/{uid}")
    page.click("button:has-text('Undo deal 3')")
    restore = page.locator(".flash-undone")
    expect(restore).to_contain_text("Deal 3 removed —")
    assert restore.bounding_box()["y"] < 844
    page.screenshot(path="/tmp/ux-restore-390.png")
    assert client.get(f"/api/v1/pulkas/{uid}").json["deals"] == 2
    restore.locator("button:has-text('Restore')").click()
    expect(page.locator("main")).to_contain_text("Deal 3 restored: ")
    assert client.get(f"/api/v1/pulkas/{uid}/deals/3").json["deal"] == deal
    expect(page.locator(".flash-undone")).to_have_count(0)
