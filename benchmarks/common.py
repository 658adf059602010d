"""What every benchmark page needs: the machine in words, Markdown tables, the load, and the
instances run on the executor ``--workers``/``--ray`` name (:mod:`exact.executor`)."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import tempfile
from pathlib import Path


def machine() -> str:
    """OS, architecture, CPU model, core count and Python version."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next((ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("Model name")), "")
    except OSError:
        model = ""
    return (
        f"{platform.system()} {platform.machine()}, {model or platform.processor() or '?'}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}"
    )


def markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """The lines of a Markdown table."""
    return ["| " + " | ".join(r) + " |" for r in [header, ["---"] * len(header), *rows]]


def load_meter():
    """A function saying how busy the machine was since this call: shared machines inflate the
    seconds, so every page states the load average at the start and at the end of its run.

    Also reads the commit the page will name (:func:`written_by`) now, at the run's start: the
    code the run loaded, even where the tree is edited while a long run goes on."""
    from exact.provenance import stamp

    stamp()  # cached (exact.provenance.commit)
    start = os.getloadavg()[0]

    def report() -> str:
        return f"load average {start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"

    return report


# ----------------------------------------------------------------------------- pages
SECTIONS_NOTE = (
    "One page, one benchmark: each section below is one configuration of the script, written by the "
    "command it shows with `--section NAME` (its marker); rerunning a configuration replaces its "
    "section and leaves the others as they were. A section recorded before 2026-11-26 was a page of "
    "its own then; its command line is the one that was run (some name that page with `--out`)."
)


def write_page(path: str | Path, lines: list[str] | str, section: str | None = None, title: str = "") -> Path:
    """Write a benchmark page atomically (a temporary file renamed over it: a Ctrl-C leaves the
    old page or the new one, never half of one); a Markdown page (or section) ends with the
    version and commit that wrote it (:func:`written_by`).

    Args:
        path: the page.
        lines: its text (a string or lines joined by newlines). With ``section``, the text of
            that section; its leading ``#`` heading becomes a ``##`` one.
        section: the page holds one section per configuration of its benchmark, between
            ``<!-- section NAME -->`` and ``<!-- end section NAME -->``: this one is replaced
            in place, or appended when the page has none of that name yet.
        title: with ``section``, the page's ``#`` heading when the page does not exist yet.

    Returns:
        The page's path.
    """
    path = Path(path)
    text = lines if isinstance(lines, str) else "\n".join(lines)
    text = text.rstrip("\n") + "\n"
    if path.suffix == ".md":
        text += f"\n{written_by()}\n"
    if section is None and path.exists():  # the page anew: its plots (benchmarks/plots.py) stay
        kept = re.search(r"<!-- section plots -->\n.*?<!-- end section plots -->\n", path.read_text(), re.S)
        text += f"\n{kept.group(0)}" if kept else ""
    if section is not None:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", section):
            raise ValueError(f"--section {section!r}: use letters, digits, '.', '_' and '-'")
        text = _with_section(path.read_text() if path.exists() else f"# {title}\n\n{SECTIONS_NOTE}\n", section, text)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _with_section(page: str, name: str, body: str) -> str:
    """``page`` with section ``name`` set to ``body``: its headings one level down, the first
    one naming the section."""
    body = re.sub(r"^(#+) ", r"#\1 ", body, flags=re.M)
    body = re.sub(r"\A## (?:Benchmark: )?", f"## Section {name}: ", body)
    block = f"<!-- section {name} -->\n{body}<!-- end section {name} -->\n"
    found = re.compile(rf"<!-- section {re.escape(name)} -->\n.*?<!-- end section {re.escape(name)} -->\n", re.S)
    if found.search(page):
        return found.sub(lambda _: block, page, count=1)
    return page.rstrip("\n") + "\n\n" + block


def written_by() -> str:
    """The page's last line: the puzzleopt version and commit that wrote it."""
    from exact.provenance import stamp

    made = stamp()
    return f"Written by puzzleopt {made['puzzleopt']}" + (f" at commit {made['commit']}." if "commit" in made else ".")


