"""A club of hostile names for the crawls of every CSV (test_csv_cells.py) and every download's name
(test_downloads.py): what a member may type (names, titles, currencies, a note, a username) made to start a
spreadsheet formula or to break a header; and every GET route of the app's URL map with its arguments filled
in, so that a route added later is crawled too (one whose argument the crawl does not know fails it, until
the crawl is taught that argument)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.render import pdf

from ..conftest import signed_in

RULES = {"preset": "sochi", "pulya_size": 10, "whist_price": 0.5}
# The pulka, as it was sent; then one of a name that looks like a number, one that starts with the
# guard itself, and a formula that reaches the network.
PULKAS = [
    {"name": "=cmd|' /C calc'!A0", "players": ["=1+1", "+2+3", "@SUM(1;1)"], "currency": "-4+4"},
    {"name": "+Friday", "players": ["'Apostrophe", "-15.33", '=HYPERLINK("http://x.example","y")'],
     "currency": "@€"},
]
NOTE = '=HYPERLINK("http://x.example/steal","pay here")'
OWNER, GUEST = "=owner", "@guest"  # usernames: the ledger's `by` column is one
LABEL = "-link"


@dataclass
class HostileClub:
    """The owner's two finished pulkas (each a deal, then closed) and a payment with a note, in the first
    pulka's currency; a guest account that opened the first pulka's link in its browser, so that its names
    are in the guest's circle too."""

    app: Any
    owner: Any
    guest: Any
    pulkas: list[str] = field(default_factory=list)
    token: str = ""
    share_id: str = ""

    @property
    def texts(self) -> set[str]:
        """What the members typed that the CSVs show."""
        return ({p["name"] for p in PULKAS} | {p["currency"] for p in PULKAS}
                | {name for p in PULKAS for name in p["players"]} | {NOTE, OWNER})

    @property
    def currencies(self) -> list[str]:
        return [p["currency"] for p in PULKAS]


def hostile_club(app) -> HostileClub:
    signed_in(app, GUEST, "guest's password")
    guest = app.test_client()  # a browser: the links it opened let it in
    assert guest.post("/login", data={"username": GUEST, "password": "guest's password"}).status_code == 302
    club = HostileClub(app, signed_in(app, OWNER, "owner's password"), guest)
    for body in PULKAS:
        response = club.owner.post("/api/v1/pulkas", json=body | {"rules": RULES})
        assert response.status_code == 201, response.json
        uid = response.json["id"]
        a, b, c = body["players"]
        deal = {"type": "game", "declarer": a, "contract": "6S", "whist": {b: "whist", c: "pass"},
                "tricks": {a: 6, b: 3, c: 1}}
        assert club.owner.post(f"/api/v1/pulkas/{uid}/deals", json=deal).status_code == 201
        assert club.owner.post(f"/api/v1/pulkas/{uid}/close", json={}).status_code == 200
        club.pulkas.append(uid)
    ids = players(club.owner)
    first = PULKAS[0]["players"]
    payment = {"from": ids[first[1]], "to": ids[first[0]], "amount": "1.50", "currency": PULKAS[0]["currency"],
               "note": NOTE}
    assert club.owner.post("/api/v1/ledger/payments", json=payment).status_code == 201
    share = club.owner.post(f"/api/v1/pulkas/{club.pulkas[0]}/shares", json={"role": "viewer", "label": LABEL})
    assert share.status_code == 201, share.json
    club.token, club.share_id = share.json["token"], share.json["id"]
    assert guest.get(f"/s/{club.token}").status_code == 302  # the guest's account opens the owner's link
    return club


def players(client) -> dict[str, str]:
    """The caller's circle: each player's id by name, unfinished pulkas' players too."""
    return {p["name"]: p["id"] for p in client.get("/api/v1/players?unfinished=1").json["players"]}


def fake_pdfs(monkeypatch) -> None:
    """PDFs made at once as a few bytes: the crawls look at the answers' headers, not at the drawing."""
    monkeypatch.setattr(pdf, "render_pdf_in_worker", lambda *args, **kwargs: b"%PDF-1.7 crawled")
    monkeypatch.setattr(pdf, "in_worker", lambda *args, **kwargs: b"%PDF-1.7 crawled")


def urls(app, club: HostileClub, client) -> Iterator[tuple[str, str]]:
    """(endpoint, path) of every GET route of the URL map, once for each value of each of its arguments that
    the club has: its pulkas, the caller's players, deal 1, seat 0, the link."""
    values: dict[str, list[Any]] = {"uid": club.pulkas, "player": sorted(players(client).values()),
                                    "number": [1], "seat": [0], "token": [club.token],
                                    "share_id": [club.share_id]}
    adapter = app.url_map.bind("localhost")
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule):
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        unknown = set(rule.arguments) - set(values)
        assert not unknown, f"{rule.rule}: teach the crawl a value of {sorted(unknown)}"
        names = sorted(rule.arguments)
        for chosen in itertools.product(*(values[name] for name in names)):
            yield rule.endpoint, adapter.build(rule.endpoint, dict(zip(names, chosen)))
