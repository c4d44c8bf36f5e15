"""The per-version cache is bounded in bytes: one budget (CACHE_MB) for the replayed pulkas and their presenters,
which grow after they are cached as their parts are built."""

from __future__ import annotations

import sys

from scorekeeper.files import pulyafile
from scorekeeper.web.app import create_app
from scorekeeper.web.store.cache import VersionCache
from scorekeeper.web.views.pulkas import CHAIN_BYTES, ITEM_BYTES, VIEW_BYTES, weight

from ..conftest import SOCHI, make_app, signed_in
from ..pulkas.test_drawing import long_pulka


class Item:
    def __init__(self, size: int):
        self.size = size


def test_by_count_the_least_recently_used_goes_first():
    cache = VersionCache(2)
    cache.put("a", 1), cache.put("b", 2)
    assert cache.get("a") == 1  # now "b" is the oldest
    cache.put("c", 3)
    assert cache.get("b") is None and cache.get("a") == 1 and cache.get("c") == 3


def test_of_two_put_for_one_key_the_first_is_kept():
    """Two requests that missed the same version both put what they made: both go on with the first."""
    cache = VersionCache(2)
    first = cache.put("a", ["first"])
    assert cache.put("a", ["second"]) is first and cache.get("a") is first


def test_by_weight_an_item_that_grows_is_weighed_again():
    cache = VersionCache(100, lambda item: item.size)
    a, b = cache.put("a", Item(30)), cache.put("b", Item(30))
    a.size = 40  # built a part after it was cached, and is asked for again
    assert cache.get("a") is a and cache.total == 70
    b.size = 50  # grew too, and is not asked for again: the next item in counts it
    cache.put("c", Item(20))
    assert cache.get("b") is None and cache.total == 60 and list(cache._items) == ["a", "c"]


def test_the_newest_item_stays_even_when_it_alone_is_over_the_budget():
    cache = VersionCache(100, lambda item: item.size)
    cache.put("a", Item(10))
    cache.put("big", Item(500))
    assert cache.get("a") is None and cache.get("big").size == 500


def test_sections_share_one_budget_and_keep_their_keys_apart():
    cache = VersionCache(100, lambda item: item.size)
    pulkas, views = cache.section("pulkas"), cache.section("views")
    pulkas.put(1, Item(40))
    views.put(1, Item(40))
    assert pulkas.get(1).size == views.get(1).size == 40 and cache.total == 80
    pulkas.put(2, Item(40))  # the oldest of either kind gives way
    assert pulkas.get(1) is None and views.get(1) is not None and cache.total == 80


def test_a_big_pulka_in_many_versions_stays_within_the_budget(database_url, tmp_path):
    app = make_app(database_url, tmp_path, CACHE_MB=4)
    client = signed_in(app)
    big = long_pulka(deals=300)
    response = client.post("/api/v1/import", data=pulyafile.dumps(big), content_type="application/json")
    uid = response.json["id"]
    deal = {"type": "raspasy", "tricks": {name: tricks for name, tricks in zip(big.players, (2, 3, 5))}}
    for _ in range(6):  # twelve versions, each shown: the sheet, its drawing, the protocol, the files
        for write in (lambda: client.post(f"/api/v1/pulkas/{uid}/deals", json=deal),
                      lambda: client.post(f"/api/v1/pulkas/{uid}/undo")):
            assert write().status_code in (200, 201)
            for url in ("", "?orientation=upright", "/history", "/export", "/protocol.csv"):
                assert client.get(f"/p/{uid}{url}").status_code == 200
    client.get(f"/p/{uid}")  # what the last requests built is counted when the version is next asked for
    cache = app.extensions["scorekeeper"].pulkas.cache.cache
    items = list(cache._items.values())
    assert sum(map(weight, items)) == cache.total <= cache.budget == 4 * 2**20
    assert 2 <= len(items) < 2 * 12  # a pulka and its presenter per version: some versions are gone
    # The one just shown is there, its presenter with every part counted.
    view = app.extensions["scorekeeper.presenters"].get((uid, 13, "en"))
    assert view is not None and weight(view) > 300 * 2800 + len(view.drawing("upright"))
    app.extensions["scorekeeper"].db.engine.dispose()


def test_the_budget_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_CACHE_MB", "0.5")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}", "SECRET_KEY": "x"},
                     instance_path=str(tmp_path / "instance"))
    assert app.config["CACHE_MB"] == 0.5 and app.extensions["scorekeeper"].pulkas.cache.cache.budget == 2**19
    client = signed_in(app)
    assert client.post("/api/v1/import", json=SOCHI).status_code == 201
    app.extensions["scorekeeper"].db.engine.dispose()


