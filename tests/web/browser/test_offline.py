"""A deal saved without a connection, in a real browser against a real server process: kept on the phone
(static/sw.js), shown as waiting on every page, sent when the server answers again, saved exactly once; a
refused one stays shown with the server's reason until discarded."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..system.test_processes import Server
from .test_browser import CHROMIUM, CHROMIUM_ARGS, tap, watch

pytestmark = pytest.mark.browser
PASSWORD = "a long password"
RASPASY = {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}}
# What the phone says, in each language of the table.
WORDS = {
    "en": {"locale": "en-GB", "kept": "Kept on this phone", "waiting": ("1 deal waiting to send", "2 deals waiting to send"),
           "deal": "Deal {n}", "state": "waiting to send", "next": "Enter the next deal", "sent": "sent",
           "deals": "2 deals"},
    "ru": {"locale": "ru-RU", "kept": "Сохранено на телефоне",
           "waiting": ("1 сдача ждёт отправки", "2 сдачи ждут отправки"), "deal": "Сдача {n}",
           "state": "ждёт отправки", "next": "Записать следующую сдачу", "sent": "Отправлено", "deals": "2 сдачи"},
}


@pytest.fixture
def table(request, tmp_path):
    """A server process on SQLite with an account, its token and a pulka of A, B, C; and a phone (chromium,
    390×844) logged in, with the service worker in control. Yields (server, token, pulka id, page, start),
    `start()` bringing the server back on its port and database after `server.stop()`."""
    from playwright.sync_api import sync_playwright

    url, instance = f"sqlite:///{tmp_path / 'offline.sqlite'}", tmp_path / "instance"
    servers = [Server(url, instance)]
    server = servers[0]
    assert server.call("POST", "/api/v1/accounts", {"username": "anna", "password": PASSWORD})[0] == 201
    token = server.call("POST", "/api/v1/tokens", {"username": "anna", "password": PASSWORD})[1]["token"]
    status, pulka, _ = server.call("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"], "rules": {
        "preset": "sochi", "pulya_size": 10, "whist_price": 0.5}}, token)
    assert status == 201

    def start() -> Server:
        servers.append(Server(url, instance, port=server.port))
        return servers[-1]

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            locale = WORDS[getattr(request, "param", "en")]["locale"]
            page = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale).new_page()
            errors = watch(page)
            page.goto(f"{server.base}/login")
            page.fill("input[name=username]", "anna")
            page.fill("input[name=password]", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_url(f"{server.base}/")
            page.goto(f"{server.base}/p/{pulka['id']}/deal")
            assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.reload()  # now under the worker's control, its files kept
            assert page.evaluate("navigator.serviceWorker.controller !== null")
            yield server, token, pulka["id"], page, start
            browser.close()
            assert errors == []
    finally:
        for each in servers:
            if each.process.poll() is None:
                each.stop()


def raspasy(page, counts=(4, 3)) -> None:
    tap(page, "type", "raspasy")
    tap(page, "t0", counts[0])
    tap(page, "t1", counts[1])  # C's count is filled in: 10 − the others
    page.click("button[value=save]")


def deals(server, token, uid) -> list[dict]:
    status, body, _ = server.call("GET", f"/api/v1/pulkas/{uid}/deals", token=token)
    assert status == 200, body
    return body["deals"]


@pytest.mark.parametrize("table", sorted(WORDS), indirect=True)
def test_deals_saved_without_a_connection_are_sent_once_when_it_returns(table, request):
    server, token, uid, page, start = table
    words = WORDS[request.node.callspec.params["table"]]
    notice = page.locator("[data-outbox]")
    expect(notice).to_be_hidden()
    server.stop()  # the server cannot be reached: no `online` event either
    raspasy(page)
    page.wait_for_url(f"{server.base}/outbox?p={uid}")  # not the browser's error page
    expect(page.locator("h1")).to_have_text(words["kept"])
    expect(notice).to_contain_text(words["waiting"][0])
    expect(notice.locator(".outbox-label")).to_have_text(words["deal"].format(n=1))
    expect(notice.locator(".outbox-state")).to_have_text(words["state"])
    shot(page, request, "offline-waiting")
    # The next deal, entered on the form this phone kept (it still says "Deal 1"): it is listed as deal 2.
    page.click(f"text={words['next']}")
    page.wait_for_url(f"{server.base}/p/{uid}/deal")
    expect(notice).to_contain_text(words["waiting"][0])  # on every page
    expect(page.locator("h1")).to_have_text(words["deal"].format(n=2))  # after the kept one, dealt by B
    expect(page.locator(".deal-who strong").first).to_have_text("B")
    raspasy(page, (2, 4))
    page.wait_for_url(f"{server.base}/outbox?p={uid}")
    expect(notice).to_contain_text(words["waiting"][1])
    expect(notice.locator(".outbox-label")).to_have_text([words["deal"].format(n=1), words["deal"].format(n=2)])
    shot(page, request, "offline-waiting-two")

    server = start()  # the same port and database; the page asks the worker to try again every few seconds
    expect(page.locator(".live-note")).to_contain_text(words["sent"], timeout=15_000)
    expect(notice).to_be_hidden(timeout=15_000)
    stored = deals(server, token, uid)
    assert [deal["deal"]["tricks"] for deal in stored] == [{"A": 4, "B": 3, "C": 3}, {"A": 2, "B": 4, "C": 4}]
    page.goto(f"{server.base}/p/{uid}")
    expect(page.locator("main")).to_contain_text(words["deals"])
    expect(notice).to_be_hidden()


def test_four_players_offline_the_next_deal_is_seated_after_the_kept_one(table):
    """With four, who sits out turns with the deal: the form kept for deal 1 (A deals and sits out) is shown
    offline for deal 2 (B deals and sits out, C first hand), and the sheet kept offers deal 3."""
    server, token, _, page, start = table
    status, pulka, _ = server.call("POST", "/api/v1/pulkas", {"players": ["A", "B", "C", "D"], "rules": {
        "preset": "sochi", "pulya_size": 10, "whist_price": 0.5}}, token)
    assert status == 201
    uid = pulka["id"]
    page.goto(f"{server.base}/p/{uid}")  # both pages opened once online: this phone keeps them
    page.goto(f"{server.base}/p/{uid}/deal")
    expect(page.locator(".deal-who")).to_contain_text("A deals · first hand B · A sits out")
    server.stop()
    tap(page, "type", "raspasy")
    tap(page, "t1", 4)
    tap(page, "t2", 3)  # D's 3 filled in
    page.click("button[value=save]")
    page.wait_for_url(f"{server.base}/outbox?p={uid}")
    page.click("text=Enter the next deal")
    page.wait_for_url(f"{server.base}/p/{uid}/deal")
    expect(page.locator("h1")).to_have_text("Deal 2")
    expect(page.locator(".deal-who")).to_contain_text("B deals · first hand C · B sits out")
    expect(page.locator('input[name="declarer"][value="1"]')).to_be_disabled()
    expect(page.locator('.tricks-row[data-seat="1"]:not([data-talon])')).to_have_count(0)
    expect(page.locator("button[value=save]")).to_have_text("Save deal 2")
    tap(page, "type", "raspasy")
    tap(page, "t2", 2)
    tap(page, "t3", 5)  # A's 3 filled in
    page.click("button[value=save]")
    page.wait_for_url(f"{server.base}/outbox?p={uid}")
    page.goto(f"{server.base}/p/{uid}")  # the sheet as kept: it offers the deal after the two kept ones
    expect(page.locator(".next a.button")).to_have_text("Enter deal 3")
    expect(page.locator(".next-line")).to_be_hidden()
    server = start()
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=15_000)
    stored = deals(server, token, uid)
    assert [deal["deal"]["tricks"] for deal in stored] == [{"B": 4, "C": 3, "D": 3}, {"C": 2, "D": 5, "A": 3}]


def shot(page, request, name: str) -> None:
    """A screenshot among the test artifacts, named by the table's language."""
    from .test_walkthrough import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{request.node.callspec.params['table']}-{name}.png"))


