"""Idempotency keys: a write sent again with its key answers what the first one answered and stores nothing
new; the key with another request is refused; keys are the caller's own, per route; the app's forms carry
a fresh one each. (Across real server processes, and a server killed mid-stream: test_nothing_lost.py.)"""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta

import pytest
from sqlalchemy import text, update

from scorekeeper.engine import Rules
from scorekeeper.files.pulyafile import read_deal
from scorekeeper.web.domain.deals import EnterDeal
from scorekeeper.web.domain.idempotency import Answer, Key
from scorekeeper.web.domain.pulkas import Settings
from scorekeeper.web.services import deals, pulkas
from scorekeeper.web.store.keys import KeyStore
from scorekeeper.web.store.models import IdempotencyRow, now

from ..conftest import SOCHI, add, create, form_fields, rows, signed_in, snapshot, sochi
from ..pulkas.test_pulka_pages import new_pulka_form

RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


# Each API write, on the pulka of docs/rules.md §10 with its first two deals: (method, path, body).
API_WRITES = {
    "add": ("POST", "/api/v1/pulkas/{uid}/deals", SOCHI["deals"][2]),
    "edit": ("PUT", "/api/v1/pulkas/{uid}/deals/2", SOCHI["deals"][1]),
    "delete": ("DELETE", "/api/v1/pulkas/{uid}/deals/2", None),  # the last: sent again, it would be 404
    "undo": ("POST", "/api/v1/pulkas/{uid}/undo", None),  # sent again, it would take back deal 1 too
    "create": ("POST", "/api/v1/pulkas", {"players": ["A", "B", "C"]}),
    "import": ("POST", "/api/v1/import", SOCHI),
}


@pytest.mark.parametrize("write", sorted(API_WRITES))
def test_an_api_write_sent_again_answers_the_first_answer_and_stores_nothing(app, client, write):
    method, path, body = API_WRITES[write]
    path = path.format(uid=sochi(client, 2))
    first = client.open(path, method=method, json=body, headers=key("k-1"))
    assert first.status_code in (200, 201), first.json
    assert "Idempotent-Replayed" not in first.headers
    stored = snapshot(app)
    again = client.open(path, method=method, json=body, headers=key("k-1"))
    assert (again.status_code, again.json, again.headers.get("Location")) == \
           (first.status_code, first.json, first.headers.get("Location"))
    assert again.headers["Idempotent-Replayed"] == "true"
    assert snapshot(app) == stored


def test_the_key_with_another_request_is_refused(app, client):
    uid = create(client)
    assert add(client, uid, RASPASY).status_code == 201
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("k-1")).status_code == 201
    stored = snapshot(app)
    other = {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}}
    refused = client.post(f"/api/v1/pulkas/{uid}/deals", json=other, headers=key("k-1"))
    assert (refused.status_code, refused.json["error"]["code"]) == (422, "idempotency_key_reused")
    assert snapshot(app) == stored
    # The same request, however its JSON is spaced and ordered, is the same request.
    same = json.dumps({"tricks": {"C": 4, "B": 3, "A": 3}, "type": "raspasy"}, indent=2)
    again = client.post(f"/api/v1/pulkas/{uid}/deals", data=same, content_type="application/json", headers=key("k-1"))
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"


def test_keys_are_the_callers_own_on_each_route(app, client):
    """One key value, sent by the owner, a scorer link and another account, and on two pulkas: each a write
    of its own. A link's keys are the link's: its retry is answered from them."""
    mine, other_pulka = create(client), create(client)
    scorer = app.test_client()
    scorer.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + client.post(
        f"/api/v1/pulkas/{mine}/shares", json={"role": "scorer"}).json["token"]
    other = signed_in(app, "other", "a long password")
    theirs = create(other)
    sent = [(client, mine), (scorer, mine), (client, other_pulka), (other, theirs)]
    for caller, uid in sent:
        response = caller.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("same"))
        assert response.status_code == 201 and "Idempotent-Replayed" not in response.headers
    assert [client.get(f"/api/v1/pulkas/{uid}").json["deals"] for uid in (mine, other_pulka)] == [2, 1]
    again = scorer.post(f"/api/v1/pulkas/{mine}/deals", json=RASPASY, headers=key("same"))
    assert again.headers["Idempotent-Replayed"] == "true" and again.json["n"] == 2
    with app.extensions["scorekeeper"].db.engine.connect() as connection:
        scopes = connection.execute(text("SELECT scope FROM idempotency_keys")).scalars().all()
    assert sorted(s.split(":")[0] for s in scopes) == ["account", "account", "account", "share"]


