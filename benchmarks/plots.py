"""Plots beside the benchmark pages' tables, drawn from the data the pages were written from.

Writes a ``plots`` section into each page it draws for (``benchmarks.common.write_page``) and the
pictures into ``docs/benchmarks/img/``. Usage::

    python benchmarks/plots.py            # every page below
    python benchmarks/plots.py --pages ida

Pages and what is drawn:

* ``ida``: nodes against optimal length, per pattern database, on Korf's 100 and DeepCubeA's 500
  15-puzzles (``docs/benchmarks/data/ida_main.tsv``), the time per instance beside it;
* ``mip``: ``python -m exact.mip --size 3 --turns 8`` against CP-SAT, seconds per seed, and their
  ratio (the table of the page's ``main`` section);
* ``pancake``: mean nodes generated per n beside Helmert's (2010) and the ratio (the page's table);
* ``learned_cube3``: the optimal share (95% Wilson) and the mean length per search (its first table);
  the optimal share against the beam width and the training states (its curve section).

No run is made: a plot is only as new as its data, and its caption names the data.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import write_page  # noqa: E402
from exact.atomic import write_chunks  # noqa: E402
from exact.plots import new_figure, png_bytes  # noqa: E402

PAGES = ROOT / "docs" / "benchmarks"
IMG = PAGES / "img"


def _drawn(fig, page: str, alt: str, caption: str) -> list[str]:
    """Save ``fig`` as ``img/<page>.png`` and give the page's plots section: the picture and its caption."""
    fig.tight_layout()
    IMG.mkdir(parents=True, exist_ok=True)
    write_chunks(IMG / f"{page}.png", [png_bytes(fig)])
    return [
        "# the data above, drawn",
        "",
        f"![{alt}](img/{page}.png)",
        "",
        f"{caption} Drawn by `python benchmarks/plots.py --pages {page}`.",
    ]


def ida_plots() -> list[str]:
    """Nodes and seconds against optimal length, per heuristic and set."""
    rows = list(csv.DictReader((PAGES / "data" / "ida_main.tsv").open(), delimiter="\t"))
    series: dict[tuple[str, str], list[tuple[int, int, float]]] = defaultdict(list)
    for r in rows:
        series[(r["set"], r["heuristic"])].append((int(r["length"]), int(r["nodes"]), float(r[list(r)[-1]])))
    fig = new_figure(10, 4)
    nodes_ax, secs_ax = fig.subplots(1, 2)
    for (set_name, heuristic), points in sorted(series.items()):
        marker = "o" if set_name == "korf100" else "."
        label = f"{heuristic}, {set_name}"
        nodes_ax.scatter([p[0] for p in points], [p[1] for p in points], s=10, marker=marker, label=label, alpha=0.6)
        secs_ax.scatter([p[0] for p in points], [p[2] for p in points], s=10, marker=marker, label=label, alpha=0.6)
    for ax, what in ((nodes_ax, "nodes generated"), (secs_ax, "seconds (median of 3)")):
        ax.set_yscale("log")
        ax.set_xlabel("optimal length")
        ax.set_ylabel(what)
    nodes_ax.legend(fontsize=7)
    fig.suptitle("IDA* with pattern databases on the 15-puzzle, one point per instance")
    return _drawn(
        fig,
        "ida",
        "IDA* nodes and seconds against optimal length",
        "Every instance of section `main`'s run (`docs/benchmarks/data/ida_main.tsv`: Korf's 100, circles; "
        "DeepCubeA's 500, dots), by heuristic.",
    )


def _table(section: str, text: str) -> list[list[str]]:
    """The rows of the first Markdown table of ``section`` in a page's text."""
    body = (
        re.search(rf"<!-- section {section} -->\n(.*?)<!-- end section {section} -->", text, re.S) if section else None
    )
    lines: list[str] = []
    for ln in (body.group(1) if body else text).splitlines():
        if ln.startswith("|"):
            lines.append(ln)
        elif lines:  # the first table ended
            break
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[2:]]


def mip_plots() -> list[str]:
    """MIP and CP-SAT seconds per seed, and their ratio."""
    text = (PAGES / "mip.md").read_text()
    rows = _table("main", text)
    seeds = [int(r[1]) for r in rows]
    mip = [float(r[5].split()[0]) for r in rows]
    cpsat = [float(r[10].split()[0]) for r in rows]
    fig = new_figure(10, 3.5)
    secs_ax, ratio_ax = fig.subplots(1, 2)
    width = 0.4
    secs_ax.bar([s - width / 2 for s in seeds], mip, width, label="python -m exact.mip (HiGHS, split proof)")
    secs_ax.bar([s + width / 2 for s in seeds], cpsat, width, label="python -m exact.cpsat (2 workers)")
    secs_ax.set_xlabel("seed")
    secs_ax.set_ylabel("seconds, median of 3 (whole command)")
    secs_ax.set_xticks(seeds)
    secs_ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    ratio_ax.bar(seeds, [m / c for m, c in zip(mip, cpsat)], color="gray")
    ratio_ax.set_xlabel("seed")
    ratio_ax.set_ylabel("MIP / CP-SAT")
    ratio_ax.set_xticks(seeds)
    fig.suptitle(_mip_title(text, rows))
    return _drawn(
        fig,
        "mip",
        "MIP and CP-SAT seconds per seed",
        "Section `main`'s table, drawn: seconds of each command per seed and their ratio.",
    )


