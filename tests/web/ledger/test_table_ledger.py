"""A pulka's settlement beside the ledger (docs/club.md §4), and the issue's evening: after a settle-up nothing is
owed anywhere (docs/club.md §3: who owes is read from the balances, never pair by pair).

The figures are docs/rules.md §10's Sochi example at a whist price of 3: seat 0 wins 790, seat 1 pays him 644
and seat 2 146 (test_ledger's `evening`)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from ..conftest import SOCHI, signed_in
from ..pulkas.test_drawing import poppler
from .test_ledger import book, by_pair, ended_on, evening, ids, named, owing

NBSP = "\u00a0"
RU = {"Accept-Language": "ru"}


def page(client, uid, **query) -> str:
    return client.get(f"/p/{uid}/settlement", query_string=query).get_data(as_text=True)


def section(html: str) -> str:
    """The settlement page's ledger section, tags stripped (empty when there is none)."""
    found = re.search(r'<section aria-label="(?:In the ledger now|Долги сейчас)".*?</section>', html, re.S)
    return spaced(re.sub(r"<[^>]+>", " ", re.sub(r"</?strong>", "", found.group()))) if found else ""


def spaced(text: str) -> str:
    """Runs of white space as one space; a no-break space, which keeps an amount with its currency, kept."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def pdf_text(client, uid, **headers) -> str:
    return " ".join(poppler("pdftotext", client.get(f"/p/{uid}/pulka.pdf", headers=headers).data).split())


def russian(client) -> None:
    client.post("/language", data={"language": "ru"})
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ru"


# ---- the evening -------------------------------------------------------------------------------------


def club_evening(client) -> dict[str, str]:
    """Five players, three pulkas over two evenings, then the suggested settle-up recorded with the ledger
    page's button ("Записать эти платежи"). Returns the pulkas by name."""
    first = evening(client, ["Борис", "Вера", "Дима"], 3, "₽")  # Вера → Борис 644, Дима → Борис 146
    second = evening(client, ["Дима", "Аня", "Гоша"], 3, "₽")  # Аня → Дима 644, Гоша → Дима 146
    third = evening(client, ["Гоша", "Борис", "Аня"], 3, "₽")  # Борис → Гоша 644, Аня → Гоша 146
    who = ids(client)
    # Борис 790 − 644, Вера −644, Дима −146 + 790, Аня −644 − 146, Гоша −146 + 790
    assert named(book(client)["balances"], who) == {"Борис": 146, "Вера": -644, "Дима": 644, "Аня": -790,
                                                    "Гоша": 644}
    russian(client)
    ledger = client.get("/ledger?currency=₽").get_data(as_text=True)
    assert "Записать эти платежи" in ledger and f"Вера: долг 644,00{NBSP}₽ с " in ledger
    done = client.post("/ledger", data={"action": "settle", "currency": "₽", "note": "в конце вечера"},
                       follow_redirects=True)
    assert "Расчёт записан платежами." in done.get_data(as_text=True)
    return {"first": first, "second": second, "third": third}


def test_after_the_settle_up_nothing_is_owed_in_the_api_the_page_or_the_csv(client):
    club_evening(client)
    who = ids(client)
    after = book(client)
    assert set(after["balances"].values()) == {0} and after["owed"] == [] and after["settle_up"] == []
    # paid on by nobody, yet nothing open: each debtor's payments (and what others owe him) cover his part
    assert {o["status"] for o in after["obligations"]} == {"settled"} and {o["open"] for o in after["obligations"]} == {0}
    assert len(by_pair(after, who)) == 6
    ledger = client.get("/ledger?currency=₽").get_data(as_text=True)
    assert "Никто никому не должен." in ledger
    assert "долг " not in ledger and "не оплачено" not in ledger and "Кто кому должен" not in ledger
    assert ledger.count("погашено по балансу") == 6
    csv = client.get("/ledger.csv?currency=₽").get_data(as_text=True)
    assert "\r\nowed," not in csv and csv.count(",settled,") == 6


