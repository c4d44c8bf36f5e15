"""The app at the table: installable (manifest, icons), opening without a connection (service worker)."""

from __future__ import annotations

import json
import re
from io import BytesIO

from PIL import Image

from ..conftest import sochi


def test_the_manifest_and_its_icons(client):
    response = client.get("/static/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert (manifest["start_url"], manifest["display"], manifest["theme_color"]) == ("/", "standalone", "#1d5c3a")
    sizes = {}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = Image.open(BytesIO(image.data)).size
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    page = client.get("/login").get_data(as_text=True)
    assert 'rel="manifest"' in page and 'name="theme-color"' in page and 'rel="apple-touch-icon"' in page


def test_the_service_worker_is_served_at_the_root(client):
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript" and response.headers["Cache-Control"] == "no-cache"
    worker = response.get_data(as_text=True)
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', worker)  # a hash of the static files, filled in
    for path in re.findall(r'"(/static/[^"]+)"', worker):  # every file it keeps exists
        assert client.get(path).status_code == 200, path
    for path in json.loads(re.search(r"const SHELL_PAGES = (\[[^\]]*\]);", worker).group(1)):
        assert client.get(path).status_code == 200, path  # the pages it keeps, for anyone


def test_the_service_worker_keeps_every_module(client):
    """The page loads static/js/main.js as a module and it imports the others: the worker keeps every file
    under static/js (the server fills the list in), so that none is missing without a connection."""
    from scorekeeper.resources import STATIC_DIR

    worker = client.get("/sw.js").get_data(as_text=True)
    kept = json.loads(re.search(r"const SHELL_SCRIPTS = (\[[^\]]*\]);", worker).group(1))
    files = sorted(path for path in (STATIC_DIR / "js").rglob("*") if path.is_file())
    assert kept == [f"/static/{path.relative_to(STATIC_DIR).as_posix()}" for path in files]
    assert "/static/js/main.js" in kept
    for path in files:  # and every module imported is one of them
        for name in re.findall(r'^import [^;]* from "([^"]+)";', path.read_text(), re.M):
            assert f"/static/js/{name.removeprefix('./')}" in kept, (path.name, name)
    page = client.get("/login").get_data(as_text=True)
    assert '<script type="module" src="/static/js/main.js"></script>' in page

def test_every_page_has_the_outbox_notice_and_its_words(client):
    """static/js/outbox.js shows the writes kept on the phone in the notice of templates/_outbox.html, hidden until
    then, and takes every word it shows from there (the templates are translated, the scripts are not)."""
    uid = sochi(client, 2)
    for path in ("/", f"/p/{uid}", f"/p/{uid}/deal", f"/p/{uid}/history", "/offline", "/outbox", "/login"):
        page = client.get(path).get_data(as_text=True)
        notice = re.search(r"<section class=\"outbox\" data-outbox hidden[^>]*>", page)
        assert notice, path
        for word in ("one", "many", "refused-head", "sent", "waiting", "held", "refused", "unnamed",
                     "logged-out"):
            assert f" data-{word}=\"" in notice.group(0), (path, word)
    outbox = client.get("/static/js/outbox.js").get_data(as_text=True)
    assert not any(words in outbox for words in ("waiting to send", "Not sent", "A deal", "Open", "Discard"))


def test_the_page_a_kept_write_leads_to(client):
    page = client.get("/outbox").get_data(as_text=True)
    assert "Kept on this phone" in page
    assert 'data-outbox-link="/p/{pulka}/deal" hidden' in page  # static/js/outbox.js fills in the pulka of ?p=
