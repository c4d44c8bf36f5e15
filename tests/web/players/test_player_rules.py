"""Renaming and merging a circle's players, decided by the use cases alone (services.players) on a fake that
only keeps the rows: whom a player may be merged into, undoing a merge, a name taken. The same answers
through the app and the database are in test_players.py beside it."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.web.domain.players import Merge, Rename, Unmerge
from scorekeeper.web.domain.refusals import NotFound, Refused
from scorekeeper.web.services import players

from ..fakes import FakePlayers

OWNER = 1


@pytest.fixture
def circle() -> FakePlayers:
    # Anna and Boris sat at one table, Boris and Vera at another, Anya (Anna spelt otherwise) and Vera at a third.
    return FakePlayers({"anna": {"p1"}, "boris": {"p1", "p2"}, "anya": {"p3"}, "vera": {"p2", "p3"}})


def refused(circle: FakePlayers, field: str, write, command) -> str:
    """The refusal's message, after checking it names `field` and changed nothing."""
    before = copy.deepcopy((circle.names, circle.into))
    with pytest.raises(Refused) as error:
        write(circle, OWNER, command)
    assert error.value.field == field and (circle.names, circle.into) == before
    return error.value.message


def test_a_merge_counts_one_as_the_other_and_those_merged_into_him_follow(circle):
    players.merge(circle, OWNER, Merge("anya", "anna"))
    assert circle.into == {"anna": None, "boris": None, "anya": "anna", "vera": None}
    players.merge(circle, OWNER, Merge("anna", "vera"))  # Anya follows Anna
    assert circle.into == {"anna": "vera", "boris": None, "anya": "vera", "vera": None}
    assert [p.id for p in circle.merged_ones(OWNER, "vera")] == ["anna", "anya"]


def test_a_merge_goes_into_another_own_player_not_merged_himself(circle):
    message = "merge a player into another one of your circle, not merged himself"
    assert refused(circle, "into", players.merge, Merge("anya", "anya")) == message
    assert refused(circle, "into", players.merge, Merge("anya", "nobody")) == message
    players.merge(circle, OWNER, Merge("anya", "anna"))
    assert refused(circle, "into", players.merge, Merge("vera", "anya")) == message
    with pytest.raises(NotFound):
        players.merge(circle, OWNER, Merge("nobody", "anna"))


def test_two_who_sat_at_one_table_are_two_players(circle):
    assert refused(circle, "into", players.merge, Merge("boris", "anna")) == \
        "the two sat at one table in a pulka: they are two players"


def test_a_merge_undone_counts_him_as_himself_again(circle):
    assert refused(circle, "id", players.unmerge, Unmerge("anya")) == "this player is not merged into another"
    players.merge(circle, OWNER, Merge("anya", "anna"))
    players.unmerge(circle, OWNER, Unmerge("anya"))
    assert circle.into["anya"] is None
    with pytest.raises(NotFound):
        players.unmerge(circle, OWNER, Unmerge("nobody"))


def test_a_name_of_the_circle_is_taken(circle):
    assert players.rename(circle, OWNER, Rename("anya", "Anechka")).name == "Anechka"
    assert players.rename(circle, OWNER, Rename("anya", "Anechka")).name == "Anechka"  # his own name again
    assert refused(circle, "name", players.rename, Rename("anya", "BORIS")) == \
        "BORIS is a player of your circle already: merge the two instead"
    with pytest.raises(NotFound):
        players.rename(circle, OWNER, Rename("nobody", "Nobody"))

