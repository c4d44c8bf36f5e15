"""The deal form in a real browser (Debian's chromium through Playwright): taps, 10 − the rest, live preview."""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest
from playwright.sync_api import expect

from ..conftest import OWNER, SOCHI, add, create, make_app, signed_in, sochi

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags for a closed network: without them chromium keeps dialling out at start.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
pytestmark = pytest.mark.browser


@contextmanager
def serving(app) -> Iterator[str]:
    """`app` on waitress in a thread of this process, at the address yielded."""
    from waitress import create_server, wasyncore

    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed by the loop's own thread (woken by its trigger), which then ends: closed from here, the
        # sockets could go while that thread still waits on them in select() (EBADF in the thread).
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(10)
        server.task_dispatcher.shutdown()


@pytest.fixture
def live(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'browser.sqlite'}", tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    with serving(app) as base:
        yield app, base, signed_in(app)
    app.extensions["scorekeeper"].db.engine.dispose()


@pytest.fixture
def page():
    from playwright.sync_api import sync_playwright

    assert CHROMIUM, "Debian's chromium is missing: `make test` installs it (scripts/system-packages.sh)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        errors = watch(page)
        yield page
        browser.close()
        assert errors == []


def watch(page) -> list[str]:
    """Script errors and refusals of the Content-Security-Policy (an inline script or style would be one)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and "Content Security Policy" in message.text else None)
    return errors


def login(page, base, username=OWNER[0], password=OWNER[1]) -> None:
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def tap(page, name, value, scope=""):
    page.click(f"{scope} label.chip:has(input[name='{name}'][value='{value}'])".strip())


def test_a_common_deal_in_six_taps(live, page):
    app, base, client = live
    pulka_id = create(client, ["Anna", "Boris", "Vera", "Gleb"], currency="₽")
    login(page, base)
    page.goto(f"{base}/p/{pulka_id}/deal")
    assert page.locator("[data-part=whist]").is_hidden()  # nothing to say before a declarer
    tap(page, "declarer", 1)  # Boris; Anna deals and sits out
    tap(page, "level", 7)
    tap(page, "strain", "H")
    assert page.locator(".word-row[data-seat='1']").is_hidden()  # the declarer has no word
    assert page.locator("[data-part=tricks]").is_hidden()  # both pass: not played
    tap(page, "w2", "whist")
    assert page.locator("[data-part=open]").is_visible()
    # Sochi: a lone whister writes for the defence's total, so only Boris's count is asked.
    assert page.locator(".tricks-row[data-seat='2']").is_hidden() and page.locator(".tricks-row[data-seat='3']").is_hidden()
    tap(page, "t1", 8)
    expect(page.locator(".preview")).to_contain_text("Vera")
    assert page.locator(".preview .what").all_inner_texts() == ["Boris: pulya +4", "Vera: 8 whists on Boris"]
    page.click("button[value=save]")  # the sixth tap
    page.wait_for_url(f"{base}/p/{pulka_id}/deal")  # the next deal's form, at once
    assert "Deal 1 saved: Boris: pulya +4; Vera: 8 whists on Boris." in page.inner_text("main")
    expect(page.locator("h1")).to_have_text("Deal 2")
    expect(page.locator(".deal-who")).to_have_text("Boris deals · first hand Vera · Boris sits out")
    deal = client.get(f"/api/v1/pulkas/{pulka_id}/deals/1").json["deal"]
    assert deal["tricks"] == {"Boris": 8, "Vera": 2, "Gleb": 0}  # the split is not recorded: it changes nothing


def test_misere_raspasy_and_refusals(live, page):
    app, base, client = live
    pulka_id = create(client, rules={"preset": "sochi"})
    login(page, base)
    page.goto(f"{base}/p/{pulka_id}/deal")
    tap(page, "type", "misere")
    assert page.locator("[data-part=contract]").is_hidden()
    tap(page, "declarer", 2)
    assert page.locator(".tricks-row[data-seat='2']").is_visible()
    assert page.locator(".tricks-row[data-seat='0']").is_hidden()
    tap(page, "t2", 0)
    expect(page.locator(".preview")).to_contain_text("C: pulya +10")
    page.click("button[value=save]")
    page.wait_for_url(f"{base}/p/{pulka_id}/deal")
    expect(page.locator("h1")).to_have_text("Deal 2")
    tap(page, "type", "raspasy")
    tap(page, "t2", 5)
    tap(page, "t0", 5)
    assert page.is_checked("input[name=t1][value='0']")
    tap(page, "t1", 3)  # a tap on the filled-in hand takes it over; the hand tapped longest ago makes up the rest
    assert page.is_checked("input[name=t2][value='2']")
    tap(page, "t0", 9)  # 9 + 3 leave nothing for C: his count is cleared, and the save is refused
    assert page.locator("input[name=t2]:checked").count() == 0
    expect(page.locator(".preview")).to_contain_text("Not yet")
    page.click("button[value=save]")
    page.wait_for_load_state()
    summary = page.locator(".error-summary")
    expect(summary).to_be_focused()  # in view and read out
    expect(summary).to_contain_text("Tricks: ")
    assert summary.bounding_box()["y"] + summary.bounding_box()["height"] < 844
    assert page.is_checked("input[name=t0][value='9']") and page.is_checked("input[name=t1][value='3']")  # kept
    page.screenshot(path="/tmp/ux-refused-390.png")


def test_preset_fills_the_advanced_rules(live, page):
    app, base, client = live
    login(page, base)
    page.goto(f"{base}/new")
    page.fill("input[name=player0]", "Anna")
    page.fill("input[name=player1]", "Boris")
    page.fill("input[name=player2]", "Vera")
    assert page.inner_text("[data-player='1']") == "Boris"
    assert page.locator("[data-player='3']").locator("xpath=..").is_hidden()
    tap(page, "preset", "leningrad")
    page.click("details.advanced summary")
    assert page.input_value("input[name=p_raspasy_exit]") == "6, 7, 7"
    assert page.input_value("select[name=p_single_whist_remiz]") == "gentleman"
    page.fill("input[name=p_help_whists_per_point]", "15")
    tap(page, "first_dealer", 1)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/p/*")
    pulka = client.get("/api/v1/pulkas").json["pulkas"][0]
    body = client.get(f"/api/v1/pulkas/{pulka['id']}").json
    assert body["overrides"] == {"preset": "leningrad", "help_whists_per_point": 15}
    assert body["first_dealer"] == "Boris"


# -- the drawn sheet --------------------------------------------------------------------------------

NAMES = {"A": "Анна", "B": "Борис", "C": "Вера"}


def renamed(deal: dict) -> dict:
    """A Sochi example deal with real names."""
    out = dict(deal, **({"declarer": NAMES[deal["declarer"]]} if "declarer" in deal else {}))
    for key in ("whist", "tricks"):
        if key in deal:
            out[key] = {NAMES[k]: v for k, v in deal[key].items()}
    return out


def fits_the_screen(page) -> None:
    box = page.locator(".drawing svg").bounding_box()
    width = page.viewport_size["width"]
    assert page.locator(".drawing svg").is_visible()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["width"] > width * 0.8
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling


def test_the_drawing_on_a_phone(live, page):
    app, base, client = live
    pulka_id = create(client, list(NAMES.values()), name="Пулька у Анны", currency="₽")
    login(page, base)
    for deal in SOCHI["deals"][:3]:
        assert add(client, pulka_id, renamed(deal)).status_code == 201
    page.goto(f"{base}/p/{pulka_id}")
    fits_the_screen(page)
    assert page.locator(".drawing g.sector").count() == 3
    page.screenshot(path="/tmp/sheet-390.png", full_page=True)
    rotated = "[...document.querySelectorAll('.drawing g[transform*=rotate]')].length"
    table = page.evaluate(rotated)

    page.click(".toggle >> text=Upright")
    page.wait_for_url("**orientation=upright")
    assert page.get_attribute(".drawing svg", "data-orientation") == "upright"
    assert page.evaluate(rotated) < table
    fits_the_screen(page)

    # Deal 4 of docs/rules.md §10 through the form: Вера 6♥, Анна whists alone, Вера takes 5 (remiz).
    page.click("text=Enter deal 4")
    tap(page, "declarer", 2)
    tap(page, "level", 6)
    tap(page, "strain", "H")
    tap(page, "w0", "whist")
    tap(page, "t2", 5)
    page.click("button[value=save]")
    page.wait_for_url(f"{base}/p/{pulka_id}/deal")
    page.click("nav.tabs >> text=Sheet")
    gora = client.get(f"/api/v1/pulkas/{pulka_id}/sheet").json["table"][2]["gora_chain"]
    vera = page.locator(".drawing g.sector[data-player='Вера'] g[data-band='gora']")
    assert vera.get_attribute("data-chain") == ".".join(map(str, gora))
    assert vera.locator("tspan.new").text_content() == str(gora[-1])  # the newest value, in bold
    assert page.get_attribute(".drawing svg", "data-orientation") == "upright"  # remembered

    wide = page.context.new_page()  # the same browser, logged in
    wide.set_viewport_size({"width": 1280, "height": 900})
    wide.goto(f"{base}/p/{pulka_id}?orientation=table")
    drawing, table_box = wide.locator(".drawing").bounding_box(), wide.locator("table.sheet").bounding_box()
    assert drawing["x"] + drawing["width"] <= table_box["x"]  # beside the table
    wide.screenshot(path="/tmp/sheet-1280.png", full_page=True)
    dark = page.context.new_page()
    dark.emulate_media(color_scheme="dark")
    dark.goto(f"{base}/p/{pulka_id}")
    ink = dark.evaluate("getComputedStyle(document.querySelector('.drawing svg line')).stroke")
    assert ink == dark.evaluate("getComputedStyle(document.body).color") != "rgb(0, 0, 0)"
    dark.screenshot(path="/tmp/sheet-390-dark.png", full_page=True)


# -- the whole table on their phones -------------------------------------------------------------------


def test_the_table_follows_the_sheet_on_their_phones(live, tmp_path):
    """Register, start a pulka, make a scorer and a viewer link, open them on two more phones, read the
    QR code back, enter a deal on the scorer's phone and see it on the viewer's within 3 s, and revoke."""
    import subprocess
    import time

    from playwright.sync_api import sync_playwright

    app, base, _ = live
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phones = [browser.new_context(viewport={"width": 390, "height": 844}).new_page() for _ in range(3)]
        errors = [watch(phone) for phone in phones]
        owner, scorer, viewer = phones
        owner.goto(f"{base}/register")
        owner.fill("input[name=username]", "Anna")
        owner.fill("input[name=password]", "a long password")
        owner.click("main button[type=submit]")
        owner.wait_for_url(f"{base}/")
        owner.click("text=New pulka")
        for i, name in enumerate(("Anna", "Boris", "Vera")):
            owner.fill(f"input[name=player{i}]", name)
        owner.click("main button[type=submit]")
        owner.wait_for_url(f"{base}/p/*")
        uid = owner.url.rsplit("/", 1)[1]

        owner.click("nav.tabs >> text=Share")
        links = {}
        for role in ("scorer", "viewer"):
            tap(owner, "role", role)
            owner.click("main button[type=submit]")
            links[role] = owner.locator(f"li.share[data-role={role}] .share-url input").input_value()
        qr = owner.locator("li.share[data-role=viewer] .qr-code")
        assert qr.bounding_box()["width"] >= 250  # large enough to scan across the table
        qr.screenshot(path=str(tmp_path / "qr.png"))
        decoded = subprocess.run(["zbarimg", "--raw", "-q", str(tmp_path / "qr.png")], capture_output=True,
                                 text=True, check=True).stdout.strip()
        assert decoded == links["viewer"]
        owner.screenshot(path=str(tmp_path / "shares.png"), full_page=True)

        scorer.goto(links["scorer"])
        viewer.goto(links["viewer"])
        for phone in (scorer, viewer):
            phone.wait_for_url(f"{base}/p/{uid}")
        assert viewer.locator("text=Enter deal 1").count() == 0 and viewer.locator("nav.tabs >> text=Deal").count() == 0
        assert viewer.locator("text=Undo").count() == 0 and viewer.locator("nav.tabs >> text=Share").count() == 0
        viewer.evaluate("window.scrollTo(0, 400)")

        scorer.click("text=Enter deal 1")
        tap(scorer, "type", "raspasy")
        tap(scorer, "t1", 5)
        tap(scorer, "t2", 4)  # Anna: 10 − 5 − 4 = 1
        scorer.click("button[value=save]")
        scorer.wait_for_url(f"{base}/p/{uid}/deal")
        saved = time.monotonic()
        expect(viewer.locator(".live-note")).to_contain_text("Deal 1 added", timeout=3000)
        assert time.monotonic() - saved < 3
        assert "Deal 1 added by a scorer link" in viewer.inner_text(".live-note")
        assert "Raspasy: Boris 5, Vera 4, Anna 1" in viewer.inner_text("main")
        assert viewer.evaluate("window.scrollY") == 400  # the reader stays where he was
        viewer.screenshot(path=str(tmp_path / "viewer.png"), full_page=True)

        owner.goto(f"{base}/p/{uid}/shares")
        owner.locator("li.share[data-role=viewer] a:has-text('Revoke')").click()  # asked first
        owner.wait_for_url(re.compile(rf"{base}/p/{uid}/shares/[\w-]+/revoke"))
        expect(viewer.locator("main")).to_contain_text("Raspasy: Boris 5, Vera 4, Anna 1")  # nothing revoked yet
        owner.locator("main button:has-text('Revoke the link')").click()
        expect(viewer.locator(".live-note")).to_contain_text("no longer shared", timeout=5000)
        assert viewer.goto(f"{base}/p/{uid}").status == 404
        assert scorer.goto(f"{base}/p/{uid}").status == 200
        browser.close()
        assert errors == [[], [], []]


# -- another website tries to write ------------------------------------------------------------------------


EVIL = """<!doctype html><meta charset="utf-8"><title>Free cards</title>
<iframe name="sink"></iframe>
<script>
const targets = %s;
for (const url of targets.post) {
  for (const enctype of ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"]) {
    const form = document.createElement("form");
    form.method = "post"; form.action = url; form.target = "sink"; form.enctype = enctype;
    for (const [name, value] of Object.entries(targets.fields)) {
      const input = document.createElement("input");
      input.type = "hidden"; input.name = name; input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }
  fetch(url, {method: "POST", mode: "no-cors", credentials: "include", body: JSON.stringify(targets.json),
              headers: {"Content-Type": "text/plain"}}).catch(() => {});
  fetch(url, {method: "POST", mode: "no-cors", credentials: "include", body: new URLSearchParams(targets.fields)})
    .catch(() => {});
}
for (const url of targets.other) {
  for (const method of ["DELETE", "PUT", "PATCH"]) {
    fetch(url, {method, credentials: "include", body: JSON.stringify(targets.json),
                headers: {"Content-Type": "application/json"}}).catch(() => {});
  }
}
document.title = "sent";
</script>"""


@pytest.mark.parametrize("protected", [True, False])
def test_another_site_cannot_write(tmp_path, protected):
    """A page on another port (another origin, the same site: SameSite cookies do not stop it) posts forms
    (urlencoded, text/plain, multipart) and no-cors fetches at every write route while the owner is logged
    in. With the app's protection nothing changes; without it (the control), the same page does write."""
    import http.server
    import json as _json

    from ..conftest import snapshot

    app = make_app(f"sqlite:///{tmp_path / 'csrf.sqlite'}", tmp_path, WTF_CSRF_ENABLED=protected, TESTING=False)
    stack = ExitStack()
    base = stack.enter_context(serving(app))
    client = signed_in(app)
    uid = create(client, rules={"preset": "sochi", "pulya_size": 100})
    for _ in range(2):
        add(client, uid, {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}})
    share = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json["id"]
    post, other = [], []
    for rule in app.url_map.iter_rules():
        url = base + rule.rule.replace("<uid>", uid).replace("<int:number>", "1").replace(
            "<share_id>", share).replace("<int:account_id>", "1").replace("<token>", "x")
        if "POST" in rule.methods:
            post.append(url)
        if rule.methods & {"DELETE", "PUT", "PATCH"}:
            other.append(url)
    targets = {"post": post, "other": other, "json": {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}},
               "fields": {"type": "raspasy", "t0": "3", "t1": "3", "t2": "4", "action": "save", "name": "Hacked",
                          "currency": "X", "role": "scorer", "current": OWNER[1], "new": "hacked password",
                          "username": "intruder", "password": "hacked password", "text": _json.dumps(SOCHI)}}
    page_body = (EVIL % _json.dumps(targets)).encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(page_body)

        def log_message(self, *args):
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            victim = browser.new_context().new_page()
            login(victim, base)
            before = snapshot(app)
            victim.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
            victim.wait_for_function("document.title === 'sent'")
            victim.wait_for_timeout(2500)  # the forms and fetches reach the server
            after = snapshot(app)
            browser.close()
    finally:
        evil.shutdown()
        stack.close()
        app.extensions["scorekeeper"].db.engine.dispose()
    changed = {table for table in before if before[table] != after[table]}
    if protected:
        assert changed == set()
    else:
        assert changed  # the control: the attack is real (which writes land first varies: logging out is one)


def test_pages_open_again_without_a_connection(live, page):
    """The service worker keeps the app's files and the pages this phone opened: with no connection the
    sheet opened before still opens, and a page never opened says so instead of the browser's error."""
    app, base, client = live
    pulka_id = sochi(client, 3)
    login(page, base)
    page.goto(f"{base}/p/{pulka_id}")
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the worker's control
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.locator("h1")).to_contain_text("Pulka of A, B, C")
    page.context.set_offline(True)
    page.goto(f"{base}/p/{pulka_id}")
    expect(page.locator("main")).to_contain_text("Deal 4")  # the sheet as last seen
    page.goto(f"{base}/p/{pulka_id}/settlement")
    expect(page.locator("h1")).to_contain_text("No connection")
    page.context.set_offline(False)
