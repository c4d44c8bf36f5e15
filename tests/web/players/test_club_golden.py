"""A small club's statistics worked out by hand (docs/club.md §2, every field, for two players and one filter).

tests/data/club/: the ten deals of docs/rules.md §10 played by Аня, Борис, Вера (A, B, C there) on Friday 13
November; their first four the next Friday, closed by hand after deal 4; and three deals of a third evening
still going on (counted only with unfinished=1). Sochi, pulya 10, whist 0.5 ₽.

Friday, finished (docs/rules.md §10 Ex 10–11): nets +263⅓, −214⅔, −48⅔; money +131.67, −107.33, −24.34;
pairwise A–B +142, A–C +121⅓, B–C −72⅔.

The next Friday after D1–D4 (Ex 1–4): pulya 4, 0, 2; gora 0, 16 (12 + 4), 2; whists A on B 30, A on C 16
(4 + 12), B on A 8, B on C 2, C on B 18. Closed as it stands (docs/rules.md §15, gora and pulya point 10 whists,
ḡ = 6, p̄ = 2):
  A = (30 − 8) + (16 − 0) + 10(6 − 0) + 10(4 − 2) = +118
  B = (8 − 30) + (2 − 18) + 10(6 − 16) + 10(0 − 2) = −158
  C = (0 − 16) + (18 − 2) + 10(6 − 2) + 10(2 − 2) = +40
  pairwise A–B = 22 + 10·16/3 + 10·4/3 = +88⅔; A–C = 16 + 10·2/3 + 10·2/3 = +29⅓; B–C = −16 − 140/3 − 20/3 = −69⅓
  money at 0.5: +59, −79, +20.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from ..conftest import DATA

CLUB = DATA / "club"
ZERO = {"declared": 0, "played": 0, "made": 0, "remiz": 0}


@pytest.fixture
def club(client):
    uids = {}
    for name in ("friday", "next_friday", "going_on"):
        answer = client.post("/api/v1/import", json=json.loads((CLUB / f"{name}.json").read_text()))
        assert answer.status_code == 201, answer.json
        uids[name] = answer.json["id"]
    assert client.post(f"/api/v1/pulkas/{uids['next_friday']}/close").status_code == 200
    ids = {p["name"]: p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]}
    return uids, ids


def stats(client, ids, who, **query):
    response = client.get(f"/api/v1/players/{ids[who]}/stats", query_string=query)
    assert response.status_code == 200, response.json
    return response.json


def test_anya_every_field(client, club):
    _, ids = club
    assert stats(client, ids, "Аня") == {
        "player": {"id": ids["Аня"], "name": "Аня"},
        "pulkas": 2, "won": 2, "lost": 0, "deals": 14,
        "net": {"sochi": 381.33},  # 263⅓ + 118
        "money": {"₽": 190.67},  # 131.67 + 59
        # D1's 7♥, whisted by B and made with 8 tricks, in both; D8's misère, no trick, on Friday
        "declarer": {"6": ZERO, "7": {"declared": 2, "played": 2, "made": 2, "remiz": 0}, "8": ZERO, "9": ZERO,
                     "10": ZERO, "misere": {"declared": 1, "made": 1}},
        # whist in D2, D3, D4 of both and D7 of Friday; pass in D10 (B's 9 that both passed); never short
        "defender": {"whist": 7, "pass": 1, "half": 0, "short": 0},
        "raspasy": {"deals": 2, "tricks": 3, "zero": 1},  # D5: 0 tricks, D6: 3
        "head_to_head": [
            {"opponent": {"id": ids["Борис"], "name": "Борис"}, "pulkas": 2, "net": {"sochi": 230.67}},  # 142 + 88⅔
            {"opponent": {"id": ids["Вера"], "name": "Вера"}, "pulkas": 2, "net": {"sochi": 150.67}},  # 121⅓ + 29⅓
        ],
    }


def test_boris_every_field(client, club):
    _, ids = club
    assert stats(client, ids, "Борис") == {
        "player": {"id": ids["Борис"], "name": "Борис"},
        "pulkas": 2, "won": 0, "lost": 2, "deals": 14,
        "net": {"sochi": -372.67},  # −214⅔ − 158
        "money": {"₽": -186.33},  # −107.33 − 79
        # D2's 8♦, two whisters, 6 tricks, in both; D10's 9 that both passed (made, not played); D9's misère, 2 tricks
        "declarer": {"6": ZERO, "7": ZERO, "8": {"declared": 2, "played": 2, "made": 0, "remiz": 2},
                     "9": {"declared": 1, "played": 0, "made": 1, "remiz": 0}, "10": ZERO,
                     "misere": {"declared": 1, "made": 0}},
        # whist in D1 and D3 of both, pass in D4 of both and D7 of Friday; short in D3 of both (gora 4)
        "defender": {"whist": 4, "pass": 3, "half": 0, "short": 2},
        "raspasy": {"deals": 2, "tricks": 4, "zero": 1},  # D5: 4 tricks, D6: 0
        "head_to_head": [
            {"opponent": {"id": ids["Аня"], "name": "Аня"}, "pulkas": 2, "net": {"sochi": -230.67}},
            {"opponent": {"id": ids["Вера"], "name": "Вера"}, "pulkas": 2, "net": {"sochi": -142}},  # −72⅔ − 69⅓
        ],
    }


def test_one_filter_from_the_second_friday(client, club):
    _, ids = club
    assert stats(client, ids, "Аня", **{"from": "2026-11-14"}) == {
        "player": {"id": ids["Аня"], "name": "Аня"},
        "pulkas": 1, "won": 1, "lost": 0, "deals": 4, "net": {"sochi": 118}, "money": {"₽": 59},
        "declarer": {"6": ZERO, "7": {"declared": 1, "played": 1, "made": 1, "remiz": 0}, "8": ZERO, "9": ZERO,
                     "10": ZERO, "misere": {"declared": 0, "made": 0}},
        "defender": {"whist": 3, "pass": 0, "half": 0, "short": 0},
        "raspasy": {"deals": 0, "tricks": 0, "zero": 0},
        "head_to_head": [
            {"opponent": {"id": ids["Борис"], "name": "Борис"}, "pulkas": 1, "net": {"sochi": 88.67}},
            {"opponent": {"id": ids["Вера"], "name": "Вера"}, "pulkas": 1, "net": {"sochi": 29.33}},
        ],
    }
    # the evening still going on counts only when asked: D1–D3 again, in Аня's 7♥ and two whists
    going = stats(client, ids, "Аня", **{"from": "2026-11-14", "unfinished": "1"})
    assert (going["pulkas"], going["deals"], going["declarer"]["7"]["declared"]) == (2, 7, 2)
    # the 23:40 start at +03:00 keeps its own date: nothing of the second Friday on the 21st
    assert stats(client, ids, "Аня", **{"from": "2026-11-21", "to": "2026-11-21"})["pulkas"] == 0


def test_the_ledger_holds_the_two_frozen_evenings(client, club):
    """Their fewest payments (docs/rules.md §15): B pays A 107.33, C pays A 24.34; then B pays A 59 and C 20."""
    ids = {v: k for k, v in club[1].items()}
    book = client.get("/api/v1/ledger", query_string={"currency": "₽"}).json
    assert sorted((ids[o["from"]], ids[o["to"]], o["amount"]) for o in book["obligations"]) == [
        ("Борис", "Аня", 59), ("Борис", "Аня", 107.33), ("Борис", "Вера", 20), ("Вера", "Аня", 24.34)]
    assert {ids[k]: v for k, v in book["balances"].items()} == {"Аня": 190.67, "Борис": -186.33, "Вера": -4.34}


def test_a_start_sqlite_kept_in_local_digits_before_0012_moves_to_utc(tmp_path):
    """Before migration 0012, SQLite kept "23:40+03:00" as 23:40 UTC: the next day's date from 21:00 on."""
    from sqlalchemy import create_engine, text

    from ..conftest import make_app, signed_in

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    app = make_app(url, tmp_path)
    client = signed_in(app)
    uid = client.post("/api/v1/import", json=json.loads((CLUB / "next_friday.json").read_text())).json["id"]
    app.extensions["scorekeeper"].db.engine.dispose()
    engine = create_engine(url)
    with engine.begin() as connection:  # as the app wrote it then
        connection.execute(text("UPDATE pulkas SET created_at = '2026-11-20 23:40:00.000000' WHERE uid = :uid"),
                           {"uid": uid})
        connection.execute(text("UPDATE alembic_version SET version_num = '0011'"))
        connection.execute(text("ALTER TABLE accounts DROP COLUMN deals"))  # kept since 0013
        connection.execute(text("ALTER TABLE accounts DROP COLUMN circle_version"))  # kept since 0014
        connection.execute(text("ALTER TABLE pulkas DROP COLUMN played_on"))  # kept since 0015
    engine.dispose()
    app = make_app(url, tmp_path)  # upgrades on start
    exported = signed_in(app).get(f"/api/v1/pulkas/{uid}/export").json
    assert exported["started"] == "2026-11-20T23:40:00+03:00"
    app.extensions["scorekeeper"].db.engine.dispose()


