"""The tutorial notebooks in docs/notebooks run from top to bottom in a real Jupyter kernel."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_there():
    assert {p.name for p in NOTEBOOKS} >= {"cube_as_a_mip.ipynb", "is_my_solver_optimal.ipynb"}


def test_the_notebooks_are_stored_without_outputs_and_the_docs_build_runs_them():
    nbformat = pytest.importorskip("nbformat")
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        assert all(c.cell_type != "code" or not c.outputs for c in nb.cells), f"{path.name}: stored with outputs"
    config = (ROOT / "mkdocs.yml").read_text()
    assert "execute: true" in config and "allow_errors: false" in config, "make docs must run the notebooks"


# Slow: `make docs` (CI runs it after `make test`) executes every notebook too, and fails on any
# error in a cell (mkdocs.yml: mkdocs-jupyter, allow_errors false): CI runs them once, there.
# This test adds what a build does not check (stored without outputs; a plot, a result card and
# a picture shown) and runs in `make test-all`.
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_notebook_runs(path, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(path, as_version=4)
    if any("import torch" in c.source for c in nb.cells if c.cell_type == "code"):
        pytest.importorskip("torch")
    for cell in nb.cells:  # stored without outputs: what runs here is what a reader runs
        assert cell.cell_type != "code" or not cell.outputs, f"{path.name}: stored with outputs"
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error
    shown = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    kinds = {k for o in shown for k in o.get("data", {})}
    assert {"image/png", "text/html", "image/svg+xml"} <= kinds  # a plot, a result card, a picture
