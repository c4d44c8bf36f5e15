"""Rows ↔ engine objects: every kind of deal comes back as it went in, on SQLite and PostgreSQL; a fresh
repository (a restart, a second server process) reads from the database what another one wrote."""

from __future__ import annotations

import pytest

from scorekeeper.web.domain.deals import DeleteDeal, UndoDeal
from scorekeeper.files import pulyafile
from scorekeeper.engine import replay
from scorekeeper.web.domain.pulkas import DeletePulka, Settings
from scorekeeper.web.domain.refusals import NotFound
from scorekeeper.web.services import deals, pulkas
from scorekeeper.web.store import Store
from scorekeeper.web.store import deals as conversions
from scorekeeper.web.store.models import DealRow

from ..conftest import rows

# Every shape a stored deal takes: whists and tricks, open, half-whist (no tricks), a checked ten
# (no words), misère with one count, raspasy with the sitting-out dealer's talon trick.
FOUR = {"format": "pulya/1", "players": ["Anna", "Boris", "Vera", "Gleb"], "rules": {"preset": "sochi"},
        "deals": [
            {"type": "game", "declarer": "Boris", "contract": "7H", "whist": {"Vera": "whist", "Gleb": "pass"},
             "open": True, "tricks": {"Boris": 7, "Vera": 2, "Gleb": 1}},
            {"type": "game", "declarer": "Vera", "contract": "6D", "whist": {"Gleb": "pass", "Anna": "half"}},
            {"type": "game", "declarer": "Gleb", "contract": "10NT", "tricks": {"Gleb": 10, "Anna": 0, "Boris": 0}},
            {"type": "misere", "declarer": "Boris", "tricks": {"Boris": 0}},
            {"type": "raspasy", "tricks": {"Boris": 3, "Vera": 2, "Gleb": 4, "Anna": 1}},
        ]}


def stored(repo: Store, owner: int):
    file = pulyafile.parse(FOUR)
    settings = Settings("Four", "€", file.players, file.first_dealer, file.rules)
    return file, pulkas.create_pulka(repo.pulkas, owner, settings, file.deals)


def test_every_kind_of_deal_comes_back_as_it_went_in(repo, owner):
    file, pulka = stored(repo, owner)
    fresh = Store(repo.db).pulkas  # nothing cached: everything from the rows
    again = fresh.get(pulka.uid)
    assert again.deals == file.deals
    assert (again.players, again.first_dealer, again.rules) == (file.players, file.first_dealer, file.rules)
    assert (again.name, again.currency, again.version) == ("Four", "€", 1)
    assert again.sheet == replay(file.rules, 4, file.deals).sheet
    assert pulyafile.dumps(pulyafile.PulkaFile(again.players, again.rules, again.deals)) == pulyafile.dumps(file)


def test_a_second_repository_sees_every_write_of_the_first(repo, owner):
    _, pulka = stored(repo, owner)
    other = Store(repo.db)
    assert other.pulkas.get(pulka.uid).version == 1
    deals.undo(repo.pulkas, UndoDeal(pulka.uid))
    assert other.pulkas.get(pulka.uid).deals == pulka.deals[:-1]
    deals.delete_deal(other.pulkas, DeleteDeal(pulka.uid, 4))
    assert repo.pulkas.get(pulka.uid).deals == pulka.deals[:3] and repo.pulkas.get(pulka.uid).version == 3


def test_a_failed_write_stores_and_caches_nothing(repo, owner):
    _, pulka = stored(repo, owner)
    before = rows(repo)
    with pytest.raises(RuntimeError):
        with repo.pulkas.writing(pulka.uid) as change:
            change.remove(5)
            raise RuntimeError("the disk is full")
    assert rows(repo) == before
    assert repo.pulkas.get(pulka.uid).version == 1 and repo.pulkas.cache.get((pulka.uid, 2)) is None


def test_ids_are_random_and_never_reused(repo, owner):
    _, first = stored(repo, owner)
    pulkas.delete_pulka(repo.pulkas, DeletePulka(first.uid))
    _, second = stored(repo, owner)
    assert second.uid != first.uid and len(second.uid) == 22
    with pytest.raises(NotFound):
        repo.pulkas.get(first.uid)


def test_deal_rows_keep_seats_and_order():
    file = pulyafile.parse(FOUR)
    for deal in file.deals:
        values = conversions.deal_values(deal)
        row = DealRow(pulka_id=1, position=1, **values)
        assert conversions.deal_of(row) == deal
    # The words keep the order they were said in (the export writes them so).
    assert list(conversions.deal_values(file.deals[1])["whist"]) == ["3", "0"]
