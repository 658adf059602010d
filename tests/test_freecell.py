"""FreeCell: Microsoft's deals against pysol-cards, board text against fc-solve, the move generator
against a separately written reference of the rules, notation and replay, and the exhaustive
search (deal 11982 proven unsolvable)."""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import cli
from exact.errors import NotationError, PuzzleoptError, ReplayError, StateError
from exact.freecell import prove, solve_freecell
from exact.freecell.__main__ import main as freecell_main
from exact.puzzles.freecell import (
    FREECELL0,
    HOME,
    MAX_DEAL,
    NAMES,
    Board,
    FreeCellPuzzle,
    FreeCellTable,
    Move,
    apply_move,
    autoplay,
    capacity,
    card,
    decode_board,
    encode_board,
    format_board,
    format_move,
    format_moves,
    is_safe,
    legal_moves,
    ms_deal,
    parse_board,
    parse_card,
    parse_move,
    parse_moves,
    play,
    read_move,
    replay,
    successors,
    why_illegal,
)
from exact.result import SolveResult, Status

FAST = settings(max_examples=30, deadline=None)
THOROUGH = settings(max_examples=100, deadline=None)  # random games end early with few free cells
FC_SOLVE = shutil.which("fc-solve")
needs_fc_solve = pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve (freecell-solver) is not installed")

# Published deals, as fc-solve's make-microsoft-freecell-board -t prints them.
DEAL_1 = """\
JD KD 2S 4C 3S 6D 6S
2D KC KS 5C TD 8S 9C
9H 9S 9D TS 4S 8D 2H
JC 5S QD QH TH QS 6H
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D TC
"""
DEAL_11982 = """\
AH 3D KD JC 6C JD KC
AS 3H 6H 5D 2C 7D 8D
4H QS 5S 5C TH 8H 2S
AC QC 4D 8C QH 9C 3S
2D 8S 9H 9D 6D 2H
6S 7H JH TD TC QD
TS AD 9S KH 4S 4C
JS KS 3C 7C 7S 5H
"""
DEAL_11982_STATES = 61643
"""Distinct positions (after safe moves home, up to symmetry) reachable in deal 11982 by single-card moves."""


def cascade_text(board: Board) -> str:
    return "".join(" ".join(NAMES[c] for c in col) + "\n" for col in board.cascades)


def walk(deal: int, freecells: int, steps: int, rng: np.random.Generator):
    """Boards of a random game: a random legal move a step, a move home half the time there is one."""
    board = ms_deal(deal, freecells)
    yield board
    for _ in range(steps):
        moves = legal_moves(board)
        if not moves:
            return
        home = [m for m in moves if m.dst == HOME]
        pick = home if home and rng.random() < 0.5 else moves
        board = play(board, pick[int(rng.integers(len(pick)))])
        yield board


games = st.tuples(
    st.integers(1, MAX_DEAL), st.integers(0, 7), st.integers(0, 150), st.integers(0, 2**32 - 1)
)  # deal, free cells, steps, seed


# ---------------------------------------------------------------- a separate reference of the rules
# Written on card names and notation characters, sharing nothing with the package but the names.
REF_RANKS = "A23456789TJQK"


def ref_state(board: Board) -> tuple[list[list[str]], list[str | None], dict[str, int]]:
    cells = [None if c is None else NAMES[c] for c in board.freecells]
    return [[NAMES[c] for c in col] for col in board.cascades], cells, dict(zip("CDHS", board.foundations))


def ref_rank(name: str) -> int:
    return REF_RANKS.index(name[0]) + 1


def ref_red(name: str) -> bool:
    return name[1] in "DH"


def ref_goes_on(name: str, onto: str) -> bool:
    return ref_rank(onto) == ref_rank(name) + 1 and ref_red(onto) != ref_red(name)


def ref_legal(state) -> set[tuple[str, str, int]]:
    """Every legal move as (source, destination, cards), in notation characters."""
    cascades, cells, home = state
    letters = "abcdefg"
    free = sum(c is None for c in cells)
    empty = sum(not col for col in cascades)
    out = set()
    sources = [(str(i + 1), col[-1]) for i, col in enumerate(cascades) if col]
    sources += [(letters[k], c) for k, c in enumerate(cells) if c is not None]
    for src, name in sources:
        if home[name[1]] == ref_rank(name) - 1:
            out.add((src, "h", 1))
        for j, col in enumerate(cascades):
            if str(j + 1) != src and (not col or ref_goes_on(name, col[-1])):
                out.add((src, str(j + 1), 1))
        if src.isdigit():
            out |= {(src, letters[k], 1) for k, c in enumerate(cells) if c is None}
    for i, col in enumerate(cascades):
        for n in range(2, len(col) + 1):
            moving = col[-n:]
            if not all(ref_goes_on(moving[k + 1], moving[k]) for k in range(n - 1)):
                break
            for j, dest in enumerate(cascades):
                if j == i or (dest and not ref_goes_on(moving[0], dest[-1])):
                    continue
                if n <= (free + 1) * 2 ** (empty - (0 if dest else 1)):
                    out.add((str(i + 1), str(j + 1), n))
    return out


