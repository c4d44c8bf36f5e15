"""The club ledger's API (docs/club.md §3): obligations from frozen pulkas, payments and reversals as rows of their
own, paid marks taken back, who owes read from the balances (with since when), each obligation's open part and
status, the fewest payments suggested and recorded, and who may see and write what.

The figures are worked out by hand from docs/rules.md §10's Sochi example (A, B, C; nets +790/3, −644/3, −146/3
whists): at a whist price of 3 its money is +790, −644, −146, so its transfers are B → A 644, C → A 146."""

from __future__ import annotations

import io
import re
from datetime import datetime

import pytest

from ..conftest import SOCHI, add, signed_in, snapshot


def evening(client, players, price, currency, deals=10) -> str:
    """The Sochi example played by `players` in their seats (seat 0 wins 790/3 whists); finished with 10 deals."""
    body = {"players": list(players), "currency": currency,
            "rules": {"preset": "sochi", "pulya_size": 10, "whist_price": price}}
    uid = client.post("/api/v1/pulkas", json=body).json["id"]
    names = dict(zip("ABC", players))
    for deal in SOCHI["deals"][:deals]:
        deal = _renamed(deal, names)
        assert add(client, uid, deal).status_code == 201
    return uid


def _renamed(deal, names):
    out = dict(deal)
    if "declarer" in out:
        out["declarer"] = names[out["declarer"]]
    for key in ("whist", "tricks"):
        if key in out:
            out[key] = {names[k]: v for k, v in out[key].items()}
    return out


def ids(client) -> dict[str, str]:
    return {p["name"]: p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]}


def book(client, currency="₽"):
    response = client.get("/api/v1/ledger", query_string={"currency": currency})
    assert response.status_code == 200, response.json
    return response.json


def by_pair(answer, who):
    """The obligations as {(from, to): (amount, paid, open, status)} by name."""
    name = {v: k for k, v in who.items()}
    return {(name[o["from"]], name[o["to"]]): (o["amount"], o["paid"], o["open"], o["status"])
            for o in answer["obligations"]}


def owing(answer, who):
    """Who owes, as [(name, amount, since)]."""
    name = {v: k for k, v in who.items()}
    return sorted((name[o["player"]], o["amount"], o["since"]) for o in answer["owed"])


def ended_on(client, uid, zone=None) -> str:
    """The date a pulka was frozen (its last deal, its close, its import), in `zone` (its own offset; UTC
    for a pulka started through the API without one)."""
    at = datetime.fromisoformat(client.get(f"/api/v1/pulkas/{uid}").json["result"]["at"])
    return (at.astimezone(zone) if zone else at).date().isoformat()


def named(mapping, who):
    name = {v: k for k, v in who.items()}
    return {name[k]: v for k, v in mapping.items()}


def debts(rows, who):
    name = {v: k for k, v in who.items()}
    return sorted((name[r["from"]], name[r["to"]], r["amount"]) for r in rows)


