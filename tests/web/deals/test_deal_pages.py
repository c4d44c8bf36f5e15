"""Deals entered on the pages, as a phone at the table enters them (without JavaScript): the deal form, its
preview and its refusals, a stale form, and the history's undo, restore, edit and delete."""

from __future__ import annotations

import re
from html import unescape as html_unescape

import pytest

from ..conftest import SOCHI, add, create, form_fields, snapshot, sochi, text


def post_deal(client, pulka_id, deal, players=("A", "B", "C"), **extra):
    return client.post(f"/p/{pulka_id}/deal", data=form_fields(deal, players) | extra)


def lone_whist_stored(deal: dict) -> dict:
    """A deal as the form stores it: with one whister under Sochi (whister_all) the defence's tricks go to the
    whister and 0 to the passer, since their split cannot change any score."""
    words = deal.get("whist", {})
    whisters = [name for name, word in words.items() if word == "whist"]
    if len(whisters) != 1:
        return deal
    declarer, (passer,) = deal["declarer"], [name for name in words if name not in whisters]
    taken = deal["tricks"][declarer]
    return deal | {"tricks": {declarer: taken, whisters[0]: 10 - taken, passer: 0}}


def test_sochi_examples_through_the_form(client):
    pulka_id = create(client, currency="₽")
    for number, deal in enumerate(SOCHI["deals"], 1):
        fields = form_fields(deal)
        if deal.get("tricks") and len(deal["tricks"]) == 3:
            # The last hand's tricks are left blank: 10 − the rest.
            del fields[f"t{'ABC'.index(list(deal['tricks'])[-1])}"]
        response = client.post(f"/p/{pulka_id}/deal", data=fields)
        assert response.status_code == 302, text(response)
    exported = client.get(f"/api/v1/pulkas/{pulka_id}/export").json
    assert [d["type"] for d in exported["deals"]] == [d["type"] for d in SOCHI["deals"]]
    assert [sorted(d.get("tricks", {}).items()) for d in exported["deals"]] == \
        [sorted(lone_whist_stored(d).get("tricks", {}).items()) for d in SOCHI["deals"]]

    sheet = client.get(f"/p/{pulka_id}")
    page = text(sheet)
    assert "The pulka is finished." in page
    assert re.search(r"B 2\.3\.10 ✓ closed 12\.16\.20\.40\.39 on A 8 on C 2", page)
    assert re.search(r"A 4\.5\.10 ✓ closed 6 on B 30\.40 on C 4\.16\.28\.68", page)
    # Exact whists beside money to the cent: −48⅔ whists at 0.5 are −24.33⅓, rounded to −24.34 so that the money sums
    # to zero, and the page says so.
    assert "B −214⅔ −107.33 ₽" in page and "A +263⅓ +131.67 ₽" in page and "C −48⅔ −24.34 ₽" in page
    assert "Money is rounded to the cent so that it sums to zero." in page
    assert sheet.get_data(as_text=True).count('<g class="sector"') == 3  # the drawing, beside the table
    assert "Enter deal" not in page


def test_deal_page_says_who_deals_and_who_sits_out(client):
    pulka_id = create(client, ["Anna", "Boris", "Vera", "Gleb"], first_dealer="Vera")
    page = text(client.get(f"/p/{pulka_id}/deal"))
    assert "Deal 1" in page and "Vera deals · first hand Gleb · Vera sits out" in page
    page_html = client.get(f"/p/{pulka_id}/deal").get_data(as_text=True)
    html, *ahead = page_html.split("<template data-ahead=")  # the form as shown; then the round ahead
    # Every player in his seat, in seating order; only the three active ones can declare (Vera deals: greyed),
    # and Gleb is marked as first hand. Vera's talon row is there for raspasy.
    assert re.findall(r'name="declarer" value="(\d)"', html) == ["0", "1", "2", "3"]
    assert re.search(r'name="declarer" value="2" aria-label="Vera deals and sits out"\s+disabled', html)
    assert re.search(r'name="declarer" value="3" aria-label="Gleb, first hand"', html)
    assert "Vera (talon, raspasy)" in html
    # Both defenders pass unless tapped otherwise.
    assert len(re.findall(r'value="pass"[^>]*checked', html)) == 3
    # Seated ahead for a phone that keeps deals offline: deal 2 is Gleb's (he sits out, Anna is first hand).
    assert len(ahead) == 4 and "Gleb deals · first hand Anna" in " ".join(re.sub(r"<[^>]+>", " ", ahead[1]).split())
    assert re.search(r'name="declarer" value="3" aria-label="Gleb deals and sits out"\s+disabled', ahead[1])
    assert len(re.findall(r'value="pass"[^>]*checked', ahead[1])) == 3