def ref_play(state, move: tuple[str, str, int]):
    cascades, cells, home = [list(c) for c in state[0]], list(state[1]), dict(state[2])
    src, dst, n = move
    if src.isdigit():
        moving = cascades[int(src) - 1][-n:]
        del cascades[int(src) - 1][-n:]
    else:
        moving = [cells["abcdefg".index(src)]]
        cells["abcdefg".index(src)] = None
    if dst == "h":
        home[moving[0][1]] += 1
    elif dst.isdigit():
        cascades[int(dst) - 1] += moving
    else:
        cells["abcdefg".index(dst)] = moving[0]
    return cascades, cells, home


def ref_safe(name: str, home: dict[str, int]) -> bool:
    r = ref_rank(name)
    if home[name[1]] != r - 1:
        return False
    other = "CS" if ref_red(name) else "DH"
    return r <= 2 or all(home[s] >= r - 1 for s in other)


def chars(move: Move) -> tuple[str, str, int]:
    def loc(x: int) -> str:
        return str(x + 1) if x < 8 else "h" if x == HOME else "abcdefg"[x - FREECELL0]

    return loc(move.src), loc(move.dst), move.count


# ---------------------------------------------------------------- cards and deals
def test_cards() -> None:
    assert [NAMES[card(r, s)] for r, s in [(1, 3), (10, 1), (13, 2)]] == ["AS", "TD", "KH"]
    assert parse_card("10d") == parse_card("TD") == card(10, 1)
    assert all(parse_card(NAMES[c]) == c for c in range(52))
    for bad in ["1S", "AX", "KHH", "", "11C"]:
        with pytest.raises(StateError, match="cannot read card"):
            parse_card(bad)


def test_published_deals() -> None:
    assert cascade_text(ms_deal(1)) == DEAL_1
    assert cascade_text(ms_deal(11982)) == DEAL_11982
    for bad in [0, -1, MAX_DEAL + 1, 1.0, True]:
        with pytest.raises(StateError, match="deal numbers are 1"):
            ms_deal(bad)
    with pytest.raises(StateError, match="freecells must be 0..7"):
        ms_deal(1, 8)


def test_deals_equal_pysol_cards() -> None:
    pytest.importorskip("pysol_cards", reason="pysol-cards is not installed (the dev extra installs it)")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    rng = np.random.default_rng(20240909)
    deals = [1, 2, 617, 11982, 32000, MAX_DEAL]
    deals += rng.integers(1, 32001, 100).tolist() + rng.integers(32001, MAX_DEAL + 1, 100).tolist()
    renderer = CardRenderer(True)  # T for ten
    for deal in deals:
        theirs = Game("freecell", deal, RandomBase.DEALS_MS).calc_layout_string(renderer)
        assert cascade_text(ms_deal(deal)) == theirs, deal


# ---------------------------------------------------------------- board text
def test_format_is_fc_solve_layout() -> None:
    board = play(play(ms_deal(1), Move(4, FREECELL0 + 1)), Move(4, FREECELL0 + 3))
    text = format_board(board)
    assert text.splitlines()[:3] == [
        "Foundations: H-0 C-0 D-0 S-0 ",
        "Freecells:      6C      8H",
        ": JD KD 2S 4C 3S 6D 6S",
    ]
    assert parse_board(text) == board
    solved = Board(((),) * 8, (None,) * 4, (13, 13, 13, 13))
    assert format_board(solved) == "Foundations: H-K C-K D-K S-K \nFreecells:                \n" + ": \n" * 8


@FAST
@given(games)
def test_board_text_round_trips(game) -> None:
    deal, freecells, steps, seed = game
    *_, board = walk(deal, freecells, steps, np.random.default_rng(seed))
    assert parse_board(format_board(board), freecells) == board
    assert decode_board(encode_board(board)) == board


