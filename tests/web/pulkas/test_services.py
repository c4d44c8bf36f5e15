"""The use cases on their own, without HTTP or a database (on the in-memory repositories of fakes.py): what
each stores, and that each refusal raises its domain error and stores nothing. Figures are those of docs/rules.md
§10 (the Sochi example). The store itself is tested on SQLite and PostgreSQL in test_repository.py."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from scorekeeper.web.domain.deals import DeleteDeal, EditDeal, EnterDeal, UndoDeal
from scorekeeper.files import pulyafile
from scorekeeper.engine import Rules
from scorekeeper.web.domain.limits import Limits
from scorekeeper.web.domain.paper import KeepSheet
from scorekeeper.web.domain.pulkas import ChangeSettings, DeletePulka, ImportPulka, Settings, read_settings
from scorekeeper.web.domain.results import ReopenPulka
from scorekeeper.web.domain.refusals import (AccountFull, DealRefused, NothingToUndo, NotFound, PulkaFrozen,
                                             RulesFrozen, SettingsInvalid, TooManyDeals, TooManyPulkas,
                                             VersionConflict)
from scorekeeper.web.services import deals, pulkas, results

from ..conftest import SOCHI
from ..fakes import FakeStore, rows

SOCHI_FILE = pulyafile.parse(SOCHI)
SOCHI_RULES = SOCHI_FILE.rules
ABC = Settings("Friday", "₽", ("A", "B", "C"), 0, SOCHI_RULES)


@pytest.fixture
def repo() -> FakeStore:
    return FakeStore()


@pytest.fixture
def owner(repo: FakeStore) -> int:
    return repo.accounts.create_account("owner", "not a real hash").id


def sochi(repo, owner, count: int = 10):
    pulka = pulkas.create_pulka(repo.pulkas, owner, ABC)
    for deal in SOCHI_FILE.deals[:count]:
        pulka = deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, deal))
    return pulka


def test_create_and_read(repo, owner):
    pulka = pulkas.create_pulka(repo.pulkas, owner, ABC)
    assert (pulka.version, pulka.deals, pulka.players, pulka.rules) == (1, (), ("A", "B", "C"), SOCHI_RULES)
    assert len(pulka.uid) >= 16 and pulka.uid.replace("-", "").replace("_", "").isalnum()
    again = pulkas.get_pulka(repo.pulkas, pulka.uid)
    assert (again.name, again.currency, again.first_dealer) == ("Friday", "₽", 0)
    assert [s.name for s in pulkas.list_pulkas(repo.pulkas, owner)] == ["Friday"]
    assert pulkas.player_names(repo.pulkas, owner) == ["A", "B", "C"]


def test_the_sochi_example_deal_by_deal(repo, owner):
    pulka = sochi(repo, owner)
    assert pulka.version == 11 and len(pulka.deals) == 10
    assert pulka.sheet.finished
    assert pulka.sheet.pulya == (10, 10, 10) and pulka.sheet.gora == (6, 39, 22)
    assert pulka.settlement.money == (Decimal("131.67"), Decimal("-107.33"), Decimal("-24.34"))
    assert pulkas.get_pulka(repo.pulkas, pulka.uid).deals == SOCHI_FILE.deals


def test_a_refused_deal_stores_nothing(repo, owner):
    pulka = sochi(repo, owner, 1)
    before = rows(repo)
    deal = SOCHI_FILE.deals[1]
    wrong = type(deal)(deal.type, deal.declarer, deal.contract, deal.whist, {1: 6, 0: 3, 2: 2}, deal.open)
    with pytest.raises(DealRefused) as refused:
        deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, wrong))
    assert (refused.value.code, refused.value.field, refused.value.deal) == ("tricks_sum", "tricks", 2)
    assert refused.value.message == "deal 2: tricks add up to 11, a deal has 10"
    assert not refused.value.general
    assert rows(repo) == before


def test_a_stale_version_is_a_conflict(repo, owner):
    pulka = sochi(repo, owner, 1)
    deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, SOCHI_FILE.deals[1], expected=pulka.version))
    before = rows(repo)
    for write in (lambda: deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, SOCHI_FILE.deals[2], expected=pulka.version)),
                  lambda: deals.undo(repo.pulkas, UndoDeal(pulka.uid, expected=pulka.version)),
                  lambda: deals.delete_deal(repo.pulkas, DeleteDeal(pulka.uid, 1, expected=pulka.version)),
                  lambda: deals.edit_deal(repo.pulkas, EditDeal(pulka.uid, 1, SOCHI_FILE.deals[0], expected=pulka.version)),
                  lambda: pulkas.change_settings(repo.pulkas, ChangeSettings(pulka.uid, ABC, expected=pulka.version))):
        with pytest.raises(VersionConflict):
            write()
    assert rows(repo) == before


def test_edit_and_delete_that_break_a_later_deal_name_it(repo, owner):
    # Leningrad: after 2 raspasy in a row a game must be at least 7 (docs/rules.md §14 raspasy_exit [6, 7, 7]).
    file = pulyafile.parse({"format": "pulya/1", "players": ["A", "B", "C"], "rules": {"preset": "leningrad"},
                            "deals": [{"type": "raspasy", "tricks": {"B": 4, "C": 4, "A": 2}},
                                      {"type": "raspasy", "tricks": {"C": 4, "A": 4, "B": 2}},
                                      {"type": "game", "declarer": "B", "contract": "7S",
                                       "whist": {"C": "pass", "A": "pass"}},
                                      {"type": "game", "declarer": "A", "contract": "6S",
                                       "whist": {"B": "pass", "C": "pass"}}]})
    pulka = pulkas.import_pulka(repo.pulkas, owner, ImportPulka.of(file, "Leningrad"))
    before = rows(repo)
    raspasy = file.deals[1]
    with pytest.raises(DealRefused) as refused:
        deals.edit_deal(repo.pulkas, EditDeal(pulka.uid, 3, raspasy))
    assert (refused.value.code, refused.value.deal, refused.value.general) == ("raspasy_exit", 4, True)
    assert refused.value.message.startswith("This change to deal 3 would make deal 4 invalid (deal 4: after 3 raspasy")
    # Deleting the game of deal 3 leaves 6♠ right after two raspasy: the message numbers it as people see it.
    with pytest.raises(DealRefused) as refused:
        deals.delete_deal(repo.pulkas, DeleteDeal(pulka.uid, 3))
    assert (refused.value.code, refused.value.deal) == ("raspasy_exit", 4)
    assert refused.value.message.startswith("Deleting deal 3 would make deal 4 invalid (deal 4: after 2 raspasy")
    assert rows(repo) == before


def test_delete_renumbers_the_later_deals(repo, owner):
    # Raspasy name no declarer, so they stay valid whoever deals them.
    file = pulyafile.parse({"format": "pulya/1", "players": ["A", "B", "C"], "rules": {"preset": "sochi"},
                            "deals": [{"type": "raspasy", "tricks": {"A": 1, "B": 4, "C": 5}},
                                      {"type": "raspasy", "tricks": {"A": 2, "B": 4, "C": 4}},
                                      {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}]})
    pulka = pulkas.import_pulka(repo.pulkas, owner, ImportPulka.of(file))
    after = deals.delete_deal(repo.pulkas, DeleteDeal(pulka.uid, 1))
    assert after.deals == file.deals[1:] and after.version == pulka.version + 1
    stored = pulkas.get_pulka(repo.pulkas, pulka.uid)
    assert stored.deals == file.deals[1:]
    # Sochi raspasy_gora [1, 2, 3]: A's 2 tricks on the 1st raspasy and 3 on the 2nd: 2 × 1 + 3 × 2.
    assert stored.sheet.gora[0] == 8


def test_undo_takes_the_last_deal_back(repo, owner):
    pulka = sochi(repo, owner, 2)
    pulka = deals.undo(repo.pulkas, UndoDeal(pulka.uid))
    assert pulka.deals == SOCHI_FILE.deals[:1]
    pulka = deals.undo(repo.pulkas, UndoDeal(pulka.uid))
    before = rows(repo)
    with pytest.raises(NothingToUndo):
        deals.undo(repo.pulkas, UndoDeal(pulka.uid))
    assert rows(repo) == before


def test_settings_are_frozen_by_the_first_deal(repo, owner):
    pulka = pulkas.create_pulka(repo.pulkas, owner, ABC)
    four = read_settings({"players": ["A", "B", "C", "D"], "first_dealer": "D", "rules": {"preset": "rostov"}},
                         pulka.settings)
    pulka = pulkas.change_settings(repo.pulkas, ChangeSettings(pulka.uid, four))
    assert (pulka.players, pulka.first_dealer, pulka.rules) == (("A", "B", "C", "D"), 3, Rules.of("rostov"))
    assert pulkas.get_pulka(repo.pulkas, pulka.uid).players == ("A", "B", "C", "D")
    raspasy = pulyafile.read_deal({"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}},
                                  {"A": 0, "B": 1, "C": 2, "D": 3}, 1)[0]
    pulka = deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, raspasy))
    before = rows(repo)
    with pytest.raises(RulesFrozen):
        pulkas.change_settings(repo.pulkas, ChangeSettings(pulka.uid, read_settings({"rules": {"preset": "sochi"}}, pulka.settings)))
    assert rows(repo) == before
    renamed = pulkas.change_settings(repo.pulkas, ChangeSettings(pulka.uid, read_settings({"name": "Late", "currency": "€"},
                                                                      pulka.settings)))
    assert (renamed.name, renamed.currency, renamed.deals) == ("Late", "€", pulka.deals)


def test_settings_are_checked_by_one_function():
    with pytest.raises(SettingsInvalid) as refused:
        read_settings({"players": ["A", "B"], "rules": {"preset": "sochi", "whist_factor": 0}, "name": "x" * 81,
                       "colour": "red"})
    fields = {(f.code, f.field) for f in refused.value.faults}
    assert fields == {("bad_format", "colour"), ("bad_players", "players"), ("bad_parameter", "rules.whist_factor"),
                      ("bad_format", "name")}
    settings = read_settings({"players": ["Anna", "Boris", "Vera"], "first_dealer": "Vera"})
    assert (settings.name, settings.first_dealer, settings.rules) == ("Pulka of Anna, Boris, Vera", 2,
                                                                      Rules.of("sochi"))


def test_import_a_file(repo, owner):
    pulka = pulkas.import_pulka(repo.pulkas, owner, ImportPulka.of(SOCHI_FILE))
    assert pulka.name == "Imported pulka of A, B, C" and pulka.deals == SOCHI_FILE.deals
    bad = json.loads(json.dumps(SOCHI))
    bad["deals"][2]["tricks"]["C"] = 9
    before = rows(repo)
    with pytest.raises(DealRefused) as refused:
        pulkas.import_pulka(repo.pulkas, owner, ImportPulka.of(pulyafile.parse(bad)))
    assert (refused.value.code, refused.value.deal) == ("tricks_sum", 3)
    assert rows(repo) == before


def test_unknown_pulkas_and_deals(repo, owner):
    pulka = sochi(repo, owner, 1)
    for call in (lambda: pulkas.get_pulka(repo.pulkas, "nope"), lambda: deals.undo(repo.pulkas, UndoDeal("nope")),
                 lambda: deals.add_deal(repo.pulkas, EnterDeal("nope", SOCHI_FILE.deals[0])),
                 lambda: pulkas.delete_pulka(repo.pulkas, DeletePulka("nope")),
                 lambda: deals.edit_deal(repo.pulkas, EditDeal(pulka.uid, 2, SOCHI_FILE.deals[0])),
                 lambda: deals.delete_deal(repo.pulkas, DeleteDeal(pulka.uid, 0)),
                 lambda: deals.delete_deal(repo.pulkas, DeleteDeal(pulka.uid, 2))):
        with pytest.raises(NotFound):
            call()
    pulkas.delete_pulka(repo.pulkas, DeletePulka(pulka.uid))
    with pytest.raises(NotFound):
        pulkas.get_pulka(repo.pulkas, pulka.uid)


def test_preview_stores_nothing(repo, owner):
    pulka = sochi(repo, owner, 1)
    before = rows(repo)
    result = deals.preview(pulka, SOCHI_FILE.deals[1])
    assert result.number == 2 and {(e.player, e.column.value, e.points) for e in result.entries} >= {(1, "gora", 12)}
    assert deals.preview(pulka, SOCHI_FILE.deals[7], 1).number == 1
    assert rows(repo) == before


# -- the app's limits, kept by the use cases (the fakes only count) ---------------------------------------


def test_a_pulka_holds_at_most_the_deals_the_limits_allow(repo, owner):
    three = Limits(pulka_deals=3)
    pulka = pulkas.create_pulka(repo.pulkas, owner, ABC, SOCHI_FILE.deals[:3], limits=three)
    before = rows(repo)
    with pytest.raises(TooManyDeals) as refused:
        deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, SOCHI_FILE.deals[3]), limits=three)
    assert (refused.value.code, refused.value.message) == ("too_many_deals", "a pulka here holds at most 3 deals: "
                                                                             "start a new one")
    with pytest.raises(TooManyDeals):
        pulkas.import_pulka(repo.pulkas, owner, ImportPulka.of(SOCHI_FILE), three)
    assert rows(repo) == before
    assert len(deals.add_deal(repo.pulkas, EnterDeal(pulka.uid, SOCHI_FILE.deals[3])).deals) == 4  # the default


def test_an_account_keeps_at_most_its_pulkas_and_their_deals_in_all(repo, owner):
    small = Limits(pulkas=2, deals=5)
    first = pulkas.create_pulka(repo.pulkas, owner, ABC, SOCHI_FILE.deals[:4], limits=small)
    pulkas.create_pulka(repo.pulkas, owner, ABC, limits=small)
    before = rows(repo)
    for write in (lambda: pulkas.create_pulka(repo.pulkas, owner, ABC, limits=small),
                  lambda: pulkas.again(repo.pulkas, owner, first.uid, limits=small),
                  lambda: paper_keep(repo, owner, small)):
        with pytest.raises(TooManyPulkas) as refused:
            write()
        assert (refused.value.code, refused.value.field) == ("too_many_pulkas", "pulkas")
    assert rows(repo) == before
    other = repo.accounts.create_account("other", "not a real hash").id
    pulkas.create_pulka(repo.pulkas, other, ABC, limits=small)  # another account has its own room
    deals.add_deal(repo.pulkas, EnterDeal(first.uid, SOCHI_FILE.deals[4]), limits=small)  # the fifth
    before = rows(repo)
    with pytest.raises(AccountFull) as refused:
        deals.add_deal(repo.pulkas, EnterDeal(first.uid, SOCHI_FILE.deals[5]), limits=small)
    assert (refused.value.code, refused.value.field) == ("account_full", "deals")
    assert rows(repo) == before
    deals.undo(repo.pulkas, UndoDeal(first.uid))  # taking back makes room again
    deals.add_deal(repo.pulkas, EnterDeal(first.uid, SOCHI_FILE.deals[4]), limits=small)


def paper_keep(repo, owner, limits):
    from scorekeeper.files import sheetfile
    from scorekeeper.web.services import paper

    sheet = sheetfile.parse({"format": "pulya-sheet/1", "players": ["A", "B", "C"], "rules": {"preset": "sochi"},
                             "pulya": {"A": 2, "B": 0, "C": 0}, "gora": {"A": 0, "B": 0, "C": 0}})
    return paper.keep(repo.pulkas, owner, KeepSheet.of(sheet), "anna", limits)


# -- a paper sheet kept, and gone on from -----------------------------------------------------------


def test_a_kept_sheet_is_a_pulka_going_on_from_it(repo, owner):
    from scorekeeper.files import sheetfile
    from scorekeeper.web.services import paper

    sheet = sheetfile.parse({"format": "pulya-sheet/1", "players": ["A", "B", "C"], "rules": {"preset": "sochi"},
                             "pulya": {"A": 20, "B": 10, "C": 0}, "gora": {"A": 4, "B": 30, "C": 0}})
    kept = paper.keep(repo.pulkas, owner, KeepSheet.of(sheet), "anna")
    assert kept.opening == sheet.sheet and kept.deals == () and kept.sheet.pulya == (20, 10, 0)
    assert kept.settlement == paper.settle_sheet(sheet)[0]
    # kept closed, as the paper left it: its result is the sheet's settlement, until its owner reopens it
    assert kept.frozen is not None and (kept.frozen.ending, kept.frozen.by) == ("closed", "anna")
    assert kept.frozen.net == paper.settle_sheet(sheet)[0].net
    # A's pulya is closed on paper: her 6♠ made (both passing) helps B
    deal, _ = pulyafile.read_deal({"type": "game", "declarer": "A", "contract": "6S",
                                   "whist": {"B": "pass", "C": "pass"}}, {"A": 0, "B": 1, "C": 2}, 1)
    with pytest.raises(PulkaFrozen):
        deals.add_deal(repo.pulkas, EnterDeal(kept.uid, deal))
    results.reopen(repo.pulkas, ReopenPulka(kept.uid), "anna")
    played = deals.add_deal(repo.pulkas, EnterDeal(kept.uid, deal))
    assert played.sheet.pulya == (20, 12, 0) and played.sheet.whists[0][1] == 20
    assert repo.pulkas.get(kept.uid).opening == sheet.sheet
    # renaming a player keeps the opening; seating a fourth does not fit it
    renamed = pulkas.change_settings(repo.pulkas, ChangeSettings(kept.uid, read_settings({"name": "Paper"}, kept.settings)))
    assert renamed.opening == sheet.sheet
    with pytest.raises(SettingsInvalid):
        read_settings({"players": ["A", "B", "C", "D"]}, kept.settings)


def test_a_sheet_above_its_size_is_not_kept(repo, owner):
    from scorekeeper.files import sheetfile
    from scorekeeper.web.domain.refusals import Refused
    from scorekeeper.web.services import paper

    sheet = sheetfile.parse({"format": "pulya-sheet/1", "players": ["A", "B", "C"], "rules": {"preset": "rostov"},
                             "pulya": {"A": 25, "B": 10, "C": 0}, "gora": {"A": 4, "B": 30, "C": 0}})
    with pytest.raises(Refused) as refused:
        paper.keep(repo.pulkas, owner, KeepSheet.of(sheet), "anna")
    assert (refused.value.code, refused.value.field) == ("bad_opening", "pulya.A")
    assert pulkas.list_pulkas(repo.pulkas, owner) == []
