"""Facelet strings: round trips, validation of every kind of defect, random states, solved test."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact.errors import FaceletError, PuzzleoptError
from exact.moves import cube_moves
from exact.puzzles.cube import (
    from_facelets,
    is_solved,
    random_state,
    read_cubies,
    rotations,
    scramble,
    solved_state,
    to_facelets,
)
from exact.puzzles.cube.cubies import corner_slots, edge_slots
from exact.puzzles.cube.singmaster import LOCATIONS, format_singmaster, parse_singmaster

SOLVED3 = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


@given(st.integers(2, 7), st.sampled_from(["faces", "layers", "wide"]), st.integers(0, 2**32 - 1))
def test_facelets_round_trip(n: int, moves: str, seed: int) -> None:
    state, _ = scramble(n, 30, np.random.default_rng(seed), moves=moves)
    text = to_facelets(state)
    assert len(text) == 6 * n * n
    assert np.array_equal(from_facelets(text), state)
    assert to_facelets(from_facelets(text)) == text


def test_known_facelets_of_r() -> None:
    t = cube_moves(3)
    assert to_facelets(t.apply(solved_state(3), "R")) == "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"


def test_whitespace_and_colour_letters() -> None:
    net = "\n".join(SOLVED3[i : i + 9] for i in range(0, 54, 9))
    assert np.array_equal(from_facelets(net), solved_state(3))
    white = SOLVED3.translate(str.maketrans("URFDLB", "WRGYOB"))
    assert np.array_equal(from_facelets(white, colors="WRGYOB"), solved_state(3))
    assert to_facelets(solved_state(3), colors="WRGYOB") == white


def _swap(text: str, i: int, j: int) -> str:
    s = list(text)
    s[i], s[j] = s[j], s[i]
    return "".join(s)


def _scrambled(seed: int = 3) -> str:
    return to_facelets(scramble(3, 25, np.random.default_rng(seed))[0])


@pytest.mark.parametrize(
    "text, pattern",
    [
        (SOLVED3[:-1], r"53 letters.*6\*n\*n"),
        (SOLVED3 + "U", "55 letters"),
        ("", "0 letters"),
        (SOLVED3[:10] + "X" + SOLVED3[11:], r"unknown colour letter 'X' at position 11 \(face R, row 1, column 2\)"),
        ("U" + SOLVED3[1:9] + "U" + SOLVED3[10:], "wrong colour counts.*U appears 10 times, R appears 8 times"),
        (_swap(SOLVED3, 4, 13), "centre colours"),
    ],
)
def test_malformed_strings(text: str, pattern: str) -> None:
    with pytest.raises(FaceletError, match=pattern):
        from_facelets(text)


def test_twisted_corner() -> None:
    text = _scrambled()
    a, b, c = corner_slots(3)[0]
    s = list(text)
    s[a], s[b], s[c] = text[c], text[a], text[b]  # turn one corner in place
    with pytest.raises(FaceletError, match="twisted corner"):
        from_facelets("".join(s))


def test_flipped_edge() -> None:
    a, b = edge_slots(3)[5]
    with pytest.raises(FaceletError, match="flipped edge"):
        from_facelets(_swap(_scrambled(), a, b))


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_a_wing_flipped_in_place_is_rejected(n: int) -> None:
    from exact.puzzles.cube.cubies import wing_orbits

    orbits = wing_orbits(n)
    assert len(orbits) == (n - 2) // 2 and all(len(o) == 24 for o in orbits)
    state, _ = scramble(n, 40, np.random.default_rng(n), moves="layers")
    for orbit in orbits:
        a, b = orbit[7]
        with pytest.raises(FaceletError, match="wing edge is flipped in place"):
            from_facelets(_swap(to_facelets(state), a, b))


def test_odd_parity() -> None:
    text = _scrambled()
    (a0, a1), (b0, b1) = edge_slots(3)[0], edge_slots(3)[1]
    swapped = _swap(_swap(text, a0, b0), a1, b1)  # exchange two whole edges
    with pytest.raises(FaceletError, match="odd permutation parity"):
        from_facelets(swapped)


def test_impossible_and_mirrored_pieces() -> None:
    a, b, c = corner_slots(3)[0]
    s = list(SOLVED3)
    s[b] = "B"  # URF corner becomes U B F: no corner has opposite colours
    s[46] = "R"  # keep the counts right: an edge facelet of B becomes R
    with pytest.raises(FaceletError, match="slot URF has colours UBF: no corner"):
        from_facelets("".join(s))
    mirrored = _swap(SOLVED3, b, c)
    with pytest.raises(FaceletError, match="mirrored order"):
        from_facelets(mirrored)


def test_2x2_twist_is_checked() -> None:
    text = to_facelets(solved_state(2))
    a, b, c = corner_slots(2)[3]
    s = list(text)
    s[a], s[b], s[c] = text[b], text[c], text[a]
    with pytest.raises(FaceletError, match="twisted corner"):
        from_facelets("".join(s))


@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 3]))
def test_random_states_are_valid(seed: int, n: int) -> None:
    state = random_state(n, np.random.default_rng(seed))
    assert np.array_equal(from_facelets(to_facelets(state)), state)


def test_random_state_is_seeded_and_spread() -> None:
    a = random_state(3, np.random.default_rng(7))
    b = random_state(3, np.random.default_rng(7))
    assert np.array_equal(a, b)
    rng = np.random.default_rng(8)
    corners = [read_cubies(random_state(3, rng), 3).corner_perm[0] for _ in range(800)]
    counts = np.bincount(corners, minlength=8)
    assert counts.min() > 60  # each of the 8 pieces lands in slot URF about 100 times
    with pytest.raises(PuzzleoptError, match="n = 2 and 3"):
        random_state(4, rng)


@pytest.mark.parametrize("n", range(2, 8))
def test_any_orientation_is_solved(n: int) -> None:
    s = solved_state(n)
    rots = rotations(n)
    assert len(rots) == 24
    assert all(is_solved(s[r], n) for r in rots)
    assert not is_solved(cube_moves(n).apply(s, "R"), n)
    batch = np.stack([s, cube_moves(n).apply(s, "U")])
    assert list(is_solved(batch, n)) == [True, False]


def test_scramble_is_seeded_and_never_cancels() -> None:
    s1, seq1 = scramble(3, 40, np.random.default_rng(11))
    s2, seq2 = scramble(3, 40, np.random.default_rng(11))
    assert seq1 == seq2 and np.array_equal(s1, s2)
    t = cube_moves(3)
    rows = t.parse(seq1)
    assert len(rows) == 40
    for a, b in zip(rows, rows[1:]):
        assert t.layer[a] != t.layer[b] or t.axis[a] != t.axis[b]
    with pytest.raises(PuzzleoptError, match="scramble length"):
        scramble(3, -1, np.random.default_rng(0))


@given(st.integers(0, 2**32 - 1))
def test_singmaster_round_trip(seed: int) -> None:
    state = random_state(3, np.random.default_rng(seed))
    text = format_singmaster(state)
    assert (parse_singmaster(text) == state).all()
    assert format_singmaster(parse_singmaster(text)) == text


def test_singmaster_known_positions() -> None:
    assert format_singmaster(solved_state(3)) == " ".join(LOCATIONS)
    # "cube in a cube", as Reid's manual writes it, is solved by his solver's 18-quarter-turn answer
    cube_in_cube = parse_singmaster("UF UR RD RB LU LF DB DL FR UB DF BL UFR RFD RDB RBU LFU LUB DLB LDF")
    t = cube_moves(3, "faces", "htm")
    assert is_solved(t.apply(cube_in_cube, t.parse("F' R F' U R F' L' U L U F R' F' U F R' F2")), 3)
    # R: UR holds the FR piece (F facelet on U), UFR holds DFR (F on U, D on F, R stays on R)
    r = format_singmaster(t.apply(solved_state(3), "R")).split()
    assert r[1] == "FR" and r[12] == "FDR"


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("UF UR", "20 tokens"),
        ("UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBX", "'DBX' at location DBR"),
        ("UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DB", "'DB' at location DBR"),
        ("FU UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR", "flip"),
    ],
)
def test_singmaster_errors(text: str, pattern: str) -> None:
    with pytest.raises(FaceletError, match=pattern):
        parse_singmaster(text)


def test_singmaster_needs_home_centres() -> None:
    turned = cube_moves(3, "layers", "qtm").apply(solved_state(3), "M")
    with pytest.raises(FaceletError, match="centres home"):
        format_singmaster(turned)
