"""Share links: a viewer reads, a scorer also writes deals, each link revocable; opened in a browser
it keeps working there without an account; an account that opens one finds the pulka in its list."""

from __future__ import annotations

import re

import pytest

from ..conftest import SOCHI, add, create, signed_in, snapshot

RASPASY = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}


def share(client, pulka_id: str, role: str, label: str = ""):
    response = client.post(f"/api/v1/pulkas/{pulka_id}/shares", json={"role": role, "label": label})
    assert response.status_code == 201, response.json
    return response.json


def bearer(app, token: str):
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def test_share_links_through_the_api(app, client):
    pulka_id = create(client)
    viewer, scorer = share(client, pulka_id, "viewer"), share(client, pulka_id, "scorer", "Anna's phone")
    assert set(viewer) >= {"id", "token", "url", "role"} and viewer["role"] == "viewer"
    assert viewer["url"].endswith(f"/s/{viewer['token']}") and viewer["id"] != viewer["token"]
    listed = client.get(f"/api/v1/pulkas/{pulka_id}/shares").json["shares"]
    assert [(s["id"], s["role"], s["label"]) for s in listed] == [(viewer["id"], "viewer", ""),
                                                                  (scorer["id"], "scorer", "Anna's phone")]
    # Each token is a bearer token limited to its pulka and its role.
    as_viewer, as_scorer = bearer(app, viewer["token"]), bearer(app, scorer["token"])
    assert as_viewer.get(f"/api/v1/pulkas/{pulka_id}/sheet").status_code == 200
    before = snapshot(app)
    response = add(as_viewer, pulka_id, RASPASY)
    assert (response.status_code, response.json["error"]["code"]) == (403, "forbidden")
    assert snapshot(app) == before
    assert add(as_scorer, pulka_id, RASPASY).status_code == 201
    assert client.get(f"/api/v1/pulkas/{pulka_id}/version").json["change"] == {
        "what": "added", "deal": 1, "by": "Anna's phone"}
    for forbidden in (as_scorer.patch(f"/api/v1/pulkas/{pulka_id}", json={"name": "Mine"}),
                      as_scorer.get(f"/api/v1/pulkas/{pulka_id}/shares"), as_scorer.delete(f"/api/v1/pulkas/{pulka_id}")):
        assert forbidden.status_code == 403
    other = create(client)
    assert as_scorer.get(f"/api/v1/pulkas/{other}").status_code == 404  # another pulka of the same owner
    assert as_scorer.get("/api/v1/pulkas").status_code == 403
    # Revoked: the token opens nothing any more.
    assert client.delete(f"/api/v1/pulkas/{pulka_id}/shares/{scorer['id']}").status_code == 204
    assert as_scorer.get(f"/api/v1/pulkas/{pulka_id}/sheet").status_code == 401
    assert client.delete(f"/api/v1/pulkas/{pulka_id}/shares/{scorer['id']}").status_code == 404
    response = client.post(f"/api/v1/pulkas/{pulka_id}/shares", json={"role": "owner"})
    assert (response.status_code, response.json["error"]["field"]) == (400, "role")


def test_a_link_opened_in_a_browser_keeps_working_until_revoked(app, client):
    pulka_id = create(client)
    viewer = share(client, pulka_id, "viewer")
    phone = app.test_client()
    assert phone.get(f"/p/{pulka_id}").status_code == 404  # no link, no pulka
    response = phone.get(f"/s/{viewer['token']}")
    assert response.headers["Location"] == f"/p/{pulka_id}"
    page = phone.get(f"/p/{pulka_id}").get_data(as_text=True)
    assert "The sheet" in page
    for control in ("Enter deal", "Undo deal", f"/p/{pulka_id}/deal\"", f"/p/{pulka_id}/settings",
                    f"/p/{pulka_id}/shares"):
        assert control not in page, control
    assert phone.get(f"/p/{pulka_id}/history").status_code == 200
    assert phone.get(f"/p/{pulka_id}/pulka.pdf").status_code == 200
    assert phone.get(f"/p/{pulka_id}/deal").status_code == 403
    assert phone.get("/").headers["Location"].startswith("/login")  # a link is not an account
    listed = client.get(f"/api/v1/pulkas/{pulka_id}/shares").json["shares"]
    assert listed[0]["last_used_at"] is not None
    client.delete(f"/api/v1/pulkas/{pulka_id}/shares/{viewer['id']}")
    assert phone.get(f"/p/{pulka_id}").status_code == 404
    assert phone.get(f"/s/{viewer['token']}").status_code == 404


def test_a_scorer_link_enters_deals_in_the_browser(app, client):
    pulka_id = create(client)
    scorer = share(client, pulka_id, "scorer")
    phone = app.test_client()
    phone.get(f"/s/{scorer['token']}")
    page = phone.get(f"/p/{pulka_id}").get_data(as_text=True)
    assert "Enter deal 1" in page and f"/p/{pulka_id}/settings" not in page
    response = phone.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t0": "3", "t1": "3", "t2": "4",
                                                       "action": "save"})
    assert response.status_code == 302
    assert client.get(f"/api/v1/pulkas/{pulka_id}/version").json["change"]["by"] == "a scorer link"
    assert phone.get(f"/p/{pulka_id}/settings").status_code == 403


