"""How fast `scorekeeper replay FILE --json` is, next to the I/O floor, and the memory it takes.

    .venv/bin/python benchmarks/replay.py [--deals 20000] [--repeat 5]

Writes a long pulka (benchmarks/engine.py's) to a temporary file, then times, best of `repeat`:
- the command in this process (`cli.main`, its standard output a file), against the floor: the same file
  read and parsed with json.loads, and a result of the same size (the command's own) written with json.dumps;
- the command as a subprocess, start-up included, for the record.
Then the peak of the memory the command allocates (tracemalloc, in this process) next to the size of the
parsed input (what json.loads of the file allocates).
Goals: the command within 2.5x of the floor; its peak memory not above 3x the parsed input.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from engine import long_pulka

import scorekeeper
from scorekeeper import cli
from scorekeeper.files.pulyafile import dumps


def command(file: Path, out: Path) -> float:
    """`scorekeeper replay FILE --json` in this process, its standard output `out`; the seconds it took."""
    with out.open("w", encoding="utf-8") as stdout, contextlib.redirect_stdout(stdout):
        start = time.perf_counter()
        assert cli.main(["replay", str(file), "--json"]) == 0
        return time.perf_counter() - start


def floor(file: Path, result_text: bytes, out: Path) -> float:
    """Reading the file with the standard library, and writing a result of the command's size (its own)."""
    result = json.loads(result_text)
    start = time.perf_counter()
    json.loads(file.read_bytes())
    with out.open("w", encoding="utf-8") as stdout:
        stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return time.perf_counter() - start


def subprocess_seconds(args: list[str], out: Path) -> float:
    with out.open("wb") as stdout:
        start = time.perf_counter()
        subprocess.run(args, stdout=stdout, check=True)
        return time.perf_counter() - start


def peak_memory(file: Path) -> tuple[int, int]:
    """The bytes json.loads of the file allocates, and the peak the command allocates above what was before."""
    text = file.read_bytes()
    tracemalloc.start()
    data = json.loads(text)
    parsed = tracemalloc.get_traced_memory()[0]
    del data
    with open(os.devnull, "w", encoding="utf-8") as stdout, contextlib.redirect_stdout(stdout):
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        cli.main(["replay", str(file), "--json"])
        peak = tracemalloc.get_traced_memory()[1] - before
    tracemalloc.stop()
    return parsed, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-replay-"))
    file, out = folder / "pulka.json", folder / "result.json"
    file.write_text(dumps(long_pulka(args.deals)), encoding="utf-8")
    command(file, out)  # once to warm up, and for the result whose size the floor writes
    result = out.read_bytes()  # as text: the command is timed in a process that keeps no more than its own
    run = [sys.executable, "-m", "scorekeeper.cli", "replay", str(file), "--json"]
    commands, floors, processes = [], [], []
    for _ in range(args.repeat):  # alternately, so that a busy machine slows both alike
        commands.append(command(file, out))
        floors.append(floor(file, result, folder / "floor.json"))
        processes.append(subprocess_seconds(run, out))
    startup = min(subprocess_seconds([sys.executable, "-c", "import scorekeeper.cli"], folder / "nothing")
                  for _ in range(args.repeat))
    parsed, peak = peak_memory(file)
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    command_s, floor_s, process_s = min(commands), min(floors), min(processes)

    print(f"engine: {Path(scorekeeper.__file__).parent}")
    print(f"file: {args.deals} deals, {file.stat().st_size / 1e6:.2f} MB in, {out.stat().st_size / 1e6:.2f} MB out")
    print(f"I/O floor (json.loads + json.dumps): {floor_s * 1000:8.1f} ms")
    print(f"replay --json, in process:           {command_s * 1000:8.1f} ms  "
          f"({command_s / floor_s:.2f}x the floor; goal <= 2.5x)")
    print(f"replay --json, as a process:         {process_s * 1000:8.1f} ms  "
          f"(of which start-up and imports {startup * 1000:.0f} ms)")
    print(f"parsed input (json.loads):           {parsed / 1e6:8.1f} MB")
    print(f"replay --json, peak allocated:       {peak / 1e6:8.1f} MB  "
          f"({peak / parsed:.2f}x the parsed input; goal <= 3x); the processes' peak RSS {children_mb:.0f} MB")


if __name__ == "__main__":
    main()