def test_golden_three_evenings_two_currencies_a_partial_payment_and_a_mark_taken_back(client):
    one = evening(client, "ABC", 3, "₽")  # B → A 644, C → A 146
    evening(client, "BCA", 3, "₽")  # B wins: C → B 644, A → B 146
    evening(client, "CAB", 0.3, "€")  # C wins 79.00: A → C 64.40, B → C 14.60
    who = ids(client)
    first = {pair: o["id"] for o in book(client)["obligations"]
             for pair in [(o["from"], o["to"])]}
    rub = book(client)
    # A's 146 to B: C = 790 owed to him − 0 received ≥ 146: settled; B's 644 to A: C = 790 ≥ 644: settled too
    assert by_pair(rub, who) == {("B", "A"): (644, 0, 0, "settled"), ("C", "A"): (146, 0, 146, "open"),
                                 ("C", "B"): (644, 0, 644, "open"), ("A", "B"): (146, 0, 0, "settled")}
    # A: owed 644 + 146, owes 146 → +644; B: owed 644 + 146, owes 644 → +146; C owes 146 + 644
    assert named(rub["balances"], who) == {"A": 644, "B": 146, "C": -790}
    assert owing(rub, who) == [("C", 790, ended_on(client, one))]

    # C pays A 100 of his 146; a mark on B → A by mistake, taken back; A → B marked paid
    partial = client.post("/api/v1/ledger/payments", json={
        "from": who["C"], "to": who["A"], "amount": "100", "currency": "₽",
        "obligation": first[who["C"], who["A"]], "note": "наличными"})
    assert partial.status_code == 201 and partial.json["kind"] == "payment" and partial.json["note"] == "наличными"
    wrong = first[who["B"], who["A"]]
    marked = client.post(f"/api/v1/ledger/obligations/{wrong}/paid")
    assert (marked.json["paid"], marked.json["status"]) == (644, "paid")
    assert client.post(f"/api/v1/ledger/obligations/{wrong}/paid").json == marked.json  # twice: nothing more
    back = client.delete(f"/api/v1/ledger/obligations/{wrong}/paid")
    # the mark taken back: nothing paid on it, and nothing open either, as what others owe B covers it
    assert (back.json["paid"], back.json["open"], back.json["status"]) == (0, 0, "settled")
    assert client.delete(f"/api/v1/ledger/obligations/{wrong}/paid").json == back.json
    assert client.post(f"/api/v1/ledger/obligations/{first[who['A'], who['B']]}/paid").status_code == 200

    rub = book(client)
    # B: C = 644 + 146 owed to him − 146 received = 644 closes his 644 to A; C: C = 0, 46 and 644 stay open
    assert by_pair(rub, who) == {("B", "A"): (644, 0, 0, "settled"), ("C", "A"): (146, 100, 46, "part"),
                                 ("C", "B"): (644, 0, 644, "open"), ("A", "B"): (146, 146, 0, "paid")}
    # A: 644 − 100 received + 146 paid = 690; B: 146 − 146 received = 0; C: −790 + 100 paid = −690
    assert named(rub["balances"], who) == {"A": 690, "B": 0, "C": -690}
    # who owes is read from the balances: C alone, 690, since the first evening (46 of it still open there)
    assert owing(rub, who) == [("C", 690, ended_on(client, one))]
    assert debts(rub["settle_up"], who) == [("C", "A", 690)]
    kinds = sorted((p["kind"], p["amount"], p["reversed"]) for p in rub["payments"])
    assert kinds == [("mark", 146, False), ("mark", 644, True), ("payment", 100, False), ("reversal", 644, False)]

    eur = book(client, "€")
    assert named(eur["balances"], who) == {"A": -64.4, "B": -14.6, "C": 79}
    assert debts(eur["settle_up"], who) == [("A", "C", 64.4), ("B", "C", 14.6)]
    assert eur["payments"] == [] and set(eur["currencies"]) == {"₽", "€"}

    # the suggestion recorded: every rouble balance is 0, and nothing before it is rewritten
    recorded = client.post("/api/v1/ledger/settle-up", json={"currency": "₽", "note": "в конце вечера"})
    assert recorded.status_code == 201 and len(recorded.json["payments"]) == 1
    after = book(client)
    assert set(after["balances"].values()) == {0} and after["settle_up"] == []
    # nothing is owed anywhere; C's 690 to A (on no obligation) closes his 46 and 644: settled, not paid
    assert after["owed"] == []
    assert by_pair(after, who) == {("B", "A"): (644, 0, 0, "settled"), ("C", "A"): (146, 100, 0, "settled"),
                                   ("C", "B"): (644, 0, 0, "settled"), ("A", "B"): (146, 146, 0, "paid")}
    assert len(after["payments"]) == 5


def test_reopening_withdraws_a_pulkas_obligations_and_keeps_its_payments_on_none(client):
    uid = evening(client, "ABC", 3, "₽")
    who = ids(client)
    obligation = next(o["id"] for o in book(client)["obligations"] if o["from"] == who["C"])
    client.post(f"/api/v1/ledger/obligations/{obligation}/paid")
    assert client.post(f"/api/v1/pulkas/{uid}/reopen").status_code == 200
    reopened = book(client)
    assert reopened["obligations"] == []
    assert [(p["obligation"], p["amount"]) for p in reopened["payments"]] == [(None, 146)]
    assert named(reopened["balances"], who) == {"A": -146, "C": 146}  # the payment alone: A owes it back
    assert client.post(f"/api/v1/ledger/obligations/{obligation}/paid").status_code == 404
    assert client.post(f"/api/v1/pulkas/{uid}/close").status_code == 200
    again = book(client)
    assert obligation not in {o["id"] for o in again["obligations"]}  # a new freeze: new obligations
    assert named(again["balances"], who) == {"A": 644, "B": -644, "C": 0}


def test_a_payment_taken_back_twice_is_reversed_once_and_a_reversal_is_not_taken_back(client):
    evening(client, "ABC", 3, "₽")
    who = ids(client)
    paid = client.post("/api/v1/ledger/payments", json={"from": who["B"], "to": who["A"], "amount": 44.5,
                                                        "currency": "₽"}).json
    first = client.delete(f"/api/v1/ledger/payments/{paid['id']}")
    assert first.status_code == 200 and first.json["kind"] == "reversal" and first.json["reverses"] == paid["id"]
    assert client.delete(f"/api/v1/ledger/payments/{paid['id']}").json == first.json
    refused = client.delete(f"/api/v1/ledger/payments/{first.json['id']}")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "not_reversible"
    assert named(book(client)["balances"], who) == {"A": 790, "B": -644, "C": -146}
    assert client.delete("/api/v1/ledger/payments/nosuch").status_code == 404


