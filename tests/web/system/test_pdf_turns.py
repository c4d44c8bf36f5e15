"""PDFs made fairly (views.gate.Turns): each caller (its account, else the share link it came by, else its
address) has one PDF in progress at a time, a second meanwhile answered 503 with Retry-After (its own flood);
the others wait for a free slot in the order they came, so that the line goes round the callers and a flood of
others' PDFs delays the owner's by their turns only, never refusing it. No timing: the worker processes are
replaced by a fake that renders a PDF when the test releases it, and the test waits for the threads to get
where it needs them."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator

import pytest

from scorekeeper.web.views.gate import Busy, Turns

from ..conftest import create, make_app, signed_in
from .test_limits_pdf import Renderer, faked, wait_until

PAPER = {"player_0": "A", "player_1": "B", "player_2": "C", "preset": "sochi", "gora_0": "1", "gora_1": "2",
         "gora_2": "3"}
OWN = "Your other PDF is still being made"


class HeldByTitle(Renderer):
    """The stand-in for the PDF workers, each rendering held until the test releases one of its title (or all:
    `released`)."""

    def __init__(self):
        super().__init__()
        self._held: dict[str, threading.Semaphore] = defaultdict(lambda: threading.Semaphore(0))

    def hold(self, title: str) -> None:
        with self._lock:
            held = self._held[title]
        deadline = time.monotonic() + 30
        while not (self.released.is_set() or held.acquire(timeout=0.01)):
            assert time.monotonic() < deadline, f"{title} was never released"

    def release(self, title: str) -> None:
        with self._lock:
            held = self._held[title]
        held.release()


@pytest.fixture
def renderer(monkeypatch) -> Iterator[HeldByTitle]:
    yield from faked(monkeypatch, HeldByTitle())


class Requests:
    """Requests made in threads, each one's status kept by its name, in the order they were answered."""

    def __init__(self):
        self.answers: dict[str, list[int]] = defaultdict(list)
        self.threads: list[threading.Thread] = []

    def start(self, name: str, call: Callable[[], object]) -> None:
        def run():
            self.answers[name].append(call().status_code)

        thread = threading.Thread(target=run)
        thread.start()
        self.threads.append(thread)

    def join(self) -> None:
        for thread in self.threads:
            thread.join(30)


def from_address(app, address: str):
    """An anonymous browser at `address`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def paper(client, name: str):
    """A paper sheet's PDF, of a sheet whose first player is `name` (its title says the players)."""
    return lambda: client.post("/paper/pdf", data=PAPER | {"player_0": name})


def title(name: str) -> str:
    return f"Paper sheet of {name}, B, C"


def turned_away(response) -> None:
    """Its own flood: 503, when to come back, and why."""
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    assert OWN in response.get_data(as_text=True)


def test_the_owners_pdf_is_made_in_its_turn_while_three_others_flood(database_url, tmp_path, renderer):
    app = make_app(database_url, tmp_path, PDF_RENDERERS=2)
    owner = signed_in(app)
    uid = create(owner, name="Owner's")
    turns = app.extensions["scorekeeper.pdf"]
    flooders = [from_address(app, f"10.0.0.{i}") for i in (1, 2, 3)]
    requests = Requests()
    for i, client in enumerate(flooders, 1):
        requests.start(f"flood {i}", paper(client, f"flood {i}"))
        wait_until(lambda: turns.inside == i)  # in this order
    wait_until(lambda: renderer.calls == [title("flood 1"), title("flood 2")] and turns.waiting == 1)
    for i, client in enumerate(flooders, 1):  # each floods: a second PDF at once is its own to wait for
        turned_away(paper(client, f"flood {i}, again")())
    requests.start("owner", lambda: owner.get(f"/p/{uid}/pulka.pdf"))
    wait_until(lambda: turns.waiting == 2)  # behind flood 3, who came first
    for i in (1, 2):
        # A flood's PDF is made, and it asks again at once: behind the owner now.
        renderer.release(title(f"flood {i}"))
        wait_until(lambda: requests.answers[f"flood {i}"] == [200] and len(renderer.calls) == 2 + i)
        requests.start(f"flood {i}", paper(flooders[i - 1], f"flood {i}"))
        wait_until(lambda: turns.waiting == 2)
    floods = [title(f"flood {i}") for i in (1, 2, 3)]
    assert renderer.calls == [*floods, "Owner's"]
    renderer.release("Owner's")
    wait_until(lambda: requests.answers["owner"] == [200])
    renderer.released.set()
    requests.join()
    assert renderer.calls == [*floods, "Owner's", *floods[:2]]
    assert requests.answers == {"flood 1": [200, 200], "flood 2": [200, 200], "flood 3": [200], "owner": [200]}
    assert turns.inside == turns.waiting == 0
    app.extensions["scorekeeper"].db.engine.dispose()


