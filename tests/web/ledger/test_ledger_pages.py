"""The ledger's page and its API answer a page at a time (docs/club.md §3): the latest obligations and payments
first, a fixed number of each, and a link to the older ones that, followed to its end, shows every row exactly
once; the balances, who owes and the settle-up count every row on every page; `?all=1` is bounded too; a cursor
that is not one is refused naming it. The app here shows 3 rows a page, so that every size around a page is
cheap to make; one test keeps the real size, 50."""

from __future__ import annotations

import base64
import html
import json
import re

import pytest

from ..conftest import kept_sheet, make_app, signed_in

SIZE = 3
WORDS = {"en": {"obligations": "Obligations", "payments": "Payments", "older": "Older obligations and payments",
                "latest": "Back to the latest", "range": "{first}–{last} of {total}, the latest first"},
         "ru": {"obligations": "Долги по пулям", "payments": "Платежи", "older": "Более ранние долги и платежи",
                "latest": "К последним", "range": "{first}–{last} из {total}, сначала последние"}}


@pytest.fixture
def paged(database_url, tmp_path):
    app = make_app(database_url, tmp_path, PAGE_ROWS=SIZE)
    yield signed_in(app)
    app.extensions["scorekeeper"].db.engine.dispose()


def ledger_of(client, obligations: int, payments: int) -> tuple[list[int], list[str]]:
    """`obligations` kept sheets (B owes A 1 ₽, 2 ₽, …) and `payments` payments (notes n0, n1, …); what the
    ledger lists, the latest first: the obligations' amounts and the payments' notes."""
    for k in range(obligations):
        kept_sheet(client, whists=k + 1)
    if payments:
        who = {p["name"]: p["id"] for p in client.get("/api/v1/players").json["players"]}
        for k in range(payments):
            made = client.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["A"], "amount": "1",
                                                                 "currency": "₽", "note": f"n{k}"})
            assert made.status_code == 201, made.json
    return list(range(obligations, 0, -1)), [f"n{k}" for k in range(payments - 1, -1, -1)]


def on_page(page: str, language: str) -> tuple[list[int], list[str]]:
    """The obligations' amounts (in their table) and the payments' notes (in their list) a page shows."""
    words = WORDS[language]
    owed = page.split(f"<h2>{words['obligations']}</h2>")[1].split("</section>")[0]
    paid = page.split(f"<h2>{words['payments']}</h2>")[1].split("</section>")[0] if \
        f"<h2>{words['payments']}</h2>" in page else ""
    amounts = [int(a) for a in re.findall(r'<td class="num">(\d+)[.,]00\xa0₽</td>', owed)]
    return amounts, re.findall(r"— (n\d+)", paid)


def older_link(page: str, language: str) -> str | None:
    found = re.search(rf'<a href="([^"]+)" rel="next">{WORDS[language]["older"]}</a>', page)
    return html.unescape(found.group(1)) if found else None


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("obligations, payments", [(0, 0), (1, 3 * SIZE), (SIZE - 1, SIZE + 1), (SIZE, SIZE),
                                                   (SIZE + 1, 1), (3 * SIZE, SIZE - 1)])