def test_after_the_settle_up_every_pulka_of_the_evening_says_its_table_is_settled(client):
    pulkas = club_evening(client)
    for uid in pulkas.values():
        shown = section(page(client, uid))
        assert shown == "Долги сейчас Все за этим столом в расчёте: никто никому ничего не должен."
        text = pdf_text(client, uid, **RU)
        assert "Все за этим столом в расчёте: никто никому ничего не должен." in text
        assert "Долги с прошлых вечеров" not in text


def test_the_next_pulka_of_the_table_shows_no_debt_of_vera(client):
    pulkas = club_evening(client)
    # the same table the next evening; Вера wins it (seat 0): +790, Борис −644, Дима −146
    nxt = evening(client, ["Вера", "Борис", "Дима"], 3, "₽")
    shown = section(page(client, nxt))
    assert "Долги с прошлых вечеров" not in page(client, nxt) and "прежними" not in page(client, nxt)
    assert f"Вера +790,00{NBSP}₽" in shown and f"Борис −644,00{NBSP}₽" in shown and f"Дима −146,00{NBSP}₽" in shown
    # they owe only each other: its own transfers settle all of it; nothing is owed to Борис
    assert f"Борис → Вера: 644,00{NBSP}₽" in shown and f"Дима → Вера: 146,00{NBSP}₽" in shown
    assert "Вера →" not in shown and ": долг" not in shown
    # the first pulka of that table, shown now, is its players' standing now: the next pulka's, not "before" it
    first = section(page(client, pulkas["first"]))  # its seats: Борис, Вера, Дима
    assert all(line in first for line in (f"Вера +790,00{NBSP}₽", f"Борис −644,00{NBSP}₽", f"Дима −146,00{NBSP}₽",
                                          f"Борис → Вера: 644,00{NBSP}₽", f"Дима → Вера: 146,00{NBSP}₽"))
    # an unfinished pulka of theirs has no ledger section: it is in no figure yet
    going = evening(client, ["Вера", "Борис", "Дима"], 3, "₽", deals=3)
    assert section(page(client, going)) == "" and "Долги с прошлых вечеров" not in page(client, going)


def test_vera_pays_dima_what_she_owed_boris(client):
    """Вера owes Борис 644 and Борис owes Дима 644 (and Дима Борис 146, Аня Дима 146): Вера pays Дима and Аня
    pays Борис, each on no obligation. Every balance is 0: nothing is owed, every obligation settled."""
    first = evening(client, ["Борис", "Вера", "Дима"], 3, "₽")
    evening(client, ["Дима", "Борис", "Аня"], 3, "₽")
    who = ids(client)
    for payer, payee in (("Вера", "Дима"), ("Аня", "Борис")):
        amount = 644 if payer == "Вера" else 146
        assert client.post("/api/v1/ledger/payments", json={"from": who[payer], "to": who[payee], "amount": amount,
                                                            "currency": "₽"}).status_code == 201
    after = book(client)
    assert set(after["balances"].values()) == {0} and after["owed"] == []
    assert by_pair(after, who) == {("Вера", "Борис"): (644, 0, 0, "settled"), ("Дима", "Борис"): (146, 0, 0, "settled"),
                                   ("Борис", "Дима"): (644, 0, 0, "settled"), ("Аня", "Дима"): (146, 0, 0, "settled")}
    assert section(page(client, first)) == ("In the ledger now Everyone at this table is at 0 in the ledger: nobody "
                                            "owes anything.")


def test_vera_pays_dima_only_part_of_it_and_owes_the_rest_since_the_first_evening(client):
    first = evening(client, ["Борис", "Вера", "Дима"], 3, "₽")
    second = evening(client, ["Дима", "Борис", "Аня"], 3, "₽")
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["Вера"], "to": who["Дима"], "amount": 600,
                                                 "currency": "₽"})
    after = book(client)
    day = ended_on(client, first)
    # Вера −44 (644 open on Вера → Борис less the 600 she paid on none); Аня −146, since the second evening
    assert owing(after, who) == [("Аня", 146, ended_on(client, second)), ("Вера", 44, day)]
    assert by_pair(after, who)[("Вера", "Борис")] == (644, 0, 44, "part")
    ledger = client.get("/ledger?currency=₽").get_data(as_text=True)
    assert f"Вера owes 44.00{NBSP}₽ since {day[8:10]}.{day[5:7]}.{day[:4]}" in ledger


