"""One way to run many independent tasks: in this process, in local worker processes, or on Ray.

The batch commands (``hybrid.verify``, ``learned.evaluate``, ``exact.ida --instances``,
``exact.solve --instances``) hand their instances to an :class:`Executor` and take the results
as they come, in any order:

* :class:`InProcess` (the default): one task after the other, here.
* :class:`Processes` (``--workers N``): ``N`` local worker processes (``forkserver`` where the
  platform has it). A worker that dies takes the pool down; the tasks it may have held are run
  again on a fresh pool, each at most ``retries`` more times, then :class:`WorkerLost` is raised.
* :class:`Ray` (``--ray auto`` for a local Ray, ``--ray ADDRESS`` to join a cluster; the
  ``scale`` extra): each task is a Ray task, retried by Ray (``max_retries``) when its worker
  dies. Ctrl-C cancels the tasks still out. A local Ray it starts is watched by
  :mod:`exact.executor.reaper`, which ends its processes if the caller is killed.

A task is ``fn(shared, item)``: ``fn`` a module-level function (pickled by reference), ``item``
small and picklable, and ``shared`` what every task reads (the puzzle's spec, the budget, a
network's weights). ``shared`` travels once per worker, never once per task: in the worker
processes' initializer, or through Ray's object store (``ray.put`` once; a node's workers read
its one copy). Tables too large to ship (pattern databases) are read from a memory-mapped file
in the pattern-database store, which the workers of one machine share through the page cache.

Worker processes run their numeric kernels on ``threads`` threads each (numba's and torch's),
default 1: the workers, not the threads, use the cores.

Work that decides its next task from the last answer (the MIP's split: a piece that reaches its
time limit is split into more pieces) takes a :class:`Stream` instead (:meth:`Executor.stream`):
tasks are handed in one at a time, answered as each finishes, and every worker is stopped at once
when the stream closes (their answers are no longer wanted).

Every worker process dies with its caller: a caller killed by SIGTERM or SIGKILL runs no
``finally``, so the workers ask the kernel for a parent-death signal, and the forkserver that
forks them does too (:mod:`exact.executor.guard`, Linux). A worker whose caller died while it
was still starting (before it could ask) sees that and exits (:func:`die_with_parent`).
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import multiprocessing as mp
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exact.errors import MissingExtra, PuzzleoptError
from exact.logs import configure as configure_log
from exact.logs import configured

RETRIES = 3
"""How many times a task whose worker died is run again before :class:`WorkerLost`."""


class WorkerLost(RuntimeError):
    """A task's worker died every time it ran (``retries + 1`` times): a crash, not bad input."""


def die_with_parent(caller: int | None = None) -> None:  # pragma: no cover - runs in the worker processes
    """Linux: the kernel kills this process when its parent dies (``PR_SET_PDEATHSIG``), so no
    worker outlives a killed caller; elsewhere nothing.

    The signal only covers deaths after it is set. A worker starts by unpickling what it was
    given (seconds on a loaded machine) before it gets here; if the caller was killed in that
    window, its forkserver is gone and no signal will come. So with ``caller`` (the pid of the
    process that started the workers) a worker that finds the caller dead exits at once.
    """
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)
    if caller is not None and not _running(caller):
        os._exit(0)


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process: a zombie (killed, not yet reaped) is not. Only Linux
    says which (``/proc``); elsewhere every pid counts as running."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return not Path("/proc/self").is_dir()  # no /proc at all: not Linux, cannot tell
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


@contextlib.contextmanager
def startable_main() -> Iterator[None]:
    """Workers started inside this block do not run a main script that cannot be run again.

    A forkserver or spawn worker imports the caller's ``__main__`` first (by its ``__spec__``
    name, else its ``__file__``), so that it can unpickle what the script defines. A script read
    from standard input (``'<stdin>'``) cannot be opened: each worker died at start. A script
    running its top-level code outside ``if __name__ == "__main__":`` would solve again in every
    worker (:class:`Processes` runs such a script's tasks in this process instead, with one
    warning; the name stays hidden here for any other pool). The script's name is hidden while
    workers start; the project's tasks are functions of its own modules and need nothing from it.
    """
    import sys

    main = sys.modules.get("__main__")
    path, spec = getattr(main, "__file__", None), getattr(main, "__spec__", None)
    if main is None or (isinstance(path, str) and os.path.isfile(path) and not _main_unguarded()):
        yield
        return
    if isinstance(path, str):
        del main.__file__
    main.__spec__ = None
    try:
        yield
    finally:
        if isinstance(path, str):
            main.__file__ = path
        main.__spec__ = spec