def test_four_players_raspasy_with_talon(client):
    players = ["Anna", "Boris", "Vera", "Gleb"]
    pulka_id = create(client, players)
    # Anna deals; the talon won her 2 tricks (docs/rules.md Ex 38): gora Anna 2 as anyone's.
    response = client.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t1": "3", "t2": "0", "t0": "2",
                                                        "action": "save"})
    assert response.status_code == 302
    deal = client.get(f"/api/v1/pulkas/{pulka_id}/deals/1").json
    assert deal["deal"]["tricks"] == {"Boris": 3, "Vera": 0, "Gleb": 5, "Anna": 2}
    assert "Anna: gora +2" in deal["summary"] and "Vera: pulya +1" in deal["summary"]


def test_preview_without_javascript(app, client):
    pulka_id = sochi(client, 1)
    before = snapshot(app)
    fields = form_fields(SOCHI["deals"][1]) | {"action": "preview"}
    response = client.post(f"/p/{pulka_id}/deal", data=fields)
    assert response.status_code == 200
    page = text(response)
    # Each line with its reason.
    assert ("Will be written B: gora +12 B is remiz by 2 on 8♦: gora 2 × 6 "
            "C: 12 whists on B C writes consolation on B: 2 undertricks × 6") in page
    assert "A: 18 whists on B A writes whists on B: 3 tricks × 6 on 8♦ Save deal 2" in page
    assert snapshot(app) == before


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"t2": "2"}, "tricks", "tricks add up to 11, a deal has 10"),
    ({"declarer": ""}, "declarer", "the declarer must be one of the players"),
    ({"level": ""}, "contract", "Choose the level and the suit of the game."),  # the form's words (issue 17)
    ({"w0": "half"}, "whist", "half-whist is allowed on 6 and 7 under these rules, not on 8"),
    ({"t1": "many"}, "tricks", "B&#39;s tricks must be a whole number from 0 to 10, not &#39;many&#39;"),
    ({"type": "bridge"}, "type", "choose a game, misère or raspasy"),
])
def test_bad_deal_shows_the_engines_words_on_the_field(app, client, change, field, message):
    pulka_id = sochi(client, 1)
    before = snapshot(app)
    fields = form_fields(SOCHI["deals"][1]) | change
    response = client.post(f"/p/{pulka_id}/deal", data=fields)
    assert response.status_code == (400 if field == "type" else 422)  # an unknown type is a malformed form
    html = response.get_data(as_text=True)
    assert message in html
    part = html[html.index(f'data-part="{field}"'):]
    part = part[:part.index("</fieldset>")]
    assert message in part, f"the message is not on the {field} field"
    assert snapshot(app) == before


def test_half_whist_and_checked_ten(client):
    pulka_id = create(client)
    # Deal 1: A deals, B is first hand. C declares 7♦; A (first defender) passes, B half-whists? No: the
    # first defender after C is A; he passes and B says half.
    response = client.post(f"/p/{pulka_id}/deal", data={"type": "game", "declarer": "2", "level": "7", "strain": "D",
                                                        "w0": "pass", "w1": "half", "t0": "5", "action": "save"})
    assert response.status_code == 302, text(response)
    deal = client.get(f"/api/v1/pulkas/{pulka_id}/deals/1").json
    assert deal["deal"] == {"type": "game", "declarer": "C", "contract": "7D", "whist": {"A": "pass", "B": "half"}}
    assert deal["summary"] == ["C: pulya +4", "B: 4 whists on C"]
    # Deal 2: a checked ten needs no words; the words on the form are ignored.
    response = client.post(f"/p/{pulka_id}/deal", data={"type": "game", "declarer": "0", "level": "10",
                                                        "strain": "NT", "w1": "pass", "w2": "pass", "t0": "10",
                                                        "t1": "0", "action": "save"})
    assert response.status_code == 302, text(response)
    assert client.get(f"/api/v1/pulkas/{pulka_id}/deals/2").json["deal"] == {
        "type": "game", "declarer": "A", "contract": "10NT", "tricks": {"B": 0, "C": 0, "A": 10}}


