"""What pages and the API show, built from a stored pulka: values from docs/rules.md §10 (the Sochi example),
one presenter per pulka version, and the cold read path (a restarted app, a second server process)."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from fractions import Fraction

from scorekeeper.web.domain.deals import UndoDeal
from scorekeeper.files import pulyafile
from scorekeeper.web.domain.pulkas import Settings
from scorekeeper.web.edge.presenting import presenter
from scorekeeper.web.services import deals, pulkas
from scorekeeper.web.views.pulkas import Presenter

from ..conftest import SOCHI, make_app, signed_in, sochi

SOCHI_FILE = pulyafile.parse(SOCHI)


def sochi_pulka(repo, owner, deals: int = 10):
    settings = Settings("Friday", "₽", SOCHI_FILE.players, 0, SOCHI_FILE.rules)
    return pulkas.create_pulka(repo.pulkas, owner, settings, SOCHI_FILE.deals[:deals])


def test_the_sheet(repo, owner):
    view = Presenter(sochi_pulka(repo, owner), "en").sheet
    rows = {row["name"]: row for row in view["table"]}
    assert [rows[p]["gora_chain"] for p in "ABC"][1] == [12, 16, 20, 40, 39]
    assert rows["A"]["pulya_chain"] == [4, 5, 10] and all(rows[p]["pulya_closed"] for p in "ABC")
    assert {w["on"]: w["chain"] for w in rows["A"]["whists"]} == {"B": [30, 40], "C": [4, 16, 28, 68]}
    assert [rows[p]["money"] for p in "ABC"] == [Decimal("131.67"), Decimal("-107.33"), Decimal("-24.34")]
    assert view["finished"] and view["next"] is None
    assert view["last"]["pulya_closed"] == ["B"] and view["last"]["finished"]


def test_the_protocol_and_a_deal(repo, owner):
    view = Presenter(sochi_pulka(repo, owner), "en")
    assert view.deal(1)["summary"] == ["A: pulya +4", "B: 8 whists on A"]
    assert view.deal(2)["summary"] == ["B: gora +12", "C: 18 whists on B", "A: 30 whists on B"]
    assert view.deal(1)["text"] == "A 7♥: B whist, C pass (open); tricks A 8, defenders 2"  # the split is not asked (issue 17)
    assert [d["raspasy_k"] for d in view.protocol[4:6]] == [1, 2]
    assert view.deal(10)["finished"] and not view.deal(9)["finished"]


def test_the_settlement(repo, owner):
    view = Presenter(sochi_pulka(repo, owner), "en").settlement
    assert view["amnesty"] == 6 and view["gora_left"] == [0, 33, 16]
    assert view["gora_whists"][2] == Fraction(160, 3) and view["pairwise"][1][2] == Fraction(-218, 3)
    assert view["transfers"] == [{"from": "B", "to": "A", "amount": Decimal("107.33")},
                                 {"from": "C", "to": "A", "amount": Decimal("24.34")}]
    assert view["sum_net"] == 0 and view["sum_money"] == 0


def test_the_next_deal_on_the_form(repo, owner):
    settings = Settings("Four", "", ("Anna", "Boris", "Vera", "Gleb"), 2, SOCHI_FILE.rules)
    form = Presenter(pulkas.create_pulka(repo.pulkas, owner, settings), "en").deal_form(1)
    view = form["seating"]
    assert (view["dealer"], view["first_hand"], view["sitting_out"]) == ("Vera", "Gleb", "Vera")
    assert view["active"] == (3, 0, 1) and view["first_seat"] == 3 and view["sitting_out_seat"] == 2
    assert view["seats"] == [(0, "Anna"), (1, "Boris"), (2, "Vera"), (3, "Gleb")]  # seating order, every deal
    assert view["talon"] == 2 and form["least_level"] == 6 and not form["editing"]
    assert json.loads(view["defenders_json"]) == {"3": [0, 1], "0": [1, 3], "1": [3, 0]}
    # The round ahead, for a phone that keeps deals offline: deal 2 is Gleb's, deal 3 Anna's, deal 4 Boris's.
    assert [s["dealer"] for s in form["ahead"]] == ["Vera", "Gleb", "Anna", "Boris"]
    assert [s["active"] for s in form["ahead"]] == [(3, 0, 1), (0, 1, 2), (1, 2, 3), (2, 3, 0)]
    assert [s["talon"] for s in form["ahead"]] == [2, 3, 0, 1]


def test_files(repo, owner):
    view = Presenter(sochi_pulka(repo, owner), "en")
    assert json.loads(view.export)["deals"] == SOCHI["deals"]
    lines = list(csv.reader(io.StringIO("".join(view.csv()))))
    assert lines[0][:3] == ["deal", "dealer", "type"]
    assert len(lines) - 1 == sum(max(1, len(d["entries"])) for d in view.protocol)
    assert view.filename("csv").startswith("friday-") and view.filename("csv").endswith(".csv")
    assert view.drawing("upright").startswith("<svg") and view.drawing("upright") is view.drawing("upright")


def test_one_presenter_per_version(app, client):
    pulka_id = sochi(client, 2)
    repo = app.extensions["scorekeeper"]
    with app.app_context():
        first = presenter(pulkas.get_pulka(repo.pulkas, pulka_id))
        assert presenter(pulkas.get_pulka(repo.pulkas, pulka_id)) is first
        deals.undo(repo.pulkas, UndoDeal(pulka_id))
        after = presenter(pulkas.get_pulka(repo.pulkas, pulka_id))
        assert after is not first and len(after.protocol) == 1


def test_a_fresh_app_reads_what_another_wrote(app, client, database_url, tmp_path):
    """Two apps on one database stand for a restart or a second server process: each answers from the
    rows, whatever the other has cached."""
    pulka_id = sochi(client, 4)
    other_app = make_app(database_url, tmp_path / "other")
    other = signed_in(other_app)  # the same account, logged in through the other process
    for url in (f"/api/v1/pulkas/{pulka_id}/sheet", f"/api/v1/pulkas/{pulka_id}/deals",
                f"/api/v1/pulkas/{pulka_id}/settlement", f"/api/v1/pulkas/{pulka_id}"):
        assert other.get(url).json == client.get(url).json, url
    for url in (f"/p/{pulka_id}", f"/p/{pulka_id}/history", f"/p/{pulka_id}/settlement"):
        assert other.get(url).status_code == 200
    # A write through one is seen by the other at once.
    assert other.post(f"/api/v1/pulkas/{pulka_id}/undo").status_code == 200
    assert client.get(f"/api/v1/pulkas/{pulka_id}/sheet").json["deals"] == 3
    assert client.post(f"/api/v1/pulkas/{pulka_id}/deals", json=SOCHI["deals"][3]).status_code == 201
    assert other.get(f"/api/v1/pulkas/{pulka_id}/sheet").json == client.get(f"/api/v1/pulkas/{pulka_id}/sheet").json
    other_app.extensions["scorekeeper"].db.engine.dispose()