def _main_unguarded() -> bool:
    """Whether the main script (a file) is running its top-level code outside a main guard."""
    import sys

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if not isinstance(path, str) or not os.path.isfile(path):
        return False
    frame = sys._getframe()
    while frame is not None and not (frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:  # the script's top level is done (an interactive session after it)
        return False
    try:
        tree = ast.parse(Path(path).read_text())
    except (OSError, SyntaxError, ValueError):
        return True
    line = frame.f_lineno
    return not any(
        isinstance(node, ast.If) and _is_main_test(node.test) and node.lineno <= line <= (node.end_lineno or line)
        for node in tree.body
    )


def _is_main_test(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def set_threads(threads: int) -> None:
    """numba's threads (and torch's, where torch is already imported) in this process."""
    import sys

    import numba

    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(max(1, int(threads)))


@dataclass(frozen=True)
class Blob:
    """Bytes every task may read (a network's weights): inline for the local backends, in Ray's
    object store for Ray (``ref``, fetched by :meth:`get` only where a worker's cache lacks
    ``key``, so a node's workers read its one copy and tasks never carry it)."""

    key: str
    data: bytes | None = None
    ref: tuple | None = None

    def get(self) -> bytes:
        if self.data is not None:
            return self.data
        return ray_module().get(self.ref[0])


def importable(fn: Callable) -> Callable:
    """``fn`` by a name other processes can import.

    A task function of the module that runs as ``__main__`` (``python -m hybrid.verify``,
    ``python benchmarks/ida.py``) is pickled as ``__main__.fn``, a name a worker may not have (a
    Ray worker's ``__main__`` is Ray's). This returns the same function from that module imported
    by its own name (``hybrid.verify``, ``benchmarks.ida``), so commands and benchmarks hand
    their tasks over as they are, with no self-import.
    """
    if getattr(fn, "__module__", None) != "__main__":
        return fn
    import importlib
    import sys

    main = sys.modules["__main__"]
    name = getattr(getattr(main, "__spec__", None), "name", None)  # python -m package.module
    if name is None and getattr(main, "__file__", None):  # python path/to/script.py
        file = Path(main.__file__).resolve()
        parts = [file.stem]
        folder = file.parent
        while (folder / "__init__.py").exists():  # up through the packages it belongs to
            parts.insert(0, folder.name)
            folder = folder.parent
        name = ".".join(parts)
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
    if not name or name == "__main__":
        return fn  # an interactive session: nothing to import it by
    return getattr(importlib.import_module(name), fn.__qualname__)


def _same(a: Any, b: Any) -> bool:
    """Whether two ``shared`` values are the same (equal values of one type; arrays, whose ``==``
    is no answer, only as the same object)."""
    if a is b:
        return True
    try:
        return type(a) is type(b) and bool(a == b)
    except (ValueError, TypeError):
        return False


class Stream:
    """Tasks ``fn(shared, item)`` handed in one at a time and answered as each finishes (see the
    module docstring); a context manager that stops every worker when it closes.

    Attributes:
        capacity: How many tasks run at once (hand in more and they wait).
        pids: The worker processes' ids (none for in-process and Ray), for a record of the run.
    """

    capacity = 1
    pids: tuple[int, ...] = ()

    def submit(self, key: Any, item: Any) -> None:
        """Hand in a task; its answer comes back with ``key``."""
        raise NotImplementedError

    def result(self, timeout: float) -> tuple[Any, Any] | None:
        """``(key, answer)`` of a finished task, or ``None`` if none finished within ``timeout``
        seconds. An exception a task raised is raised here.

        Raises:
            WorkerLost: a worker died (its task's answer will never come).
        """
        raise NotImplementedError

    def close(self) -> None:
        """Stop every worker now; the answers of tasks still running are dropped."""

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Executor:
    """Runs ``fn(shared, item)`` for each item (see the module docstring); a context manager.

    Attributes:
        name: ``"in-process"``, ``"processes"`` or ``"ray"``.
        workers: How many tasks run at once (for Ray: the CPUs it was started with or found).
    """

    name = "executor"
    workers = 1
    shares_files = True
    """Whether the workers read this machine's files (Ray's may run elsewhere: send bytes as a
    :meth:`blob`)."""

    @property
    def label(self) -> str:
        """Where the tasks run, in a few words (for a record of the run): ``"in-process"``,
        ``"2 processes"``, ``"ray auto"``, ``"ray host:6379"``."""
        return self.name

    def map(
        self, fn: Callable[[Any, Any], Any], items: Sequence[Any], shared: Any = None, *, retries: int = RETRIES
    ) -> Iterator[tuple[int, Any]]:
        """Yield ``(index, fn(shared, items[index]))`` as each task finishes, in any order.

        An exception a task raises is raised here (the tasks still out are cancelled).

        Raises:
            WorkerLost: a task's worker died more than ``retries`` times.
        """
        raise NotImplementedError

    def stream(self, fn: Callable[[Any, Any], Any], shared: Any = None, *, preload: Sequence[str] = ()) -> Stream:
        """A :class:`Stream` of tasks ``fn(shared, item)`` handed in one at a time; ``preload``:
        modules local worker processes import once, through their forkserver."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers (tasks still running are abandoned)."""

    def blob(self, data: bytes) -> Blob:
        """``data`` as a :class:`Blob` for ``shared``."""
        return Blob(hashlib.sha256(data).hexdigest(), data=data)

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class InProcess(Executor):
    """The tasks one after the other in this process."""

    name = "in-process"

    def map(self, fn, items, shared=None, *, retries=RETRIES):
        for i, item in enumerate(items):
            yield i, fn(shared, item)

    def stream(self, fn, shared=None, *, preload=()) -> Stream:
        from exact.executor.streams import LocalStream

        return LocalStream(fn, shared)


# ----------------------------------------------------------------------------- processes
_SHARED: Any = None


def _init_worker(  # pragma: no cover - in the workers
    shared: Any, threads: int, verbosity: int | None = None, caller: int | None = None
) -> None:
    global _SHARED
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller handles Ctrl-C and stops us
    die_with_parent(caller)
    _SHARED = shared
    if threads is not None:
        set_threads(threads)
    if verbosity is not None:  # the caller's command showed its log: the workers' messages show too
        configure_log(verbosity)


def _run_task(fn, item):  # pragma: no cover - runs in the workers
    return fn(_SHARED, item)


def process_context(preload: Sequence[str] = ()):
    """``forkserver`` where the platform has it (no solver threads of the caller are forked, and
    the server does not import the caller's ``__main__``), else ``spawn``.

    Args:
        preload: Modules the server imports once for all its workers (``highspy`` for the MIP's
            pieces), after :mod:`exact.executor.guard`, which makes it die with its caller. The
            server is one per process: the first start's list is the one it keeps.
    """
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        # the server imports no __main__ (a script without a main guard would run again in it)
        ctx.set_forkserver_preload(["exact.executor.guard", "exact.executor", *preload])
        return ctx
    return mp.get_context("spawn")  # pragma: no cover - not Linux/macOS


class Processes(Executor):
    """``workers`` local worker processes (see the module docstring).

    Args:
        workers: Processes (>= 1).
        threads: numba/torch threads in each (default 1); ``None``: left as they are, for tasks
            that run no numeric kernels (the MIP's pieces).
    """

    name = "processes"

    @property
    def label(self) -> str:
        return f"{self.workers} processes"

    def __init__(self, workers: int, threads: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise PuzzleoptError(f"--workers {workers!r} must be a whole number >= 1")
        self.workers = workers
        self.threads = threads
        self._pool: ProcessPoolExecutor | None = None
        self._shared: Any = None
        self._busy = False  # tasks out whose answers are unwanted once close() is called

    def _start(self, shared: Any) -> ProcessPoolExecutor:
        # a pool whose workers hold this same `shared` serves again (DAVI maps every step)
        if self._pool is not None and _same(shared, self._shared):
            return self._pool
        self._stop(clean=True)  # the last map's pool, idle: its workers hold another `shared`
        self._pool = ProcessPoolExecutor(
            self.workers,
            mp_context=process_context(),
            initializer=_init_worker,
            initargs=(shared, self.threads, configured(), os.getpid()),
        )
        self._shared = shared
        return self._pool

    def map(self, fn, items, shared=None, *, retries=RETRIES):
        if _main_unguarded():  # before importable(): a worker importing the script by name runs it too
            _warn_unguarded(fn)
            yield from InProcess().map(fn, items, shared)
            return
        fn = importable(fn)
        todo = list(range(len(items)))
        tries = dict.fromkeys(todo, 0)
        ok = False
        self._busy = True
        try:
            while todo:
                pool = self._start(shared)
                with startable_main():  # the pool starts its workers as tasks come
                    running = {pool.submit(_run_task, fn, items[i]): i for i in todo}
                todo = []
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    broken = False
                    for fut in finished:
                        i = running.pop(fut)
                        try:
                            value = fut.result()
                        except BrokenProcessPool:
                            broken = True
                            todo.append(i)
                            continue
                        yield i, value
                    if broken:  # every task still out is lost with the pool: run them again
                        todo += list(running.values())
                        running = {}
                for i in todo:
                    tries[i] += 1
                    if tries[i] > retries:
                        raise WorkerLost(f"task {i}: its worker died {tries[i]} times; not tried again")
                if todo:
                    self.close()  # the pool is broken: a fresh one for the tasks to run again
            ok = True
        finally:
            if not ok:  # an error, Ctrl-C, or the caller stopped reading: the workers go
                self.close()
            self._busy = False

    def stream(self, fn, shared=None, *, preload=()) -> Stream:
        from exact.executor.streams import ProcessStream

        if _main_unguarded():
            _warn_unguarded(fn)
            return InProcess().stream(fn, shared)
        return ProcessStream(self.workers, self.threads, importable(fn), shared, tuple(preload))

    def close(self) -> None:
        self._stop(clean=not self._busy)

    def _stop(self, clean: bool) -> None:
        pool, self._pool, self._shared = self._pool, None, None
        if pool is None:
            return
        if clean:  # idle workers: a clean shutdown, which also frees the pool's semaphores
            pool.shutdown(wait=True)
            return
        # terminate rather than wait: on Ctrl-C or an error the running tasks' answers are unwanted
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)


def worker_processes(workers: int, threads: int | None, what: str) -> Executor:
    """``Processes(workers, threads)``, or where the main script runs without a main guard (its
    workers would run it again) :class:`InProcess`, with one warning naming ``what`` (the work
    asked for), so that a result reports where its work really ran."""
    if _main_unguarded():
        _warn_unguarded(what)
        return InProcess()
    return Processes(workers, threads)


def _warn_unguarded(fn: Callable[..., Any] | str) -> None:
    """One warning, at the main script's line that led here: worker processes were asked for,
    and the script runs without a main guard, so the tasks run in this one process."""
    # a warning, not a log record: the library's log is silent until configured, and this is
    # for the script's author (Python shows it once per line of the script)
    import sys
    import warnings

    main = sys.modules["__main__"]
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_globals is not vars(main):
        frame = frame.f_back
    warnings.warn_explicit(
        f"worker processes were asked for ({getattr(fn, '__qualname__', fn)}), but the main script runs without "
        '`if __name__ == "__main__":`; the tasks run in this one process (put the script\'s work under that guard '
        "to use workers)",
        RuntimeWarning,
        frame.f_code.co_filename,
        frame.f_lineno,
        module="__main__",
        registry=frame.f_globals.setdefault("__warningregistry__", {}),
    )


# ----------------------------------------------------------------------------- Ray
_RAY_THREADS: int | None = None


def _ray_task(fn, shared, item, threads):  # pragma: no cover - runs in Ray's workers
    global _RAY_THREADS
    if _RAY_THREADS != threads:
        set_threads(threads)
        _RAY_THREADS = threads
    return fn(shared, item)


def ray_module():
    """``ray``, or a :class:`PuzzleoptError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise MissingExtra("--ray", "scale") from None
    return ray


class Ray(Executor):
    """Tasks on Ray (see the module docstring).

    Args:
        address: ``"auto"`` or ``None``: a local Ray (one already running on this machine, else a
            new one with ``num_cpus``); otherwise a cluster's address (``"ray://host:10001"`` or
            ``"host:6379"``) to join.
        num_cpus: CPUs of a new local Ray (default: this machine's).
        threads: numba/torch threads in each task (default 1; each task asks Ray for one CPU).
    """

    name = "ray"
    shares_files = False

    @property
    def label(self) -> str:
        return f"ray {self.address or 'auto'}"

    def __init__(self, address: str | None = "auto", num_cpus: int | None = None, threads: int = 1) -> None:
        self.address = None if address in (None, "auto") else address
        self.num_cpus = num_cpus
        self.threads = threads
        self._started = False
        self._owned = False  # whether this executor started (or joined) Ray, and so ends it
        self._put: tuple = (None, None)  # the last `shared` and its object reference
        self._reaper = None  # ends what a killed caller's local Ray leaves (exact.executor.reaper)
        self.workers = num_cpus or 1

    def start(self) -> Ray:
        """Connect (or start a local Ray); the map calls this when it has not been called."""
        if self._started:
            return self
        ray = ray_module()
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address is None and self.num_cpus is not None:
                kwargs["num_cpus"] = self.num_cpus
            # watching from before the start: a caller killed while Ray starts leaves nothing either
            self._reaper = _start_reaper() if self.address is None else None
            try:
                ray.init(address=self.address, **kwargs)
            except (ConnectionError, ValueError) as exc:
                self._stop_reaper()
                raise PuzzleoptError(f"--ray {self.address or 'auto'}: cannot start or join Ray: {exc}") from None
            self._owned = True
        self._started = True
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self

    def map(self, fn, items, shared=None, *, retries=RETRIES):
        ray = ray_module()
        fn = importable(fn)
        self.start()
        remote = ray.remote(_ray_task).options(num_cpus=1, max_retries=retries, retry_exceptions=False)
        # once: every task reads the object store's copy (and a map with the same `shared` as the
        # last, as DAVI's every step, reuses it)
        if self._put[1] is None or not _same(shared, self._put[0]):
            self._put = (shared, ray.put(shared))
        ref = self._put[1]
        out = {remote.remote(fn, ref, item, self.threads): i for i, item in enumerate(items)}
        try:
            while out:
                ready, _ = ray.wait(list(out), num_returns=1)
                for r in ready:
                    i = out.pop(r)
                    try:
                        value = ray.get(r)
                    except ray.exceptions.RayTaskError as exc:
                        raise exc.as_instanceof_cause() from None
                    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as exc:
                        raise WorkerLost(f"task {i}: its worker died {retries + 1} times ({exc})") from None
                    yield i, value
        finally:
            # Ctrl-C or an error: the tasks still out are not wanted. A Ray we started goes with
            # close(), its tasks with it, so they are not cancelled: a cancel racing a task's
            # completion can abort the driver (Ray 2.60, task_manager.cc "Check failed: it !=
            # submissible_tasks_.end()"; seen with plain cancels too, and more often forced). On
            # a Ray of the caller's (a cluster, a notebook's) a plain cancel frees its workers.
            if not self._owned:
                for r in out:
                    ray.cancel(r)

    def stream(self, fn, shared=None, *, preload=()) -> Stream:
        from exact.executor.streams import RayStream

        return RayStream(self, importable(fn), shared)

    def close(self) -> None:
        if self._owned:  # a Ray the caller started (a notebook's, a test's) is left running
            ray_module().shutdown()
        self._stop_reaper()
        self._started = self._owned = False
        self._put = (None, None)

    def _stop_reaper(self) -> None:
        if self._reaper is not None:
            self._reaper.terminate()
            self._reaper.wait(timeout=10)
            self._reaper = None

    def blob(self, data: bytes) -> Blob:
        self.start()
        return Blob(hashlib.sha256(data).hexdigest(), ref=(ray_module().put(data),))


def _start_reaper():
    """:mod:`exact.executor.reaper` watching this process (Linux; elsewhere ``None``)."""
    import subprocess
    import sys

    if not sys.platform.startswith("linux"):  # pragma: no cover - it reads /proc
        return None
    cmd = [sys.executable, "-m", "exact.executor.reaper", str(os.getpid())]
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def executor_for(workers: int | None = None, ray: str | None = None, threads: int = 1) -> Executor:
    """The executor for ``workers`` local processes or a ``ray`` address (not started: Ray starts
    on the first map).

    Args:
        workers: Local worker processes (``None`` or 1: in this process); with ``ray``, the CPUs
            of a new local Ray.
        ray: ``"auto"`` (a local Ray) or a cluster's address; ``None``: no Ray.
        threads: numba/torch threads in each worker.

    Raises:
        PuzzleoptError: a worker count below 1 or far above the cores, workers with a cluster's
            address, or Ray asked for where it is not installed.
    """
    if workers is not None and workers < 1:
        raise PuzzleoptError(f"--workers {workers} must be at least 1")
    if ray is not None:
        ray_module()  # fail at once, before any work, where Ray is missing
        if workers is not None and ray != "auto":
            raise PuzzleoptError("--workers with --ray sets a new local Ray's CPUs; a cluster has its own")
        return Ray(ray, num_cpus=workers, threads=threads)
    if workers is None or workers == 1:
        return InProcess()
    if workers > 4 * (os.cpu_count() or 1):
        raise PuzzleoptError(f"--workers {workers} is far more than this machine's {os.cpu_count()} cores")
    return worker_processes(workers, threads, f"{workers} workers")