def _first_look_finds_nothing(monkeypatch) -> None:
    """The retry looks its key up before the first request's transaction commits: it finds nothing there."""
    real, looks = KeyStore.answered, []

    def answered(self, once):
        looks.append(once)
        return None if len(looks) == 1 else real(self, once)

    monkeypatch.setattr(KeyStore, "answered", answered)


@pytest.mark.parametrize("write", ["add", "import"])
def test_a_retry_that_came_while_the_first_was_written_finds_its_key_in_the_write(app, client, monkeypatch, write):
    """A deal's retry waits for the pulka's lock and finds the key under it; a new pulka's retry is refused
    by the key's unique constraint. Either answers the first answer, and stores nothing."""
    method, path, body = API_WRITES[write]
    path = path.format(uid=create(client))
    first = client.open(path, method=method, json=body, headers=key("k-1"))
    stored = snapshot(app)
    _first_look_finds_nothing(monkeypatch)
    again = client.open(path, method=method, json=body, headers=key("k-1"))
    assert (again.status_code, again.json) == (first.status_code, first.json)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert snapshot(app) == stored


def test_the_same_request_sent_at_once_by_many_threads_is_made_once(app, client):
    uid = create(client)
    gate = threading.Barrier(8, timeout=10)
    answers = []

    def send():
        gate.wait()
        response = client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("k-1"))
        answers.append((response.status_code, response.json["n"]))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [(201, 1)] * 8
    assert client.get(f"/api/v1/pulkas/{uid}").json["deals"] == 1


def test_the_key_is_stored_with_the_write_or_not_at_all(repo, owner):
    pulka = pulkas.create_pulka(repo.pulkas, owner, Settings("t", "", ("A", "B", "C"), 0, Rules.of("sochi")))
    deal, _ = read_deal(RASPASY, {"A": 0, "B": 1, "C": 2}, 1)
    before = rows(repo)

    def cannot_answer(saved):
        raise RuntimeError("the answer could not be built")

    key = Key("account:1", "POST /deals", "k-1", "f")
    with pytest.raises(RuntimeError), repo.unit() as unit:  # as the edge makes a write: edge.idempotency.write
        saved = deals.add_deal(unit.pulkas, EnterDeal(pulka.uid, deal))
        unit.remember(key, cannot_answer(saved))
        unit.commit()
    assert rows(repo) == before  # neither the deal nor the key
    with repo.unit() as unit:
        saved = deals.add_deal(unit.pulkas, EnterDeal(pulka.uid, deal))
        given = Answer(201, str(len(saved.deals)))
        unit.remember(key, given)
        unit.commit()
    assert given == Answer(201, "1") == repo.keys.answered(key)
    assert len(repo.pulkas.get(pulka.uid).deals) == 1


def test_a_refused_write_keeps_no_key(app, client):
    uid = create(client)
    stored = snapshot(app)
    bad = {"type": "raspasy", "tricks": {"A": 4, "B": 4, "C": 4}}
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=bad, headers=key("k-1")).status_code == 422
    assert snapshot(app) == stored
    # Sent again it is tried again; the key is free for a request that is stored.
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("k-1")).status_code == 201


@pytest.mark.parametrize("value", ["x" * 101, "ключ", "a\tb"])
def test_a_key_that_is_not_printable_ascii_is_refused(client, value):
    uid = create(client)
    response = client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key(value))
    assert (response.status_code, response.json["error"]["field"]) == (400, "Idempotency-Key")


def test_keys_are_kept_a_day_and_dropped_after_once_an_hour(app, client):
    repo = app.extensions["scorekeeper"]
    uid = create(client)
    for value in ("old", "young"):
        assert client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key(value)).status_code == 201

    def age(value: str, hours: int) -> None:
        with repo.db.engine.begin() as connection:
            connection.execute(update(IdempotencyRow).where(IdempotencyRow.key == value)
                               .values(created_at=now() - timedelta(hours=hours)))

    def kept() -> list[str]:
        with repo.db.engine.connect() as connection:
            return sorted(connection.execute(text("SELECT key FROM idempotency_keys")).scalars())

    age("old", 25)
    age("young", 23)
    repo.keys._swept = None  # as in a process that has not swept yet
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("new")).status_code == 201
    assert kept() == ["new", "young"]
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("young")).headers["Idempotent-Replayed"]
    age("young", 25)  # the next sweep is an hour away: it stays until then
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=RASPASY, headers=key("newer")).status_code == 201
    assert kept() == ["new", "newer", "young"]