def test_the_fewest_payments_not_the_greedy_rule(client):
    """Balances +4 +3 +3 −6 −4 (from payments alone: a payer is owed): the greedy rule takes 4, the fewest 3."""
    client.post("/api/v1/pulkas", json={"players": ["A", "B", "C", "D"]})
    client.post("/api/v1/pulkas", json={"players": ["A", "B", "E"]})
    who = ids(client)
    for payer, payee, amount in (("A", "E", 4), ("B", "D", 3), ("C", "D", 3)):
        assert client.post("/api/v1/ledger/payments", json={"from": who[payer], "to": who[payee], "amount": amount,
                                                            "currency": "₽"}).status_code == 201
    answer = book(client)
    assert named(answer["balances"], who) == {"A": 4, "B": 3, "C": 3, "D": -6, "E": -4}
    assert debts(answer["settle_up"], who) == [("D", "B", 3), ("D", "C", 3), ("E", "A", 4)] and answer["exact"]


@pytest.mark.parametrize("body, field", [
    ({"to": "A", "amount": 1}, "from"),
    ({"from": "A", "to": "A", "amount": 1}, "to"),
    ({"from": "A", "to": "nobody", "amount": 1}, "to"),
    ({"from": "A", "to": "B", "amount": 0}, "amount"),
    ({"from": "A", "to": "B", "amount": "-5"}, "amount"),
    ({"from": "A", "to": "B", "amount": "1.005"}, "amount"),
    ({"from": "A", "to": "B", "amount": "lots"}, "amount"),
    ({"from": "A", "to": "B", "amount": True}, "amount"),
    ({"from": "A", "to": "B", "amount": 1, "currency": "roubles-and-kopecks"}, "currency"),
    ({"from": "A", "to": "B", "amount": 1, "obligation": "nosuch"}, "obligation"),
    ({"from": "A", "to": "B", "amount": 1, "note": "two\nlines"}, "note"),
])
def test_a_bad_payment_names_its_field_and_stores_nothing(app, client, body, field):
    evening(client, "ABC", 3, "₽", deals=2)
    who = ids(client)
    body = {"currency": "₽"} | {k: who.get(v, v) if k in ("from", "to") else v for k, v in body.items()}
    before = snapshot(app)
    response = client.post("/api/v1/ledger/payments", json=body)
    assert response.status_code == 400 and response.json["error"]["field"] == field, response.json
    assert snapshot(app) == before


def test_a_payment_with_an_idempotency_key_is_recorded_once(client):
    evening(client, "ABC", 3, "₽", deals=2)
    who = ids(client)
    body = {"from": who["B"], "to": who["A"], "amount": 10, "currency": "₽"}
    first = client.post("/api/v1/ledger/payments", json=body, headers={"Idempotency-Key": "pay-1"})
    again = client.post("/api/v1/ledger/payments", json=body, headers={"Idempotency-Key": "pay-1"})
    assert again.headers.get("Idempotent-Replayed") == "true" and again.json == first.json
    assert len(book(client)["payments"]) == 1


def test_a_table_shared_with_another_account_shows_him_its_lines_only_and_he_cannot_mark_them(app, client):
    uid = evening(client, "ABC", 3, "₽")
    evening(client, "ADE", 3, "₽")  # another table of the owner's: not shared
    token = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json["token"]
    obligation = next(o["id"] for o in book(client)["obligations"] if o["pulka"] == uid)
    client.post(f"/api/v1/ledger/obligations/{obligation}/paid")
    guest = signed_in(app, "guest", "guest-password")
    browser = app.test_client()
    browser.post("/login", data={"username": "guest", "password": "guest-password"})
    assert browser.get(f"/s/{token}").status_code == 302
    seen = guest.get("/api/v1/ledger?currency=₽").json
    assert {o["pulka"] for o in seen["obligations"]} == {uid} and len(seen["obligations"]) == 2
    assert [p["obligation"] for p in seen["payments"]] == [obligation]
    refused = guest.post(f"/api/v1/ledger/obligations/{obligation}/paid")
    assert refused.status_code == 403
    who = {o["from"] for o in seen["obligations"]}
    paying = guest.post("/api/v1/ledger/payments", json={"from": who.pop(), "to": seen["obligations"][0]["to"],
                                                         "amount": 1, "currency": "₽"})
    assert paying.status_code == 400 and paying.json["error"]["field"] == "from"
    assert signed_in(app, "stranger", "stranger-password").get("/api/v1/ledger").json["obligations"] == []


def test_the_ledger_answers_in_the_currency_used_last_by_default(client):
    evening(client, "ABC", 3, "₽")
    evening(client, "ABC", 0.3, "€")
    answer = client.get("/api/v1/ledger").json
    assert answer["currency"] == "€" and answer["currencies"] == ["€", "₽"]
    assert client.get("/api/v1/ledger?currency=" + "x" * 9).status_code == 400