def test_board_text_variants() -> None:
    # fc-solve's README forms: "Founds:"/"FC:", "-" for an empty cell, 10 for T, no leading colons.
    gone = {parse_card(n) for n in ("AH", "2H", "AC", "TC", "KH")}
    cascades = tuple(tuple(c for c in col if c not in gone) for col in ms_deal(1).cascades)
    expected = Board(cascades, (parse_card("TC"), None, parse_card("KH")), (1, 0, 2, 0))
    text = "Founds: H-2 S-0 C-A\nFC: 10C - KH\n" + cascade_text(expected).replace("T", "10")
    assert parse_board(text, freecells=3) == expected
    assert parse_board("\n\n" + DEAL_1 + "\n") == ms_deal(1)
    # fc-solve's own layout keeps each card's cell; single-spaced cards fill the cells from a.
    assert parse_board("Freecells:      6C\n" + DEAL_1.replace(" 6C", "")).freecells == (None, card(6, 0), None, None)
    assert parse_board("Freecells: 6C\n" + DEAL_1.replace(" 6C", "")).freecells == (card(6, 0), None, None, None)
    # Free-cell lines with trailing empty cells beyond the game's cells are fine.
    assert parse_board("Freecells:  6C            \n" + DEAL_1.replace(" 6C", ""), freecells=1).freecells == (
        card(6, 0),
    )


@pytest.mark.parametrize(
    ("text", "freecells", "message"),
    [
        (DEAL_1.replace("KD", "KS", 1), 4, "card KS appears twice: in cascade 1 and in cascade 2"),
        (DEAL_1.replace(" 6S\n", "\n", 1), 4, r"1 card\(s\) missing: 6S"),
        (DEAL_1.replace("9S", "XZ"), 4, "line 3, token 2: cannot read card 'XZ'"),
        ("\n".join(DEAL_1.splitlines()[:7]), 4, r"7 cascade line\(s\), expected 8"),
        (DEAL_1 + ":\n", 4, "line 9: ':' would be cascade 9; a board has 8 cascades"),
        ("Freecells: AS 2S 3S 4S 5S\n" + DEAL_1, 4, r"fills 5 cell\(s\), but the game has 4 free cell\(s\)"),
        ("Foundations: H-X\n" + DEAL_1, 4, "line 1, token 1: cannot read foundation 'H-X'"),
        ("Foundations: H-2 H-3\n" + DEAL_1, 4, "suit H is on the foundations line twice"),
        ("Foundations: H-2\n" + DEAL_1, 4, "card 2H appears twice: in foundation H-2 and in cascade 3"),
        ("Freecells: AH\nFreecells: 2H\n" + DEAL_1, 4, "line 2: a second free-cell line"),
        (DEAL_1, 9, "freecells must be 0..7"),
    ],
)
def test_malformed_boards(text: str, freecells: int, message: str) -> None:
    with pytest.raises(StateError, match=message):
        parse_board(text, freecells)


def test_bad_boards_and_vectors() -> None:
    with pytest.raises(StateError, match="8 cascades"):
        Board(((),) * 7, ()).check()
    with pytest.raises(StateError, match="free cell a holds 99, which is no card"):
        Board(((),) * 8, (99,), (13, 13, 13, 13)).check()
    vector = encode_board(ms_deal(5))
    with pytest.raises(StateError, match="not a FreeCell board vector"):
        decode_board(vector[:-1])
    with pytest.raises(StateError, match="not a FreeCell board vector"):
        decode_board(np.concatenate([vector, [3]]))


def fc_solve_solution(board: Board, *flags: str) -> list[str]:
    """fc-solve's solution of a board in extended standard notation (-snx): its move tokens."""
    out = subprocess.run([FC_SOLVE, "-m", "-snx", *flags], input=format_board(board), capture_output=True, text=True)
    return [t for line in out.stdout.splitlines() if line and line[0] in "12345678abcdefg" for t in line.split()]


