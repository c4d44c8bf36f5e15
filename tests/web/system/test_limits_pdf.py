"""PDFs under load: one rendering per version however many ask at once, at most PDF_RENDERERS rendering,
as many more callers waiting, and anyone beyond told to come back (503 with Retry-After), so that PDFs never
take every server thread. The worker processes are replaced by a fake that renders when the test says so.
(test_pdf_turns.py: each caller one at a time, the callers in turn.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from functools import partial

import pytest

from scorekeeper.render import pdf
from scorekeeper.web.edge.presenting import presenter
from scorekeeper.web.services import pulkas
from scorekeeper.web.views.gate import Turn

from ..conftest import make_app, signed_in, sochi


class Renderer:
    """A stand-in for render_pdf_in_worker that counts its calls and how many run at once, and holds them until
    released."""

    def __init__(self):
        self.calls: list[str] = []
        self.running = self.most = self.workers = 0
        self.released = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, workers, players, rules, replay, settlement=None, *, title, **options) -> bytes:
        with self._lock:
            self.calls.append(title)
            self.workers = workers
            self.running += 1
            self.most = max(self.most, self.running)
        self.hold(title)
        with self._lock:
            self.running -= 1
        return f"%PDF {title}".encode()

    def hold(self, title: str) -> None:
        self.released.wait(30)


def faked(monkeypatch, fake: Renderer) -> Iterator[Renderer]:
    """`fake` in place of the PDF workers while a test runs."""
    monkeypatch.setattr(pdf, "render_pdf_in_worker", fake)
    yield fake
    fake.released.set()  # a failed test leaves no thread waiting


@pytest.fixture
def renderer(monkeypatch) -> Iterator[Renderer]:
    yield from faked(monkeypatch, Renderer())


def wait_until(condition) -> None:
    """Until the threads have got where the test needs them (not a measure of speed: it only waits)."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "the threads never got there"
        time.sleep(0.005)


def in_threads(app, calls) -> tuple[list[threading.Thread], list]:
    results: list = []

    def run(call):
        with app.app_context():
            results.append(call())

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    return threads, results


def views(app, client, count: int) -> list:
    """Presenters of `count` pulkas, each named after its number."""
    repo = app.extensions["scorekeeper"]
    with app.app_context():
        found = []
        for i in range(count):
            uid = sochi(client, 2)
            client.patch(f"/api/v1/pulkas/{uid}", json={"name": f"pulka {i}"})
            found.append(presenter(pulkas.get_pulka(repo.pulkas, uid)))
        return found


def test_a_pdf_asked_for_by_many_at_once_is_rendered_once(app, client, renderer):
    uid = sochi(client, 2)
    repo, gate = app.extensions["scorekeeper"], app.extensions["scorekeeper.pdf"]

    def ask(caller: int) -> bytes:  # as each caller's request does, for a version no request has shown yet
        return presenter(pulkas.get_pulka(repo.pulkas, uid)).pdf(Turn(gate, caller))

    threads, results = in_threads(app, [partial(ask, caller) for caller in range(gate.limit)])
    wait_until(lambda: gate.inside == gate.limit)  # one rendering, the others waiting for it
    renderer.released.set()
    for thread in threads:
        thread.join()
    assert len(renderer.calls) == 1 and results == [b"%PDF Pulka of A, B, C"] * gate.limit
    assert client.get(f"/p/{uid}/pulka.pdf").data == results[0] and len(renderer.calls) == 1


@pytest.mark.parametrize("renderers", [1, 2])
def test_at_most_pdf_renderers_render_at_once_and_as_many_more_wait(database_url, tmp_path, renderer, renderers):
    app = make_app(database_url, tmp_path, PDF_RENDERERS=renderers)
    client = signed_in(app)
    gate = app.extensions["scorekeeper.pdf"]
    *waiting, turned_away = views(app, client, 2 * renderers + 1)
    threads, results = in_threads(app, [partial(view.pdf, Turn(gate, f"caller {i}")) for i, view in enumerate(waiting)])
    wait_until(lambda: gate.inside == 2 * renderers and renderer.running == renderers)
    # Meanwhile one more is told when to come back, and other pages are served as usual.
    for url in (f"/p/{turned_away.pulka.uid}/pulka.pdf", f"/api/v1/pulkas/{turned_away.pulka.uid}/pdf"):
        response = client.get(url)
        assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    assert response.json["error"]["code"] == "busy"
    assert client.get(f"/p/{turned_away.pulka.uid}").status_code == 200
    renderer.released.set()
    for thread in threads:
        thread.join()
    assert renderer.most == renderer.workers == renderers and len(renderer.calls) == len(waiting)
    assert sorted(results) == sorted(f"%PDF {view.pulka.name}".encode() for view in waiting)
    assert gate.inside == 0 and client.get(f"/p/{turned_away.pulka.uid}/pulka.pdf").status_code == 200
    app.extensions["scorekeeper"].db.engine.dispose()


def test_a_failed_rendering_is_tried_again(app, client, monkeypatch):
    def failing(*args, **kwargs):
        raise RuntimeError("out of fonts")

    view, = views(app, client, 1)
    monkeypatch.setattr(pdf, "render_pdf_in_worker", failing)
    with app.app_context(), pytest.raises(RuntimeError):
        view.pdf(Turn(app.extensions["scorekeeper.pdf"], "caller"))
    monkeypatch.undo()
    assert client.get(f"/p/{view.pulka.uid}/pulka.pdf").data.startswith(b"%PDF")
    assert app.extensions["scorekeeper.pdf"].inside == 0