def test_the_page_marks_paid_takes_back_records_a_payment_and_the_settle_up(client):
    evening(client, "ABC", 3, "₽")
    who = ids(client)
    page = client.get("/ledger?currency=₽").get_data(as_text=True)
    assert "B owes 644.00\u00a0₽ since" in page and "C owes 146.00\u00a0₽ since" in page
    assert "B owes A" not in page and "Who owes whom" not in page  # never pair by pair
    obligation = next(o["id"] for o in book(client)["obligations"] if o["from"] == who["B"])
    marked = client.post("/ledger", data={"action": "mark", "obligation": obligation, "currency": "₽"},
                         follow_redirects=True)
    assert "Marked paid." in marked.get_data(as_text=True)
    assert by_pair(book(client), who)[("B", "A")] == (644, 644, 0, "paid")
    refused = client.post("/ledger", data={"action": "pay", "from": who["C"], "to": who["A"], "amount": "0",
                                           "currency": "₽"}, follow_redirects=True)
    assert "amount is an amount above 0" in refused.get_data(as_text=True) and len(book(client)["payments"]) == 1
    client.post("/ledger", data={"action": "pay", "from": who["C"], "to": who["A"], "amount": "46,50",
                                 "currency": "₽", "note": "часть"})
    assert named(book(client)["balances"], who) == {"A": 99.5, "B": 0, "C": -99.5}
    payment = next(p["id"] for p in book(client)["payments"] if p["kind"] == "payment")
    client.post("/ledger", data={"action": "take_back", "payment": payment, "currency": "₽"})
    owed = rows_of(client.get("/ledger.csv?currency=₽"))
    assert [row[3:6] for row in owed if row[0] == "owed"] == [["C", "", "146.00"]]
    client.post("/ledger", data={"action": "settle", "currency": "₽", "note": "settle-up"})
    assert set(book(client)["balances"].values()) == {0}
    csv = client.get("/ledger.csv?currency=₽")
    lines = csv.get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert csv.mimetype == "text/csv" and lines[0].startswith("row,id,date,from,to,amount")
    assert lines[0].split(",")[9:12] == ["paid", "open", "status"]
    assert sum(line.startswith("obligation,") for line in lines) == 2
    assert sum(line.startswith("payment,") for line in lines) == 4  # the mark, 46.50, its reversal, the settle-up
    assert not any(line.startswith("owed,") for line in lines)  # every balance 0: nothing owed
    assert sorted(row[9:12] for row in rows_of(csv) if row[0] == "obligation") == [
        ["0.00", "0.00", "settled"], ["644.00", "0.00", "paid"]]
    page = client.get("/ledger?currency=₽").get_data(as_text=True)
    assert "Nobody owes anything." in page and not re.search(r" owes \d", page) and "not paid yet" not in page


def rows_of(response) -> list[list[str]]:
    import csv

    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def test_the_page_speaks_russian(client):
    evening(client, "ABC", 3, "₽")
    client.post("/language", data={"language": "ru"})
    page = client.get("/ledger", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Долги" in page and "B: долг 644,00\u00a0₽ с " in page and "Отметить оплату" in page
    assert "Кто кому должен" not in page and "B → A: 644,00\u00a0₽, долг" not in page


def test_a_settle_up_in_a_cash_unit_pays_whole_units_and_leaves_the_rounding_owed(client):
    """After C's 46.50: A +743.50, B −644, C −99.50; in tens (engine.cash): 740, −640, −100."""
    evening(client, "ABC", 3, "₽")
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": "46.50", "currency": "₽"})
    answer = client.get("/api/v1/ledger", query_string={"currency": "₽", "cash": "10"}).json
    assert debts(answer["settle_up"], who) == [("B", "A", 640), ("C", "A", 100)] and answer["cash"] == 10
    assert debts(book(client)["settle_up"], who) == [("B", "A", 644), ("C", "A", 99.5)]  # no unit: to the cent
    page = client.get("/ledger", query_string={"currency": "₽", "cash": "10"}).get_data(as_text=True)
    assert "B pays A 640.00\u00a0₽" in page and 'name="cash" value="10"' in page
    assert client.get("/ledger?currency=₽").get_data(as_text=True).count("B pays A 640.00") == 1  # kept by cookie
    bad = client.post("/api/v1/ledger/settle-up", json={"currency": "₽", "cash": "0"})
    assert bad.status_code == 400 and bad.json["error"]["field"] == "cash"
    client.post("/ledger", data={"action": "settle", "currency": "₽", "cash": "10", "note": "наличными"})
    assert named(book(client)["balances"], who) == {"A": 3.5, "B": -4, "C": 0.5}
