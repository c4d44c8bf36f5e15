"""Pulkas to draw: the Sochi example of docs/rules.md §10, a short 4-player Leningrad one, and long generated ones."""

from __future__ import annotations

import shutil

import pytest

from scorekeeper.files import pulyafile

from .support import ROOT, generate, leningrad_four


@pytest.fixture(scope="session")
def sochi() -> pulyafile.PulkaFile:
    return pulyafile.loads((ROOT / "tests" / "data" / "sochi_examples.json").read_text())


@pytest.fixture(scope="session")
def leningrad() -> pulyafile.PulkaFile:
    return leningrad_four()


@pytest.fixture(scope="session")
def long3() -> pulyafile.PulkaFile:
    return generate.long_pulka(players=3, deals=150, preset="sochi", seed=3)


@pytest.fixture(scope="session")
def long4() -> pulyafile.PulkaFile:
    return generate.long_pulka(players=4, deals=150, preset="leningrad", seed=4)


@pytest.fixture(scope="session")
def huge() -> pulyafile.PulkaFile:
    return generate.long_pulka(players=3, deals=5000, preset="sochi", seed=5)


@pytest.fixture(scope="session")
def poppler() -> None:
    """The PDF tests read PDFs back with poppler; without it they fail, loudly, rather than skip."""
    missing = [tool for tool in ("pdftotext", "pdfinfo", "pdftoppm", "pdffonts") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not found: install poppler-utils (scripts/system-packages.sh does)",
                    pytrace=False)