class Growing(Item):
    """An item that says when it grows, as a presenter does when it builds a part."""

    def __init__(self, size: int):
        super().__init__(size)
        self.grew = lambda item, more: None

    def build(self, more: int) -> None:
        self.size += more
        self.grew(self, more)


def kept(cache: VersionCache, key, item: Growing) -> Growing:
    item.grew = lambda grown, more: cache.grew(key, grown, more)
    return cache.put(key, item)


def test_growth_said_is_counted_at_once_even_while_the_item_is_held_across_other_puts():
    cache = VersionCache(100, lambda item: item.size)
    a = kept(cache, "a", Growing(30))
    kept(cache, "b", Growing(30))
    assert cache.get("a") is a  # a request holds it: "b" is the oldest now
    kept(cache, "c", Growing(10))  # another request puts one meanwhile
    a.build(40)  # the first request builds a part: 110 would be over the budget
    assert cache.total == 80 <= cache.budget and list(cache._items) == ["a", "c"] and cache.get("b") is None
    assert cache.total == sum(item.size for item in cache._items.values())


def test_growth_of_an_item_the_cache_does_not_keep_counts_nothing():
    cache = VersionCache(100, lambda item: item.size)
    first = kept(cache, "a", Growing(30))
    second = Growing(30)
    assert kept(cache, "a", second) is first  # lost the race to be put: its request goes on with the first
    second.build(50)
    assert cache.total == 30
    kept(cache, "big", Growing(100))  # "a" leaves: its growth after counts nothing either
    first.build(20)
    assert cache.get("a") is None and cache.total == 100


def test_the_budget_holds_however_items_grow_and_are_asked_for():
    """Items of several sizes grow while held (some saying so, some not), are asked for again or not: after
    each put, what the cache counts is what its items weigh, within the budget."""
    cache = VersionCache(1000, lambda item: item.size)
    for number in range(300):
        item = kept(cache, number, Growing(number % 7 * 20 + 10))
        item.build(number % 5 * 15)  # says so
        if number >= 3 and (older := cache.get(number - 3)) is not None:
            older.size += 25  # grows without saying so, while held: counted by the next put
        kept(cache, ("next", number), Growing(5))
        assert cache.total == sum(item.size for item in cache._items.values()) <= cache.budget


def test_a_put_weighs_only_what_was_handed_out_since_the_last_put():
    weighed = []
    cache = VersionCache(10**6, lambda item: weighed.append(item) or item.size)
    items = [cache.put(number, Item(10)) for number in range(500)]
    weighed.clear()
    cache.get(7)
    cache.put("new", Item(10))
    # The one asked for (when it was asked for and at the put), the one put last, the new one: not 500.
    assert sorted(id(item) for item in weighed) == sorted(map(id, [items[7], items[7], items[499], cache.get("new")]))


def test_a_presenter_counts_each_part_as_it_builds_it(database_url, tmp_path):
    """Its weight, kept as each part is built, is what its parts weigh: its views, the sheet's chains and the
    texts; and the cache counts them without the presenter being asked for again."""
    app = make_app(database_url, tmp_path)
    client = signed_in(app)
    big = long_pulka(deals=120)
    uid = client.post("/api/v1/import", data=pulyafile.dumps(big), content_type="application/json").json["id"]
    for url in ("", "?orientation=upright", "/history", "/export", "/protocol.csv"):
        assert client.get(f"/p/{uid}{url}").status_code == 200
    assert client.get(f"/api/v1/pulkas/{uid}/sheet").status_code == 200
    cache = app.extensions["scorekeeper"].pulkas.cache.cache
    assert sum(map(weight, cache._items.values())) == cache.total  # none of them asked for again
    view = cache._items[("presenters", (uid, 1, "en"))]
    texts = [*view._pages.values(), *view._drawings.values(), *view._pdfs.values(),
             *(view.__dict__[name] for name in ("sheet_json", "export"))]
    assert len(view._deals) == 120 and len(view._drawings) == 2 and len(view._pages) >= 2
    assert weight(view) == ITEM_BYTES + VIEW_BYTES * 120 + CHAIN_BYTES * 120 + sum(map(sys.getsizeof, texts))
    app.extensions["scorekeeper"].db.engine.dispose()