def test_the_openapi_document_gives_the_header_to_every_write_that_takes_it(app, client):
    document = client.get("/api/v1/openapi.json").json
    documented = {(path, method) for path, operations in document["paths"].items()
                  for method, operation in operations.items() if method != "parameters"
                  and any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))}
    routes = {(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
              for rule in app.url_map.iter_rules() if rule.endpoint.startswith("api.")
              and getattr(app.view_functions[rule.endpoint], "idempotent", False)
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    # The ledger's five among them, and a pulka's settings and deletion, its share links, the players' renames
    # and merges, a new account and a token revoked.
    assert documented == routes and len(routes) == 22


# The owner's other writes, each through the unit of work the edge opens, on the pulka of docs/rules.md §10
# with its first two deals: (method, path, body).
OWNER_WRITES = {
    "settings": ("PATCH", "/api/v1/pulkas/{uid}", {"name": "Renamed", "currency": "€"}),
    "delete pulka": ("DELETE", "/api/v1/pulkas/{uid}", None),  # sent again without its key: 404
    "share": ("POST", "/api/v1/pulkas/{uid}/shares", {"role": "scorer", "label": "Boris"}),  # again: a second link
    "close": ("POST", "/api/v1/pulkas/{uid}/close", None),  # again: refused, frozen
}


@pytest.mark.parametrize("write", sorted(OWNER_WRITES))
def test_an_owner_s_write_sent_again_with_its_key_is_made_once(app, client, write):
    method, path, body = OWNER_WRITES[write]
    path = path.format(uid=sochi(client, 2))
    first = client.open(path, method=method, json=body, headers=key("k-1"))
    assert first.status_code in (200, 201, 204), first.json
    assert "Idempotent-Replayed" not in first.headers
    stored = snapshot(app)
    again = client.open(path, method=method, json=body, headers=key("k-1"))
    assert (again.status_code, again.json) == (first.status_code, first.json)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert snapshot(app) == stored


def test_a_share_link_revoked_twice_with_its_key_answers_204_twice(app, client):
    uid = sochi(client, 2)
    link = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json["id"]
    assert client.delete(f"/api/v1/pulkas/{uid}/shares/{link}", headers=key("k-1")).status_code == 204
    stored = snapshot(app)
    again = client.delete(f"/api/v1/pulkas/{uid}/shares/{link}", headers=key("k-1"))
    assert (again.status_code, again.headers["Idempotent-Replayed"]) == (204, "true")  # without the key: 404
    assert snapshot(app) == stored
    assert client.delete(f"/api/v1/pulkas/{uid}/shares/{link}").status_code == 404


def _ids(client) -> dict[str, str]:
    return {p["name"]: p["id"] for p in client.get("/api/v1/players").json["players"]}


def test_a_rename_a_merge_and_its_undoing_sent_again_with_their_keys_are_made_once(app, client):
    """Two spellings of one player at two tables: renamed, merged and the merge undone, each sent twice."""
    create(client, ("A", "B", "C"))
    create(client, ("A", "B", "Cyril"))
    ids = _ids(client)
    writes = [("PATCH", f"/api/v1/players/{ids['C']}", {"name": "Cy"}, 200),
              ("POST", f"/api/v1/players/{ids['C']}/merge", {"into": ids["Cyril"]}, 204),
              # sent again without its key, the undoing is refused: he is not merged any more
              ("DELETE", f"/api/v1/players/{ids['C']}/merge", None, 204)]
    for number, (method, path, body, status) in enumerate(writes):
        first = client.open(path, method=method, json=body, headers=key(f"k-{number}"))
        assert first.status_code == status, first.json
        stored = snapshot(app)
        again = client.open(path, method=method, json=body, headers=key(f"k-{number}"))
        assert (again.status_code, again.json, again.headers["Idempotent-Replayed"]) == (status, first.json, "true")
        assert snapshot(app) == stored
    assert sorted(_ids(client)) == ["A", "B", "Cy", "Cyril"]
    assert client.delete(f"/api/v1/players/{ids['C']}/merge").status_code == 400


def test_a_rename_under_a_used_key_with_another_name_is_refused(app, client):
    create(client)
    ids = _ids(client)
    assert client.patch(f"/api/v1/players/{ids['C']}", json={"name": "Cy"}, headers=key("k-1")).status_code == 200
    stored = snapshot(app)
    refused = client.patch(f"/api/v1/players/{ids['C']}", json={"name": "Cyril"}, headers=key("k-1"))
    assert (refused.status_code, refused.json["error"]["code"]) == (422, "idempotency_key_reused")
    assert snapshot(app) == stored


def test_a_refused_owner_s_write_keeps_no_key(app, client):
    uid = sochi(client, 2)
    stored = snapshot(app)
    bad = client.patch(f"/api/v1/pulkas/{uid}", json={"players": ["A", "B", "C", "D"]}, headers=key("k-1"))
    assert bad.status_code == 409  # rules_frozen: the pulka has deals
    assert snapshot(app) == stored
    assert client.patch(f"/api/v1/pulkas/{uid}", json={"name": "Late"}, headers=key("k-1")).status_code == 200


# -- the pages ---------------------------------------------------------------------------------------


def field(page: str) -> str:
    """The idempotency key a page's (first) form carries."""
    return re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)


def test_each_form_shown_carries_a_fresh_key(app, client):
    uid = sochi(client, 2)
    for path in (f"/p/{uid}", f"/p/{uid}/history", f"/p/{uid}/deal", f"/p/{uid}/deals/1/edit",
                 f"/p/{uid}/deals/2/delete", "/import", "/new"):
        keys = {field(client.get(path).get_data(as_text=True)) for _ in range(2)}
        assert len(keys) == 2, path  # the sheet too, though its page is kept per version


def _posted_twice(app, client, path: str, form: dict[str, str], once: str = "k-1"):
    first = client.post(path, data=form | {"idempotency_key": once})
    assert first.status_code == 302, first.get_data(as_text=True)[:500]
    flashed = flashes(client.get(first.headers["Location"]))
    stored = snapshot(app)
    again = client.post(path, data=form | {"idempotency_key": once})
    assert (again.status_code, again.headers["Location"], again.headers["Idempotent-Replayed"]) == \
           (302, first.headers["Location"], "true")
    assert flashes(client.get(again.headers["Location"])) == flashed
    assert snapshot(app) == stored
    return flashed


def flashes(response) -> list[str]:
    """The messages a page shows after a write, the undo's offer to restore the deal among them."""
    page = response.get_data(as_text=True)
    return (re.findall(r'<p class="flash[^"]*" role="status">([^<]*)</p>', page)
            + re.findall(r'class="flash flash-undone" role="status">.*?<span>([^<]*)</span>', page, re.S))


def test_a_deal_form_sent_twice_saves_one_deal(app, client):
    uid = sochi(client, 2)
    page = _posted_twice(app, client, f"/p/{uid}/deal", form_fields(SOCHI["deals"][2]))
    assert page[0].startswith("Deal 3 saved")
    version = str(client.get(f"/api/v1/pulkas/{uid}").json["version"])
    assert _posted_twice(app, client, f"/p/{uid}/deals/3/edit", form_fields(SOCHI["deals"][2]) | {"version": version})
    assert client.get(f"/api/v1/pulkas/{uid}").json["deals"] == 3


def test_undo_and_delete_sent_twice_take_back_one_deal(app, client):
    uid = sochi(client, 4)
    assert _posted_twice(app, client, f"/p/{uid}/undo", {}) == ["Deal 4 removed —"]
    assert _posted_twice(app, client, f"/p/{uid}/deals/3/delete", {}) == ["Deal 3 deleted; the sheet is scored again."]
    assert client.get(f"/api/v1/pulkas/{uid}").json["deals"] == 2


def test_a_new_pulka_or_an_import_sent_twice_makes_one(app, client):
    _posted_twice(app, client, "/new", new_pulka_form())
    _posted_twice(app, client, "/import", {"text": json.dumps(SOCHI), "name": "Imported"})
    assert sorted(p["name"] for p in client.get("/api/v1/pulkas").json["pulkas"]) == ["Friday", "Imported"]


def test_settings_a_share_link_and_a_deletion_sent_twice_are_made_once(app, client):
    uid = sochi(client, 2)
    assert _posted_twice(app, client, f"/p/{uid}/settings", {"name": "Late", "currency": "€"}) == \
        ["Settings saved."]
    assert client.get(f"/api/v1/pulkas/{uid}").json["name"] == "Late"
    assert _posted_twice(app, client, f"/p/{uid}/shares", {"role": "viewer", "label": "Vera"}) == \
        ["A viewer link is ready: let them scan it."]
    assert [s["label"] for s in client.get(f"/api/v1/pulkas/{uid}/shares").json["shares"]] == ["Vera"]
    _posted_twice(app, client, f"/p/{uid}/remove", {})
    assert client.get("/api/v1/pulkas").json["pulkas"] == []


def test_a_player_renamed_and_merged_on_his_page_twice_is_so_once(app, client):
    create(client, ("A", "B", "C"))
    create(client, ("A", "B", "Cyril"))
    ids = _ids(client)
    assert _posted_twice(app, client, f"/players/{ids['C']}", {"action": "rename", "name": "Cy"}) == ["Renamed Cy."]
    assert _posted_twice(app, client, f"/players/{ids['C']}", {"action": "merge", "into": ids["Cyril"]}, "k-2") == \
        ["Merged: his pulkas count for the one you chose; the merge can be undone there."]
    assert _posted_twice(app, client, f"/players/{ids['Cyril']}", {"action": "unmerge", "merged": ids["C"]}) == \
        ["The merge is undone."]
    assert sorted(_ids(client)) == ["A", "B", "Cy", "Cyril"]
