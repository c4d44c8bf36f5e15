"""One account's ledger costs that account alone (issue 29): the settle-up in a cash unit is worked out once per
version of the ledger and unit, however many ask; a write reads only the rows it names and sums the database
makes, never every pulka and payment of the ledger, while answering what the whole ledger shows after it: the
line of a marked obligation, the balances a settle-up settles, in every kind of ledger (payments on an obligation
withdrawn since, merged players, a table shared by another account)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from sqlalchemy import event

from scorekeeper.web.domain import ledger as domain_ledger

from ..conftest import signed_in
from .test_ledger import book, evening, ids, named


def cash(client, unit: str, currency: str = "₽"):
    response = client.get("/api/v1/ledger", query_string={"currency": currency, "cash": unit})
    assert response.status_code == 200, response.json
    return response.json


@pytest.fixture
def counted(monkeypatch) -> list[Decimal | None]:
    """The unit of every settle-up the ledger works out (None: to the cent)."""
    units: list[Decimal | None] = []
    real = domain_ledger.settle_up

    def counting(balances, unit=None):
        units.append(unit)
        return real(balances, unit)

    monkeypatch.setattr(domain_ledger, "settle_up", counting)
    return units


def test_the_settle_up_in_cash_is_worked_out_once_per_version_and_unit(client, counted):
    evening(client, "ABC", 3, "₽")
    evening(client, "BCA", 3, "₽")
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": "46.50",
                                                 "currency": "₽"})
    first = cash(client, "10")
    assert all(cash(client, "10") == first for _ in range(3))
    page = client.get("/ledger", query_string={"currency": "₽", "cash": "10"})  # the page asks for the same one
    assert page.status_code == 200
    assert counted.count(Decimal(10)) == 1
    hundreds = cash(client, "100")
    assert cash(client, "100") == hundreds and counted.count(Decimal(100)) == 1
    assert counted.count(Decimal(10)) == 1  # another unit is another answer, not this one's

    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": "100",
                                                 "currency": "₽"})
    after = cash(client, "10")
    assert counted.count(Decimal(10)) == 2  # a new version of the ledger: worked out again, once
    assert cash(client, "10") == after and counted.count(Decimal(10)) == 2
    assert after["settle_up"] != first["settle_up"]
    moved = dict(after["balances"])
    for p in after["settle_up"]:  # what it suggests settles the new balances, to less than a unit each
        assert p["amount"] % 10 == 0
        moved[p["from"]] += p["amount"]
        moved[p["to"]] -= p["amount"]
    assert all(abs(v) < 10 for v in moved.values())


def test_a_settle_up_in_cash_of_another_account_is_its_own(app, client, counted):
    """Two accounts at the same versions share nothing: each its own balances, each its own answer."""
    evening(client, "ABC", 3, "₽")
    other = signed_in(app, "other", "other-password")
    evening(other, "ABC", 0.3, "₽")
    mine, theirs = cash(client, "10"), cash(other, "10")
    assert named(mine["balances"], ids(client)) == {"A": 790, "B": -644, "C": -146}
    assert named(theirs["balances"], ids(other)) == {"A": 79, "B": -64.4, "C": -14.6}
    # in tens (engine.cash): 70, −70, −20 leave two units, to the largest remainders (9 of A, 5.60 of B): 80, −60, −20
    assert sorted(p["amount"] for p in theirs["settle_up"]) == [20, 60]
    assert counted.count(Decimal(10)) == 2


# ---- what a write reads ----------------------------------------------------------------------------------


PARAMETER = r"(?:\?|%\([^)]*\)s|\$\d+)(?:::\w+)?"  # SQLite's, or psycopg's with PostgreSQL's cast


class Statements:
    """The statements the app sends while `recording`, their lists of parameters folded, so that a statement
    reads the same for one row and for a thousand."""

    def __init__(self, app):
        self.sent: list[str] = []
        self.recording = False
        event.listen(app.extensions["scorekeeper"].db.engine, "before_cursor_execute", self.heard)

    def heard(self, connection, cursor, statement, parameters, context, executemany):
        if self.recording:
            folded = re.sub(rf"{PARAMETER}(\s*,\s*{PARAMETER})+", "…", statement)
            self.sent.append(" ".join(folded.split()))

    def of(self, call) -> list[str]:
        self.sent, self.recording = [], True
        try:
            answer = call()
        finally:
            self.recording = False
        assert answer.status_code in (200, 201), answer.get_json()
        return self.sent


WRITES = {
    "payment": lambda client, who, line: client.post("/api/v1/ledger/payments", json={
        "from": who["C"], "to": who["A"], "amount": "1", "currency": "₽"}),
    "payment on an obligation": lambda client, who, line: client.post("/api/v1/ledger/payments", json={
        "from": who["C"], "to": who["A"], "amount": "1", "currency": "₽", "obligation": line}),
    "mark": lambda client, who, line: client.post(f"/api/v1/ledger/obligations/{line}/paid"),
    "unmark": lambda client, who, line: client.delete(f"/api/v1/ledger/obligations/{line}/paid"),
    "settle-up": lambda client, who, line: client.post("/api/v1/ledger/settle-up", json={"currency": "₽"}),
    "settle-up in cash": lambda client, who, line: client.post("/api/v1/ledger/settle-up", json={
        "currency": "₽", "cash": "10"}),
}


@pytest.mark.parametrize("write", sorted(WRITES))
def test_a_write_reads_no_result_and_as_much_of_a_big_ledger_as_of_a_small_one(app, client, write):
    """The same write on a ledger of 2 evenings and 3 payments, then of 6 evenings and 40 payments, each after a
    read (the circle's pulkas read once per version, as every page and answer read them): the same statements,
    none of them reading a pulka's result; the payments it reads are the ones it names, or sums."""
    statements = Statements(app)
    do = WRITES[write]

    def ledger_of(evenings: int, payments: int) -> list[str]:
        for _ in range(evenings):
            evening(client, "ABC", 3, "₽")
        who = ids(client)
        for i in range(payments):
            assert client.post("/api/v1/ledger/payments", json={
                "from": who["B"], "to": who["C"], "amount": str(i + 1), "currency": "₽"}).status_code == 201
        line = next(o["id"] for o in book(client)["obligations"] if o["from"] == who["C"])
        client.post(f"/api/v1/ledger/obligations/{line}/paid")  # something for an unmark to take back
        book(client)
        return statements.of(lambda: do(client, who, line))

    small = ledger_of(2, 3)
    big = ledger_of(4, 37)
    assert big == small
    assert not [s for s in big if "pulkas.result" in s]  # no pulka's result read again: the circle's are kept
    for s in big:
        if re.search(r"\bFROM ledger_payments\b", s):  # one named row, the rows of one obligation, or sums
            # (or the currencies the ledger holds, from the (owner, currency) index: a payment's must be one of
            # them, or look like none)
            assert re.search(r"ledger_payments\.(uid|obligation) = |\bsum\(|^SELECT DISTINCT ledger_payments\.currency ", s), s


# ---- what a write answers -----------------------------------------------------------------------------------


def check_marks(client, currency: str = "₽") -> None:
    """Mark each own obligation paid, unmark it, mark it again: each answer is its line as the ledger shows it
    right after."""
    for line in [o["id"] for o in book(client, currency)["obligations"]]:
        for method in ("post", "delete", "post"):
            answer = getattr(client, method)(f"/api/v1/ledger/obligations/{line}/paid")
            if answer.status_code == 403:  # a shared pulka's line
                break
            assert answer.status_code == 200, answer.json
            assert answer.json == next(o for o in book(client, currency)["obligations"] if o["id"] == line)


def check_settle(client, currency: str = "₽") -> None:
    before = book(client, currency)
    recorded = client.post("/api/v1/ledger/settle-up", json={"currency": currency})
    assert recorded.status_code == 201, recorded.json
    suggested = [(p["from"], p["to"], p["amount"]) for p in before["settle_up"]]
    assert [(p["from"], p["to"], p["amount"]) for p in recorded.json["payments"]] == suggested
    assert set(book(client, currency)["balances"].values()) <= {0}


def test_a_write_on_a_ledger_of_partial_payments_and_a_withdrawn_obligation(client):
    first = evening(client, "ABC", 3, "₽")
    evening(client, "BCA", 3, "₽")
    evening(client, "CAB", 0.3, "€")
    who = ids(client)
    line = next(o["id"] for o in book(client)["obligations"] if o["pulka"] == first and o["from"] == who["C"])
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": "100",
                                                 "currency": "₽", "obligation": line})
    client.post(f"/api/v1/ledger/obligations/{line}/paid")
    assert client.post(f"/api/v1/pulkas/{first}/reopen").status_code == 200  # its payments stay, on none
    assert client.post(f"/api/v1/pulkas/{first}/close").status_code == 200
    client.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["C"], "amount": "12.34",
                                                 "currency": "₽"})
    check_marks(client)
    check_marks(client, "€")
    check_settle(client)
    check_settle(client, "€")


