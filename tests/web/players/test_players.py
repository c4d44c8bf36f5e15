"""Players across pulkas (docs/club.md §1-2) through the API: the circle, a player's statistics over the pulkas
that count for the caller, the filters, head-to-head, renaming and merging. A small club worked out by hand:
the Sochi pulka of docs/rules.md §10 (finished: A +263⅓, B −214⅔, C −48⅔, whist 0.5) and its first four deals
closed by hand."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from fractions import Fraction

import pytest

from scorekeeper.render.text import signed

from ..conftest import SOCHI, add, create, signed_in, sochi


def _net(client, pulka) -> dict[str, Fraction]:
    players = client.get(f"/api/v1/pulkas/{pulka}/settlement").json["players"]
    return {p["name"]: Fraction(str(p["net"])).limit_denominator(3) for p in players}


@pytest.fixture
def club(client):
    full = sochi(client)
    four = sochi(client, 4)
    assert client.post(f"/api/v1/pulkas/{four}/close").status_code == 200
    going = sochi(client, 3)  # unfinished: counts only with unfinished=1
    ids = {p["name"]: p["id"] for p in client.get("/api/v1/players").json["players"]}
    return {"full": full, "four": four, "going": going, "ids": ids}


def test_the_circle_lists_each_player_with_the_pulkas_that_count(client, club):
    listed = client.get("/api/v1/players").json["players"]
    assert [(p["name"], p["pulkas"]) for p in listed] == [("A", 2), ("B", 2), ("C", 2)]
    assert [p["pulkas"] for p in client.get("/api/v1/players?unfinished=1").json["players"]] == [3, 3, 3]
    # the circle read before is not what a new frozen pulka is counted against: it counts at once
    client.post(f"/api/v1/pulkas/{club['going']}/close")
    assert [p["pulkas"] for p in client.get("/api/v1/players").json["players"]] == [3, 3, 3]


def test_one_more_frozen_pulka_is_the_one_row_read_again(app, client, club, monkeypatch):
    players = app.extensions["scorekeeper"].players
    client.get("/api/v1/players")
    read, keep = [], players._keep
    monkeypatch.setattr(players, "_keep", lambda session, ids: (read.extend(ids), keep(session, ids))[1])
    client.post(f"/api/v1/pulkas/{club['going']}/close")
    assert [p["pulkas"] for p in client.get("/api/v1/players").json["players"]] == [3, 3, 3]
    assert len(read) == 1  # the two read before stay as they were read
    assert client.get(f"/api/v1/players/{club['ids']['A']}/stats").json == \
        _fresh(app, client, f"/api/v1/players/{club['ids']['A']}/stats")


def _fresh(app, client, path):
    """What `path` answers when nothing was remembered."""
    store = app.extensions["scorekeeper"].players
    store._rows.clear()
    store._known.clear()
    return client.get(path).json


def test_a_players_statistics_worked_out_by_hand(client, club):
    stats = client.get(f"/api/v1/players/{club['ids']['A']}/stats").json
    assert stats["player"] == {"id": club["ids"]["A"], "name": "A"}
    four = _net(client, club["four"])["A"]
    assert (stats["pulkas"], stats["won"], stats["lost"], stats["deals"]) == (2, 1 + (four > 0), int(four < 0), 14)
    exact = Fraction(790, 3) + _net(client, club["four"])["A"]  # 263⅓ and where the four deals left him
    assert stats["net"] == {"sochi": float(round(Decimal(exact.numerator) / exact.denominator, 2))}
    # A declared 7♥ (B whisted; 8 tricks) in both pulkas, and the misère (no trick) in the full one
    assert stats["declarer"]["7"] == {"declared": 2, "played": 2, "made": 2, "remiz": 0}
    assert stats["declarer"]["6"]["declared"] == 0 and stats["declarer"]["misere"] == {"declared": 1, "made": 1}
    # A defended deals 2, 3, 4 (whist) in both, 7 (whist) and 10 (pass) in the full one; never short
    assert stats["defender"] == {"whist": 7, "pass": 1, "half": 0, "short": 0}
    assert stats["raspasy"] == {"deals": 2, "tricks": 3, "zero": 1}  # 0 and 3 tricks
    # B whisted 6♣ in deal 3 and took nothing of his 2: short in both pulkas
    assert client.get(f"/api/v1/players/{club['ids']['B']}/stats").json["defender"]["short"] == 2


def test_head_to_head_is_the_exact_pairwise_and_antisymmetric(client, club):
    ids = club["ids"]
    a = client.get(f"/api/v1/players/{ids['A']}/stats").json["head_to_head"]
    b = client.get(f"/api/v1/players/{ids['B']}/stats").json["head_to_head"]
    a_b = next(row for row in a if row["opponent"]["id"] == ids["B"])
    b_a = next(row for row in b if row["opponent"]["id"] == ids["A"])
    assert a_b["pulkas"] == b_a["pulkas"] == 2 and a_b["net"]["sochi"] == -b_a["net"]["sochi"]
    pairwise = [client.get(f"/api/v1/pulkas/{p}/settlement").json["pairwise"][0][1] for p in (club["full"], club["four"])]
    assert a_b["net"]["sochi"] == pytest.approx(sum(pairwise), abs=0.006)


def test_filters_narrow_and_never_widen(client, club):
    a = club["ids"]["A"]
    everything = client.get(f"/api/v1/players/{a}/stats?unfinished=1").json
    assert everything["pulkas"] == 3 and everything["deals"] == 17
    assert client.get(f"/api/v1/players/{a}/stats?preset=leningrad").json["pulkas"] == 0
    assert client.get(f"/api/v1/players/{a}/stats?players=4").json["pulkas"] == 0
    assert client.get(f"/api/v1/players/{a}/stats?from=2999-01-01").json["pulkas"] == 0
    assert client.get(f"/api/v1/players/{a}/stats?with={club['ids']['B']}").json["pulkas"] == 2


@pytest.mark.parametrize("query, field", [("from=yesterday", "from"), ("to=2026-13-01", "to"), ("preset=paris", "preset"),
                                          ("players=5", "players"), ("unfinished=yes", "unfinished")])
def test_a_bad_filter_is_refused_on_its_field(client, club, query, field):
    response = client.get(f"/api/v1/players/{club['ids']['A']}/stats?{query}")
    assert response.status_code == 400 and response.json["error"]["field"] == field


def test_nothing_of_a_pulka_one_may_not_read_counts(app, client, club):
    other = signed_in(app, "other", "other-password")
    assert other.get("/api/v1/players").json["players"] == []
    assert other.get(f"/api/v1/players/{club['ids']['A']}/stats").status_code == 404
    mine = create(other, players=("A", "X", "Y"))
    assert [p["name"] for p in other.get("/api/v1/players?unfinished=1").json["players"]] == ["A", "X", "Y"]
    assert mine


def test_rename_keeps_the_player_and_merge_counts_both_until_undone(client, club):
    ids = club["ids"]
    renamed = client.patch(f"/api/v1/players/{ids['C']}", json={"name": "Cyril"})
    assert renamed.json == {"id": ids["C"], "name": "Cyril"}
    assert client.get(f"/api/v1/pulkas/{club['full']}").json["players"] == ["A", "B", "Cyril"]
    assert client.patch(f"/api/v1/players/{ids['C']}", json={"name": "A"}).json["error"]["field"] == "name"
    # "Anya" of another pulka is A entered under another spelling
    other = create(client, players=("Anya", "B", "Cyril"))
    spelled = {"A": "Anya", "B": "B", "C": "Cyril"}
    for deal in SOCHI["deals"]:
        deal = json.loads(json.dumps(deal))
        for key in ("whist", "tricks"):
            if key in deal:
                deal[key] = {spelled[name]: value for name, value in deal[key].items()}
        if "declarer" in deal:
            deal["declarer"] = spelled[deal["declarer"]]
        assert add(client, other, deal).status_code == 201
    anya = next(p["id"] for p in client.get("/api/v1/players").json["players"] if p["name"] == "Anya")
    alone = client.get(f"/api/v1/players/{ids['A']}/stats").json
    assert client.post(f"/api/v1/players/{anya}/merge", json={"into": ids["A"]}).status_code == 204
    merged = client.get(f"/api/v1/players/{ids['A']}/stats").json
    assert merged["pulkas"] == alone["pulkas"] + 1 and merged["deals"] == alone["deals"] + 10
    assert "Anya" not in [p["name"] for p in client.get("/api/v1/players").json["players"]]
    # two who sat at one table are two players
    assert client.post(f"/api/v1/players/{ids['B']}/merge", json={"into": ids["A"]}).status_code == 400
    assert client.delete(f"/api/v1/players/{anya}/merge").status_code == 204
    assert client.get(f"/api/v1/players/{ids['A']}/stats").json == alone


def test_the_pages_show_the_same_numbers_and_keep_the_filter(client, club):
    a = club["ids"]["A"]
    standings = client.get("/players?preset=sochi").get_data(as_text=True)
    assert f'href="/players/{a}?preset=sochi"' in standings and "provisional" in standings
    exact = Fraction(790, 3) + _net(client, club["four"])["A"]  # A's whists over his 14 deals
    assert f"{signed(exact / 2)} <" in standings and f"{signed(exact / 14)} <" in standings  # per pulka, per deal
    assert 'href="/players.csv?preset=sochi"' in standings
    page = client.get(f"/players/{a}?preset=sochi").get_data(as_text=True)
    stats = client.get(f"/api/v1/players/{a}/stats").json
    assert "2 pulkas" in page and "14 deals" in page and '<svg class="chart"' in page
    assert "Whist 7 · pass 1 · half-whist 0 · short on whist 0" in page
    def svg(html: str) -> str:
        return html[html.index("<svg"):html.index("</svg>")]

    assert svg(page) == svg(client.get(f"/players/{a}?preset=sochi").get_data(as_text=True))  # the same bytes
    assert "<script" not in svg(page)
    assert stats["pulkas"] == 2
    assert client.get("/players?players=7").status_code == 400


def test_rename_and_merge_from_the_player_page(client, club):
    ids = club["ids"]
    response = client.post(f"/players/{ids['C']}", data={"action": "rename", "name": "Cyril"}, follow_redirects=True)
    assert "Renamed Cyril." in response.get_data(as_text=True)
    response = client.post(f"/players/{ids['C']}", data={"action": "rename", "name": "A"}, follow_redirects=True)
    assert "merge the two instead" in response.get_data(as_text=True)


def test_the_player_page_lists_his_pulkas_head_to_head_and_the_csv(client, club):
    ids, a = club["ids"], club["ids"]["A"]
    page = client.get(f"/players/{a}").get_data(as_text=True)
    assert "1 evening" in page and "0 h 00 min at the table" in page  # both counted on one date, in no time
    four = "+" if _net(client, club["four"])["A"] > 0 else "−"
    assert f'<span class="{"plus" if four == "+" else "minus"}">{four}</span><span class="plus">+</span>' in page
    table = page[page.index('aria-label="Pulkas"'):]
    assert table.index(f'href="/p/{club["four"]}"') < table.index(f'href="/p/{club["full"]}"')  # the latest first
    assert f'href="/p/{club["going"]}"' not in table  # unfinished: not counted
    assert f'href="/players/{ids["B"]}"' in table and "+263⅓" in table
    # head to head with B: the running pairwise balance, and A's pairwise against B in each pulka (docs/rules.md §10: 142)
    versus = client.get(f"/players/{a}", query_string={"with": ids["B"]}).get_data(as_text=True)
    assert "Head to head with B" in versus and versus.count('<svg class="chart"') == 3  # whists, money, the pair
    assert '<td class="num">+142</td>' in versus
    lines = list(csv.reader(client.get(f"/players/{a}.csv").get_data(as_text=True).lstrip("\ufeff").splitlines()))
    assert lines[0] == ["date", "pulka", "title", "player", "seat", "players", "preset", "currency", "finished",
                        "deals", "whists", "whists_exact", "money"]
    full = next(line for line in lines if club["full"] in line)
    assert full[3:5] == ["A", "1"] and full[5] == "A · B · C" and full[10:] == ["263.33", "790/3", "131.67"]
    assert len(lines) == 3
    seats = client.get("/players.csv").get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert len(seats) == 1 + 2 * 3  # two counted pulkas, a row for each of their three players
    assert len(client.get("/players.csv?preset=leningrad").get_data(as_text=True).splitlines()) == 1
    assert len(client.get("/players.csv?unfinished=1").get_data(as_text=True).splitlines()) == 1 + 3 * 3


def test_rival_and_nemesis_wait_for_the_floor(client, club):
    a = club["ids"]["A"]
    assert "Rival (most often" not in client.get(f"/players/{a}").get_data(as_text=True)  # 2 shared < 3
    page = client.get(f"/players/{club['ids']['B']}?unfinished=1").get_data(as_text=True)
    assert "Rival (most often at one table): A." in page
    # A and C each beat B in all three (pairwise −142, −88⅔, −88⅔ and −72⅔, −69⅓, −78): the first listed
    assert "Nemesis: A (ahead in shared pulkas: 3 of 3)." in page


def test_a_name_on_the_sheet_and_the_settlement_leads_to_the_players_page(app, client, club):
    full, ids = club["full"], club["ids"]
    for page in (f"/p/{full}", f"/p/{full}/settlement"):
        shown = client.get(page).get_data(as_text=True)
        assert all(f'href="/p/{full}/players/{seat}"' in shown for seat in range(3)), page
    for seat, name in enumerate("ABC"):  # the first seat too: seats count from 0, ids from 1
        gone = client.get(f"/p/{full}/players/{seat}")
        assert gone.status_code == 302 and gone.headers["Location"] == f"/players/{ids[name]}"
    assert client.get(f"/p/{full}/players/3").status_code == 404
    assert client.get(f"/p/{full}/players/4").status_code == 404
    viewer = app.test_client()  # a link's viewer has no circle: the names stay names
    token = client.post(f"/api/v1/pulkas/{full}/shares", json={"role": "viewer"}).json["token"]
    assert viewer.get(f"/s/{token}").status_code == 302
    assert "/players/" not in viewer.get(f"/p/{full}").get_data(as_text=True)
    assert "/players/" not in viewer.get(f"/p/{full}/settlement").get_data(as_text=True)
