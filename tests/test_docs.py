"""docs/ is what the code and the tests cite: every citation of one of its documents, by section or whole,
must open on a section that exists, and nothing may point at a path of one machine, which no other checkout
has."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# Where citations and paths may be written: the package, its tests, templates, scripts and documents.
FOLDERS = ("scorekeeper", "tests", "templates", "static", "benchmarks", "scripts", "docs", ".ci")
TOP_FILES = ("README.md", "Makefile", "pyproject.toml")
TEXT = {".py", ".md", ".html", ".js", ".css", ".json", ".toml", ".txt", ".po", ".sh", ".cfg", ".ini", ".yml",
        ".yaml", ".svg", ".webmanifest", ".csv", ""}
SKIPPED = {"__pycache__", ".venv", "node_modules", "instance", "test-artifacts", ".pytest_cache", ".mypy_cache"}

SECTION = r"[0-9]+(?:\.[0-9]+)*"
# A section list after the first: a range (§1-2, §3–§8) or more sections (§9, §15; §1 and §3). "§1.2, W2"
# stops at W2, and a bare number after a comma is not taken for a section.
SECTIONS = rf"(?: ?§{SECTION}(?:(?:[-–]§?|, §| and §){SECTION})*)?"
CITATION = re.compile(rf"docs/([\w-]+\.md)(?:'s)?({SECTIONS})")
# Inside docs/ the documents cite each other by their bare names.
SIBLING = re.compile(rf"(?<![\w/.-])((?:rules|files|club|sheet)\.md)(?:'s)?({SECTIONS})")
HEADING = re.compile(rf"^#+ §?({SECTION})\.?(?:\s|$)", re.MULTILINE)

# Roots that name one machine's layout (a home, a workspace, a mount); built from the names so that this file
# does not hold the paths it looks for.
ROOTS = ("work", "home", "root", "Users", "mnt", "media", "srv")
MACHINE = re.compile(r"(?<![\w.~-])/(?:" + "|".join(ROOTS) + r")/")
# The scratch folder is every machine's: a browser test leaves its screenshots there for a person to look at,
# written and never read. Any other use of it is a reference that only this machine could follow.
SCRATCH_DIR = "tmp"
SCRATCH = re.compile(rf"(?<![\w.~-])/{SCRATCH_DIR}/")
SCREENSHOT = re.compile(rf"""screenshot\(path=f?["']/{SCRATCH_DIR}/""")


def files() -> Iterator[Path]:
    for name in TOP_FILES:
        if (ROOT / name).is_file():
            yield ROOT / name
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT and not SKIPPED & set(path.relative_to(ROOT).parts):
                yield path


def text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file with a text-like name: nothing to cite in it
        return ""


@cache
def sections(document: str) -> frozenset[str]:
    path = DOCS / document
    return frozenset(HEADING.findall(path.read_text(encoding="utf-8"))) if path.is_file() else frozenset()


def cited(run: str) -> list[str]:
    """The sections a run such as " §3–§8" or " §9, §15" names: its ends and, in a range of whole numbers,
    every number between."""
    named: list[str] = []
    for part in re.split(r", §| and §", run.strip()) if run else ():
        ends = [end.lstrip("§") for end in re.split(r"[-–]", part.lstrip("§"))]
        if len(ends) == 2 and all(end.isdigit() for end in ends):
            named += [str(n) for n in range(int(ends[0]), int(ends[1]) + 1)]
        else:
            named += ends
    return named


def problems(path: Path, pattern: re.Pattern[str]) -> list[str]:
    found = []
    for number, line in enumerate(text(path).splitlines(), 1):
        for match in pattern.finditer(line):
            document, run = match.groups()
            where = f"{path.relative_to(ROOT)}:{number}: {match.group(0)}"
            if not (DOCS / document).is_file():
                found.append(f"{where}: docs/ has no {document}")
                continue
            found += [f"{where}: docs/{document} has no heading for §{s}" for s in cited(run)
                      if s not in sections(document)]
    return found


def test_every_citation_opens_on_a_section() -> None:
    found = [problem for path in files() for problem in problems(path, CITATION)]
    assert not found, "\n".join(found)


def test_the_documents_cite_each_other_by_sections_they_have() -> None:
    found = [problem for path in sorted(DOCS.glob("*.md")) for problem in problems(path, SIBLING)]
    assert not found, "\n".join(found)


def test_the_documents_keep_the_sections_the_code_cites_most() -> None:
    # §14 and §15 are normative and cited everywhere; §10 holds the worked examples the tests are typed from.
    assert {"14", "15", "10", "10.1", "10.4"} <= sections("rules.md")
    assert {"1", "2", "3", "4", "5"} <= sections("files.md")
    assert {"1", "2", "3", "4"} <= sections("club.md")
    assert {"1.3", "1.4", "1.5", "3.3"} <= sections("sheet.md")


# A path docs/ names in backquotes, in one of the repository's own folders: `scorekeeper/engine/rules.py`.
NAMED_PATH = re.compile(r"`((?:" + "|".join(re.escape(f) for f in FOLDERS if f != ".ci") + r")/[\w./-]*)`")


def test_the_documents_name_only_paths_that_exist() -> None:
    found = [f"{path.relative_to(ROOT)}: {named}" for path in sorted(DOCS.glob("*.md"))
             for named in NAMED_PATH.findall(text(path)) if not (ROOT / named).exists()]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("line, expected", [
    (" §3–§8", ["3", "4", "5", "6", "7", "8"]),
    (" §1-2", ["1", "2"]),
    (" §9, §15", ["9", "15"]),
    (" §1 and §3", ["1", "3"]),
    (" §8.1", ["8.1"]),
    (" §7.1-7.3", ["7.1", "7.3"]),
])
def test_a_run_of_sections_is_read_whole(line: str, expected: list[str]) -> None:
    assert cited(line) == expected


def test_nothing_names_a_path_of_one_machine() -> None:
    found = []
    for path in files():
        for number, line in enumerate(text(path).splitlines(), 1):
            if MACHINE.search(line) or (SCRATCH.search(line) and not SCREENSHOT.search(line)):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    here = ROOT.as_posix() + "/"  # the checkout's own place, wherever it is
    found += [f"{path.relative_to(ROOT)}: {here}" for path in files() if here in text(path)]
    assert not found, "\n".join(found)
