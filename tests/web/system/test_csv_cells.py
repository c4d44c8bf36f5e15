"""Every CSV the app serves, crawled from its URL map (crawl.py), as the owner of hostile names and as the
account that opened his link, in English and in Russian: no text cell starts a spreadsheet formula (=, +, -,
@, a tab, a carriage return: OWASP's CSV injection), every such text is written with a leading apostrophe
and reads back as typed once that apostrophe is dropped (as README says), and the numbers the app writes
stay numbers."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from fractions import Fraction

from scorekeeper.web.views.csvfile import CsvWriter, Figure

from .crawl import NOTE, fake_pdfs, hostile_club, urls

FORMULA = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"
# What the app writes as a number: an integer, a decimal (2.5, or 2,5 in Russian), an exact fraction (-50/3).
NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?(?:/\d+)?")
# The CSVs there are today: the crawl must find each of them (and any other).
KNOWN = {"pages.protocol", "pages.players_csv", "pages.player_csv", "pages.player_deals_csv", "pages.ledger_csv"}
RU = {"Accept-Language": "ru"}


def read_back(cell: str) -> str:
    """The text a cell was written from, by README's rule: one leading apostrophe dropped."""
    return cell.removeprefix(GUARD)


def cells_of(response) -> list[str]:
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).removeprefix("\ufeff"), newline="")))
    assert rows and all(len(row) == len(rows[0]) for row in rows), rows
    return [cell for row in rows[1:] for cell in row]


def check(url: str, cells: list[str], typed: set[str]) -> None:
    for cell in cells:
        if cell[:1] in FORMULA:
            assert NUMBER.fullmatch(cell), f"{url}: the text {cell!r} starts a formula"
        if cell.startswith(GUARD):
            text = read_back(cell)
            assert text[:1] in (*FORMULA, GUARD), f"{url}: {cell!r} is guarded though it starts no formula"
            assert not NUMBER.fullmatch(text) or text in typed, f"{url}: the number {text!r} was made text"


def test_no_csv_the_app_serves_starts_a_formula(app, monkeypatch):
    fake_pdfs(monkeypatch)
    club = hostile_club(app)
    found: dict[str, int] = {}
    read: set[str] = set()
    for client in (club.owner, club.guest):
        for endpoint, url in urls(app, club, client):
            first = client.get(url)
            if first.status_code != 200 or first.mimetype != "text/csv":
                continue  # not a CSV, or not this caller's to read (test_access.py says who reads what)
            answers = [first, client.get(url, headers=RU)]
            answers += [client.get(url, query_string={"currency": currency}) for currency in club.currencies]
            for response in answers:
                cells = cells_of(response)
                check(url, cells, club.texts)
                read |= {read_back(cell) for cell in cells}
                found[endpoint] = found.get(endpoint, 0) + len(cells)
    named = {rule.endpoint for rule in app.url_map.iter_rules() if rule.rule.endswith(".csv")}
    assert KNOWN | named <= set(found) and all(found.values()), found
    # Every hostile text reached some CSV, and read back as it was typed (a name that starts with an apostrophe
    # too: it was written with two).
    assert club.texts <= read, club.texts - read


def test_the_guest_sees_the_link_owner_names_guarded(app, monkeypatch):
    """The names of a link's owner reach the CSVs of the account that opened the link, guarded there too."""
    fake_pdfs(monkeypatch)
    club = hostile_club(app)
    cells = cells_of(club.guest.get("/players.csv"))
    assert {"'=1+1", "'+2+3", "'@SUM(1;1)", "'=cmd|' /C calc'!A0", "'-4+4"} <= set(cells)
    assert not {"=1+1", "+2+3", "@SUM(1;1)", "-4+4"} & set(cells)


def test_the_ledger_csv_guards_its_texts_and_keeps_its_numbers(app, monkeypatch):
    fake_pdfs(monkeypatch)
    club = hostile_club(app)
    rows = list(csv.DictReader(io.StringIO(club.owner.get("/ledger.csv", query_string={"currency": "-4+4"})
                                           .get_data(as_text=True).removeprefix("\ufeff"))))
    payment, = (row for row in rows if row["row"] == "payment")
    assert (payment["from"], payment["to"], payment["currency"]) == ("'+2+3", "'=1+1", "'-4+4")
    assert (payment["amount"], payment["note"], payment["by"]) == ("1.50", "'" + NOTE, "'=owner")
    obligations = [row for row in rows if row["row"] == "obligation"]
    assert obligations and {row["title"] for row in obligations} == {"'=cmd|' /C calc'!A0"}
    players = list(csv.DictReader(io.StringIO(club.owner.get("/players.csv").get_data(as_text=True)
                                              .removeprefix("\ufeff"))))
    lost = [row for row in players if row["title"] == "'+Friday" and row["player"] == "'-15.33"]
    assert lost and all(NUMBER.fullmatch(row[column]) for row in players for column in ("whists", "money"))
    assert any(row["money"].startswith("-") for row in players)  # a loss stays a number a spreadsheet adds up


def write(rows) -> list[list[str]]:
    out = io.StringIO()
    writer = CsvWriter(out)
    for row in rows:
        writer.writerow(row)
    return list(csv.reader(io.StringIO(out.getvalue(), newline="")))


def test_the_writer_guards_every_formula_start_and_reads_back_as_typed():
    texts = ["=1+1", "+2", "-15.33", "@SUM(A1)", "\tTab", "\rReturn", "'quoted", "''twice", "plain", "Аня", "",
             " =spaced", "1-2"]
    written, = write([texts])
    assert written == ["'=1+1", "'+2", "'-15.33", "'@SUM(A1)", "'\tTab", "'\rReturn", "''quoted", "'''twice",
                       "plain", "Аня", "", " =spaced", "1-2"]
    assert [read_back(cell) for cell in written] == texts
    numbers, = write([[-15, Decimal("-15.33"), Fraction(-50, 3), -2.5, Figure("-2,5"), None]])
    assert numbers == ["-15", "-15.33", "-50/3", "-2.5", "-2,5", ""]


def test_the_app_writes_csv_with_its_one_writer_only():
    """No CSV can be made without the guard: the csv module is imported by the one writer alone."""
    import ast
    from pathlib import Path

    import scorekeeper
    from scorekeeper.web.views import csvfile

    root = Path(scorekeeper.__file__).parent
    importing = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if "csv" in names:
                importing.add(path)
    assert importing == {Path(csvfile.__file__)}
