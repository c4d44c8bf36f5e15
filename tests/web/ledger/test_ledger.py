"""The club ledger's API (docs/club.md §3): obligations from frozen pulkas, payments and reversals as rows of their
own, paid marks taken back, the fewest payments suggested and recorded, and who may see and write what.

The figures are worked out by hand from docs/rules.md §10's Sochi example (A, B, C; nets +790/3, −644/3, −146/3
whists): at a whist price of 3 its money is +790, −644, −146, so its transfers are B → A 644, C → A 146."""

from __future__ import annotations

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
    """The obligations as {(from, to): (amount, paid, status)} by name."""
    name = {v: k for k, v in who.items()}
    return {(name[o["from"]], name[o["to"]]): (o["amount"], o["paid"], o["status"]) for o in answer["obligations"]}


def named(mapping, who):
    name = {v: k for k, v in who.items()}
    return {name[k]: v for k, v in mapping.items()}


def debts(rows, who):
    name = {v: k for k, v in who.items()}
    return sorted((name[r["from"]], name[r["to"]], r["amount"]) for r in rows)


def test_golden_three_evenings_two_currencies_a_partial_payment_and_a_mark_taken_back(client):
    evening(client, "ABC", 3, "₽")  # B → A 644, C → A 146
    evening(client, "BCA", 3, "₽")  # B wins: C → B 644, A → B 146
    evening(client, "CAB", 0.3, "€")  # C wins 79.00: A → C 64.40, B → C 14.60
    who = ids(client)
    first = {pair: o["id"] for o in book(client)["obligations"]
             for pair in [(o["from"], o["to"])]}
    rub = book(client)
    assert by_pair(rub, who) == {("B", "A"): (644, 0, "open"), ("C", "A"): (146, 0, "open"),
                                 ("C", "B"): (644, 0, "open"), ("A", "B"): (146, 0, "open")}
    # A: owed 644 + 146, owes 146 → +644; B: owed 644 + 146, owes 644 → +146; C owes 146 + 644
    assert named(rub["balances"], who) == {"A": 644, "B": 146, "C": -790}

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
    assert (back.json["paid"], back.json["status"]) == (0, "open")
    assert client.delete(f"/api/v1/ledger/obligations/{wrong}/paid").json == back.json
    assert client.post(f"/api/v1/ledger/obligations/{first[who['A'], who['B']]}/paid").status_code == 200

    rub = book(client)
    assert by_pair(rub, who) == {("B", "A"): (644, 0, "open"), ("C", "A"): (146, 100, "partly_paid"),
                                 ("C", "B"): (644, 0, "open"), ("A", "B"): (146, 146, "paid")}
    # A: 644 − 100 received + 146 paid = 690; B: 146 − 146 received = 0; C: −790 + 100 paid = −690
    assert named(rub["balances"], who) == {"A": 690, "B": 0, "C": -690}
    # A–B: 644 − 146 + 146 = B owes A 644; A–C: 146 − 100 = 46; B–C: C owes B 644
    assert debts(rub["owed"], who) == [("B", "A", 644), ("C", "A", 46), ("C", "B", 644)]
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
    # pairs stay as their rows net: C paid A 690 against 46 owed, a cycle of 644 that nets to nothing
    assert debts(after["owed"], who) == [("A", "C", 644), ("B", "A", 644), ("C", "B", 644)]
    assert len(after["payments"]) == 5 and by_pair(after, who) == by_pair(rub, who)


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
    assert "B owes A 644.00\u00a0₽ since" in page and "C owes A 146.00\u00a0₽ since" in page
    obligation = next(o["id"] for o in book(client)["obligations"] if o["from"] == who["B"])
    marked = client.post("/ledger", data={"action": "mark", "obligation": obligation, "currency": "₽"},
                         follow_redirects=True)
    assert "Marked paid." in marked.get_data(as_text=True)
    assert by_pair(book(client), who)[("B", "A")] == (644, 644, "paid")
    refused = client.post("/ledger", data={"action": "pay", "from": who["C"], "to": who["A"], "amount": "0",
                                           "currency": "₽"}, follow_redirects=True)
    assert "amount is an amount above 0" in refused.get_data(as_text=True) and len(book(client)["payments"]) == 1
    client.post("/ledger", data={"action": "pay", "from": who["C"], "to": who["A"], "amount": "46,50",
                                 "currency": "₽", "note": "часть"})
    assert named(book(client)["balances"], who) == {"A": 99.5, "B": 0, "C": -99.5}
    payment = next(p["id"] for p in book(client)["payments"] if p["kind"] == "payment")
    client.post("/ledger", data={"action": "take_back", "payment": payment, "currency": "₽"})
    client.post("/ledger", data={"action": "settle", "currency": "₽", "note": "settle-up"})
    assert set(book(client)["balances"].values()) == {0}
    csv = client.get("/ledger.csv?currency=₽")
    lines = csv.get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert csv.mimetype == "text/csv" and lines[0].startswith("row,id,date,from,to,amount")
    assert sum(line.startswith("obligation,") for line in lines) == 2
    assert sum(line.startswith("payment,") for line in lines) == 4  # the mark, 46.50, its reversal, the settle-up


def test_the_page_speaks_russian(client):
    evening(client, "ABC", 3, "₽")
    client.post("/language", data={"language": "ru"})
    page = client.get("/ledger", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Долги" in page and "B → A: 644,00\u00a0₽, долг с" in page and "Отметить оплату" in page


def test_the_next_evening_shows_what_its_players_owe_from_before_and_settles_it_together(client):
    first = evening(client, "ABC", 3, "₽")
    assert "Owed from before" not in client.get(f"/p/{first}/settlement").get_data(as_text=True)  # its own debts
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": 146, "currency": "₽"})
    # the same table again, next evening
    second = evening(client, "ABC", 3, "₽", deals=0)
    page = client.get(f"/p/{second}/settlement").get_data(as_text=True)
    assert "Owed from before" in page and "B owes A 644.00\u00a0₽ since" in page and "C owes A" not in page
    # nothing played yet: settling together is paying what is carried over
    assert "B pays A 644.00\u00a0₽" in page
    other = evening(client, "ADE", 3, "₽", deals=0)
    assert "Owed from before" not in client.get(f"/p/{other}/settlement").get_data(as_text=True)


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


def test_the_evenings_settlement_and_its_pdf_carry_what_was_owed_before(app, client):
    from ..pulkas.test_drawing import poppler

    evening(client, "ABC", 3, "₽")
    who = ids(client)
    client.post("/api/v1/ledger/payments", json={"from": who["C"], "to": who["A"], "amount": "46.50", "currency": "₽"})
    second = evening(client, "ABC", 3, "₽", deals=0)
    page = client.get(f"/p/{second}/settlement?cash=10").get_data(as_text=True)
    assert "B pays A 640.00\u00a0₽" in page and "C pays A 100.00\u00a0₽" in page and "stays owed" in page
    text = " ".join(poppler("pdftotext", client.get(f"/p/{second}/pulka.pdf").data).split())
    assert "Owed from before" in text and "B owes A 644.00 ₽ since" in text and "C owes A 99.50 ₽ since" in text
    assert "B pays A 644.00 ₽" in text  # the PDF is exact, to the cent
    viewer = app.test_client()  # a link's viewer has no ledger: the PDF without it
    assert viewer.get(f"/s/{client.post(f'/api/v1/pulkas/{second}/shares', json={'role': 'viewer'}).json['token']}")
    assert "Owed from before" not in poppler("pdftotext", viewer.get(f"/p/{second}/pulka.pdf").data)
