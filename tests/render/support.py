"""Helpers the render tests share: a 4-player pulka, the pulka generator, WeasyPrint's log."""

from __future__ import annotations

import importlib.util
import logging
from contextlib import contextmanager
from pathlib import Path

from scorekeeper.files import pulyafile
from scorekeeper.engine import Contract, Deal, DealType, Rules, Word

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    """benchmarks/generate.py is a script directory, not a package: load it by path."""
    spec = importlib.util.spec_from_file_location("pulka_generator", ROOT / "benchmarks" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _generator()


def leningrad_four() -> pulyafile.PulkaFile:
    """Four deals, unfinished: a game made, raspasy with the talon, a remiz by 2, a misère that closes Вера."""
    s, h = Contract.parse("7S"), Contract.parse("8H")
    deals = (
        Deal(DealType.GAME, 1, s, {2: Word.WHIST, 3: Word.PASS}, {1: 7, 2: 2, 3: 1}),  # dealer 0
        Deal(DealType.RASPASY, tricks={2: 3, 3: 3, 0: 3, 1: 1}),  # dealer 1 wins a talon trick
        Deal(DealType.GAME, 0, h, {1: Word.WHIST, 3: Word.WHIST}, {0: 6, 1: 3, 3: 1}),  # dealer 2
        Deal(DealType.MISERE, 2, tricks={2: 0}),  # dealer 3
    )
    return pulyafile.PulkaFile(("Аня", "Борис", "Вера", "Гоша"), Rules.of("leningrad", pulya_size=10), deals, 0)


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def weasyprint_log():
    """Fail on WeasyPrint's "Ignored …" warnings (CSS or SVG it does not apply) and on its errors."""
    handler = _Records()
    logger = logging.getLogger("weasyprint")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    ignored = [r.getMessage() for r in handler.records if r.getMessage().startswith("Ignored")]
    errors = [r.getMessage() for r in handler.records if r.levelno >= logging.ERROR]
    assert not ignored, f"WeasyPrint ignored part of the template: {ignored}"
    assert not errors, f"WeasyPrint reported errors: {errors}"