def test_following_the_older_link_shows_every_row_once_the_latest_first(paged, language, obligations, payments):
    owed, paid = ledger_of(paged, obligations, payments)
    paged.post("/language", data={"language": language})
    words, seen_owed, seen_paid = WORDS[language], [], []
    address: str | None = "/ledger?currency=₽"
    pages = 0
    while address is not None:
        response = paged.get(address)
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        amounts, notes = on_page(page, language)
        assert len(amounts) <= SIZE and len(notes) <= SIZE
        if pages == 0 and obligations > SIZE:  # the first page says which of how many it shows
            assert words["range"].format(first=1, last=SIZE, total=obligations) in page
        assert (words["latest"] in page) == (pages > 0)  # every older page leads back to the latest
        seen_owed, seen_paid, pages = seen_owed + amounts, seen_paid + notes, pages + 1
        address = older_link(page, language)
        assert pages <= obligations + payments + 1, "the pages never end"
    assert seen_owed == owed and seen_paid == paid
    assert pages == max(1, -(-obligations // SIZE), -(-payments // SIZE))


@pytest.mark.parametrize("obligations, payments", [(0, 0), (1, 3 * SIZE), (SIZE - 1, SIZE + 1), (SIZE, SIZE),
                                                   (SIZE + 1, 1), (3 * SIZE, SIZE - 1)])
def test_following_next_in_the_api_gives_every_row_once_with_the_whole_ledgers_figures(paged, obligations,
                                                                                       payments):
    owed, paid = ledger_of(paged, obligations, payments)
    who = {p["name"]: p["id"] for p in paged.get("/api/v1/players").json["players"]}
    first = paged.get("/api/v1/ledger", query_string={"currency": "₽"}).json
    seen_owed, seen_paid, answer, pages = [], [], first, 1
    while True:
        assert len(answer["obligations"]) <= SIZE and len(answer["payments"]) <= SIZE
        # every page has the whole ledger's figures: B owes A every obligation, less every payment
        assert answer["balances"] == ({} if not obligations else {who["A"]: sum(owed) - len(paid),
                                                                  who["B"]: len(paid) - sum(owed)})
        assert (answer["owed"], answer["settle_up"]) == (first["owed"], first["settle_up"])
        seen_owed += [o["amount"] for o in answer["obligations"]]
        seen_paid += [p["note"] for p in answer["payments"]]
        if answer["next"] is None:
            break
        assert answer["next"].startswith("/api/v1/ledger?") and "currency=" in answer["next"]
        answer, pages = paged.get(answer["next"]).json, pages + 1
        assert pages <= obligations + payments + 1, "the pages never end"
    assert seen_owed == owed and seen_paid == paid
    assert pages == max(1, -(-obligations // SIZE), -(-payments // SIZE))


def test_the_next_page_keeps_the_cash_unit(paged):
    ledger_of(paged, 2, SIZE + 1)
    answer = paged.get("/api/v1/ledger", query_string={"currency": "₽", "cash": "10"}).json
    following = paged.get(answer["next"]).json
    assert "cash=10" in answer["next"] and following["cash"] == 10 and following["next"] is None
    assert following["settle_up"] == answer["settle_up"]


def test_rows_added_and_a_pulka_reopened_between_two_pages_neither_repeat_nor_skip_a_row(paged):
    """Page 1 shows obligations 4, 3, 2 and payments n3, n2, n1; then a pulka is frozen, a payment made and the
    pulka of obligation 3 reopened: the older link still leads to exactly obligation 1 and payment n0."""
    uids = [kept_sheet(paged, whists=k + 1) for k in range(SIZE + 1)]
    ledger_of(paged, 0, SIZE + 1)
    page = paged.get("/ledger?currency=₽").get_data(as_text=True)
    assert on_page(page, "en") == ([4, 3, 2], ["n3", "n2", "n1"])
    kept_sheet(paged, whists=9)
    who = {p["name"]: p["id"] for p in paged.get("/api/v1/players").json["players"]}
    assert paged.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["A"], "amount": "1",
                                                        "currency": "₽", "note": "n9"}).status_code == 201
    assert paged.post(f"/api/v1/pulkas/{uids[2]}/reopen", json={}).status_code == 200
    older = paged.get(older_link(page, "en")).get_data(as_text=True)
    assert on_page(older, "en") == ([1], ["n0"]) and older_link(older, "en") is None
    assert on_page(paged.get("/ledger?currency=₽").get_data(as_text=True), "en") == ([9, 4, 2], ["n9", "n3", "n2"])


def test_all_is_a_first_page_too(paged):
    owed, paid = ledger_of(paged, SIZE + 1, SIZE + 1)
    page = paged.get("/ledger?currency=₽&all=1").get_data(as_text=True)
    assert on_page(page, "en") == (owed[:SIZE], paid[:SIZE]) and older_link(page, "en") is not None


def _cursor(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


@pytest.mark.parametrize("cursor", ["x", "!!", "ы", "a" * 201, _cursor([]), _cursor([None, None, None]),
                                    _cursor([[1.5, "a"], None]), _cursor([[10**25, "a"], None]),
                                    _cursor([[1, ""], None])])
def test_a_cursor_that_is_not_one_is_refused_naming_it(paged, cursor):
    ledger_of(paged, 1, 1)
    api = paged.get("/api/v1/ledger", query_string={"currency": "₽", "cursor": cursor})
    assert api.status_code == 400 and api.json["error"]["field"] == "cursor"
    page = paged.get("/ledger", query_string={"currency": "₽", "cursor": cursor})
    assert page.status_code == 400 and "cursor" in page.get_data(as_text=True)


def test_the_real_page_holds_fifty_of_each(client):
    """The app's own size: 51 payments are a page of 50 and one more, on the page and in the API."""
    kept_sheet(client, whists=60)
    who = {p["name"]: p["id"] for p in client.get("/api/v1/players").json["players"]}
    for k in range(51):
        client.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["A"], "amount": "1",
                                                     "currency": "₽", "note": f"n{k}"})
    answer = client.get("/api/v1/ledger", query_string={"currency": "₽"}).json
    assert len(answer["payments"]) == 50 and answer["payments"][0]["note"] == "n50"
    assert [p["note"] for p in client.get(answer["next"]).json["payments"]] == ["n0"]
    page = client.get("/ledger?currency=₽").get_data(as_text=True)
    assert on_page(page, "en") == ([60], [f"n{k}" for k in range(50, 0, -1)])
    assert "1–50 of 51, the latest first" in page
    assert on_page(client.get(older_link(page, "en")).get_data(as_text=True), "en") == ([], ["n0"])
