"""Hypothesis against every HTML form: each POST route of the pages (taken from the app's URL map, so a new one
cannot escape) gets hostile fields (text with NUL, control characters, lone surrogates sent as their UTF-8
bytes, numbers in other scripts, thousands of digits, Python's number syntax, fields missing or unknown).
Never a 500, and a refused request (4xx) changes nothing stored.

Bounded for CI: a few examples a route, derandomized, no deadline.
"""

from __future__ import annotations

import io
import re
from urllib.parse import quote

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from scorekeeper.engine import PARAMETERS

from ..conftest import signed_in, snapshot, sochi

pytestmark = pytest.mark.fuzz

EXAMPLES = 25
# Every field any form of the app has, and a few it has not.
FIELDS = (["name", "currency", "first_dealer", "preset", "shown_preset", "pulya_size", "whist_price", "version",
           "type", "declarer", "level", "strain", "open", "action", "username", "password", "current", "new",
           "role", "label", "text", "deal", "idempotency_key", "unknown"]
          + [f"player{i}" for i in range(4)] + [f"w{i}" for i in range(4)] + [f"t{i}" for i in range(4)]
          + [f"p_{p.name}" for p in PARAMETERS])
HOSTILE = ["", " ", "0", "1", "3", "10", "-1", "٣", "３", "1_0", "3.0", "1e3", "1e999999999", "NaN", "Infinity",
           "9" * 5000, "2147483648", "\x00", "a\x00b", "\ud800", "a\x07b", "\t\n", "true", "null", "{}",
           "[" * 5000, "sochi", "rostov", "game", "misere", "raspasy", "whist", "pass", "half", "open", "6", "S",
           "NT", "save", "preview", "viewer", "scorer", "password", "disable", "enable", "x" * 300]
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40), st.integers().map(str))
forms = st.dictionaries(st.sampled_from(FIELDS), values, max_size=10)
# Half the requests as multipart, as a form with a file input sends them: an upload with a hostile name.
uploads = st.none() | st.tuples(st.sampled_from(["", "{}", '{"format": "pulya/1"}', "[" * 5000]) | st.text(max_size=40),
                                values)


def multipart(form: dict[str, str], upload: tuple[str, str]) -> dict[str, object]:
    """The form and a file, for the test client to send as multipart (which writes text as UTF-8: a lone
    surrogate goes as "?")."""
    def text(value: str) -> str:
        return value.encode("utf-8", "replace").decode()
    content, name = upload
    return {text(k): text(v) for k, v in form.items()} | {"file": (io.BytesIO(text(content).encode()), text(name))}


def encoded(form: dict[str, str]) -> bytes:
    """The form as a browser sends it; a lone surrogate goes as the bytes UTF-8 would give it (no valid UTF-8
    has them), as a hostile client may send."""
    return "&".join(f"{quote(k.encode('utf-8', 'surrogatepass'))}={quote(v.encode('utf-8', 'surrogatepass'))}"
                    for k, v in form.items()).encode()


def stored(app) -> dict[str, list[str]]:
    """Everything stored but the failed log-ins, which a refused log-in counts on purpose."""
    return {table: rows for table, rows in snapshot(app).items() if table != "login_failures"}


def test_every_form_under_hostile_fields(app):
    client = signed_in(app)
    victim = signed_in(app, "victim", "a long password")
    victim_id = next(row for row in snapshot(app)["accounts"] if "'victim'" in row).split(",")[0].strip("(")
    rules = [rule for rule in app.url_map.iter_rules()
             if "POST" in rule.methods and not rule.endpoint.startswith("api.")]
    assert {"pages.new_pulka", "pages.new_deal", "pages.edit_deal", "pages.delete_deal", "pages.undo",
            "pages.settings", "pages.import_pulka", "pages.login", "pages.register", "pages.shares",
            "pages.account"} <= {rule.endpoint for rule in rules}
    for rule in rules:
        # Each route on a pulka of its own with six deals and a link: an undo or a deletion leaves the next
        # route a real one.
        uid = sochi(client, 6)
        share = client.post(f"/api/v1/pulkas/{uid}/shares", json={"role": "viewer"}).json["id"]
        player = client.get("/api/v1/players").json["players"][0]["id"]
        real = {"uid": uid, "number": "3", "share_id": share, "account_id": victim_id, "token": "no-such-token",
                "player": player}
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: real[m[1]], rule.rule)
        # The victim's own session for its password page, so that the owner's token is not signed out.
        poster = victim if rule.endpoint == "pages.account" else client

        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(form=forms, upload=uploads)
        def post(form, upload):
            before = stored(app)
            if upload is None:
                response = poster.post(path, data=encoded(form), content_type="application/x-www-form-urlencoded")
            else:
                response = poster.post(path, data=multipart(form, upload), content_type="multipart/form-data")
            assert response.status_code < 500, (rule.endpoint, form, response.get_data(as_text=True)[:300])
            if response.status_code >= 400:
                assert stored(app) == before, (rule.endpoint, form)

        post()
