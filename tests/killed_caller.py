"""A caller for tests/test_executor.py to kill: it runs two tasks that never end on the executor
named on its command line, through ``map`` or a stream. Each task marks a file when it starts.

With ``map-slow`` or ``stream-slow`` each worker takes 3 s to unpickle its ``shared`` (marking a
file as it begins): a caller killed then dies before its workers could ask for the parent-death
signal."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from exact.executor import InProcess, Processes, Ray


def never_ends(folder: str, item: int) -> int:
    Path(folder, f"{item}.started").touch()
    time.sleep(3600)
    return item


def arrive(folder: str) -> str:
    """What a worker unpickles as its ``shared``: slowly."""
    Path(folder, f"{os.getpid()}.unpickling").touch()
    time.sleep(3)
    return folder


class SlowShared:
    """The folder, as a ``shared`` a worker takes 3 s to unpickle."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def __reduce__(self):
        return arrive, (self.folder,)


def main(backend: str, how: str, folder: str) -> None:
    executor = {"in-process": InProcess, "processes": lambda: Processes(2), "ray": lambda: Ray(num_cpus=2)}[backend]()
    shared = SlowShared(folder) if how.endswith("-slow") else folder
    if how.startswith("map"):
        for _ in executor.map(never_ends, [1, 2], shared):
            pass
        return
    stream = executor.stream(never_ends, shared)
    for item in (1, 2):
        stream.submit(item, item)
    while True:
        stream.result(1.0)


if __name__ == "__main__":
    main(*sys.argv[1:4])
