"""Every link a page shows leads somewhere: the pages crawled from the first one, as the owner of a small club
and as a viewer through a share link, and each address they link answers (a broken link once hid here: the
first player's name on every sheet answered 404)."""

from __future__ import annotations

import re
from collections import deque
from html import unescape
from urllib.parse import urldefrag

from ..conftest import sochi

HREF = re.compile(r'<a\s[^>]*href="([^"]+)"')
MAX_PAGES = 400  # the club below has some 100 addresses: a bound, not a sample


def crawl(client, start: str) -> tuple[dict[str, int], dict[str, str]]:
    """Each address reached from `start` by the pages' links, with its status; and the page that linked it."""
    seen, came_from, queue = {}, {start: "(start)"}, deque([start])
    while queue and len(seen) < MAX_PAGES:
        path = queue.popleft()
        response = client.get(path, follow_redirects=True)
        seen[path] = response.status_code
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        for href in HREF.findall(response.get_data(as_text=True)):
            link = urldefrag(unescape(href)).url
            # This site's own pages; PDFs are made by worker processes and have tests of their own.
            if not link.startswith("/") or link.startswith(("//", "/static/")) or ".pdf" in link:
                continue
            if link not in came_from:
                came_from[link] = path
                queue.append(link)
    return seen, came_from


def test_no_page_links_to_an_address_that_is_not_there(app, client):
    full = sochi(client)
    four = sochi(client, 4)
    assert client.post(f"/api/v1/pulkas/{four}/close").status_code == 200
    sochi(client, 3)
    token = client.post(f"/api/v1/pulkas/{full}/shares", json={"role": "viewer"}).json["token"]
    for caller, start in ((client, "/"), (app.test_client(), f"/s/{token}")):
        seen, came_from = crawl(caller, start)
        assert len(seen) < MAX_PAGES
        broken = {path: (status, came_from[path]) for path, status in seen.items() if status != 200}
        assert broken == {}, broken
    assert len(seen) > 5  # the viewer reached the pulka's pages, not only the link
