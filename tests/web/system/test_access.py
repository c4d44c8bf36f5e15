"""Who may do what: every route of the app (taken from its URL map, so a new route cannot escape)
against every kind of caller, on the pages and the API.

The table below is the specification, written independently of what each route declares (its
`@needs`): anonymous callers reach only logging in, registering, static files and the OpenAPI
document; another account sees nothing of a pulka not shared with it (404, as if it did not exist); a
viewer link reads; a scorer link also writes deals; the owner does everything; the administrator
manages accounts and sees others' pulkas only when they are shared with him.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from scorekeeper.web.edge.access import declared

from ..conftest import SOCHI, make_app, signed_in

CALLERS = ("anonymous", "other", "viewer", "scorer", "admin", "owner")  # the order requests are made in
OK, LOGIN, NO, HIDDEN, DENIED = "ok", "login", 401, 404, 403

# What each kind of route allows each caller: pages (HTML, the session cookie) and API (bearer tokens).
ALLOWS = {
    "anyone": {c: OK for c in CALLERS},
    "account": {"anonymous": LOGIN, "viewer": LOGIN, "scorer": LOGIN, "other": OK, "admin": OK, "owner": OK},
    "admin": {"anonymous": LOGIN, "viewer": LOGIN, "scorer": LOGIN, "other": DENIED, "owner": DENIED, "admin": OK},
    "read": {"anonymous": HIDDEN, "other": HIDDEN, "admin": HIDDEN, "viewer": OK, "scorer": OK, "owner": OK},
    "score": {"anonymous": HIDDEN, "other": HIDDEN, "admin": HIDDEN, "viewer": DENIED, "scorer": OK, "owner": OK},
    # an account's circle: another account's players are not there (404, as a pulka not shared)
    "circle": {"anonymous": LOGIN, "viewer": LOGIN, "scorer": LOGIN, "other": HIDDEN, "admin": HIDDEN, "owner": OK},
    "own": {"anonymous": HIDDEN, "other": HIDDEN, "admin": HIDDEN, "viewer": DENIED, "scorer": DENIED, "owner": OK},
}
# On the API, what a page answers by sending the browser to log in is 401; a share link's token,
# which is a credential without an account, is 403 there.
API = {LOGIN: NO}
API_SHARE = {LOGIN: DENIED}

RASPASY_FORM = {"type": "raspasy", "t0": "3", "t1": "3", "t2": "4", "action": "save"}
RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}
PASSWORD = "a long password"
_new = itertools.count()


def new_pulka_form() -> dict[str, str]:
    return {"player0": "A", "player1": "B", "player2": "C", "first_dealer": "0", "preset": "sochi",
            "shown_preset": "sochi", "pulya_size": "20", "whist_price": "1", "currency": "", "name": ""}


# endpoint: (what it needs, [(method, path, body)]); a body is form data for pages, JSON for the API.
ROUTES: dict[str, tuple[str, list[tuple[str, str, Any]]]] = {
    "static": ("anyone", [("GET", "/static/app.css", None)]),
    "shell.worker": ("anyone", [("GET", "/sw.js", None)]),
    "shell.offline": ("anyone", [("GET", "/offline", None)]),
    "shell.outbox": ("anyone", [("GET", "/outbox", None)]),
    "pages.login": ("anyone", [("GET", "/login", None), ("POST", "/login", {"username": "owner", "password": PASSWORD})]),
    "pages.logout": ("anyone", [("POST", "/logout", {})]),
    "pages.register": ("anyone", [("GET", "/register", None),
                                 ("POST", "/register", lambda: {"username": f"new{next(_new)}", "password": PASSWORD})]),
    "pages.language": ("anyone", [("POST", "/language", {"language": "ru", "next": "/"})]),
    "pages.account": ("account", [("GET", "/account", None),
                                 ("POST", "/account", {"current": "not it", "new": PASSWORD})]),
    "pages.admin": ("admin", [("GET", "/admin", None),
                             ("POST", "/admin", lambda: {"username": f"made{next(_new)}", "password": PASSWORD})]),
    "pages.admin_account": ("admin", [("POST", "/admin/accounts/{victim}",
                                      {"action": "password", "password": "another password"})]),
    "pages.index": ("account", [("GET", "/", None)]),
    "pages.new_pulka": ("account", [("GET", "/new", None), ("POST", "/new", new_pulka_form)]),
    "pages.import_pulka": ("account", [("GET", "/import", None),
                                       ("POST", "/import", {"text": json.dumps(SOCHI), "name": ""})]),
    "pages.open_share": ("anyone", [("GET", "/s/{spare_token}", None)]),
    "pages.paper": ("anyone", [("GET", "/paper", None)]),
    "pages.paper_pdf": ("anyone", [("POST", "/paper/pdf", {"player_0": "A", "player_1": "B", "player_2": "C",
                                                           "preset": "sochi", "gora_0": "1", "gora_1": "2",
                                                           "gora_2": "3"})]),
    "pages.keep_paper": ("account", [("POST", "/paper/keep", {"player_0": "A", "player_1": "B", "player_2": "C",
                                                             "preset": "sochi", "gora_0": "1", "gora_1": "2",
                                                             "gora_2": "3"})]),
    "pages.sheet": ("read", [("GET", "/p/{uid}", None)]),
    "pages.history": ("read", [("GET", "/p/{uid}/history", None)]),
    "pages.settlement": ("read", [("GET", "/p/{uid}/settlement", None)]),
    "pages.export": ("read", [("GET", "/p/{uid}/export", None)]),
    "pages.pdf": ("read", [("GET", "/p/{uid}/pulka.pdf", None)]),
    "pages.protocol": ("read", [("GET", "/p/{uid}/protocol.csv", None)]),
    "pages.new_deal": ("score", [("GET", "/p/{uid}/deal", None), ("POST", "/p/{uid}/deal", RASPASY_FORM)]),
    "pages.edit_deal": ("score", [("GET", "/p/{uid}/deals/1/edit", None),
                                  ("POST", "/p/{uid}/deals/1/edit", RASPASY_FORM)]),
    "pages.delete_deal": ("score", [("GET", "/p/{uid}/deals/1/delete", None),
                                    ("POST", "/p/{uid}/deals/1/delete", {})]),
    "pages.undo": ("score", [("POST", "/p/{uid}/undo", {})]),
    "pages.restore": ("score", [("POST", "/p/{uid}/restore", {"deal": json.dumps(RASPASY)})]),
    "pages.again": ("own", [("POST", "/p/{uid}/again", {})]),
    "pages.settings": ("own", [("GET", "/p/{uid}/settings", None),
                               ("POST", "/p/{uid}/settings", {"name": "Renamed", "currency": "€"})]),
    "pages.shares": ("own", [("GET", "/p/{uid}/shares", None), ("POST", "/p/{uid}/shares", {"role": "viewer"})]),
    "pages.revoke_share": ("own", [("GET", "/p/{uid}/shares/{spare}/revoke", None),
                                   ("POST", "/p/{uid}/shares/{spare}/revoke", {})]),
    "pages.close": ("own", [("GET", "/p/{uid}/close", None), ("POST", "/p/{uid}/close", {})]),
    "pages.reopen": ("own", [("POST", "/p/{uid}/reopen", {})]),
    "pages.remove": ("own", [("GET", "/p/{uid}/remove", None), ("POST", "/p/{uid}/remove", {})]),
    "api.openapi": ("anyone", [("GET", "/api/v1/openapi.json", None)]),
    "api.create_account": ("anyone", [("POST", "/api/v1/accounts",
                                       lambda: {"username": f"api{next(_new)}", "password": PASSWORD})]),
    "api.create_token": ("anyone", [("POST", "/api/v1/tokens", {"username": "owner", "password": PASSWORD})]),
    "api.revoke_token": ("account", [("DELETE", "/api/v1/tokens/current", None)]),
    "api.parameters": ("account", [("GET", "/api/v1/parameters", None)]),
    "api.players": ("account", [("GET", "/api/v1/players", None)]),
    "api.list_pulkas": ("account", [("GET", "/api/v1/pulkas", None)]),
    "api.create_pulka": ("account", [("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"]})]),
    "api.import_pulka": ("account", [("POST", "/api/v1/import", SOCHI)]),
    "api.settle": ("anyone", [("POST", "/api/v1/settle", {"format": "pulya-sheet/1", "players": ["A", "B", "C"],
                                                         "rules": {"preset": "sochi"}, "gora": {"A": 1, "B": 2, "C": 3}})]),
    "api.get_pulka": ("read", [("GET", "/api/v1/pulkas/{uid}", None)]),
    "api.version": ("read", [("GET", "/api/v1/pulkas/{uid}/version", None)]),
    "api.list_deals": ("read", [("GET", "/api/v1/pulkas/{uid}/deals", None)]),
    "api.get_deal": ("read", [("GET", "/api/v1/pulkas/{uid}/deals/1", None)]),
    "api.sheet": ("read", [("GET", "/api/v1/pulkas/{uid}/sheet", None)]),
    "api.settlement": ("read", [("GET", "/api/v1/pulkas/{uid}/settlement", None)]),
    "api.export": ("read", [("GET", "/api/v1/pulkas/{uid}/export", None)]),
    "api.pdf": ("read", [("GET", "/api/v1/pulkas/{uid}/pdf", None)]),
    "api.add_deal": ("score", [("POST", "/api/v1/pulkas/{uid}/deals", RASPASY)]),
    "api.preview_deal": ("score", [("POST", "/api/v1/pulkas/{uid}/deals/preview", RASPASY)]),
    "api.edit_deal": ("score", [("PUT", "/api/v1/pulkas/{uid}/deals/1", RASPASY)]),
    "api.delete_deal": ("score", [("DELETE", "/api/v1/pulkas/{uid}/deals/1", None)]),
    "api.undo": ("score", [("POST", "/api/v1/pulkas/{uid}/undo", {})]),
    "api.patch_pulka": ("own", [("PATCH", "/api/v1/pulkas/{uid}", {"name": "Renamed"})]),
    "api.player_stats": ("circle", [("GET", "/api/v1/players/{player}/stats", None)]),
    "api.rename_player": ("circle", [("PATCH", "/api/v1/players/{player}", {"name": "Renamed"})]),
    "api.merge_player": ("circle", [("POST", "/api/v1/players/{player}/merge", {"into": "nobody"})]),
    "api.unmerge_player": ("circle", [("DELETE", "/api/v1/players/{player}/merge", None)]),
    "pages.players": ("account", [("GET", "/players", None)]),
    # the ledger: every account has one; writes are refused (400, 404) on what is not the caller's
    "api.ledger": ("account", [("GET", "/api/v1/ledger", None), ("GET", "/api/v1/ledger?currency=₽", None)]),
    "api.add_payment": ("account", [("POST", "/api/v1/ledger/payments", {
        "from": "{debtor}", "to": "{creditor}", "amount": "2.50", "currency": "₽"})]),
    "api.record_settle_up": ("account", [("POST", "/api/v1/ledger/settle-up", {"currency": "₽"})]),
    "api.take_back_payment": ("circle", [("DELETE", "/api/v1/ledger/payments/{payment}", None)]),
    "api.mark_paid": ("circle", [("POST", "/api/v1/ledger/obligations/{obligation}/paid", None)]),
    "api.unmark_paid": ("circle", [("DELETE", "/api/v1/ledger/obligations/{obligation}/paid", None)]),
    "pages.ledger": ("account", [("GET", "/ledger", None)]),
    "pages.ledger_csv": ("account", [("GET", "/ledger.csv?currency=₽", None)]),
    "pages.ledger_write": ("circle", [("POST", "/ledger", {"action": "mark", "obligation": "{obligation}",
                                                             "currency": "₽"})]),
    "pages.player": ("circle", [("GET", "/players/{player}", None)]),
    "pages.player_csv": ("circle", [("GET", "/players/{player}.csv", None)]),
    "pages.player_pdf": ("circle", [("GET", "/players/{player}.pdf", None)]),
    "pages.player_deals_csv": ("circle", [("GET", "/players/{player}/deals.csv", None)]),
    "pages.players_csv": ("account", [("GET", "/players.csv", None)]),
    "pages.seat_player": ("circle", [("GET", "/p/{uid}/players/1", None)]),
    "api.close_pulka": ("own", [("POST", "/api/v1/pulkas/{uid}/close", {})]),
    "api.reopen_pulka": ("own", [("POST", "/api/v1/pulkas/{uid}/reopen", {})]),
    "api.list_shares": ("own", [("GET", "/api/v1/pulkas/{uid}/shares", None)]),
    "api.create_share": ("own", [("POST", "/api/v1/pulkas/{uid}/shares", {"role": "scorer"})]),
    "api.delete_share": ("own", [("DELETE", "/api/v1/pulkas/{uid}/shares/{spare}", None)]),
    "api.delete_pulka": ("own", [("DELETE", "/api/v1/pulkas/{uid}", None)]),
}


@dataclass
class World:
    """Three accounts (the administrator made first), a pulka of the owner with two deals, a viewer, a
    scorer and a spare link; each caller as a browser (session) and as an API client (bearer)."""

    app: Any
    names: dict[str, str] = field(default_factory=dict)
    browsers: dict[str, Any] = field(default_factory=dict)
    bearers: dict[str, Any] = field(default_factory=dict)


def world(app) -> World:
    w = World(app)
    accounts = {name: signed_in(app, name, PASSWORD) for name in ("admin", "owner", "other")}
    signed_in(app, "victim", PASSWORD)  # whose password the administrator sets
    owner = accounts["owner"]
    uid = owner.post("/api/v1/pulkas", json={"players": ["A", "B", "C"], "rules": {"preset": "sochi", "pulya_size": 100}}).json["id"]
    for _ in range(2):
        assert owner.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY).status_code == 201
    shares = {role: owner.post(f"/api/v1/pulkas/{uid}/shares", json={"role": role}).json
              for role in ("viewer", "scorer")}
    spare = owner.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json
    w.names = {"uid": uid, "spare": spare["id"], "spare_token": spare["token"],
               "victim": str(_account_id(app, "victim")),
               "player": owner.get("/api/v1/players?unfinished=1").json["players"][0]["id"]} | _ledger(owner)
    for name, client in accounts.items():
        w.bearers[name] = client
        browser = app.test_client()
        assert browser.post("/login", data={"username": name, "password": PASSWORD}).status_code == 302
        w.browsers[name] = browser
    for role, share in shares.items():
        bearer = app.test_client()
        bearer.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {share['token']}"
        w.bearers[role] = bearer
        browser = app.test_client()
        assert browser.get(f"/s/{share['token']}").status_code == 302
        w.browsers[role] = browser
    w.bearers["anonymous"] = w.browsers["anonymous"] = app.test_client()
    return w


def _ledger(owner) -> dict[str, str]:
    """A closed pulka's obligation and a payment, in the owner's ledger."""
    uid = owner.post("/api/v1/pulkas", json={"players": ["A", "B", "C"], "currency": "₽", "rules": {
        "preset": "sochi", "pulya_size": 100, "whist_price": 1}}).json["id"]
    assert owner.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY).status_code == 201
    assert owner.post(f"/api/v1/pulkas/{uid}/close").status_code == 200
    book = owner.get("/api/v1/ledger").json
    debt = book["obligations"][0]
    payment = owner.post("/api/v1/ledger/payments", json={"from": debt["from"], "to": debt["to"], "amount": 1,
                                                         "currency": "₽"})
    return {"obligation": debt["id"], "payment": payment.json["id"], "debtor": debt["from"], "creditor": debt["to"]}


def _account_id(app, username: str) -> int:
    return app.extensions["scorekeeper"].accounts.account(username=username).id


def outcome(response) -> object:
    location = response.headers.get("Location", "")
    if response.status_code == 302 and location.startswith("/login?next="):
        return LOGIN
    if response.status_code in (NO, DENIED, HIDDEN):
        return response.status_code
    assert response.status_code < 500, response.get_data(as_text=True)[:300]
    return OK


@pytest.fixture
def sqlite_app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 'access.sqlite'}", tmp_path)
    yield app
    app.extensions["scorekeeper"].db.engine.dispose()


def test_every_route_is_in_the_table(sqlite_app):
    assert {rule.endpoint for rule in sqlite_app.url_map.iter_rules()} == set(ROUTES)


def test_every_route_says_what_it_needs(sqlite_app):
    assert [rule.endpoint for rule in sqlite_app.url_map.iter_rules()
            if declared(sqlite_app.view_functions[rule.endpoint]) is None] == []


def test_a_route_that_says_nothing_is_refused(sqlite_app):
    sqlite_app.add_url_rule("/undeclared", "undeclared", lambda: "served")
    response = sqlite_app.test_client().get("/undeclared")
    assert response.status_code == 403
    assert "served" not in response.get_data(as_text=True)


@pytest.mark.parametrize("endpoint", sorted(ROUTES))
def test_who_may_do_what(sqlite_app, endpoint):
    need, requests = ROUTES[endpoint]
    w = world(sqlite_app)
    api = endpoint.startswith("api.")
    seen = {}
    for caller in CALLERS:
        client = w.bearers[caller] if api else w.browsers[caller]
        expected = ALLOWS[need][caller]
        if api:
            expected = (API_SHARE if caller in ("viewer", "scorer") else API).get(expected, expected)
        for method, path, body in requests:
            body = body() if callable(body) else body
            if isinstance(body, dict):  # "{player}": a name of the world
                body = {k: w.names[v[1:-1]] if isinstance(v, str) and v[1:-1] in w.names and v[0] == "{" else v
                        for k, v in body.items()}
            kwargs = {} if body is None else {"json": body} if api else {"data": body}
            response = client.open(path.format(**w.names), method=method, **kwargs)
            seen[(caller, method)] = (outcome(response), expected)
    assert {key: got for key, (got, _) in seen.items()} == {key: want for key, (_, want) in seen.items()}
