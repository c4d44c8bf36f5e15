"""The table went on: after "same players again" every page of the pulka it played until then leads to the next
one in a tap, for each role and in both languages, and the phones watching it hear of it (its version moves
on, with a note "again"). The table's links open the next pulka as they open each of its pulkas; another
table's stay closed to them. (In a browser, live: tests/web/browser/test_next_pulka_browser.py.)"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.files import pulyafile
from scorekeeper.web.domain.pulkas import Settings
from scorekeeper.web.services import pulkas as pulka_service

from ..conftest import SOCHI, add, create, sochi, text
from ..fakes import FakeStore
from .test_shares import again, bearer, share

BANNER = {"en": "The table has gone on to the next pulka: {name}.", "ru": "Стол перешёл к следующей пульке: {name}."}
OPEN = {"en": "Open it", "ru": "Перейти"}


def _phones(app, client, uid):
    phones = {"owner": client}
    for role in ("scorer", "viewer"):
        phones[role] = app.test_client()
        assert phones[role].get(f"/s/{share(client, uid, role)['token']}").status_code == 302
    return phones


def _led_to(html: str) -> list[str]:
    """Where the page's "next pulka" link leads."""
    return re.findall(r'<a class="button primary" href="/p/([\w-]+)" data-next-pulka>', html)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_page_of_the_old_pulka_leads_each_role_to_the_next(app, client, language):
    first = sochi(client)  # finished, frozen
    phones = _phones(app, client, first)
    lang = {"Accept-Language": language}
    for role, phone in phones.items():  # nothing to say before the table goes on
        page = phone.get(f"/p/{first}", headers=lang).get_data(as_text=True)
        assert _led_to(page) == [] and OPEN[language] not in text(phone.get(f"/p/{first}", headers=lang)), role
    second = again(client, first)
    name = client.get(f"/api/v1/pulkas/{second}").json["name"]
    for role, phone in phones.items():
        for path in (f"/p/{first}", f"/p/{first}/history", f"/p/{first}/settlement"):
            response = phone.get(path, headers=lang)
            assert response.status_code == 200, (role, path)
            assert BANNER[language].format(name=name) in text(response), (role, path)
            assert _led_to(response.get_data(as_text=True)) == [second], (role, path)
        assert phone.get(f"/p/{second}").status_code == 200, role  # and it opens for this role
        assert _led_to(phone.get(f"/p/{second}").get_data(as_text=True)) == []  # the one played now


def test_the_old_pulka_leads_to_the_one_the_table_plays_now(app, client):
    first = create(client, name="Friday")
    viewer = app.test_client()
    viewer.get(f"/s/{share(client, first, 'viewer')['token']}")
    second = again(client, first)
    third = again(client, second)
    for uid in (first, second):
        assert _led_to(viewer.get(f"/p/{uid}").get_data(as_text=True)) == [third]
        assert client.get(f"/api/v1/pulkas/{uid}").json["successor"] == {
            "id": third, "name": "Friday, 3", "links": {"sheet": f"/api/v1/pulkas/{third}/sheet", "page": f"/p/{third}"}}
    assert client.get(f"/api/v1/pulkas/{third}").json["successor"] is None
    # a link's bearer token is told too, and opens it
    token = share(client, first, "viewer")["token"]
    assert bearer(app, token).get(f"/api/v1/pulkas/{first}").json["successor"]["id"] == third
    assert bearer(app, token).get(f"/api/v1/pulkas/{third}/sheet").status_code == 200


def test_the_watching_phones_hear_of_the_next_pulka_and_nothing_else_of_the_old_one_changes(app, client):
    first = sochi(client)
    before = client.get(f"/api/v1/pulkas/{first}").json
    stamp = client.get(f"/api/v1/pulkas/{first}/version")
    settlement = client.get(f"/api/v1/pulkas/{first}/settlement").json
    second = again(client, first)
    after = client.get(f"/api/v1/pulkas/{first}").json
    assert after["version"] == before["version"] + 1
    polled = client.get(f"/api/v1/pulkas/{first}/version", headers={"If-None-Match": stamp.headers["ETag"]})
    assert polled.status_code == 200  # not 304: the phone refreshes its page
    assert polled.json["change"] == {"what": "again", "deal": None, "by": "owner"}
    # its deals, its kept result and its settlement are as they were
    assert {k: v for k, v in after.items() if k not in ("version", "successor")} == \
           {k: v for k, v in before.items() if k not in ("version", "successor")}
    assert {k: v for k, v in client.get(f"/api/v1/pulkas/{first}/settlement").json.items() if k != "version"} == \
           {k: v for k, v in settlement.items() if k != "version"}
    # the list: the new pulka first
    assert [p["id"] for p in client.get("/api/v1/pulkas").json["pulkas"]][:2] == [second, first]


def test_a_scorer_whose_form_the_again_made_stale_is_told_what_happened(app, client):
    """Again from the list on a pulka still going on: a scorer saving on its old version is asked, in words."""
    first = sochi(client, 3)
    scorer = app.test_client()
    scorer.get(f"/s/{share(client, first, 'scorer', 'Boris')['token']}")
    version = client.get(f"/api/v1/pulkas/{first}").json["version"]
    again(client, first)
    from ..conftest import form_fields

    response = scorer.post(f"/p/{first}/deal", data=form_fields(SOCHI["deals"][3]) | {"version": str(version),
                                                                                       "number": "4"})
    assert response.status_code == 409
    assert "owner started the table's next pulka." in html.unescape(text(response))


def test_another_tables_pulka_is_never_offered(app, client):
    first = create(client, name="Friday")
    other = create(client, name="Saturday")  # another table of the same owner
    assert client.get(f"/api/v1/pulkas/{first}").json["successor"] is None
    assert _led_to(client.get(f"/p/{first}").get_data(as_text=True)) == []
    add(client, other, {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}})
    assert client.get(f"/api/v1/pulkas/{first}").json["successor"] is None


def test_again_tells_the_pulka_the_table_played_until_then():
    """The use case on the in-memory store: the pulka played now gets the note (its version moved on), whichever
    of the table's pulkas the again was asked from."""
    repo = FakeStore()
    owner = repo.accounts.create_account("owner", "not a real hash").id
    first = pulka_service.create_pulka(repo.pulkas, owner, Settings("Friday", "₽", ("A", "B", "C"), 0,
                                                                     pulyafile.parse(SOCHI).rules))
    second = pulka_service.again(repo.pulkas, owner, first.uid, by="Anna")
    assert repo.pulkas.get(first.uid).last_change == {"what": "again", "deal": None, "by": "Anna"}
    assert repo.pulkas.get(first.uid).version == first.version + 1
    third = pulka_service.again(repo.pulkas, owner, first.uid, by="Anna")  # from the list, on the first again
    assert repo.pulkas.get(second.uid).last_change == {"what": "again", "deal": None, "by": "Anna"}
    assert repo.pulkas.get(first.uid).version == first.version + 1  # told once, when it was played
    assert pulka_service.played_now(repo.pulkas, first.uid).uid == third.uid
    assert pulka_service.played_now(repo.pulkas, third.uid) is None
