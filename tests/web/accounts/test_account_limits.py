"""One account must not stall the others: limits on its pulkas and on the deals of all of them (a clear code,
nothing stored), and a home list read from the standing every write keeps, never from replays."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select, update

from scorekeeper.web.domain.pulkas import PulkaStanding
from scorekeeper.web.store.models import AccountRow, DealRow, PulkaRow

from ..conftest import SOCHI, add, create, make_app, signed_in, snapshot

RASPASY = {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}}


@pytest.fixture
def small(database_url, tmp_path):
    app = make_app(database_url, tmp_path, MAX_PULKAS=3, MAX_ACCOUNT_DEALS=12)
    yield app
    app.extensions["scorekeeper"].db.engine.dispose()


def _refused(response, code: str, field: str) -> None:
    assert (response.status_code, response.json["error"]["code"], response.json["error"]["field"]) == (
        422, code, field), response.json


def test_the_default_limits(app):
    assert app.config["MAX_PULKAS"] <= 1000 and app.config["MAX_ACCOUNT_DEALS"] >= app.config["MAX_DEALS"]


def test_an_account_keeps_at_most_its_pulkas(small):
    client = signed_in(small)
    first = create(client)
    create(client)
    create(client)
    before = snapshot(small)
    _refused(client.post("/api/v1/pulkas", json={"players": ["A", "B", "C"], "rules": {"preset": "sochi"}}),
             "too_many_pulkas", "pulkas")
    _refused(client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:1]}), "too_many_pulkas", "pulkas")
    assert client.post(f"/p/{first}/again").status_code == 422
    assert client.post("/new", data={"players": "A\nB\nC", "preset": "sochi"}).status_code in (422, 400)
    assert snapshot(small) == before
    other = signed_in(small, "boris", "a long password")
    create(other)  # another account has its own room
    assert client.delete(f"/api/v1/pulkas/{first}").status_code == 204
    create(client)  # and a deleted pulka frees a place


def test_the_deals_of_all_an_account_s_pulkas_are_bounded(small):
    client = signed_in(small)
    one = create(client)
    for _ in range(8):
        assert add(client, one, RASPASY).status_code == 201
    before = snapshot(small)
    _refused(client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:5]}), "account_full", "deals")
    assert snapshot(small) == before
    assert client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:4]}).status_code == 201
    before = snapshot(small)
    _refused(add(client, one, RASPASY), "account_full", "deals")
    # A scorer link writes into the owner's room too.
    token = client.post(f"/api/v1/pulkas/{one}/shares", json={"role": "scorer"}).json["token"]
    scorer = small.test_client()
    scorer.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    assert scorer.get(f"/api/v1/pulkas/{one}").status_code == 200  # the link's first use is noted
    before = snapshot(small)
    _refused(add(scorer, one, RASPASY), "account_full", "deals")
    assert snapshot(small) == before
    assert client.post(f"/api/v1/pulkas/{one}/undo").status_code == 200  # taking back makes room again
    assert add(scorer, one, RASPASY).status_code == 201


def test_the_account_s_count_of_deals_is_the_deals_its_pulkas_hold_after_every_kind_of_write(app):
    """The room check reads the count kept with the account: every write that adds or removes deals moves it."""
    store = app.extensions["scorekeeper"]
    client = signed_in(app)

    def kept_and_counted() -> list[tuple[int, int]]:
        with store.db.engine.connect() as connection:
            counted = dict(connection.execute(select(PulkaRow.owner_id, func.count()).join(
                DealRow, DealRow.pulka_id == PulkaRow.id).group_by(PulkaRow.owner_id)).all())
            return [(kept, counted.get(account, 0)) for account, kept in connection.execute(
                select(AccountRow.id, AccountRow.deals).order_by(AccountRow.id))]

    one = create(client)
    for _ in range(3):
        assert add(client, one, RASPASY).status_code == 201
    assert add(client, one, {"type": "raspasy", "tricks": {"A": 4, "B": 4, "C": 4}}).status_code == 422
    imported = client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:5]}).json["id"]
    assert client.delete(f"/api/v1/pulkas/{one}/deals/1").status_code == 200
    assert client.post(f"/api/v1/pulkas/{one}/undo").status_code == 200
    assert client.post(f"/api/v1/pulkas/{imported}/undo").status_code == 200
    other = signed_in(app, "other", "a long password")
    theirs = create(other)
    assert add(other, theirs, RASPASY).status_code == 201
    assert kept_and_counted() == [(5, 5), (1, 1)]
    assert client.delete(f"/api/v1/pulkas/{imported}").status_code == 204
    assert kept_and_counted() == [(1, 1), (1, 1)]
    with store.db.engine.begin() as connection:  # a pulka from before accounts, claimed
        connection.execute(update(PulkaRow).where(PulkaRow.id == select(PulkaRow.id).where(PulkaRow.owner_id == 2)
                                                  .scalar_subquery()).values(owner_id=None))
        connection.execute(update(AccountRow).where(AccountRow.id == 2).values(deals=0))
    assert store.accounts.claim(1) == 1
    assert kept_and_counted() == [(2, 2), (0, 0)]


def _cards(client) -> str:
    """The home list as shown, without what each request makes anew (form keys)."""
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    start = html.index('<ul class="pulkas">')
    listed = html[start:html.index("</ul>", start)]
    assert "<li>" in listed
    return re.sub(r'value="[^"]*"', "", listed)


def test_the_home_list_replays_nothing(app, monkeypatch):
    client = signed_in(app)
    sochi = create(client)
    for deal in SOCHI["deals"]:
        assert add(client, sochi, deal).status_code == 201
    client.post("/api/v1/import", json=SOCHI | {"deals": SOCHI["deals"][:3], "name": "Half"})
    create(client, name="Empty")
    expected = _cards(client)
    store = app.extensions["scorekeeper"].pulkas

    def no_replay(uid):
        raise AssertionError("the home list replayed a pulka")

    monkeypatch.setattr(store, "get", no_replay)
    assert _cards(client) == expected


def test_the_kept_standing_is_the_replayed_one_after_every_kind_of_write(app):
    client = signed_in(app)
    uid = create(client)
    store = app.extensions["scorekeeper"].pulkas

    def same() -> None:
        (summary,) = [s for s in store.summaries(1) if s.uid == uid]
        assert summary.standing == PulkaStanding.of(store.get(uid))

    same()
    for deal in SOCHI["deals"][:6]:
        assert add(client, uid, deal).status_code == 201
        same()
    assert client.put(f"/api/v1/pulkas/{uid}/deals/2", json=SOCHI["deals"][1]).status_code in (200, 422)
    same()
    assert client.delete(f"/api/v1/pulkas/{uid}/deals/6").status_code in (200, 204, 422)
    same()
    assert client.post(f"/api/v1/pulkas/{uid}/undo").status_code == 200
    same()
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"name": "renamed"}).status_code == 200
    same()
    for deal in SOCHI["deals"][5:]:
        add(client, uid, deal)
    same()


def test_a_pulka_from_before_standings_is_shown_by_a_replay(app):
    client = signed_in(app)
    uid = create(client)
    for deal in SOCHI["deals"][:4]:
        add(client, uid, deal)
    expected = _cards(client)
    with app.extensions["scorekeeper"].db.engine.begin() as connection:
        connection.execute(update(PulkaRow).values(standing=None))
    assert _cards(client) == expected


def test_one_account_s_list_holds_two_threads_at_most(app):
    """While one list is being made and one more waits, a third is turned away (503, Retry-After) at once,
    not queued: the account's own tabs never hold every server thread. Another account's list is not."""
    from scorekeeper.web.edge.presenting import home_gate

    client = signed_in(app)
    create(client)
    other = signed_in(app, "boris", "a long password")
    with app.test_request_context():
        gate = home_gate(1)
    with gate.entered(), gate.entered():
        response = client.get("/")
        assert (response.status_code, response.headers["Retry-After"]) == (503, "2")
        assert "other tabs" in response.get_data(as_text=True)
        assert other.get("/").status_code == 200
    assert client.get("/").status_code == 200