def _mip_title(text: str, rows: list[list[str]]) -> str:
    """The plot's title from the section it draws: move set, horizon, and what the runs proved."""
    body = re.search(r"<!-- section main -->\n(.*?)<!-- end section main -->", text, re.S)
    horizon = re.search(r"T = (\d+)", body.group(1) if body else text)
    moves = ", ".join(sorted({r[0] for r in rows}))
    proved = all(r[2] == "optimal" for r in rows) and all(r[3] == r[9] for r in rows)
    verdict = "proven optimal by both" if proved else "not every run proven optimal by both"
    turns = f"scrambles of {horizon.group(1)} moves" if horizon else "scrambles"
    return f"3x3 ({moves}), {turns}: {verdict}"


def pancake_plots() -> list[str]:
    """Mean nodes generated per n, ours and Helmert's, and their ratio."""
    rows = _table("", (PAGES / "pancake.md").read_text())
    n = [int(r[0]) for r in rows]
    ours = [float(r[5].replace(",", "")) for r in rows]
    his = [float(r[6].replace(",", "")) for r in rows]
    fig = new_figure(10, 3.5)
    nodes_ax, ratio_ax = fig.subplots(1, 2)
    nodes_ax.plot(n, ours, "o-", label="ours (generic IDA*, gap heuristic)")
    nodes_ax.plot(n, his, "s--", label="Helmert 2010, Table 1")
    nodes_ax.set_yscale("log")
    nodes_ax.set_xlabel("pancakes n")
    nodes_ax.set_ylabel("mean nodes generated")
    nodes_ax.legend(fontsize=7)
    ratio_ax.bar([str(k) for k in n], [a / b for a, b in zip(ours, his)], color="gray")
    ratio_ax.axhline(1.0, color="black", linewidth=0.8)
    ratio_ax.set_xlabel("pancakes n")
    ratio_ax.set_ylabel("ours / Helmert's")
    fig.suptitle("Random pancake stacks, IDA* with the gap heuristic: the same search, node counts compared")
    return _drawn(
        fig,
        "pancake",
        "Mean nodes generated, ours and Helmert's",
        "The page's table, drawn: mean nodes generated per n beside Helmert's, and the ratio.",
    )


def learned_cube3_plots() -> list[str]:
    """The share of optimal solutions (95% Wilson interval) and the mean length per search."""
    from exact.rates import wilson

    rows = [r for r in _table("", (PAGES / "learned_cube3.md").read_text()) if r[1].replace(",", "").isdigit()]
    labels, shares, lows, highs, lengths, optimum = [], [], [], [], [], []
    for r in rows:
        n, share = int(r[1].replace(",", "")), float(r[4].rstrip("%")) / 100
        low, high = wilson(round(share * n), n)
        name = r[0].replace(" (published)", "*").split("/")[-1]
        labels.append(name.replace("model.safetensors ", "").replace("model-all.safetensors ", ""))
        shares.append(share)
        lows.append(share - low)
        highs.append(high - share)
        lengths.append(float(r[3]))
        optimum.append(float(r[5]) if r[5] else None)
    fig = new_figure(11, 8.5)
    (share_ax, length_ax), (w_ax, states_ax) = fig.subplots(2, 2, gridspec_kw={"height_ratios": [1.2, 1]})
    ys = list(range(len(labels)))
    share_ax.barh(ys, shares, xerr=[lows, highs], color="tab:blue", capsize=3)
    share_ax.set_yticks(ys, labels, fontsize=6)
    share_ax.invert_yaxis()
    share_ax.set_xlabel("share of cubes solved optimally (95% Wilson)")
    length_ax.barh(ys, lengths, color="tab:orange", label="mean length")
    length_ax.scatter([o for o in optimum if o is not None], [y for y, o in zip(ys, optimum) if o is not None],
                      color="black", marker="|", s=200, label="optimal mean of the same cubes", zorder=3)  # fmt: skip
    length_ax.set_yticks(ys, [""] * len(ys))
    length_ax.invert_yaxis()
    length_ax.set_xlim(18, max(lengths) + 1)
    length_ax.set_xlabel("mean solution length (QTM)")
    length_ax.legend(fontsize=7)
    page = (PAGES / "learned_cube3.md").read_text()
    _curves(w_ax, states_ax, page)
    _chain(states_ax, page)
    fig.suptitle("The learned 3x3 on DeepCubeA's cubes (* published figures, 1,000 cubes)")
    return _drawn(
        fig,
        "learned_cube3",
        "Optimal share and mean length per search; the optimal share against W and training states",
        "The first table, drawn: the optimal share with its 95% Wilson interval (wide where the cubes are "
        "few) and the mean length beside the optimal mean of the same cubes. Below, the curve section's "
        "table: the optimal share of the first 10 cubes against the beam width (hollow: fewer cubes, or "
        "searched on a GPU) and against the network's training states, with issue 68's chain "
        "(DeepCubeA's cubes 0-99 at W = 2^16 on a GPU, 95% Wilson) beside them.",
    )