def test_an_account_that_opens_a_link_finds_the_pulka_in_its_list(app, client):
    pulka_id = create(client, name="Friday")
    viewer = share(client, pulka_id, "viewer")
    vera = signed_in(app, "vera", "a long password")
    assert vera.get("/api/v1/pulkas").json["pulkas"] == []
    browser = app.test_client()
    browser.post("/login", data={"username": "vera", "password": "a long password"})
    browser.get(f"/s/{viewer['token']}")
    listed = vera.get("/api/v1/pulkas").json["pulkas"]
    assert [(p["id"], p["role"]) for p in listed] == [(pulka_id, "viewer")]
    assert "shared with you (viewer)" in browser.get("/").get_data(as_text=True)
    assert vera.get(f"/api/v1/pulkas/{pulka_id}/sheet").status_code == 200  # her own token too
    assert vera.post(f"/api/v1/pulkas/{pulka_id}/undo").status_code == 403
    client.delete(f"/api/v1/pulkas/{pulka_id}/shares/{viewer['id']}")
    assert vera.get("/api/v1/pulkas").json["pulkas"] == []
    assert vera.get(f"/api/v1/pulkas/{pulka_id}/sheet").status_code == 404


def test_the_share_page_shows_each_link_and_its_qr_code(app, client):
    pulka_id = create(client)
    assert client.post(f"/p/{pulka_id}/shares", data={"role": "scorer", "label": "<b>Boris</b>"}).status_code == 302
    page = client.get(f"/p/{pulka_id}/shares").get_data(as_text=True)
    token = client.get(f"/api/v1/pulkas/{pulka_id}/shares").json["shares"][0]["token"]
    assert f"/s/{token}" in page
    svg = re.search(r'<svg viewBox="0 0 (\d+) \1" class="qr">', page)
    assert svg and int(svg[1]) >= 25  # a real code with its quiet zone, drawn here, no outside service
    assert "<b>Boris</b>" not in page and "&lt;b&gt;Boris&lt;/b&gt;" in page
    share_id = client.get(f"/api/v1/pulkas/{pulka_id}/shares").json["shares"][0]["id"]
    assert client.post(f"/p/{pulka_id}/shares/{share_id}/revoke").status_code == 302
    assert f"/s/{token}" not in client.get(f"/p/{pulka_id}/shares").get_data(as_text=True)


@pytest.mark.parametrize("language, asked, button", [
    ("en", "Revoke “Boris”?", "Revoke the link"), ("ru", "Отозвать «Boris»?", "Отозвать ссылку")])
def test_revoking_a_link_is_asked_first_and_works_without_javascript(app, client, language, asked, button):
    """The share page's "Revoke this link" opens a confirmation saying what it stops; only its button revokes,
    Cancel goes back to the links, and a link's holder cannot even ask."""
    pulka_id = create(client)
    made = share(client, pulka_id, "scorer", "Boris")
    phone = app.test_client()
    phone.get(f"/s/{made['token']}")
    page = client.get(f"/p/{pulka_id}/shares").get_data(as_text=True)
    revoke = f"/p/{pulka_id}/shares/{made['id']}/revoke"
    assert f'<a class="button danger" href="{revoke}">' in page  # a plain link to the question
    assert f'action="{revoke}"' not in page  # no form that revokes in one tap
    before = snapshot(app)
    confirm = client.get(revoke, headers={"Accept-Language": language})
    assert confirm.status_code == 200 and snapshot(app) == before  # asking revokes nothing
    html = confirm.get_data(as_text=True)
    assert asked in html and f'action="{revoke}"' in html and button in html
    assert f'href="/p/{pulka_id}/shares#share-{made["id"]}"' in html  # Cancel: back to the links
    assert phone.get(f"/p/{pulka_id}").status_code == 200
    for holder in (phone, bearer(app, made["token"])):
        assert holder.get(revoke).status_code == 403  # a scorer link may not revoke, nor ask to
    assert client.get(f"/p/{pulka_id}/shares/nosuchlink/revoke").status_code == 404
    assert client.post(revoke).status_code == 302  # the confirmation's button
    assert phone.get(f"/p/{pulka_id}").status_code == 404
    assert client.get(revoke).status_code == 404  # gone: nothing to ask about


def test_the_version_answers_304_while_nothing_changes(client):
    pulka_id = create(client)
    first = client.get(f"/api/v1/pulkas/{pulka_id}/version")
    assert first.json == {"version": 1, "deals": 0, "change": None} and first.headers["ETag"] == '"v1"'
    again = client.get(f"/api/v1/pulkas/{pulka_id}/version", headers={"If-None-Match": '"v1"'})
    assert again.status_code == 304 and again.data == b""
    add(client, pulka_id, SOCHI["deals"][0])
    changed = client.get(f"/api/v1/pulkas/{pulka_id}/version", headers={"If-None-Match": '"v1"'})
    assert changed.status_code == 200 and changed.json["change"] == {"what": "added", "deal": 1, "by": "owner"}