# ---- a pulka's page shows where its players stand now, never a later pulka as "before" -----------------------


@pytest.mark.parametrize("later, figures, settles", [
    # the same table again: A +1580, B −1288, C −292, still only each other's
    ("ABC", ["A +1580.00", "B −1288.00", "C −292.00"], ["B pays A 1288.00", "C pays A 292.00"]),
    # another table with A and B: B −644 − 644, A +790 + 790 and D −146 are not all this table's
    ("ABD", ["A +1580.00", "B −1288.00", "C −146.00"], None),
    # a later pulka in euros: not in this pulka's currency, so no figure of it
    ("€", ["A +790.00", "B −644.00", "C −146.00"], ["B pays A 644.00", "C pays A 146.00"]),
])
def test_a_pulka_shows_its_players_now_and_never_a_later_pulka_as_before(client, later, figures, settles):
    first = evening(client, "ABC", 3, "₽")
    if later == "€":
        evening(client, "ABC", 3, "€")
    else:
        evening(client, later, 3, "₽")
    html = page(client, first)
    shown = section(html)
    assert "before" not in shown.lower() and "Owed from before" not in html
    assert shown.startswith("In the ledger now Each one’s balance in the ledger, everything included (this pulka too).")
    assert all(f"{figure}{NBSP}₽" in shown for figure in figures)
    if settles:
        assert "They owe only each other." in shown and all(f"{s}{NBSP}₽" in shown for s in settles)
        assert "The rest is owed" not in shown
    else:
        assert "The rest is owed to or by other players." in shown and " pays " not in shown
        assert 'href="/ledger?currency=%E2%82%BD"' in html


def test_a_pulkas_pdf_says_when_its_ledger_figures_were_read(client):
    first = evening(client, "ABC", 3, "₽")
    evening(client, "ABC", 3, "₽")
    before = datetime.now(timezone.utc).replace(second=0, microsecond=0)
    text = pdf_text(client, first)
    after = datetime.now(timezone.utc)
    read = re.search(r"In the ledger on (\d\d)\.(\d\d)\.(\d{4}) (\d\d):(\d\d)", text)
    assert read, text
    day, month, year, hour, minute = map(int, read.groups())
    assert before <= datetime(year, month, day, hour, minute, tzinfo=timezone.utc) <= after
    for line in ("A: +1580.00 ₽", "B: −1288.00 ₽", "C: −292.00 ₽", "They owe only each other.",
                 "B pays A 1288.00 ₽", "C pays A 292.00 ₽"):
        assert line in text, line
    assert "Owed from before" not in text and "before together" not in text


def test_the_pdf_of_a_table_owing_others_says_so_and_lists_no_payment(client):
    first = evening(client, "ABC", 3, "₽")
    evening(client, "ABD", 3, "₽")
    text = pdf_text(client, first)
    ledger = text[text.index("In the ledger on"):]
    assert "The rest is owed to or by other players: see the ledger." in ledger
    assert "A: +1580.00 ₽" in ledger and " pays " not in ledger.split("Rules in full")[0]


def test_the_pdf_reads_its_time_in_the_pulkas_own_offset_and_in_russian(client):
    far = SOCHI | {"started": "2026-11-20T23:40:00+14:00"}
    uid = client.post("/api/v1/import", json=far).json["id"]
    russian(client)
    low = datetime.now(timezone(timedelta(hours=14))).replace(second=0, microsecond=0)
    text = pdf_text(client, uid)
    high = datetime.now(timezone(timedelta(hours=14)))
    read = re.search(r"Долги на (\d\d)\.(\d\d)\.(\d{4}) (\d\d):(\d\d)", text)
    assert read, text
    day, month, year, hour, minute = map(int, read.groups())
    assert low <= datetime(year, month, day, hour, minute, tzinfo=timezone(timedelta(hours=14))) <= high