def _curves(w_ax, states_ax, text: str) -> None:
    """The page's curve table: optimal share against log2 W per network, and against training states per W."""
    rest = text.partition("## The curve")[2]
    rows = _table("", rest)
    header = next(ln for ln in rest.splitlines() if ln.startswith("| network"))
    cols = [c.strip() for c in header.strip("|").split("|")][2:]
    by_w: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for r in rows:
        states = float(r[1].rstrip("M").replace(",", "")) * 1e6
        points = [(int(c.split("^")[1].split()[0]), float(v.split("%")[0]) / 100, "(" in v or "GPU" in c)
                  for c, v in zip(cols, r[2:]) if v]  # fmt: skip
        line = w_ax.plot([p[0] for p in points], [p[1] for p in points], "-", label=f"{r[0]}, {r[1]}")[0]
        for x, y, hollow in points:
            w_ax.plot([x], [y], "o", color=line.get_color(), markerfacecolor="white" if hollow else line.get_color())
        for c, v in zip(cols, r[2:]):
            if v and "(" not in v and "GPU" not in c:
                by_w[c].append((states, float(v.split("%")[0]) / 100, r[0].rsplit("(", 1)[-1].rstrip(")")))
    w_ax.set_xlabel("beam width W (log2), ball 6")
    w_ax.set_ylabel("optimal share, first 10 cubes")
    w_ax.set_ylim(-0.02, 1.02)
    w_ax.legend(fontsize=6)
    for c, pts in sorted(by_w.items()):  # a line through the diffusion networks; the others marked apart
        pts.sort()
        line = states_ax.plot([p[0] for p in pts if p[2] == "diffusion"], [p[1] for p in pts if p[2] == "diffusion"],
                              "o-", label=f"{c}, diffusion")[0]  # fmt: skip
        for x, y, objective in pts:
            if objective != "diffusion":
                states_ax.plot([x], [y], "x", color=line.get_color(), markersize=8)
                states_ax.annotate(objective, (x, y), fontsize=6, textcoords="offset points", xytext=(4, 4))
    states_ax.set_xscale("log")
    states_ax.set_xlabel("training states of the network (log)")
    states_ax.set_ylabel("optimal share (first 10 cubes; chain: 100)")
    states_ax.set_ylim(-0.02, 1.02)
    states_ax.legend(fontsize=7)


def _chain(states_ax, text: str) -> None:
    """The GPU section's chain table (100 cubes at one W): optimal share against training states."""
    rest = text.partition("The chain's curve")[2]
    rows = _table("", rest) if rest else []
    if not rows:
        return
    states = [float(r[1].rstrip("M").replace(",", "")) * 1e6 for r in rows]
    shares = [float(r[3].split("%")[0]) / 100 for r in rows]
    bounds = [[float(x.rstrip("%")) / 100 for x in r[3].split("(")[1].rstrip(")").split("-")] for r in rows]
    err = [[s - lo for s, (lo, _) in zip(shares, bounds)], [hi - s for s, (_, hi) in zip(shares, bounds)]]
    states_ax.errorbar(states, shares, yerr=err, fmt="s--", color="black", capsize=3,
                       label="chain: cubes 0-99, W = 2^16 (GPU)")  # fmt: skip
    states_ax.legend(fontsize=7)


DRAW = {"ida": ida_plots, "mip": mip_plots, "pancake": pancake_plots, "learned_cube3": learned_cube3_plots}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default=",".join(DRAW), help=f"comma-separated, of {', '.join(DRAW)}")
    args = ap.parse_args(argv)
    for page in args.pages.split(","):
        if page not in DRAW:
            ap.error(f"--pages: no plots for {page!r}; the pages are {', '.join(DRAW)}")
        write_page(PAGES / f"{page}.md", DRAW[page](), section="plots")
        print("wrote the plots section of", PAGES / f"{page}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