def test_misere_needs_only_the_declarers_tricks(client):
    pulka_id = create(client)
    response = client.post(f"/p/{pulka_id}/deal", data={"type": "misere", "declarer": "1", "t1": "0", "t2": "4",
                                                        "level": "7", "w0": "whist", "action": "save"})
    assert response.status_code == 302
    assert client.get(f"/api/v1/pulkas/{pulka_id}/deals/1").json["deal"] == {
        "type": "misere", "declarer": "B", "tricks": {"B": 0}}


def test_stale_form_is_refused(app, client):
    """Two phones, one deal (issue 17): the second save is refused with what was written meanwhile and by
    whom, and a choice: it is that deal (nothing stored), or the next one, entered only on an explicit tap."""
    pulka_id = sochi(client, 1)
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    assert add(client, pulka_id, SOCHI["deals"][1]).status_code == 201  # another phone
    before = snapshot(app)
    mine = form_fields(SOCHI["deals"][1]) | {"version": str(version), "number": "2"}
    response = client.post(f"/p/{pulka_id}/deal", data=mine)
    assert response.status_code == 409
    page = text(response)
    assert "Not saved: the pulka changed meanwhile" in page and "Deal 2 added by owner." in page
    assert "Deal 2: B 8♦: C whist, A whist; tricks B 6, A 3, C 1 — B: gora +12; C: 18 whists on B; A: 30 whists on B" in page
    assert "Deal 3 C deals · first hand A" in page and "Enter it as deal 3" in page
    assert snapshot(app) == before
    # Sent again as it was (a double tap, a retry without the key): still refused, never deal 3 silently.
    assert client.post(f"/p/{pulka_id}/deal", data=mine).status_code == 409
    assert snapshot(app) == before
    # The explicit tap: the form the conflict page shows says deal 3, on the version now.
    now = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    html = response.get_data(as_text=True)
    assert 'name="number" type="hidden" value="3"' in html and f'name="version" type="hidden" value="{now}"' in html
    response = client.post(f"/p/{pulka_id}/deal", data=mine | {"version": str(now), "number": "3"})
    assert response.status_code == 302 and client.get(f"/api/v1/pulkas/{pulka_id}").json["deals"] == 3


def test_finished_pulka_takes_no_deal(app, client):
    pulka_id = sochi(client)
    response = client.get(f"/p/{pulka_id}/deal")
    assert response.status_code == 302
    assert "The pulka is finished: no more deals" in text(client.get(response.headers["Location"]))
    before = snapshot(app)
    response = client.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t0": "3", "t1": "3", "t2": "4"})
    assert response.status_code == 409
    assert "its owner reopens it to change it" in text(response)
    assert snapshot(app) == before


def test_flash_marks_a_closed_pulya_and_the_end(client):
    pulka_id = sochi(client, 9)
    response = post_deal(client, pulka_id, SOCHI["deals"][9])
    page = text(client.get(response.headers["Location"]))
    assert "Deal 10 saved: B: pulya +7; B: gora −1. B closed the pulya." in page
    assert "The pulka is finished. See the settlement." in page


# -- history: undo, edit, delete ------------------------------------------------------------------


def test_history_lists_every_line_with_its_reason(client):
    pulka_id = sochi(client)
    page = text(client.get(f"/p/{pulka_id}/history"))
    assert "B 8♦: C whist, A whist; tricks B 6, A 3, C 1" in page
    assert "A: 40 whists on C A helps C with 4 pulya: 4 × 10 whists" in page
    assert "B: gora −1 B's pulya is closed and nobody needs help: 1 surplus × 1 written off the gora" in page.replace("&#39;", "'")
    assert "raspasy #2" in page
    assert "The pulka is finished" in page
    assert page.count("Edit") == 0  # frozen: its owner reopens it to change a deal
    client.post(f"/api/v1/pulkas/{pulka_id}/reopen")
    assert text(client.get(f"/p/{pulka_id}/history")).count("Edit") == 10


