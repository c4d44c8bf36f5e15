"""The paper sheet drawn on the sheet page, and the PDF from the pages and the API."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorekeeper.files import pulyafile
from scorekeeper.render.pdf import pdf_filename

from ..conftest import SOCHI, add, create, form_fields, sochi

SVG = "{http://www.w3.org/2000/svg}"
FOUR = ["Аня", "Борис", "Вера", "Гоша"]


def drawing(client, url: str) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    found = re.search(r'<div class="sheet-drawing">.*?(<svg .*?</svg>)', html, re.S)
    assert found, "no drawing on the sheet page"
    return ET.fromstring(found.group(1))


def sectors(svg: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-player"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "sector"}


def band(sector: ET.Element, name: str, on: str | None = None) -> str:
    for g in sector.iter(f"{SVG}g"):
        if g.get("data-band") == name and (on is None or g.get("data-against") == on):
            return g.get("data-chain")
    raise AssertionError(f"no {name} band")


def rotations(svg: ET.Element, cls: str | None = None) -> int:
    return sum("rotate(" in (g.get("transform") or "") for g in svg.iter(f"{SVG}g") if cls in (None, g.get("class")))


# -- the drawing on the sheet page ---------------------------------------------------------------


def test_three_and_four_players_get_their_sectors(client):
    three = sectors(drawing(client, f"/p/{create(client)}"))
    assert sorted(three) == ["A", "B", "C"]
    assert {g.get("data-side") for g in three.values()} == {"bottom", "left", "right"}
    four = drawing(client, f"/p/{create(client, FOUR)}")
    assert four.get("data-players") == "4"
    assert sorted(sectors(four)) == FOUR
    assert {g.get("data-side") for g in sectors(four).values()} == {"bottom", "left", "top", "right"}


def test_the_drawing_follows_every_deal(client):
    pulka_id = create(client)
    before = sectors(drawing(client, f"/p/{pulka_id}"))  # rendered and cached for this version
    assert band(before["A"], "pulya") == ""
    assert add(client, pulka_id, SOCHI["deals"][0]).status_code == 201
    after = sectors(drawing(client, f"/p/{pulka_id}"))
    assert band(after["A"], "pulya") == "4"
    assert band(after["B"], "whists", "A") != ""
    # Through the deal form too: its redirect shows the sheet with a flash message.
    response = client.post(f"/p/{pulka_id}/deal", data=form_fields(SOCHI["deals"][1]), follow_redirects=True)
    assert response.status_code == 200 and "Deal 2 saved" in response.get_data(as_text=True)
    assert band(sectors(drawing(client, f"/p/{pulka_id}"))["B"], "gora") != ""
    assert band(sectors(drawing(client, f"/p/{pulka_id}"))["A"], "pulya") == "4"


def test_orientation_toggle_works_without_javascript_and_is_remembered(client):
    pulka_id = sochi(client, 6)
    table = drawing(client, f"/p/{pulka_id}")
    assert table.get("data-orientation") == "table"
    assert rotations(table, "band") > 0
    upright = drawing(client, f"/p/{pulka_id}?orientation=upright")
    assert upright.get("data-orientation") == "upright"
    assert rotations(upright, "band") == 0
    assert 0 < rotations(upright) < rotations(table)  # only the side names still read bottom to top
    # The cookie carries the choice to the next visit, and to other pulkas.
    assert drawing(client, f"/p/{pulka_id}").get("data-orientation") == "upright"
    assert drawing(client, f"/p/{create(client)}").get("data-orientation") == "upright"
    page = client.get(f"/p/{pulka_id}").get_data(as_text=True)
    assert re.search(r'<a href="\?orientation=upright" aria-current="true"', page)
    assert drawing(client, f"/p/{pulka_id}?orientation=table").get("data-orientation") == "table"
    assert drawing(client, f"/p/{pulka_id}?orientation=sideways").get("data-orientation") == "table"


def test_hostile_names_are_text_in_the_drawing(client):
    names = ['<script>alert(1)</script>', 'Bob" onload="x', "&amp; O'Neil"]
    pulka_id = create(client, names, name="<b>pulka</b>", currency="<i>")
    page = client.get(f"/p/{pulka_id}").get_data(as_text=True)
    assert "<script>alert" not in page and 'onload="x' not in page and "<i>" not in page
    svg = drawing(client, f"/p/{pulka_id}")  # still well-formed XML
    assert sorted(sectors(svg)) == sorted(names)
    texts = "".join(svg.itertext())
    assert "<script>alert(1)</script>" in texts and "&amp; O'Neil" in texts


def long_pulka(**options) -> pulyafile.PulkaFile:
    """benchmarks/generate.py is a script, not a package: load it by path."""
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("pulka_generator", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.long_pulka(**options)


def test_long_pulka_draws_and_prints(client):
    pulka = long_pulka(players=4, deals=150, preset="leningrad", seed=4)
    response = client.post("/api/v1/import", data=pulyafile.dumps(pulka), content_type="application/json")
    assert response.status_code == 201, response.json
    pulka_id = response.json["id"]
    svg = drawing(client, f"/p/{pulka_id}")
    assert len(sectors(svg)) == 4
    assert all(band(s, "pulya") for s in sectors(svg).values())
    data = client.get(f"/api/v1/pulkas/{pulka_id}/pdf").data
    assert data.startswith(b"%PDF") and pages(data) > 2
    assert "150. " in poppler("pdftotext", data)


# -- the PDF ----------------------------------------------------------------------------------------


def poppler(tool: str, data: bytes) -> str:
    return subprocess.run([tool, "-", "-"] if tool == "pdftotext" else [tool, "-"], input=data,
                          capture_output=True, check=True).stdout.decode()


def pages(data: bytes) -> int:
    return int(re.search(r"^Pages:\s+(\d+)", poppler("pdfinfo", data), re.M).group(1))


def created(app, pulka_id: int):
    return app.extensions["scorekeeper"].pulkas.get(pulka_id).created_at


@pytest.mark.parametrize("url", ["/p/{}/pulka.pdf", "/api/v1/pulkas/{}/pdf"])
def test_pdf_of_the_sochi_example(app, client, url):
    pulka_id = sochi(client, 9)
    client.patch(f"/api/v1/pulkas/{pulka_id}", json={"name": "Пулька у Ани", "currency": "₽"})
    add(client, pulka_id, SOCHI["deals"][9])
    response = client.get(url.format(pulka_id))
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    filename = pdf_filename("Пулька у Ани", created(app, pulka_id))
    assert re.fullmatch(r"pulka-u-ani-\d{4}-\d\d-\d\d\.pdf", filename)
    assert response.headers["Content-Disposition"] == f'attachment; filename="{filename}"'
    data = response.data
    assert data.startswith(b"%PDF")
    assert pages(data) >= 2
    text = poppler("pdftotext", data)
    assert "Пулька у Ани" in text and "Players (clockwise): A, B, C" in text
    assert "finished after 10 deals" in text
    # The money of docs/rules.md §10: B pays A 107.33, C pays A 24.34.
    assert "B pays A 107.33 ₽" in text and "C pays A 24.34 ₽" in text
    assert "+131.67 ₽" in text and "−107.33 ₽" in text


def test_pdf_of_an_unfinished_four_player_pulka(app, client):
    pulka_id = create(client, FOUR, {"preset": "leningrad", "pulya_size": 10}, name="Четверо")
    assert add(client, pulka_id, {"type": "game", "declarer": "Борис", "contract": "7S",
                                  "whist": {"Вера": "whist", "Гоша": "pass"},
                                  "tricks": {"Борис": 7, "Вера": 2, "Гоша": 1}}).status_code == 201
    for url in (f"/p/{pulka_id}/pulka.pdf", f"/api/v1/pulkas/{pulka_id}/pdf?orientation=upright"):
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        assert response.headers["Content-Disposition"].startswith('attachment; filename="chetvero-')
        text = poppler("pdftotext", response.data)
        assert pages(response.data) >= 2
        assert "Players (clockwise): Аня, Борис, Вера, Гоша" in text
        assert "in progress: 1 deals so far" in text or "in progress: 1 deal so far" in text


def test_pdf_of_a_new_pulka_and_links_to_it(client):
    pulka_id = create(client)
    response = client.get(f"/p/{pulka_id}/pulka.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    for page in ("", "/history", "/settlement", "/settings"):
        assert f'href="/p/{pulka_id}/pulka.pdf"' in client.get(f"/p/{pulka_id}{page}").get_data(as_text=True)


def test_pdf_follows_every_change_to_the_pulka(client):
    """The PDF is kept per version of the pulka: a new deal or a new name gives a new file."""
    pulka_id = create(client, name="Before")
    url = f"/p/{pulka_id}/pulka.pdf"
    assert "No deals yet." in poppler("pdftotext", client.get(url).data)
    assert add(client, pulka_id, {"type": "raspasy", "tricks": {"A": 0, "B": 4, "C": 6}}).status_code == 201
    assert "Raspasy: A 0, B 4, C 6" in poppler("pdftotext", client.get(url).data)
    assert client.patch(f"/api/v1/pulkas/{pulka_id}", json={"name": "After"}).status_code == 200
    response = client.get(url)
    assert "After" in poppler("pdftotext", response.data)
    assert 'filename="after-' in response.headers["Content-Disposition"]


def test_pdf_of_unknown_pulka_is_404(client):
    assert client.get("/p/999/pulka.pdf").status_code == 404
    response = client.get("/api/v1/pulkas/999/pdf")
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"
    pulka_id = create(client)
    response = client.get(f"/api/v1/pulkas/{pulka_id}/pdf?orientation=sideways")
    assert response.status_code == 400 and response.json["error"]["field"] == "orientation"
