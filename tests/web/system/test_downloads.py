"""Every download's name (RFC 6266): the Content-Disposition of every route that answers a file, crawled from the
URL map (crawl.py) with hostile pulka names, currencies and paper titles, and of the one builder with many
more, parses as one attachment with one name (by werkzeug and by the standard library's email parser), whose
ASCII `filename` holds letters, digits, dots, hyphens and underscores only and whose `filename*` (when the name
holds more) keeps Cyrillic and ₽, neither with a path separator, a quote, a control or bidirectional
character or a leading dot, the file's extension kept."""

from __future__ import annotations

import ast
import email.message
import re
import unicodedata
from email.utils import collapse_rfc2231_value
from pathlib import Path

import pytest
from werkzeug.http import parse_options_header

import scorekeeper
from scorekeeper.web.edge import presenting
from scorekeeper.web.edge.presenting import attachment

from .crawl import fake_pdfs, hostile_club, urls

HOSTILE = ['x";y=1', "../..", "..\\..\\windows\\system32", "a/b\\c", "semi;colon=1", 'say "hi"', "Пулька у Ани",
           "₽", "руб", "ЁЖ", "\u202eevil\u202c.exe", "line\r\nSet-Cookie: a=b", "tab\there", "\u200f\ufeffhidden",
           "x" * 300, "Ж" * 300, "  .hidden", ".", "..", "%41%2F", "\x00nul", "\u2028", "con", "a\u00a0b",
           "filename*=UTF-8''x", "=cmd|' /C calc'!A0", "🂡 ♠", "é\u0301"]
SAFE_ASCII = re.compile(r"[A-Za-z0-9._-]+")
# What answers a file today: the crawl must find each of them (and any other).
KNOWN = {"pages.export", "pages.pdf", "api.pdf", "pages.protocol", "pages.players_csv", "pages.player_csv",
         "pages.player_pdf", "pages.player_deals_csv", "pages.ledger_csv", "pages.paper_pdf"}
PAPER = {"player_0": "A", "player_1": "B", "player_2": "C", "preset": "sochi", "gora_0": "1", "gora_1": "2",
         "gora_2": "3"}


def names_in(header: str) -> tuple[str, str]:
    """The ASCII `filename` and the name a browser saves under (`filename*` when there is one), each parser
    agreeing, and nothing else in the header."""
    header.encode("ascii")  # a header is ASCII: Unicode goes percent-encoded in filename*
    assert "\r" not in header and "\n" not in header
    kind, options = parse_options_header(header)
    assert (kind, set(options)) == ("attachment", {"filename"}), header
    message = email.message.Message()
    message["Content-Disposition"] = header
    params = message.get_params(header="content-disposition")
    assert params is not None and params[0] == ("attachment", "") and [k for k, _ in params[1:]] in (
        ["filename"], ["filename", "filename"]), params
    plain = params[1][1]
    assert isinstance(plain, str)
    saved = collapse_rfc2231_value(params[2][1]) if len(params) == 3 else plain
    assert options["filename"] == saved, (options, saved)
    return plain, saved


def check(header: str, ext: str) -> str:
    plain, saved = names_in(header)
    assert SAFE_ASCII.fullmatch(plain) and plain.endswith(ext), header
    for name in (plain, saved):
        assert not name.startswith(".") and ".." not in name and len(name) <= presenting.NAME_MAX, header
        assert not set(name) & set('/\\"'), header
        assert not [ch for ch in name if unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp")]
    assert saved.endswith(ext), header
    return saved


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("ext", [".csv", ".pdf", ".pulya.json"])
def test_the_builder_names_any_file_safely(name, ext):
    saved = check(attachment(f"ledger-{name}{ext}"), ext)
    assert saved.startswith("ledger-")
    kept = [ch for ch in name if unicodedata.category(ch)[0] in "LN" or ch == "₽"]
    if len(name) < 50:  # what is cut of a very long name is checked below
        assert all(ch in unicodedata.normalize("NFC", saved) for ch in kept), (name, saved)


def test_the_builder_keeps_cyrillic_and_the_rouble_in_filename_star():
    assert attachment("ledger-руб.csv") == ("attachment; filename=\"ledger-rub.csv\"; "
                                            "filename*=UTF-8''ledger-%D1%80%D1%83%D0%B1.csv")
    assert names_in(attachment("ledger-₽.csv"))[1] == "ledger-₽.csv"
    assert names_in(attachment("Пулька у Ани.pdf")) == ("Pulka_u_Ani.pdf", "Пулька у Ани.pdf")
    assert names_in(attachment('ledger-x";y=1.csv')) == ("ledger-x__y_1.csv", "ledger-x_;y=1.csv")
    assert names_in(attachment("ledger-../...csv")) == ("ledger-._.csv", "ledger-._.csv")
    assert names_in(attachment("ledger-\u202eevil.csv")) == ("ledger-evil.csv", "ledger-evil.csv")
    # A plain name is sent as it is, as before: browsers and the tests of the PDFs see no change.
    assert attachment("pulka-u-ani-2025-03-08.pdf") == 'attachment; filename="pulka-u-ani-2025-03-08.pdf"'
    long = names_in(attachment("Ж" * 300 + ".csv"))
    assert long[1] == "Ж" * (presenting.NAME_MAX - 4) + ".csv" and long[0].endswith(".csv")


def test_every_download_route_names_its_file_safely(app, monkeypatch):
    fake_pdfs(monkeypatch)
    club = hostile_club(app)
    for name in HOSTILE:  # pulkas of hostile names and currencies, each as its owner may save it
        body = {"players": ["A", "B", "C"], "rules": {"preset": "sochi"}, "name": name[:80], "currency": name[:8]}
        response = club.owner.post("/api/v1/pulkas", json=body)
        if response.status_code == 201:
            club.pulkas.append(response.json["id"])
    assert len(club.pulkas) > 10
    found: dict[str, int] = {}

    def seen(endpoint: str, response, ext: str) -> str:
        header = response.headers.get("Content-Disposition")
        if header is None:
            return ""
        assert response.status_code == 200, (endpoint, response.status_code)
        found[endpoint] = found.get(endpoint, 0) + 1
        return check(header, ext)

    for endpoint, url in urls(app, club, club.owner):
        response = club.owner.get(url)
        seen(endpoint, response, {"application/pdf": ".pdf", "text/csv": ".csv"}.get(response.mimetype, ".json"))
    saved = {name: seen("pages.ledger_csv", club.owner.get("/ledger.csv", query_string={"currency": name}), ".csv")
             for name in HOSTILE}
    assert saved["руб"] == "ledger-руб.csv" and saved["₽"] == "ledger-₽.csv" and saved["ЁЖ"] == "ledger-ЁЖ.csv"
    for name in HOSTILE:
        seen("pages.paper_pdf", club.owner.post("/paper/pdf", data=PAPER | {"name": name}), ".pdf")
    assert KNOWN <= set(found), KNOWN - set(found)


def test_every_download_is_named_by_the_one_builder():
    """The header is named in edge/presenting.py alone, so no download can go without `attachment`."""
    root = Path(scorekeeper.__file__).parent
    writing = {path.relative_to(root).as_posix() for path in root.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Constant) and str(node.value).lower() == "content-disposition"}
    assert writing == {"web/edge/presenting.py"}