def test_a_lost_acknowledgment_is_sent_again_and_saved_once(table):
    """The server saves the deal but the phone never hears back: kept, sent again with its key, and the
    server answers its first answer without saving it again."""
    server, token, uid, page, _ = table
    context = page.context
    reached = []

    def lose_the_first_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        response = route.fetch(max_redirects=0)  # the server saves it…
        reached.append((response.status, response.headers.get("idempotent-replayed")))
        if len(reached) == 1:
            return route.abort()  # …and its answer is lost
        route.fulfill(response=response)

    context.route(f"**/p/{uid}/deal", lose_the_first_answer)
    notice = page.locator("[data-outbox]")
    raspasy(page)
    page.wait_for_url(f"{server.base}/outbox?p={uid}")
    expect(page.locator(".live-note")).to_contain_text("Deal 1 sent", timeout=15_000)
    expect(notice).to_be_hidden()
    assert reached == [(302, None), (302, "true")]  # sent again: the first answer, nothing saved again
    assert len(deals(server, token, uid)) == 1


def test_a_refused_deal_stays_shown_until_discarded(table):
    """An edit kept without a connection while another phone changed the pulka: the server refuses it (409)
    when it comes back; it stays listed with the server's reason, opens as the form with the choices kept,
    and goes only when discarded."""
    server, token, uid, page, _ = table
    for tricks in ({"A": 4, "B": 3, "C": 3}, {"A": 3, "B": 4, "C": 3}):
        assert server.call("POST", f"/api/v1/pulkas/{uid}/deals", {"type": "raspasy", "tricks": tricks}, token)[0] == 201
    page.goto(f"{server.base}/p/{uid}/deals/1/edit")
    page.context.set_offline(True)
    tap(page, "t0", 5)  # B's count follows? the hand tapped longest ago makes up the difference
    page.click("button[value=save]")
    page.wait_for_url(f"{server.base}/outbox?p={uid}")
    notice = page.locator("[data-outbox]")
    expect(notice).to_contain_text("1 deal waiting to send")
    expect(notice.locator("li")).to_contain_text("Edit deal 1")
    # Meanwhile another phone changes the pulka: the edit was made on a sheet that is no longer there.
    assert server.call("POST", f"/api/v1/pulkas/{uid}/deals", RASPASY, token)[0] == 201
    page.context.set_offline(False)
    row = notice.locator("li")
    expect(row).to_contain_text("refused, not saved:", timeout=15_000)
    expect(row).to_contain_text("changed")
    expect(notice.locator(".outbox-head")).to_have_text("Not sent: refused by the server")
    page.screenshot(path="/tmp/offline-refused-390.png")
    page.goto(f"{server.base}/p/{uid}")  # still there on every page, after any number of tries
    expect(row).to_contain_text("refused, not saved:")
    row.locator(".outbox-open").click()
    expect(page.locator(".error-summary")).to_contain_text("changed")
    assert page.is_checked("input[name=t0][value='5']")  # the choices kept
    page.goto(f"{server.base}/p/{uid}")
    row.locator(".outbox-discard").click()
    expect(notice).to_be_hidden()
    assert [deal["deal"]["tricks"]["A"] for deal in deals(server, token, uid)] == [4, 3, 4]  # nothing changed


