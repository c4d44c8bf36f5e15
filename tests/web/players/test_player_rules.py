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
    # Anya would follow Anna into Vera, but Anya and Vera sat at one table (p3): one person, two seats
    # (docs/club.md §1 as revised; the merge was accepted before, Vera holding two seats of p3)
    assert refused(circle, "into", players.merge, Merge("anna", "vera")) == \
        "the two sat at one table in a pulka: they are two players"
    assert [p.id for p in circle.merged_ones(OWNER, "anna")] == ["anya"]


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




# -- docs/club.md §1, "Merging, exactly": a player's group is he and everyone merged into him, at any depth ----


@pytest.fixture
def club() -> FakePlayers:
    """The issue's tables P (X, N, Z) and Q (Y, U, V); W sat with U and V in R, M alone in S; Z paid U once."""
    return FakePlayers({"x": {"P"}, "n": {"P"}, "z": {"P"}, "y": {"Q"}, "u": {"Q", "R"}, "v": {"Q", "R"},
                        "w": {"R"}, "m": {"S"}}, paid=[("z", "u")])


SEATS = "the two sat at one table in a pulka: they are two players"
PAID = "payments stand between the two in the ledger: they are two players"
CIRCLE = "one of the two is merged into the other already"
MERGED = "merge a player into another one of your circle, not merged himself"


@pytest.mark.parametrize("first, then", [
    (Merge("n", "y"), Merge("x", "y")),  # the issue's: X and N sat in P, and N is Y's now
    (Merge("n", "y"), Merge("z", "y")),
    (Merge("x", "y"), Merge("n", "y")),
    (Merge("x", "m"), Merge("n", "m")),
])
def test_one_person_never_holds_two_seats_whichever_member_of_the_group_sat_there(club, first, then):
    players.merge(club, OWNER, first)
    assert refused(club, "into", players.merge, then) == SEATS


def test_a_group_merged_deep_still_brings_every_seat(club):
    players.merge(club, OWNER, Merge("x", "m"))  # M's group: M, X
    players.merge(club, OWNER, Merge("m", "y"))  # Y's group: Y, M, X (X at depth 2)
    assert [p.id for p in club.merged_ones(OWNER, "y")] == ["m", "x"]
    assert refused(club, "into", players.merge, Merge("n", "y")) == SEATS  # N sat with X


def test_the_group_that_moves_brings_its_seats_too(club):
    players.merge(club, OWNER, Merge("w", "m"))  # M's group: M, W; W sat with U in R
    assert refused(club, "into", players.merge, Merge("m", "u")) == SEATS
    assert refused(club, "into", players.merge, Merge("u", "m")) == SEATS


@pytest.mark.parametrize("gone, into", [("z", "u"), ("u", "z"), ("z", "m"), ("m", "z")])
def test_a_payment_between_a_member_of_each_group_keeps_them_two(club, gone, into):
    players.merge(club, OWNER, Merge("u", "m"))  # M's group: M, U (U is the one Z paid)
    if "u" in (gone, into):
        players.unmerge(club, OWNER, Unmerge("u"))
    assert refused(club, "into", players.merge, Merge(gone, into)) == PAID


@pytest.mark.parametrize("first, then", [(Merge("x", "m"), Merge("m", "x")), (Merge("x", "m"), Merge("x", "m"))])
def test_no_circle_of_merges(club, first, then):
    players.merge(club, OWNER, first)
    assert refused(club, "into", players.merge, then) == CIRCLE


def test_no_circle_through_a_chain(club):
    players.merge(club, OWNER, Merge("x", "m"))
    players.merge(club, OWNER, Merge("m", "w"))  # X → M → W
    assert refused(club, "into", players.merge, Merge("w", "x")) == CIRCLE


@pytest.mark.parametrize("gone, into", [("x", "w"), ("w", "x")])
def test_neither_may_be_merged_already(club, gone, into):
    players.merge(club, OWNER, Merge("x", "m"))
    assert refused(club, "into", players.merge, Merge(gone, into)) == MERGED


def test_undo_gives_him_back_with_everyone_merged_into_him_and_the_others_keep_theirs(club):
    players.merge(club, OWNER, Merge("x", "m"))  # M's group: M, X
    players.merge(club, OWNER, Merge("m", "w"))  # W's group: W, M, X
    players.merge(club, OWNER, Merge("n", "u"))  # U's group: U, N (apart)
    players.unmerge(club, OWNER, Unmerge("m"))  # the middle one: M comes back with X
    assert club.into == {"x": "m", "n": "u", "z": None, "y": None, "u": None, "v": None, "w": None, "m": None}
    assert [p.id for p in club.merged_ones(OWNER, "m")] == ["x"] and club.merged_ones(OWNER, "w") == []
    players.unmerge(club, OWNER, Unmerge("x"))
    assert club.into["x"] is None and club.into["n"] == "u"