def test_a_links_viewer_has_no_ledger_in_the_page_or_the_pdf(app, client):
    first = evening(client, "ABC", 3, "₽")
    token = client.post(f"/api/v1/pulkas/{first}/shares", json={"role": "viewer"}).json["token"]
    viewer = app.test_client()
    assert viewer.get(f"/s/{token}").status_code == 302
    assert section(page(viewer, first)) == ""
    assert "In the ledger" not in pdf_text(viewer, first)


# ---- the table's settle-up, in one tap ------------------------------------------------------------------------


def test_the_tables_settle_up_is_recorded_from_its_page_and_touches_nobody_else(client):
    first = evening(client, "ABC", 3, "₽")
    evening(client, "DEF", 3, "₽")  # another table: E and F owe D
    who = ids(client)
    html = page(client, first)
    assert 'name="pulka" value="' + first + '"' in html and "Record these payments" in section(html)
    done = client.post("/ledger", data={"action": "settle", "currency": "₽", "pulka": first, "note": "settle-up"})
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/p/{first}/settlement")
    after = book(client)
    assert named(after["balances"], who) == {"A": 0, "B": 0, "C": 0, "D": 790, "E": -644, "F": -146}
    paid = sorted((p["from"], p["to"], p["amount"]) for p in after["payments"])
    assert paid == sorted([(who["B"], who["A"], 644), (who["C"], who["A"], 146)])
    assert section(page(client, first)).endswith("Everyone at this table is at 0 in the ledger: nobody owes anything.")


def test_the_tables_settle_up_in_a_cash_unit(client):
    first = evening(client, "ABC", 3, "₽")
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": "46.50", "currency": "₽"})
    # A +743.50, B −644, C −99.50; in tens: 740, −640, −100 (engine.cash)
    shown = section(page(client, first, cash="10"))
    assert f"B pays A 640.00{NBSP}₽" in shown and f"C pays A 100.00{NBSP}₽" in shown and "stays owed" in shown
    client.post("/ledger", data={"action": "settle", "currency": "₽", "pulka": first, "cash": "10"})
    assert named(book(client)["balances"], who) == {"A": 3.5, "B": -4, "C": 0.5}


def test_the_tables_settle_up_is_refused_when_its_players_owe_others_too(app, client):
    first = evening(client, "ABC", 3, "₽")
    evening(client, "ABD", 3, "₽")
    refused = client.post("/api/v1/ledger/settle-up", json={"currency": "₽", "pulka": first})
    assert refused.status_code == 400 and refused.json["error"]["field"] == "pulka"
    assert book(client)["payments"] == []
    assert "Record these payments" not in section(page(client, first))
    assert client.post("/api/v1/ledger/settle-up", json={"currency": "₽", "pulka": "nosuch"}).status_code == 404
    bad = client.post("/api/v1/ledger/settle-up", json={"currency": "₽", "pulka": 7})
    assert bad.status_code == 400 and bad.json["error"]["field"] == "pulka"
    stranger = signed_in(app, "stranger", "stranger-password")
    assert stranger.post("/api/v1/ledger/settle-up", json={"currency": "₽", "pulka": first}).status_code == 404


def test_an_account_a_pulka_is_shared_with_sees_the_standing_but_no_button(app, client):
    first = evening(client, "ABC", 3, "₽")
    token = client.post(f"/api/v1/pulkas/{first}/shares", json={"role": "viewer"}).json["token"]
    guest = signed_in(app, "guest", "guest-password")
    browser = app.test_client()
    browser.post("/login", data={"username": "guest", "password": "guest-password"})
    assert browser.get(f"/s/{token}").status_code == 302
    shown = section(page(guest, first))
    assert f"B pays A 644.00{NBSP}₽" in shown and "Record these payments" not in shown
    refused = guest.post("/api/v1/ledger/settle-up", json={"currency": "₽", "pulka": first})
    assert refused.status_code == 403