def test_a_deal_kept_past_the_end_of_its_session_is_refused_not_dropped(table):
    """Sent again after the session ended, the write meets the log-in page (a redirect, not the server's
    acknowledgment): it stays listed as refused, and nothing is saved."""
    server, token, uid, page, _ = table
    page.context.set_offline(True)
    raspasy(page)
    page.wait_for_url(f"{server.base}/outbox?p={uid}")
    page.context.clear_cookies()  # logged out meanwhile
    page.context.set_offline(False)
    row = page.locator("[data-outbox] li")
    expect(row).to_contain_text("refused, not saved:", timeout=15_000)
    assert deals(server, token, uid) == []


PAYMENT = {"en": {"entry": "1 entry waiting to send", "button": "Record the payment", "label": "A payment",
                  "ledger": "Ledger"},
           "ru": {"entry": "1 запись ждёт отправки", "button": "Записать платёж", "label": "Платёж", "ledger": "Долги"}}


@pytest.mark.parametrize("table", sorted(WORDS), indirect=True)
def test_a_payment_saved_without_a_connection_is_kept_and_recorded_once(table, request):
    server, token, uid, page, _ = table
    words = PAYMENT[request.node.callspec.params["table"]]
    page.goto(f"{server.base}/ledger")
    page.fill("input[name=amount]", "150")
    page.context.set_offline(True)
    page.get_by_role("button", name=words["button"]).click()
    page.wait_for_url(f"{server.base}/outbox?p=ledger")
    notice = page.locator("[data-outbox]")
    expect(notice.locator(".outbox-head")).to_have_text(words["entry"])
    expect(notice.locator(".outbox-label")).to_have_text(words["label"])
    back = page.locator("main a[data-ledger]")
    expect(back).to_have_text(words["ledger"])
    assert back.get_attribute("href") == "/ledger"
    shot(page, request, "offline-payment")
    page.context.set_offline(False)
    expect(notice).to_be_hidden(timeout=15_000)
    status, book, _ = server.call("GET", "/api/v1/ledger", token=token)
    assert status == 200 and [(p["amount"], p["kind"]) for p in book["payments"]] == [(150, "payment")]
    assert sorted(book["balances"].values()) == [-150, 150]
