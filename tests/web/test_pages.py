"""The HTML pages and forms, as a phone at the table uses them (without JavaScript)."""

from __future__ import annotations

import json
import re
from html import unescape as html_unescape

import pytest

from scorekeeper.engine import PARAMETERS

from .conftest import SOCHI, add, create, form_fields, snapshot, sochi


def text(response) -> str:
    """The page's visible text, tags stripped, whitespace collapsed."""
    body = re.sub(r"<(script|style|template)[^>]*>.*?</\1>", " ", response.get_data(as_text=True), flags=re.S)
    body = re.sub(r'<wbr>|<span class="n">([^<]*)</span>', r"\1", body)  # a chain's numbers: 2.3.10
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


def test_index_lists_pulkas(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "No pulka yet" in text(response)
    sochi(client, 3)
    sochi(client)
    page = text(client.get("/"))
    # Compact: the evening (a day's pulkas), each name, where it stands and who leads; no list of players.
    assert re.search(r"Evening of \d{1,2} [A-Z][a-z]+ \d{4} Pulka of A, B, C finished at \d{1,2}:\d\d · A won "
                     r"\+263⅓ Again Pulka of A, B, C deal 4 · A leads \+99⅓ Again", page)
    create(client)
    assert "Pulka of A, B, C not started Again" in text(client.get("/"))
    assert 'aria-label="Same players again: Pulka of A, B, C"' in client.get("/").get_data(as_text=True)


def test_same_players_again(client):
    """One tap makes the table's next pulka with the same players, seats, rules and currency, and opens it: the
    first dealer follows on from the last deal, the name says which of the evening it is."""
    pulka_id = create(client, ["Anna", "Boris", "Vera", "Gleb"], rules={"preset": "rostov", "pulya_size": 30},
                      first_dealer="Vera", currency="€", name="Friday")
    add(client, pulka_id, {"type": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Gleb": 3}})
    response = client.post(f"/p/{pulka_id}/again")
    assert response.status_code == 302
    new_id = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    assert new_id != pulka_id
    old, new = (client.get(f"/api/v1/pulkas/{uid}").json for uid in (pulka_id, new_id))
    same = ("players", "currency", "rules", "overrides")
    assert {key: new[key] for key in same} == {key: old[key] for key in same}
    assert (new["name"], new["first_dealer"]) == ("Friday, 2", "Gleb")  # Vera dealt deal 1: Gleb deals next
    assert new["deals"] == 0 and old["deals"] == 1
    assert "A new pulka for the same table: Gleb deals first." in text(client.get(f"/p/{new_id}"))
    third = client.post(f"/p/{new_id}/again", data={"first_dealer": "Boris"}).headers["Location"]
    third = client.get(f"/api/v1/pulkas/{third.split('?')[0].rsplit('/', 1)[1]}").json
    assert (third["name"], third["first_dealer"]) == ("Friday, 3", "Boris")  # chosen
    refused = client.post(f"/p/{new_id}/again", data={"first_dealer": "Nobody"})
    assert refused.status_code == 400 and "the first dealer is one of the players" in text(refused)


# -- a new pulka ----------------------------------------------------------------------------------


def new_pulka_form(**fields) -> dict:
    form = {"player0": "Anna", "player1": "Boris", "player2": "Vera", "player3": "", "first_dealer": "0",
            "preset": "sochi", "shown_preset": "sochi", "pulya_size": "20", "whist_price": "1", "currency": "₽",
            "name": "Friday"}
    from scorekeeper.engine import PRESETS
    from scorekeeper.web.edge.forms import ADVANCED, field_value

    for p in ADVANCED:
        value = field_value(p, getattr(PRESETS["sochi"], p.name))
        if value is not False:
            form[f"p_{p.name}"] = value
    return form | fields


def test_new_pulka_form_shows_every_parameter_with_the_preset_value(client):
    response = client.get("/new")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for p in PARAMETERS:
        assert p.name in html, p.name
    assert 'name="p_raspasy_gora" value="1, 2, 3"' in html
    assert 'name="p_pulya_point_whists" value="10"' in html
    assert re.search(r'name="p_ten_checked" value="y" data-param="ten_checked" checked', html)
    assert '<option value="greedy" selected>' in html


def test_create_pulka_with_the_form(app, client):
    response = client.post("/new", data=new_pulka_form(pulya_size="10", whist_price="0,5", p_whist_factor="2"))
    assert response.status_code == 302
    pulka_id = response.headers["Location"].rsplit("/", 1)[1]
    pulka = client.get(f"/api/v1/pulkas/{pulka_id}").json
    assert pulka["overrides"] == {"preset": "sochi", "pulya_size": 10, "whist_price": 0.5, "whist_factor": 2}
    assert pulka["players"] == ["Anna", "Boris", "Vera"] and pulka["currency"] == "₽" and pulka["name"] == "Friday"
    page = text(client.get(response.headers["Location"]))
    assert "Anna deals first" in page
    assert "Deal 1 · Anna deals · first hand Boris" in page


def test_choosing_another_preset_without_javascript_takes_that_preset(client):
    # The advanced fields still show Sochi's values; only the preset chip changed.
    client.post("/new", data=new_pulka_form(preset="leningrad"))
    pulka = client.get("/api/v1/pulkas").json["pulkas"][0]
    overrides = client.get(f"/api/v1/pulkas/{pulka['id']}").json["overrides"]
    assert overrides == {"preset": "leningrad"}


@pytest.mark.parametrize(("fields", "message"), [
    ({"player2": ""}, "a pulka has 3 or 4 players"),
    ({"player2": "Anna"}, "two players have the same name"),
    ({"first_dealer": "3"}, "the first dealer must be one of the players"),
    ({"preset": "moscow"}, "unknown preset"),
    ({"pulya_size": "zero"}, "pulya_size must be an integer from 1 to 1000, not &#39;zero&#39;"),
    ({"whist_price": "-1"}, "whist_price must be a number from 0 to 10000 with at most 4 decimals"),
    ({"p_raspasy_exit": "6, 9, 7"}, "raspasy_exit must be a list of 3 integers from 6 to 8"),
    ({"p_single_whist_remiz": "rude"}, "single_whist_remiz must be one of greedy, gentleman"),
])
def test_new_pulka_refused(app, client, fields, message):
    before = snapshot(app)
    response = client.post("/new", data=new_pulka_form(**fields))
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert 'class="error"' in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_settings_before_and_after_the_first_deal(app, client):
    pulka_id = create(client)
    page = client.get(f"/p/{pulka_id}/settings")
    assert page.status_code == 200 and 'value="A"' in page.get_data(as_text=True)
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    response = client.post(f"/p/{pulka_id}/settings", data=new_pulka_form(
        player0="A", player1="B", player2="C", player3="D", preset="rostov", shown_preset="rostov",
        version=str(version), **{"p_single_whist_remiz": "gentleman", "p_shortfall_factor": "0.5",
                                 "p_consolation_min": "10", "p_raspasy_scoring": "whists", "p_raspasy_gora": "1",
                                 "p_raspasy_zero_pulya": "1", "p_raspasy_dealer": "pulya_one"}))
    assert response.status_code == 302
    pulka = client.get(f"/api/v1/pulkas/{pulka_id}").json
    assert pulka["overrides"] == {"preset": "rostov"} and pulka["players"] == ["A", "B", "C", "D"]

    assert add(client, pulka_id, {"type": "raspasy", "tricks": {"B": 3, "C": 3, "D": 4}}).status_code == 201
    page = text(client.get(f"/p/{pulka_id}/settings"))
    assert "fixed since the first deal" in page
    before = snapshot(app)
    version = client.get(f"/api/v1/pulkas/{pulka_id}").json["version"]
    response = client.post(f"/p/{pulka_id}/settings", data={"name": "Late night", "currency": "€",
                                                            "version": str(version), "preset": "sochi"})
    assert response.status_code == 302
    pulka = client.get(f"/api/v1/pulkas/{pulka_id}").json
    assert (pulka["name"], pulka["currency"], pulka["overrides"]) == ("Late night", "€", {"preset": "rostov"})
    assert snapshot(app) != before


# -- entering deals -------------------------------------------------------------------------------


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
    # Anna deals; the talon won her 2 tricks (rules.md Ex 38): gora Anna 2 as anyone's.
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


# -- history: undo, edit, delete ----------------------------------------------------------------


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


# -- settlement, files ----------------------------------------------------------------------------


def test_settlement_page(client):
    pulka_id = sochi(client)
    page = text(client.get(f"/p/{pulka_id}/settlement"))
    assert "B pays A 107.33" in page and "C pays A 24.34" in page
    assert "A +263⅓ +131.67" in page and "B −214⅔ −107.33" in page
    assert "Sum 0 0.00 ✓" in page
    assert "The smallest gora, 6 , is struck from every gora. Gora left: A 0, B 33, C 16." in page
    assert "writes on A 0, B 110, C 53⅓ whists" in page
    assert "A — 142 121⅓ 263⅓" in page and "B −142 — −72⅔ −214⅔" in page and "C −121⅓ 72⅔ — −48⅔" in page


def test_settlement_of_an_unfinished_pulka(client):
    pulka_id = sochi(client, 1)
    page = text(client.get(f"/p/{pulka_id}/settlement"))
    assert "not finished" in page
    # A: pulya 4 → (4 − 4/3) × 10 / … : the engine's figures, shown as they are.
    settlement = client.get(f"/api/v1/pulkas/{pulka_id}/settlement").json
    names = [p["name"] for p in settlement["players"]]
    for t in settlement["transfers"]:
        assert f"{t['from']} pays {t['to']} {t['amount']:.2f}" in page
    assert names == ["A", "B", "C"] and settlement["sum_money"] == 0


def test_export_import_and_csv(app, client):
    pulka_id = sochi(client)
    exported = client.get(f"/p/{pulka_id}/export")
    assert exported.headers["Content-Disposition"].startswith("attachment; filename=")
    from io import BytesIO

    response = client.post("/import", data={"file": (BytesIO(exported.data), "friday.pulya.json"), "name": ""},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    new_id = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/p/{new_id}/export").data == exported.data  # the file's own name is kept
    nameless = json.dumps(SOCHI).encode()  # a file without a name is named after the file
    response = client.post("/import", data={"file": (BytesIO(nameless), "friday.pulya.json"), "name": ""},
                           content_type="multipart/form-data")
    assert client.get(f"/api/v1/pulkas/{response.headers['Location'].rsplit('/', 1)[1]}").json["name"] == "friday"

    data = client.get(f"/p/{pulka_id}/protocol.csv").get_data()
    assert data.startswith(b"\xef\xbb\xbf")  # the byte order mark: a spreadsheet reads it as UTF-8
    csv = data.decode("utf-8-sig").splitlines()
    assert csv[0] == "deal,dealer,type,declarer,contract,whist,open,tricks,player,column,on,points,reason"
    assert "2,B,game,B,8D,C:whist A:whist,,B:6 A:3 C:1,B,gora,,12,B is remiz by 2 on 8♦: gora 2 × 6" in csv
    assert csv[-1].startswith("10,A,game,B,9NT,C:pass A:pass,,,B,gora,,-1,")


def test_import_refused(app, client):
    before = snapshot(app)
    response = client.post("/import", data={"text": '{"format": "pulya/1"}'})
    assert response.status_code == 400 and "the key &#39;deals&#39; is missing" in response.get_data(as_text=True)
    response = client.post("/import", data={"text": ""})
    assert response.status_code == 400 and "Choose a pulka file" in text(response)
    bad = SOCHI | {"deals": SOCHI["deals"][:2] + [{"type": "raspasy", "tricks": {"A": 5, "B": 5, "C": 5}}]}
    import json

    response = client.post("/import", data={"text": json.dumps(bad)})
    assert response.status_code == 422 and "deal 3: tricks add up to 15, a deal has 10" in text(response)
    assert snapshot(app) == before


def test_remove_a_pulka(app, client):
    pulka_id = sochi(client, 2)
    assert "Delete Pulka of A, B, C?" in text(client.get(f"/p/{pulka_id}/remove"))
    response = client.post(f"/p/{pulka_id}/remove")
    assert response.status_code == 302
    assert client.get(f"/p/{pulka_id}").status_code == 404


# -- errors ---------------------------------------------------------------------------------------


def test_error_pages_look_like_the_app(client):
    for url, status in (("/nowhere", 404), ("/p/42", 404), ("/p/42/history", 404), ("/p/42/deals/1/edit", 404)):
        response = client.get(url)
        assert response.status_code == status
        assert "scorekeeper" in text(response) and "To the pulkas" in text(response)
        assert "app.css" in response.get_data(as_text=True)
    pulka_id = sochi(client, 1)
    assert client.get(f"/p/{pulka_id}/deals/5/edit").status_code == 404
    response = client.post("/")
    assert response.status_code == 405 and "To the pulkas" in text(response)


def test_a_crash_leaves_nothing_half_written(app, client, monkeypatch):
    pulka_id = sochi(client, 3)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.testing = False
    before = snapshot(app)
    from scorekeeper.web.store import changes, pulkas

    def boom(deal):
        raise RuntimeError("the disk is full")

    # The version is already bumped and the rows loaded when storing the deal fails (a write's rows are
    # store.changes', a new pulka's store.pulkas').
    monkeypatch.setattr(changes, "deal_values", boom)
    monkeypatch.setattr(pulkas, "deal_values", boom)
    response = client.post(f"/p/{pulka_id}/deal", data=form_fields(SOCHI["deals"][3]))
    assert response.status_code == 500
    assert "Nothing was saved" in text(response) and "To the pulkas" in text(response)
    assert client.post(f"/api/v1/pulkas/{pulka_id}/deals", json=SOCHI["deals"][3]).status_code == 500
    response = client.post("/api/v1/import", json=SOCHI)
    assert response.status_code == 500 and response.json["error"]["code"] == "server_error"
    assert snapshot(app) == before


def test_csrf_guards_every_write_resting_on_the_cookie(database_url, tmp_path):
    """Forms need their token; the API needs it too when the session cookie is what authenticates the
    request, and not with a bearer token (no cookie, nothing for another site to borrow)."""
    from .conftest import OWNER, make_app, signed_in

    app = make_app(database_url, tmp_path, WTF_CSRF_ENABLED=True)
    bearer = signed_in(app)
    pulka_id = create(bearer)  # a bearer token needs no CSRF token
    browser = app.test_client()
    login = browser.get("/login").get_data(as_text=True)
    assert browser.post("/login", data={"username": OWNER[0], "password": OWNER[1]}).status_code == 400
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login)[1]
    response = browser.post("/login", data={"username": OWNER[0], "password": OWNER[1], "csrf_token": token})
    assert response.status_code == 302
    before = snapshot(app)
    response = browser.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t0": "3", "t1": "3", "t2": "4"})
    assert response.status_code == 400 and "The form had expired" in text(response)
    deal = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}
    response = browser.post(f"/api/v1/pulkas/{pulka_id}/deals", json=deal)
    assert (response.status_code, response.json["error"]["code"]) == (400, "csrf")
    assert snapshot(app) == before
    page = browser.get(f"/p/{pulka_id}/deal").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)[1]
    response = browser.post(f"/p/{pulka_id}/deal", data={"type": "raspasy", "t0": "3", "t1": "3", "t2": "4",
                                                         "csrf_token": token})
    assert response.status_code == 302
    response = browser.post(f"/api/v1/pulkas/{pulka_id}/deals", json=deal, headers={"X-CSRFToken": token})
    assert response.status_code == 201
    assert add(bearer, pulka_id, deal).status_code == 201
    app.extensions["scorekeeper"].db.engine.dispose()


def test_the_list_groups_a_days_pulkas_as_one_evening_in_russian(client):
    sochi(client, 3)
    sochi(client, 2)
    client.post("/language", data={"language": "ru"})
    page = text(client.get("/", headers={"Accept-Language": "ru"}))
    assert len(re.findall(r"Вечер \d{1,2} (?:января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|"
                          r"ноября|декабря) \d{4}", page)) == 1  # the month in the genitive, one heading for both


def test_every_page_heads_with_the_callers_own_links(client):
    """The header names the account on every page it can open: a page's own name (a macro, a variable) never
    takes the place of base.html's `who` (the deal form's macro once did, and showed «<Macro 'who'>»)."""
    uid = sochi(client, 3)
    pages = ["/", "/new", "/import", "/paper", "/players", "/ledger", "/account", "/admin", f"/p/{uid}",
             f"/p/{uid}/deal", f"/p/{uid}/history", f"/p/{uid}/settlement", f"/p/{uid}/settings",
             f"/p/{uid}/shares", f"/p/{uid}/deals/1/edit", f"/p/{uid}/deals/3/delete", f"/p/{uid}/close",
             f"/p/{uid}/remove"]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        head = re.search(r'<span class="who">(.*?)</span>', response.get_data(as_text=True), re.S)
        assert head and 'href="/ledger"' in head.group(1) and ">owner</a>" in head.group(1), path
