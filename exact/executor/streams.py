"""The :class:`~exact.executor.Stream` of each backend: in this process, local worker processes,
Ray. Tasks are ``fn(shared, item)``: ``fn`` module-level, ``shared`` sent once per worker."""

from __future__ import annotations

import os
import pickle
import queue
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable
from typing import Any

from exact.executor import (
    RETRIES,
    Stream,
    WorkerLost,
    die_with_parent,
    process_context,
    ray_module,
    set_threads,
    startable_main,
)


class LocalStream(Stream):
    """The tasks one at a time in this process: :meth:`result` runs the next one handed in."""

    def __init__(self, fn, shared) -> None:
        self._fn, self._shared = fn, shared
        self._todo: deque = deque()

    def submit(self, key, item) -> None:
        self._todo.append((key, item))

    def result(self, timeout: float):
        if not self._todo:
            return None
        key, item = self._todo.popleft()
        return key, self._fn(self._shared, item)

    def close(self) -> None:
        self._todo.clear()


def _worker(  # pragma: no cover - in the workers
    fn, shared, threads: int, tasks, results, caller: int | None = None
) -> None:
    """Answer tasks until stopped; a task's exception travels back as the answer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller handles Ctrl-C and stops us
    die_with_parent(caller)
    if threads is not None:
        set_threads(threads)
    while True:
        key, item = tasks.get()
        try:
            results.put((key, True, fn(shared, item)))
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
            try:
                pickle.dumps(exc)
            except Exception:  # noqa: BLE001 - an exception that cannot travel goes as its text
                exc = RuntimeError(f"a task failed in a worker:\n{traceback.format_exc()}")
            results.put((key, False, exc))


class ProcessStream(Stream):
    """``workers`` local processes (forkserver), each with ``shared`` once and ``threads`` numeric
    threads; :meth:`close` terminates them, mid-task or not.

    Args:
        workers: Processes.
        threads: numba/torch threads in each; ``None`` leaves them be (setting numba's starts its
            thread pool, whose lock a worker stopped mid-task leaves behind, and Python's
            resource tracker then warns at exit).
        fn: The task function (module-level).
        shared: What every task reads.
        preload: Modules the forkserver imports once for all workers.
    """

    def __init__(self, workers: int, threads: int, fn: Callable[..., Any], shared: object, preload: tuple = ()) -> None:
        ctx = process_context(preload)
        self.capacity = workers
        self._tasks, self._results = ctx.Queue(), ctx.Queue()
        args = (fn, shared, threads, self._tasks, self._results, os.getpid())
        self._procs = [ctx.Process(target=_worker, args=args, daemon=True) for _ in range(workers)]
        with startable_main():
            for p in self._procs:
                p.start()
        self.pids = tuple(p.pid for p in self._procs)

    def submit(self, key, item) -> None:
        self._tasks.put((key, item))

    def result(self, timeout: float):
        try:
            key, ok, value = self._results.get(timeout=timeout)
        except queue.Empty:
            dead = [p for p in self._procs if p.exitcode is not None]
            if dead:
                raise WorkerLost(
                    f"worker {dead[0].pid} died (exit code {dead[0].exitcode}); its task is lost"
                ) from None
            return None
        if not ok:
            raise value
        return key, value

    def close(self) -> None:
        started = [p for p in self._procs if p.pid is not None]
        for p in started:
            if p.is_alive():
                p.terminate()
        for p in started:
            p.join(timeout=5.0)
            if p.is_alive():  # pragma: no cover - SIGTERM is not caught by the workers
                p.kill()
                p.join()
        for q in (self._tasks, self._results):
            q.close()
            q.cancel_join_thread()
        self._procs = []


class RayStream(Stream):
    """Tasks as Ray tasks (``shared`` put in the object store once); a task whose worker dies is
    run again by Ray (``max_retries``), then :class:`~exact.executor.WorkerLost`."""

    def __init__(self, executor, fn, shared) -> None:
        ray = ray_module()
        executor.start()
        from exact.executor import _ray_task

        self.capacity = executor.workers
        self._threads = executor.threads
        self._fn, self._ref = fn, ray.put(shared)
        self._remote = ray.remote(_ray_task).options(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)
        self._out: dict[Any, Any] = {}

    def submit(self, key, item) -> None:
        self._out[self._remote.remote(self._fn, self._ref, item, self._threads)] = key

    def result(self, timeout: float):
        ray = ray_module()
        if not self._out:
            time.sleep(min(timeout, 0.05))
            return None
        ready, _ = ray.wait(list(self._out), num_returns=1, timeout=timeout)
        if not ready:
            return None
        key = self._out.pop(ready[0])
        try:
            return key, ray.get(ready[0])
        except ray.exceptions.RayTaskError as exc:
            raise exc.as_instanceof_cause() from None
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as exc:
            raise WorkerLost(f"task {key}: its worker died {RETRIES + 1} times ({exc})") from None

    def close(self) -> None:
        ray = ray_module()
        for r in self._out:
            ray.cancel(r)  # not force=True: see exact.executor.Ray.map
        self._out = {}
