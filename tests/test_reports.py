"""Rates in reports (exact/rates.py: Wilson intervals, tables by length) and certify_many
(hybrid/many.py: certificates matched by id, on any executor)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact import registry
from exact.errors import PuzzleoptError
from exact.executor import Processes
from exact.rates import Rate, by_length, wilson
from hybrid import certify_many
from hybrid.report import length_tables, markdown, summarise


@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_equals_scipys(kn) -> None:
    stats = pytest.importorskip("scipy.stats")
    k, n = kn
    ours = wilson(k, n)
    theirs = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert ours == pytest.approx((theirs.low, theirs.high), abs=1e-12)


def test_wilson_at_the_edges() -> None:
    assert wilson(0, 20)[0] == 0.0 and wilson(0, 20)[1] == pytest.approx(0.1611, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="not within 0..3"):
        wilson(4, 3)
    assert str(Rate(420, 500)) == "84.0% (80.5-87.0%, 420/500)" and str(Rate(0, 0)) == "-"


def test_by_length_groups_and_sorts() -> None:
    rows = by_length([(22, True, 0), (20, False, 2), (22, False, 2), (20, False, None)])
    assert [(r.length, r.optimal.successes, r.optimal.n, r.mean_gap) for r in rows] == [
        (20, 0, 2, 2.0),
        (22, 1, 2, 1.0),
    ]


# ----------------------------------------------------------------------------- certify_many
BOARDS = {  # id: (board, its optimal length)
    "a": ("1 0 2 3 4 5 6 7 8", 1),
    "b": ("1 2 0 3 4 5 6 7 8", 2),
    "c": ("3 1 2 0 4 5 6 7 8", 1),
    "d": ("1 4 2 3 0 5 6 7 8", 2),
}


@pytest.fixture(scope="module")
def tiles8():
    return registry.get("tiles8")


def test_certificates_are_matched_by_id_whatever_the_order(tiles8) -> None:
    ids = list(BOARDS)
    states = [BOARDS[i][0] for i in ids]
    solutions = {"d": "U L R L", "b": "L L", "a": "R"}  # c: none; a: does not solve
    certs = certify_many(tiles8, states, solutions, ids, known_optimal=[BOARDS[i][1] for i in ids])
    assert [c.id for c in certs] == ids
    assert [c.verdict for c in certs] == ["invalid", "optimal", "no_solution", "suboptimal"]
    assert certs[3].gap == 2 and certs[3].best_length == 2 and certs[3].gap_exact
    assert not [c for c in certs if c.contradiction()]


def test_a_process_pool_gives_the_same_certificates(tiles8) -> None:
    states = [b for b, _ in BOARDS.values()]
    solutions = ["L", "L L", "U", "U L R L"]
    here = certify_many(tiles8, states, solutions)
    with Processes(2) as pool:
        there = certify_many(tiles8, states, solutions, executor=pool)
    assert [(c.id, c.verdict, c.best_length) for c in here] == [(c.id, c.verdict, c.best_length) for c in there]


@pytest.mark.parametrize(
    "solutions, ids, message",
    [
        (["L"], None, "give one per start"),
        ({"zz": "L"}, None, "ids zz name no start"),
        (["L", "L"], ["x", "x"], "distinct ids"),
    ],
)
def test_mismatched_solutions_are_refused(tiles8, solutions, ids, message) -> None:
    states = ["1 0 2 3 4 5 6 7 8", "1 2 0 3 4 5 6 7 8"]
    with pytest.raises(PuzzleoptError, match=message):
        certify_many(tiles8, states, solutions, ids)


def test_a_bad_start_is_named(tiles8) -> None:
    with pytest.raises(PuzzleoptError, match="start 1:"):
        certify_many(tiles8, ["1 0 2 3 4 5 6 7 8", "1 1 2 3 4 5 6 7 8"], ["L", "L"])


def test_the_summary_gives_the_interval_and_the_table_by_optimal_length(tiles8) -> None:
    states = [b for b, _ in BOARDS.values()]
    certs = certify_many(tiles8, states, ["L", "L L", "U", "U L R L"])
    s = summarise(certs)
    assert s["optimal"]["successes"] == 3 and s["optimal"]["wilson95"] == list(wilson(3, 4))
    assert [(r["length"], r["optimal"]["n"]) for r in s["by_optimal_length"]] == [(1, 2), (2, 2)]
    assert "75.0% (30.1-95.4%, 3/4)" in markdown(s)
    assert "| optimal length | instances | optimal (95% Wilson) | mean gap |" in length_tables(s)