@needs_fc_solve
def test_fc_solve_reads_and_prints_our_boards() -> None:
    """fc-solve prints the boards we write exactly as we write them: deals, and positions halfway
    through its own solutions (free cells packed to the left, as fc-solve packs them on reading)."""
    boards = [ms_deal(d) for d in (1, 2, 617, 32000)]
    for deal in (3, 4, 5, 6, 8, 10):
        tokens = fc_solve_solution(ms_deal(deal))
        board = replay(ms_deal(deal), tokens[: len(tokens) // 2])
        cells = board.freecell_cards()
        boards.append(board._replace(freecells=cells + (None,) * (4 - len(cells))))
    assert any(b.cards_home and b.freecell_cards() for b in boards)
    for board in boards:
        out = subprocess.run([FC_SOLVE, "-p", "-t", "-sam"], input=format_board(board), capture_output=True, text=True)
        first = "\n".join(out.stdout.splitlines()[2:12]) + "\n"  # the start board, after a separator line
        assert first == format_board(board)
        assert parse_board(first) == board


@needs_fc_solve
def test_fc_solve_solutions_replay() -> None:
    """fc-solve's solutions in extended standard notation (-snx) replay to all cards home, and
    our notation writes them back token for token given the board (a count, in hexadecimal,
    only onto an empty cascade), and as the same moves without it."""
    for deal in (1, 2, 3, 22, 617, 32000, MAX_DEAL):
        board = ms_deal(deal)
        tokens = fc_solve_solution(board)
        moves = parse_moves(tokens, board)
        assert replay(board, moves).is_solved(), deal
        assert format_moves(moves, board) == " ".join(tokens)
        assert parse_moves(format_moves(moves), board) == moves


# ---------------------------------------------------------------- moves against the reference
@THOROUGH
@given(games)
def test_moves_equal_reference(game) -> None:
    """On random games: our legal moves (single cards and sequences within capacity) are the
    reference's, every move does what the reference does, the symmetry-pruned successors lose no
    position, and autoplay moves only safe cards until none is left."""
    deal, freecells, steps, seed = game
    rng = np.random.default_rng(seed)
    for step, board in enumerate(walk(deal, freecells, steps, rng)):
        ref = ref_state(board)
        legal = ref_legal(ref)
        ours = legal_moves(board)
        assert len(ours) == len(set(ours))
        assert {chars(m) for m in ours} == legal
        assert {chars(m) for m in legal_moves(board, sequences=False)} == {m for m in legal if m[2] == 1}
        for m in ours:
            assert ref_state(play(board, m)) == ref_play(ref, chars(m))
            assert why_illegal(board, m) is None
        if step % 10 == 0:  # every move notation can name: legal exactly when the reference says so
            for name in FreeCellTable(freecells).names:
                m = Move(*read_move(name)[:2], read_move(name)[2] or 1)
                assert (why_illegal(board, m) is None) == (chars(m) in legal), (name, format_board(board))
        keys = {play(board, m).key() for m in ours} - {board.key()}
        pruned = successors(board, distinct=True)
        assert {child.key() for _, child in pruned} - {board.key()} == keys
        assert len(pruned) <= len(ours)
        after, auto = autoplay(board)
        state = ref
        for m in auto:
            src = state[0][m.src] if m.src < 8 else [state[1][m.src - FREECELL0]]
            assert m.dst == HOME and ref_safe(src[-1], state[2])
            state = ref_play(state, chars(m))
        assert ref_state(after) == state
        assert not any(ref_safe(name, state[2]) for name in [col[-1] for col in state[0] if col] + state[1] if name)


def test_is_safe_rule() -> None:
    rng = np.random.default_rng(3)
    for _ in range(2000):
        found = tuple(int(x) for x in rng.integers(0, 14, 4))
        c = int(rng.integers(52))
        assert is_safe(c, found) == ref_safe(NAMES[c], dict(zip("CDHS", found)))


def sequence_board(in_cells: int, empty_cascades: int) -> Board:
    """Cascade 1 ends in the 6-card run QH JS TH 9S 8H 7S, cascade 2 is KS; the other 15 cards
    fill ``in_cells`` free cells and then cascades 3.., leaving ``empty_cascades`` of them empty."""
    names = "KC 6C QH JS TH 9S 8H 7S".split()
    rest = "7C 8C 9C TC JC QC 6H 7H 9H JH KH 6S 8S TS QS".split()
    cells = [parse_card(n) for n in rest[:in_cells]] + [None] * (4 - in_cells)
    piles = [[] for _ in range(6 - empty_cascades)]
    for k, n in enumerate(rest[in_cells:]):
        piles[k % len(piles)].append(parse_card(n))
    cascades = [tuple(parse_card(n) for n in names), (parse_card("KS"),)] + [tuple(p) for p in piles]
    cascades += [()] * empty_cascades
    return Board(tuple(cascades), tuple(cells), (5, 13, 5, 5)).check()


@pytest.mark.parametrize(("in_cells", "empty_cascades"), [(0, 0), (2, 0), (3, 1), (2, 1), (4, 2), (3, 2), (0, 5)])
def test_sequence_capacity(in_cells: int, empty_cascades: int) -> None:
    board = sequence_board(in_cells, empty_cascades)
    cap = (4 - in_cells + 1) * 2**empty_cascades
    assert capacity(board) == cap
    six = Move(0, 1, 6)
    assert (six in legal_moves(board)) == (6 <= cap)
    assert (why_illegal(board, six) is None) == (6 <= cap)
    if 6 > cap:
        with pytest.raises(StateError, match=f"6 cards exceed the capacity {cap}"):
            apply_move(board, six)
    if empty_cascades:  # to an empty cascade the capacity halves
        assert capacity(board, to_empty_cascade=True) == cap // 2
        to_empty = [m.count for m in legal_moves(board) if m.src == 0 and m.dst == 7]
        assert to_empty == list(range(1, min(6, cap // 2) + 1))


# ---------------------------------------------------------------- notation and replay
def test_notation_round_trips() -> None:
    table = FreeCellTable(4)
    assert len(set(table.names)) == len(table.names) == 804
    for name, move in zip(table.names, table.moves):
        src, dst, count = read_move(name)
        assert Move(src, dst, count or 1) == move
        assert format_move(move) == name
    assert format_move(Move(7, 0, 12)) == "81vc"
    for bad in ["9a", "55", "aa", "ah3", "3av2", "1", "", "h1", "54v0", "54ve"]:
        with pytest.raises(NotationError, match="cannot read move"):
            read_move(bad)


@FAST
@given(games)
def test_counts_are_resolved(game) -> None:
    """A sequence move written without its count ("54") reads as the one count that fits."""
    deal, freecells, steps, seed = game
    for board in walk(deal, freecells, steps, np.random.default_rng(seed)):
        for m in legal_moves(board):
            short = format_move(m).split("v")[0]
            if m.src < 8 and m.dst < 8 and board.cascades[m.dst]:
                assert parse_move(short, board) == m
            assert parse_move(format_move(m), board) == m


def test_replay_errors_quote_the_move() -> None:
    board = ms_deal(1)
    with pytest.raises(NotationError, match=r"move 2 of 3, '5a', cannot be played: free cell a holds 6C") as exc:
        replay(board, "5a 5a 5b")
    assert "Foundations: H-0 C-0 D-0 S-0" in str(exc.value)
    with pytest.raises(NotationError, match=r"move 1 of 1: cannot read move 'x9'"):
        replay(board, ["x9"])
    with pytest.raises(NotationError, match="6S does not go on 9C"):
        replay(board, "12")
    with pytest.raises(NotationError, match="free cell e does not exist"):
        replay(board, "1e")
    with pytest.raises(StateError, match="cascade 5 holds 6 card"):
        apply_move(board, Move(4, 0, 7))


def test_puzzle_adapter() -> None:
    puzzle = FreeCellPuzzle()
    start = encode_board(ms_deal(617))
    rows = puzzle.table.parse("5a 5b 5c", start)
    end = puzzle.table.apply(start, rows)
    assert decode_board(end) == replay(ms_deal(617), "5a 5b 5c")
    assert puzzle.table.format(rows) == "5a 5b 5c"
    assert np.array_equal(puzzle.table.apply(start, "5a 5b 5c"), end)
    assert not puzzle.is_goal(end[None])[0]
    with pytest.raises(NotationError, match="move 2 of 2, '5a'"):
        puzzle.table.apply(start, [rows[0], rows[0]])
    with pytest.raises(ReplayError, match="do not reach the goal"):
        SolveResult.build(puzzle, start, rows, Status.FEASIBLE)
    assert FreeCellPuzzle(3).name == "freecell-3fc"
    assert puzzle.parse_state(puzzle.format_state(start)).tolist() == start.tolist()


# ---------------------------------------------------------------- the exhaustive search
def check_solution(res: SolveResult, board: Board) -> None:
    assert res.status is Status.FEASIBLE and res.length == len(res.moves)
    assert decode_board(res.start) == board
    assert replay(board, res.moves).is_solved()  # on a fresh board, in notation
    assert FreeCellPuzzle(board.num_freecells).is_goal(
        FreeCellPuzzle(board.num_freecells).table.apply(np.array(res.start), list(res.moves))[None]
    )[0]


def test_solves_deals() -> None:
    for deal in (1, 2, 32000):
        res = solve_freecell(deal)
        check_solution(res, ms_deal(deal))
        assert res.extra["deal"] == deal and res.nodes == res.extra["states"] >= 1
        assert res.length < 400  # the depth-first detours are cut (it finds 100-200 today)


def test_solves_near_finished_board() -> None:
    # Everything home but the top of hearts and spades: the safe moves home alone finish it.
    cascades = (tuple(parse_card(n) for n in "KH QS JH".split()), tuple(parse_card(n) for n in "KS QH JS".split()))
    board = Board(cascades + ((),) * 6, (None,) * 2, (13, 13, 10, 10)).check()
    res = prove(board)
    check_solution(res, board)
    assert res.length == 6 and set(res.moves) == {"1h", "2h"}
    # The king of hearts is not safe while the king of spades waits in a free cell: one move to search.
    board = Board(((parse_card("QS"), parse_card("KH")),) + ((),) * 7, (parse_card("KS"),), (13, 13, 12, 11)).check()
    res = prove(board)
    check_solution(res, board)
    assert res.moves == ("1h", "1h", "ah") and res.nodes == 2  # the start and the solved board


def test_proves_deal_11982_unsolvable() -> None:
    res = solve_freecell(11982, time_limit=120)
    assert res.status is Status.UNSOLVABLE and res.exit_code == 3
    assert res.nodes == res.extra["states"] == DEAL_11982_STATES
    assert res.moves == () and res.length is None


@needs_fc_solve
def test_unsolvable_agrees_with_fc_solve() -> None:
    """Deals with fewer free cells: where fc-solve finds a solution we must not claim a proof."""
    for freecells, deals in ((0, range(1, 15)), (1, (1, 2, 3, 6, 8, 9, 10, 11, 12))):
        for deal in deals:
            res = solve_freecell(deal, freecells=freecells, time_limit=20)
            out = subprocess.run(
                [FC_SOLVE, "--freecells-num", str(freecells)],
                input=format_board(ms_deal(deal, freecells)),
                capture_output=True,
                text=True,
            ).stdout
            if "solveable" in out:
                assert res.status is not Status.UNSOLVABLE, (freecells, deal)
            if res.status is Status.FEASIBLE:
                check_solution(res, ms_deal(deal, freecells))


def test_limits() -> None:
    res = solve_freecell(617, max_states=50)
    assert res.status is Status.LIMIT and res.nodes == 50 and res.extra["stopped_by"] == "max_states"
    res = solve_freecell(617, time_limit=1e-9)
    assert res.status is Status.LIMIT and res.extra["stopped_by"] == "time_limit"
    with pytest.raises(PuzzleoptError, match="time_limit must be a positive"):
        solve_freecell(1, time_limit=0)
    with pytest.raises(PuzzleoptError, match="max_states must be an integer"):
        solve_freecell(1, max_states=0)
    with pytest.raises(PuzzleoptError, match="the board has 4 free cells but freecells=3"):
        solve_freecell(ms_deal(1), freecells=3)
    assert solve_freecell(format_board(ms_deal(2))).moves == solve_freecell(2).moves


# ---------------------------------------------------------------- command line
def test_cli(tmp_path, capsys) -> None:
    assert freecell_main(["--deal", "2"]) == 0
    out = capsys.readouterr().out
    assert "Microsoft deal 2, 4 free cells:" in out and "feasible" in out
    assert freecell_main(["--deal", "7", "--freecells", "0", "--json"]) == 3
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "unsolvable" and d["extra"]["deal"] == 7 and d["board"] == format_board(ms_deal(7, 0))
    assert freecell_main(["--deal", "617", "--max-states", "20"]) == 4
    assert "stopped by max_states" in capsys.readouterr().out
    path = tmp_path / "board.txt"
    path.write_text(format_board(ms_deal(32000)))
    assert freecell_main(["--board", str(path), "--json"]) == 0
    assert replay(ms_deal(32000), json.loads(capsys.readouterr().out)["moves"]).is_solved()
    assert cli.run(freecell_main, ["--deal", "0"]) == cli.EXIT_BAD_INPUT
    path.write_text(DEAL_1.replace("9S", "XZ"))
    assert cli.run(freecell_main, ["--board", str(path)]) == cli.EXIT_BAD_INPUT
    assert "line 3, token 2: cannot read card 'XZ'" in capsys.readouterr().err
    assert cli.run(freecell_main, ["--board", str(tmp_path / "none.txt")]) == cli.EXIT_BAD_INPUT
