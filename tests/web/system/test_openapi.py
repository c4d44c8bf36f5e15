"""The API's own document: /api/v1/openapi.json names every route of /api/v1 with each of its methods."""

from __future__ import annotations

import re


def test_openapi_describes_every_route(app, client):
    document = client.get("/api/v1/openapi.json").json
    assert document["openapi"].startswith("3.")
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        assert path in document["paths"], path
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in document["paths"][path], (path, method)