def test_the_statistics_as_a_pdf_say_what_the_page_says(client, club):
    from ..pulkas.test_drawing import poppler

    _, ids = club
    response = client.get(f"/players/{ids['Аня']}.pdf", query_string={"from": "2026-11-14"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = " ".join(poppler("pdftotext", response.data).split())
    assert "Аня" in text and "From 14.11.2026" in text and "1 pulka · 4 deals · won 1, lost 0" in text
    assert "0 h 00 min at the table" in text  # its deals were imported weeks after it started: no time counted
    assert "Следующая пятница" in text and "Пятница " not in text.replace("Следующая пятница", "")
    assert "+118" in text and "59.00 ₽" in text  # his whists and money, and the chart's last point
    assert "Running total" in text
    client.post("/language", data={"language": "ru"})
    russian = " ".join(poppler("pdftotext", client.get(f"/players/{ids['Борис']}.pdf",
                                                       headers={"Accept-Language": "ru"}).data).split())
    assert "Борис" in russian and "2 пульки" in russian and "Играющим" in russian


def test_anyas_deals_as_csv_with_her_role_and_what_each_moved(client, club):
    """docs/rules.md §10 D1 on the second Friday: her 7♥ moved her balance +56/3 (−8 whists, 10 × (4 − 4/3) pulya)."""
    import csv

    uids, ids = club
    answer = client.get(f"/players/{ids['Аня']}/deals.csv", query_string={"from": "2026-11-14"})
    rows = list(csv.reader(answer.get_data(as_text=True).lstrip("\ufeff").splitlines()))
    assert rows[0] == ["date", "pulka", "title", "deal", "player", "role", "deal_type", "contract", "tricks", "moved",
                       "moved_exact"]
    assert rows[1] == ["2026-11-20", uids["next_friday"], "Следующая пятница", "1", "Аня", "declarer", "game", "7H",
                       "8", "18.67", "56/3"]
    assert [r[5] for r in rows[1:]] == ["declarer", "whist", "whist", "whist"]
    assert sum(Fraction(r[10]) for r in rows[1:]) == 118  # her balance in it
    everything = list(csv.reader(client.get(f"/players/{ids['Борис']}/deals.csv").get_data(as_text=True).splitlines()))
    assert len(everything) == 1 + 10 + 4
    assert sum(Fraction(r[10]) for r in everything[1:]) == Fraction(-644, 3) - 158