def test_undo_in_one_tap(app, client):
    pulka_id = sochi(client, 3)
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    response = client.post(f"/p/{pulka_id}/undo", data={"version": str(version)})
    assert response.status_code == 302
    assert "Deal 3 removed — Restore" in text(client.get(response.headers["Location"]))
    assert client.get(f"/api/v1/pulkas/{pulka_id}").json["deals"] == 2
    before = snapshot(app)
    response = client.post(f"/p/{pulka_id}/undo", data={"version": str(version)})  # a second tap, stale
    assert "the pulka changed since this page was opened" in text(client.get(response.headers["Location"]))
    assert snapshot(app) == before


def undo_and_restore_form(client, pulka_id) -> dict[str, str]:
    """Undo the last deal as the sheet's button does; the fields of the Restore form the sheet then shows."""
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    sheet = client.get(client.post(f"/p/{pulka_id}/undo", data={"version": str(version)}).headers["Location"])
    html = sheet.get_data(as_text=True)
    form = html[html.index('class="flash flash-undone"'):html.index("Restore</button>")]
    assert f"/p/{pulka_id}/restore" in html
    return {name: html_unescape(value) for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form)}


def test_restore_after_undo_without_javascript(app, client):
    """Undo never loses a deal silently: the sheet offers it back as a plain form that re-adds exactly that
    deal (even a split the deal form would not ask for), and refuses it (409, nothing stored) once the pulka
    changed."""
    pulka_id = sochi(client, 4)
    deal = client.get(f"/api/v1/pulkas/{pulka_id}/deals/4").json["deal"]
    fields = undo_and_restore_form(client, pulka_id)
    assert client.get(f"/api/v1/pulkas/{pulka_id}").json["deals"] == 3
    # Offered on the sheet and in the history until anything else is written (issue 17: not only once).
    assert "Deal 4 removed" in text(client.get(f"/p/{pulka_id}"))
    assert "Deal 4 removed" in text(client.get(f"/p/{pulka_id}/history"))
    response = client.post(f"/p/{pulka_id}/restore", data=fields)
    assert response.status_code == 302 and response.headers["Location"] == f"/p/{pulka_id}?said=restored.4"
    shown = text(client.get(response.headers["Location"]))
    assert "Deal 4 restored: C: gora +2; A: 12 whists on C; B: 2 whists on C." in shown
    assert "Deal 4 removed" not in shown
    assert client.get(f"/api/v1/pulkas/{pulka_id}/deals/4").json["deal"] == deal

    # Undone again, then another phone enters a deal: the restore is refused, as any stale save.
    fields = undo_and_restore_form(client, pulka_id)
    assert add(client, pulka_id, {"type": "raspasy", "tricks": {"A": 4, "B": 3, "C": 3}}).status_code == 201
    before = snapshot(app)
    response = client.post(f"/p/{pulka_id}/restore", data=fields)
    assert response.status_code == 409
    assert "Not restored: the pulka changed since this page was opened" in text(response)
    assert snapshot(app) == before


def test_one_whister_needs_only_the_declarers_tricks(client):
    """Sochi (whister_all): with one whister only the defence's total counts, so the form takes the declarer's
    count alone and stores the rest as the whister's; under each_own the passer's own tricks count."""
    pulka_id = create(client)
    lone = {"type": "game", "declarer": "1", "level": "7", "strain": "S", "w2": "whist", "w0": "pass",
            "t1": "6", "action": "save"}
    assert client.post(f"/p/{pulka_id}/deal", data=lone).status_code == 302
    deal = client.get(f"/api/v1/pulkas/{pulka_id}/deals/1").json
    assert deal["deal"]["tricks"] == {"B": 6, "C": 4, "A": 0}
    assert deal["summary"] == ["B: gora +4", "C: 20 whists on B", "A: 4 whists on B"]
    # The defenders' own counts, when sent, change nothing: the split is not recorded.
    assert client.post(f"/p/{pulka_id}/deal", data=lone | {"declarer": "2", "w0": "whist", "w1": "pass",
                                                            "w2": "", "t2": "7", "t0": "1", "t1": "2"}
                       ).status_code == 302
    assert client.get(f"/api/v1/pulkas/{pulka_id}/deals/2").json["deal"]["tricks"] == {"C": 7, "A": 3, "B": 0}

    each_own = create(client, rules={"preset": "sochi", "single_whist_made": "each_own"})
    response = client.post(f"/p/{each_own}/deal", data=lone | {"t1": "7"})
    assert response.status_code == 422  # two counts are missing: the split counts here
    response = client.post(f"/p/{each_own}/deal", data=lone | {"t1": "7", "t2": "1"})
    assert response.status_code == 302
    assert client.get(f"/api/v1/pulkas/{each_own}/deals/1").json["deal"]["tricks"] == {"B": 7, "C": 1, "A": 2}


