"""The standings (/players) and the circle's API answer a page at a time (docs/club.md §1-2): the standings in
their own order (the players as they first appear in the counted pulkas), the API's by name, a fixed number a
page, and a link (`next` in the API) that, followed to its end with the filters kept, shows every player exactly
once. The app here shows 4 players a page; a pulka seats three at least, so a circle holds 0 or from 3 players."""

from __future__ import annotations

import html
import re

import pytest

from ..conftest import kept_sheet, make_app, signed_in

SIZE = 4
WORDS = {"en": {"next": "Next players", "first": "First page", "range": "Players {first}–{last} of {total}",
                "none": "No players on this page."},
         "ru": {"next": "Следующие игроки", "first": "Первая страница", "range": "Игроки {first}–{last} из {total}",
                "none": "На этой странице игроков нет."}}


@pytest.fixture
def paged(database_url, tmp_path):
    app = make_app(database_url, tmp_path, PAGE_ROWS=SIZE)
    yield signed_in(app)
    app.extensions["scorekeeper"].db.engine.dispose()


def circle_of(client, players: int) -> list[str]:
    """A circle of `players` (0, or 3 and more): a kept sheet of P01, P02, P03, then one sheet for each next
    player with P01 and P02. The names in the standings' order: as they first appear."""
    names = [f"P{k + 1:02}" for k in range(players)]
    if players:
        kept_sheet(client, names[:3])
    for name in names[3:]:
        kept_sheet(client, (names[0], names[1], name))
    return names


def standings(page: str) -> list[str]:
    return re.findall(r'<th scope="row"><a href="/players/[^"]+">([^<]+)</a>', page)


def link(page: str, text: str) -> str | None:
    found = re.search(rf'<a href="([^"]+)"[^>]*>{text}</a>', page)
    return html.unescape(found.group(1)) if found else None


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("players", [0, SIZE - 1, SIZE, SIZE + 1, 3 * SIZE])
def test_following_the_next_link_shows_every_player_once_in_the_standings_order(paged, language, players):
    names = circle_of(paged, players)
    paged.post("/language", data={"language": language})
    words, seen, pages = WORDS[language], [], 0
    address: str | None = "/players?players=3"  # a filter, kept by every link
    while address is not None:
        response = paged.get(address)
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        shown = standings(page)
        assert len(shown) <= SIZE
        if players > SIZE:
            assert words["range"].format(first=len(seen) + 1, last=len(seen) + len(shown), total=players) in page
        assert (link(page, words["first"]) is not None) == (pages > 0)
        seen, pages = seen + shown, pages + 1
        address = link(page, words["next"])
        assert address is None or "players=3" in address
        assert pages <= players + 1, "the pages never end"
    assert seen == names and pages == max(1, -(-players // SIZE))


@pytest.mark.parametrize("players", [0, SIZE - 1, SIZE, SIZE + 1, 3 * SIZE])
def test_following_next_in_the_api_gives_every_player_once_by_name(paged, players):
    names = circle_of(paged, players)
    answer, seen, pages = paged.get("/api/v1/players?players=3").json, [], 1
    while True:
        assert len(answer["players"]) <= SIZE
        seen += [(p["name"], p["pulkas"]) for p in answer["players"]]
        if answer["next"] is None:
            break
        assert answer["next"].startswith("/api/v1/players?") and "players=3" in answer["next"]
        answer, pages = paged.get(answer["next"]).json, pages + 1
        assert pages <= players + 1, "the pages never end"
    # P01 and P02 sat in every sheet, each other player in one
    assert seen == [(name, players - 2 if name in ("P01", "P02") else 1) for name in sorted(names)]
    assert pages == max(1, -(-players // SIZE))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_page_past_the_end_shows_nobody_and_leads_to_the_first(paged, language):
    circle_of(paged, SIZE + 1)
    paged.post("/language", data={"language": language})
    page = paged.get("/players?page=3").get_data(as_text=True)
    assert standings(page) == [] and WORDS[language]["none"] in page
    assert standings(paged.get(link(page, WORDS[language]["first"])).get_data(as_text=True))[:1] == ["P01"]
    assert paged.get("/api/v1/players?page=3").json == {"players": [], "next": None}


@pytest.mark.parametrize("number", ["0", "-1", "x", "1.5", "٣", "３", "1_0", "2147483648"])
def test_a_page_number_that_is_not_one_is_refused_naming_it(paged, number):
    circle_of(paged, 3)
    api = paged.get("/api/v1/players", query_string={"page": number})
    assert api.status_code == 400 and api.json["error"]["field"] == "page"
    page = paged.get("/players", query_string={"page": number})
    assert page.status_code == 400 and "page" in page.get_data(as_text=True)
