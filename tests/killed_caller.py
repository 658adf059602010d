"""A caller for tests/test_executor.py to kill: it runs two tasks that never end on the executor
named on its command line, through ``map`` or a stream. Each task marks a file when it starts."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from exact.executor import InProcess, Processes, Ray


def never_ends(folder: str, item: int) -> int:
    Path(folder, f"{item}.started").touch()
    time.sleep(3600)
    return item


def main(backend: str, how: str, folder: str) -> None:
    executor = {"in-process": InProcess, "processes": lambda: Processes(2), "ray": lambda: Ray(num_cpus=2)}[backend]()
    if how == "map":
        for _ in executor.map(never_ends, [1, 2], folder):
            pass
        return
    stream = executor.stream(never_ends, folder)
    for item in (1, 2):
        stream.submit(item, item)
    while True:
        stream.result(1.0)


if __name__ == "__main__":
    main(*sys.argv[1:4])