def add_section_option(ap) -> None:
    """``--section NAME``: which section of the benchmark's one page this run writes."""
    ap.add_argument(
        "--section", default="main",
        help="the section of the page this run writes (replaced in place; default: main)",
    )  # fmt: skip


# ----------------------------------------------------------------------------- instances on workers
def add_worker_options(ap, older: str | None = None) -> None:
    """``--workers N`` and ``--ray [ADDRESS]`` (:mod:`exact.executor`): where the instances run.
    The default, one after the other in this process, is what the recorded pages used unless
    they say otherwise. ``older``: the benchmark's earlier name of ``--workers`` (``"--jobs"``)."""
    from exact.cli.options import add_executor_options

    add_executor_options(ap, "the instances", older=older)


def worker_flags(args) -> str:
    """``--workers``/``--ray`` as given (with a leading space), for a page's command line."""
    out = ""
    if getattr(args, "ray", None) is not None:
        out += " --ray" if args.ray == "auto" else f" --ray {args.ray}"
    if getattr(args, "workers", None) is not None:
        out += f" --workers {args.workers}"
    return out


def workers_text(args, what: str = "instances") -> str:
    """How ``what`` (the instances) ran, in words, for a page's header."""
    workers = getattr(args, "workers", None)
    if getattr(args, "ray", None) is not None:
        where = "a new local Ray" if args.ray == "auto" else f"the Ray cluster at {args.ray}"
        cpus = f" with {workers} CPUs" if workers else ""
        return f"{what} as Ray tasks on {where}{cpus} (the seconds of each are its task's own)"
    if workers is not None and workers > 1:
        return (
            f"{what} on {workers} worker processes, one each at a time (the seconds of each are its worker's "
            "own, on cores the workers share)"
        )
    return f"{what} one after the other in this process"


def open_executor(args, threads: int = 1):
    """The executor ``--workers``/``--ray`` name (:func:`exact.executor.executor_from`), to be
    used as a context manager around every :func:`run_instances` of one benchmark: a pool (or a
    local Ray) is started once, not once per set. ``threads``: numba's and torch's in each worker."""
    from exact.cli.options import executor_from

    return executor_from(args, threads=threads)


def run_instances(
    executor,
    fn,
    shared,
    items: list,
    ids: list | None = None,
    *,
    desc: str = "instances",
    on_result=None,
    progress: bool = True,
) -> list:
    """``fn(shared, item)`` for every item on ``executor`` (:func:`exact.batch.run_batch`: results
    as they come, ``on_result(index, result)`` on each), then the results in item order. ``fn``
    must be a module-level function of an importable module (``benchmarks.<name>``), ``shared``
    and the items picklable. A Ctrl-C stops the benchmark: KeyboardInterrupt is raised again
    once the tasks still out are cancelled."""
    from exact.batch import run_batch

    ids = [str(i) for i in (ids if ids is not None else range(len(items)))]
    index = {ident: k for k, ident in enumerate(ids)}
    run = run_batch(
        executor, fn, items, ids, shared, desc=desc, progress=progress,
        on_result=None if on_result is None else (lambda ident, value: on_result(index[ident], value)),
    )  # fmt: skip
    if run.interrupted:
        raise KeyboardInterrupt
    return run.in_order()


def in_order(callback):
    """An ``on_result`` for :func:`run_instances` that calls ``callback(index, result)`` in item
    order: a result that comes early waits for those before it (a page then grows in its order)."""
    pending: dict = {}
    nxt = [0]

    def take(k, value) -> None:
        pending[k] = value
        while nxt[0] in pending:
            callback(nxt[0], pending.pop(nxt[0]))
            nxt[0] += 1

    return take


_ONCE: dict = {}


def once(key, thunk):
    """``thunk()`` the first time ``key`` is seen in this process (a worker's warm-up: tables
    loaded, kernels compiled), so that no instance's seconds carry it; its value after."""
    if key not in _ONCE:
        _ONCE[key] = thunk()
    return _ONCE[key]