def test_a_write_on_a_ledger_of_merged_players(client):
    evening(client, ("W", "A", "B"), 3, "₽")
    evening(client, ("Y", "C", "D"), 3, "₽")
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["W"], "to": who["B"], "amount": "5", "currency": "₽"})
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["Y"], "amount": "7", "currency": "₽"})
    assert client.post(f"/api/v1/players/{who['W']}/merge", json={"into": who["Y"]}).status_code == 204
    balances = book(client)["balances"]
    assert who["W"] not in balances and balances[who["Y"]] == 790 + 5 + 790 - 7
    check_marks(client)
    check_settle(client)


def test_a_write_on_a_ledger_with_a_table_shared_by_another_account(app, client):
    """The guest's ledger lists the owner's payments on the shared table's obligations: once the owner has marked
    them paid, its players are at 0 there too, and the guest's settle-up moves only his own players' money."""
    guest = signed_in(app, "guest", "guest-password")
    evening(guest, ("X", "Y", "Z"), 3, "₽")
    browser = app.test_client()  # the guest's, opening the owner's link
    browser.post("/login", data={"username": "guest", "password": "guest-password"})
    shared = evening(client, "ABC", 3, "₽")
    token = client.post(f"/api/v1/pulkas/{shared}/shares", json={"role": "viewer"}).json["token"]
    assert browser.get(f"/s/{token}").status_code == 302
    refused = guest.post("/api/v1/ledger/settle-up", json={"currency": "₽"})
    assert refused.status_code == 403  # the owner's players owe each other in it still
    for line in [o["id"] for o in book(client)["obligations"]]:
        assert client.post(f"/api/v1/ledger/obligations/{line}/paid").status_code == 200
    mine = ids(client)
    assert {mine[p]: book(guest)["balances"][mine[p]] for p in "ABC"} == dict.fromkeys(
        (mine[p] for p in "ABC"), 0)
    check_marks(guest)
    check_settle(guest)