# -- one link for the evening: a link belongs to the table ----------------------------------------------


def again(client, pulka_id: str, **form) -> str:
    response = client.post(f"/p/{pulka_id}/again", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]


def test_same_players_again_keeps_every_link_and_role(app, client):
    """A link made on the first pulka opens the table's next ones with its role, and /s/<token> leads to the one
    played now; the earlier ones still open; the owner sees and revokes the links from any of them."""
    first = create(client, name="Friday")
    viewer, scorer = share(client, first, "viewer"), share(client, first, "scorer", "Boris's phone")
    phone = app.test_client()
    phone.get(f"/s/{scorer['token']}")
    second = again(client, first)
    third = again(client, second)
    assert phone.get(f"/s/{scorer['token']}").headers["Location"] == f"/p/{third}"  # the pulka played now
    for uid in (first, second, third):
        assert phone.get(f"/p/{uid}").status_code == 200
    assert add(phone, third, RASPASY).status_code == 201  # a scorer still
    assert client.get(f"/api/v1/pulkas/{third}/version").json["change"]["by"] == "Boris's phone"
    as_viewer = bearer(app, viewer["token"])
    assert as_viewer.get(f"/api/v1/pulkas/{third}/sheet").status_code == 200
    assert add(as_viewer, third, RASPASY).status_code == 403  # a viewer still
    listed = client.get(f"/api/v1/pulkas/{third}/shares").json["shares"]
    assert [s["id"] for s in listed] == [viewer["id"], scorer["id"]]
    assert f"/s/{viewer['token']}" in client.get(f"/p/{third}/shares").get_data(as_text=True)
    # Another table of the same owner is not opened by them.
    other = create(client)
    assert as_viewer.get(f"/api/v1/pulkas/{other}/sheet").status_code == 404
    assert phone.get(f"/p/{other}").status_code == 404
    # Revoked from the third pulka: no pulka of the table opens any more.
    assert client.delete(f"/api/v1/pulkas/{third}/shares/{scorer['id']}").status_code == 204
    for uid in (first, second, third):
        assert phone.get(f"/p/{uid}").status_code == 404
    assert client.delete(f"/api/v1/pulkas/{other}/shares/{viewer['id']}").status_code == 404  # not that table's


def test_an_account_with_a_link_lists_every_pulka_of_the_table(app, client):
    first = create(client, name="Friday")
    viewer = share(client, first, "viewer")
    vera = signed_in(app, "vera", "a long password")
    browser = app.test_client()
    browser.post("/login", data={"username": "vera", "password": "a long password"})
    browser.get(f"/s/{viewer['token']}")
    second = again(client, first)
    listed = vera.get("/api/v1/pulkas").json["pulkas"]
    assert sorted((p["id"], p["role"]) for p in listed) == sorted([(first, "viewer"), (second, "viewer")])
    assert {p["name"] for p in listed} == {"Friday", "Friday, 2"}


def test_a_players_link_shows_the_sheet_from_his_seat(app, client):
    """Boris's link: his phone's drawing has him at the bottom edge, his line marked; his writes are his."""
    uid = create(client, ["Anna", "Boris", "Vera"])
    response = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "scorer", "player": "Boris"})
    assert response.status_code == 201 and (response.json["player"], response.json["label"]) == ("Boris", "Boris")
    bad = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer", "player": "Gleb"})
    assert (bad.status_code, bad.json["error"]["field"]) == (400, "player")
    phone = app.test_client()
    phone.get(f"/s/{response.json['token']}")
    page = phone.get(f"/p/{uid}").get_data(as_text=True)
    assert re.search(r'<tr class="mine">\s*<th scope="row">Boris <span class="mark">you</span>', page)
    owners = client.get(f"/p/{uid}").get_data(as_text=True)
    assert 'class="mine"' not in owners
    # The drawing's bottom name: Boris on his phone, Anna (seat 0) on the owner's.
    assert bottom_name(page) == "Boris" and bottom_name(owners) == "Anna"
    add(phone, uid, {"type": "raspasy", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}})
    assert client.get(f"/api/v1/pulkas/{uid}/version").json["change"]["by"] == "Boris"
    form = client.post(f"/p/{uid}/shares", data={"role": "viewer", "player": "Vera"})
    assert form.status_code == 302
    assert "Vera’s seat" in client.get(f"/p/{uid}/shares").get_data(as_text=True)


def bottom_name(page: str) -> str:
    """The name written on the drawing's bottom edge."""
    found = re.search(r'<g class="sector" data-seat="\d" data-player="([^"]+)" data-side="bottom"', page)
    assert found, "the drawing names its bottom player"
    return found[1]