def callers(app, uid: str) -> dict[str, tuple[object, Callable[[object], object]]]:
    """Each kind of caller, as a client and how it asks for a PDF."""
    owner_browser = app.test_client()
    assert owner_browser.post("/login", data={"username": "owner", "password": "owner-password"}).status_code == 302
    owner = signed_in(app)
    token = owner.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json["token"]
    link_browser = app.test_client()
    assert link_browser.get(f"/s/{token}").status_code == 302
    link_bearer = app.test_client()
    link_bearer.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    page, api = (lambda c: c.get(f"/p/{uid}/pulka.pdf")), (lambda c: c.get(f"/api/v1/pulkas/{uid}/pdf"))
    sheet = lambda c: c.post("/paper/pdf", data=PAPER)  # noqa: E731
    player = lambda c: c.get(f"/players/{c.get('/api/v1/players').json['players'][0]['id']}.pdf")  # noqa: E731
    return {"owner's token": (owner, api), "owner's browser": (owner_browser, page),
            "owner's paper": (owner_browser, sheet), "owner's player": (owner, player),
            "link's browser": (link_browser, page), "link's token": (link_bearer, api),
            "address 1": (from_address(app, "10.0.0.1"), sheet),
            "address 1 again": (from_address(app, "10.0.0.1"), sheet),
            "address 2": (from_address(app, "10.0.0.2"), sheet)}


# Who is one caller: an account however it comes (token, browser, any PDF), a link however it is held (its
# browser, its token), an address; and who are two.
SAME = [("owner's token", "owner's browser"), ("owner's browser", "owner's paper"), ("owner's paper", "owner's player"),
        ("link's browser", "link's token"), ("address 1", "address 1 again")]
OTHERS = [("owner's browser", "link's browser"), ("owner's token", "address 1"), ("link's token", "address 1"),
          ("address 1", "address 2")]


@pytest.mark.parametrize("first, second", SAME)
def test_a_callers_second_pdf_meanwhile_is_its_own_to_wait_for(app, renderer, first, second):
    owner = signed_in(app)
    uid = create(owner, name="Owner's")
    add_deal(owner, uid)
    found = callers(app, uid)
    turns = app.extensions["scorekeeper.pdf"]
    requests = Requests()
    client, ask = found[first]
    requests.start(first, lambda: ask(client))
    wait_until(lambda: renderer.running == 1)
    client, ask = found[second]
    turned_away(ask(client))
    assert turns.running == 2 and turns.inside == 1  # though a slot is free: the flood is the caller's own
    renderer.released.set()
    requests.join()
    assert requests.answers == {first: [200]} and turns.inside == 0


@pytest.mark.parametrize("first, second", OTHERS)
def test_two_callers_each_have_their_pdf(app, renderer, first, second):
    owner = signed_in(app)
    uid = create(owner, name="Owner's")
    found = callers(app, uid)
    turns = app.extensions["scorekeeper.pdf"]
    requests = Requests()
    for name in (first, second):
        client, ask = found[name]
        requests.start(name, lambda client=client, ask=ask: ask(client))
        wait_until(lambda: turns.inside == 1 + (name == second))
    renderer.released.set()
    requests.join()
    assert requests.answers == {first: [200], second: [200]}


def add_deal(client, uid: str) -> None:
    """A deal, so that the owner's circle has players (his player page's PDF)."""
    deal = {"type": "raspasy", "tricks": {"A": 3, "B": 3, "C": 4}}
    assert client.post(f"/api/v1/pulkas/{uid}/deals", json=deal).status_code == 201


# -- the line itself ---------------------------------------------------------------------------


def test_the_line_goes_round_the_callers():
    """Four callers each making PDF after PDF, two at once: A B C D A B C D A B C D, each asking again as soon
    as its PDF is made."""
    turns, order, callers = Turns(2), [], "ABCD"
    held = {who: threading.Semaphore(0) for who in callers}

    def caller(who: str) -> None:
        for _ in range(3):
            with turns.entered(who):
                turns.run(lambda: (order.append(who), held[who].acquire(timeout=30)))

    threads = [threading.Thread(target=caller, args=(who,)) for who in callers]
    for i, thread in enumerate(threads):
        thread.start()
        wait_until(lambda: len(order) + turns.waiting == i + 1)  # in this order
    for made in range(1, 13):
        held[order[made - 1]].release()  # the one made longest
        # The next PDF begins, and whoever has more to make is back in line (the one just served last).
        more = sum(1 for who in callers if order[:made].count(who) < 3)
        wait_until(lambda: len(order) == min(made + 2, 12) and turns.waiting == max(more - 2, 0))
    for thread in threads:
        thread.join(30)
    assert order == list("ABCD" * 3) and turns.inside == turns.waiting == 0


def test_a_second_pdf_of_the_same_caller_is_refused_however_free_the_server():
    turns = Turns(2)
    with turns.entered("anna"):
        with pytest.raises(Busy) as refused, turns.entered("anna"):
            pass
        assert refused.value.own
        with turns.entered("boris"):  # another caller is let in
            assert turns.inside == 2
    assert turns.inside == 0
    with turns.entered("anna"):  # and the first again, once its PDF is done
        pass


def test_when_as_many_callers_wait_as_are_served_the_next_is_refused_not_as_its_own():
    turns = Turns(1)
    with turns.entered("anna"), turns.entered("boris"):
        with pytest.raises(Busy) as refused, turns.entered("vera"):
            pass
        assert not refused.value.own and turns.inside == 2


def test_a_wait_past_patience_is_refused_and_leaves_the_line_clear():
    turns, started, done = Turns(1, patience=0), threading.Event(), threading.Event()

    def slow() -> None:
        with turns.entered("anna"):
            turns.run(lambda: (started.set(), done.wait(30)))

    thread = threading.Thread(target=slow)
    thread.start()
    started.wait(30)
    with turns.entered("boris"), pytest.raises(Busy) as refused:
        turns.run(lambda: pytest.fail("boris's PDF is not made past its patience"))
    assert not refused.value.own and turns.waiting == 0
    done.set()
    thread.join(30)
    with turns.entered("boris"):
        assert turns.run(lambda: "made") == "made"