def test_after_a_save_the_next_deal(client):
    pulka_id = sochi(client, 8)
    response = post_deal(client, pulka_id, SOCHI["deals"][8])
    # The result travels in the address (issue 17), so no other request can take it.
    assert response.headers["Location"] == f"/p/{pulka_id}/deal?said=added.9"  # the next deal's form, the result on top
    assert "Deal 9 saved: " in text(client.get(response.headers["Location"]))
    response = post_deal(client, pulka_id, SOCHI["deals"][9])
    assert response.headers["Location"] == f"/p/{pulka_id}?said=added.10"  # the last deal: the sheet
    assert "The pulka is finished. See the settlement." in text(client.get(response.headers["Location"]))
    client.post(f"/api/v1/pulkas/{pulka_id}/reopen")  # finished, it is frozen until reopened
    response = client.post(f"/p/{pulka_id}/deals/2/edit", data=form_fields(SOCHI["deals"][1]))
    assert response.headers["Location"] == f"/p/{pulka_id}?said=edited.2"  # an edit: the sheet
    assert "Deal 2 edited: " in text(client.get(response.headers["Location"]))


def test_edit_an_earlier_deal(client):
    pulka_id = sochi(client, 4)
    page = client.get(f"/p/{pulka_id}/deals/2/edit")
    html = page.get_data(as_text=True)
    assert "Edit deal 2" in html and "B deals" in text(page)
    assert re.search(r'name="t1" value="6"[^>]*checked', html) and re.search(r'name="strain" value="D"[^>]*checked', html)
    fields = form_fields(SOCHI["deals"][1]) | {"t1": "8", "t0": "1", "t2": "1"}
    response = client.post(f"/p/{pulka_id}/deals/2/edit", data=fields)
    assert response.status_code == 302
    rows = client.get(f"/api/v1/pulkas/{pulka_id}/sheet").json["table"]
    assert [r["gora"] for r in rows] == [0, 4, 2] and [r["pulya"] for r in rows] == [4, 6, 2]


def test_edit_refused_names_the_later_deal(app, client):
    pulka_id = create(client, rules={"preset": "leningrad"})
    for deal in ({"type": "raspasy", "tricks": {"B": 4, "C": 4, "A": 2}},
                 {"type": "game", "declarer": "C", "contract": "7S", "whist": {"A": "pass", "B": "pass"}},
                 {"type": "game", "declarer": "A", "contract": "6S", "whist": {"B": "pass", "C": "pass"}}):
        assert add(client, pulka_id, deal).status_code == 201
    before = snapshot(app)
    response = client.post(f"/p/{pulka_id}/deals/2/edit", data={"type": "raspasy", "t2": "4", "t0": "4", "t1": "2"})
    assert response.status_code == 422
    assert "This change to deal 2 would make deal 3 invalid (deal 3: after 2 raspasy in a row the contract must " \
           "be at least 7, not 6♠); nothing was changed" in text(response)
    assert snapshot(app) == before


def test_delete_an_earlier_deal(app, client):
    pulka_id = sochi(client, 4)
    confirm = client.get(f"/p/{pulka_id}/deals/1/delete")
    assert confirm.status_code == 200 and "Delete deal 1?" in text(confirm)
    response = client.post(f"/p/{pulka_id}/deals/1/delete")
    assert response.status_code == 302
    deals = client.get(f"/api/v1/pulkas/{pulka_id}/deals").json["deals"]
    assert [d["n"] for d in deals] == [1, 2, 3] and deals[0]["deal"] == SOCHI["deals"][1]

    four = create(client, ["Anna", "Boris", "Vera", "Gleb"])
    add(client, four, {"type": "game", "declarer": "Boris", "contract": "7H", "whist": {"Vera": "pass", "Gleb": "pass"}})
    add(client, four, {"type": "game", "declarer": "Vera", "contract": "6S", "whist": {"Gleb": "pass", "Anna": "pass"}})
    before = snapshot(app)
    response = client.post(f"/p/{four}/deals/1/delete")
    assert response.status_code == 422
    assert "Deleting deal 1 would make deal 2 invalid" in text(response)
    assert snapshot(app) == before
