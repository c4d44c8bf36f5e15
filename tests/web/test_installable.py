"""The app at the table: installable (manifest, icons), opening without a connection (service worker)."""

from __future__ import annotations

import json
import re
from io import BytesIO

from PIL import Image

from .conftest import sochi


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
    assert client.get("/offline").status_code == 200
