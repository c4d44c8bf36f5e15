"""The words a player reads at the table (issue 17): money as the language writes it, who pays whom without a
case to decline, one notation, no developer words, numbers that never split."""

from __future__ import annotations

import re

from ..conftest import SOCHI, add, sochi
from ..pulkas.test_drawing import poppler
from .test_i18n_pages import visible

RU = {"Accept-Language": "ru-RU,ru;q=0.9"}
EN = {"Accept-Language": "en"}
NBSP = "\u00a0"


def text(response) -> str:
    return response.get_data(as_text=True)


def test_money_has_a_decimal_comma_in_russian_and_a_point_in_english(client):
    """docs/rules.md §10's Sochi example: A wins 131.67 at 0.5 a whist; B pays 107.33."""
    pulka_id = sochi(client)
    russian, english = text(client.get(f"/p/{pulka_id}/settlement", headers=RU)), \
        text(client.get(f"/p/{pulka_id}/settlement", headers=EN))
    assert "+131,67" in russian and "107,33" in russian and "131.67" not in russian
    assert "+131.67" in english and "107,33" not in english
    assert "0,50" in russian  # the whist's price
    # The API keeps JSON numbers whatever the language.
    answer = client.get(f"/api/v1/pulkas/{pulka_id}/settlement", headers=RU).json
    assert answer["players"][0]["money"] == 131.67
    pdf = poppler("pdftotext", client.get(f"/p/{pulka_id}/pulka.pdf", headers=RU).data)
    assert "131,67" in pdf and "131.67" not in pdf


def test_who_pays_whom_needs_no_case(client):
    pulka_id = sochi(client)
    russian = text(client.get(f"/p/{pulka_id}/settlement", headers=RU))
    assert re.search(r"<strong>B</strong> → <strong>A</strong>: 107,33", russian)
    assert "платит" not in russian.split("Кто кому платит")[-1]  # the heading asks it; no line says it
    english = text(client.get(f"/p/{pulka_id}/settlement", headers=EN))
    assert re.search(r"<strong>B</strong> pays <strong>A</strong> 107.33", english)


def test_a_sum_and_its_currency_never_split(client):
    pulka_id = sochi(client, 9)
    client.patch(f"/api/v1/pulkas/{pulka_id}", json={"currency": "₽"})
    add(client, pulka_id, SOCHI["deals"][9])
    page = text(client.get(f"/p/{pulka_id}/settlement", headers=RU))
    assert f"107,33{NBSP}₽" in page and "107,33 ₽" not in page


def test_the_rules_are_said_in_the_players_words(client):
    """The settings of a pulka with deals and its PDF list every rule by its title and its value in words:
    no parameter's code, no true/false, no value's code."""
    pulka_id = sochi(client, 2)
    for headers, words in ((RU, ("Размер пули", "да", "нет")), (EN, ("Pulya size", "yes", "no"))):
        page = visible(client.get(f"/p/{pulka_id}/settings", headers=headers))
        pdf = poppler("pdftotext", client.get(f"/p/{pulka_id}/pulka.pdf", headers=headers).data)
        for shown in (page, pdf):
            assert all(word in shown for word in words)
            assert not re.search(r"\b(pulya_size|whist_price|consolation_by_passer|half_whist|True|False|"
                                 r"whister_all|each_own|rules\.md)\b", shown)
    form = visible(client.get("/new", headers=RU))
    assert "rules.md" not in form and "true или false" not in form and "одно из:" not in form


def test_the_history_never_splits_a_number_and_writes_no_trump_as_players_do(client):
    from ..conftest import add, create

    pulka_id = create(client)
    assert add(client, pulka_id, {"type": "raspasy", "tricks": {"A": 2, "B": 3, "C": 5}}).status_code == 201
    assert add(client, pulka_id, {"type": "game", "declarer": "B", "contract": "10NT",
                                  "tricks": {"B": 10, "C": 0, "A": 0}}).status_code == 201
    russian = text(client.get(f"/p/{pulka_id}/history", headers=RU))
    assert f"в гору 2{NBSP}×{NBSP}1" in russian and "2 × 1" not in russian  # raspasy: 2 tricks × 1, never split
    assert "B 10БК" in russian and "10NT" not in russian
    assert "B 10NT" in text(client.get(f"/p/{pulka_id}/history", headers=EN))


def test_the_settlement_in_cash_rounds_to_the_tables_unit_and_still_sums_to_zero(client):
    """docs/rules.md §10: +131.67, −107.33, −24.34; in tens: +130, −110, −20, said beside the exact cents, and
    remembered by the browser."""
    pulka_id = sochi(client)
    page = text(client.get(f"/p/{pulka_id}/settlement?cash=10", headers=EN))
    cash = page.split('class="cash"')[1].split("</section>")[0]
    assert re.search(r"\+131\.67</td><td class=\"num\"><strong>\+130\.00</strong></td><td class=\"num\">−1\.67", cash)
    assert "<strong>B</strong> pays <strong>A</strong> 110.00" in cash and "C</strong> pays <strong>A</strong> 20.00" in cash
    again = text(client.get(f"/p/{pulka_id}/settlement", headers=RU))  # the cookie keeps the unit
    assert "<strong>+130,00</strong>" in again.split('class="cash"')[1]
    plain = text(client.get(f"/p/{pulka_id}/settlement?cash=", headers=EN))
    assert "<table>" not in plain.split('class="cash"')[1].split("</section>")[0]
    assert client.get(f"/p/{pulka_id}/settlement?cash=7").status_code == 200  # an unknown unit: none


def test_the_cash_rounding_says_who_still_owes_whom(client):
    """In tens the Sochi example pays +130, −110, −20 for +131.67, −107.33, −24.34: the Rounding column's
    −1.67, −2.67, +4.34 said in words, C still owing B 2.67 and A 1.67, in each language."""
    pulka_id = sochi(client)

    def left(headers, cash="10"):
        page = text(client.get(f"/p/{pulka_id}/settlement?cash={cash}", headers=headers))
        section = page.split('class="cash"')[1].split("</section>")[0]
        return section, section.split('class="transfers left-owed"')[1].split("</ul>")[0] if "left-owed" in section else ""

    english, owed = left(EN)
    assert "Paid in cash, the rounding leaves these debts (less than 10.00 each):" in english
    assert re.findall(r"<li><strong>(\w)</strong> still owes <strong>(\w)</strong> ([\d.]+)</li>", owed) == [
        ("C", "B", "2.67"), ("C", "A", "1.67")]
    russian, owed = left(RU)
    assert "После оплаты наличными от округления остаются долги (каждый меньше 10,00):" in russian
    assert re.findall(r"<li><strong>(\w)</strong> → <strong>(\w)</strong>: ([\d,]+)</li>", owed) == [
        ("C", "B", "2,67"), ("C", "A", "1,67")]
    assert left(EN, "")[1] == ""  # to the cent: nothing is left owed, nothing said
