"""The reductions of the solver's search, each with the argument that it is sound.

"Sound" means: the reduced search answers ``won`` exactly when some line of
legal actions from the start reaches a won status through the engine (a
position whose status is lost ends the game), and ``lost`` only when none
does. Every function here is checked against the plain search in
``tests/test_solver.py``.

>>> from scorpion_ref import Position, get_ruleset
>>> from scorpion_ref.solver.fast import Flags, encode
>>> state = encode(Position.build(["5H | 4S", "5S | 4H"]))
>>> face_down_cycle(state, Flags.of(get_ruleset("standard")))
True
"""

from __future__ import annotations

from .fast import DEAL, DOWN, SEP, FastMove, Flags, State

__all__ = [
    "canonical_key",
    "empty_targets",
    "face_down_cycle",
    "missing_cards",
    "order_moves",
]


def canonical_key(state: State) -> bytes:
    """The transposition table's key: the columns the stock cannot reach as a multiset.

    Soundness: the deal puts its cards on columns 1 to ``len(stock)`` and no
    other rule of any rule set names a column (moves, runs, the win and the
    lost status look at columns only as a collection). So two positions whose
    stock and collected suits agree, whose first ``len(stock)`` columns agree
    one by one, and whose other columns are the same multiset, are the same
    game up to renaming those other columns: a line from one becomes a line
    from the other by renaming the destinations of its moves, and reaches the
    same status. Deciding one decides the other; the table may hold one key
    for both. The search keeps the real position and the real line, so the
    line it returns needs no renaming. (The key also keeps the stock's length
    and the collected suits, so it never merges positions that differ there.)
    """
    columns, stock, collected = state
    reach = len(stock)
    head = bytes((reach, collected)) + stock
    if reach:
        return head + SEP.join(columns[:reach]) + SEP + SEP + SEP.join(sorted(columns[reach:]))
    return head + SEP.join(sorted(columns))


def empty_targets(columns: tuple[bytes, ...], reach: int) -> list[int]:
    """The empty columns worth moving to: each one the stock reaches, and the first other one.

    Soundness: see *one target per class of equivalent empty columns* in
    order_moves. The empty columns the stock does not reach (columns
    ``reach + 1`` to 7) are one class; each one it reaches is a class alone.
    """
    targets = [d for d in range(reach) if not columns[d]]
    for d in range(reach, 7):
        if not columns[d]:
            targets.append(d)
            break
    return targets


def order_moves(
    state: State, moves: list[FastMove], deal: bool, relabels_are_noops: bool = True
) -> list[FastMove]:
    """The moves worth trying, best first, the deal (when ``deal``) last.

    *One target per class of equivalent empty columns* (the moves are made
    for the targets of :func:`empty_targets`). Moving the same cards into
    empty column ``i`` or empty column ``j``, both beyond the stock's reach
    (or with the stock dealt), gives two positions that differ only by
    swapping columns ``i`` and ``j``: :func:`canonical_key` gives them one
    key, so the search would reject the second as seen. Trying only the
    first such empty column loses nothing. Empty columns the stock reaches
    are each their own class (the dealt card lands on a different column).
    Whether a position has an available move, which decides the deal under
    ``stock: when-stuck`` and the lost status, does not change: a move into
    an empty column is available into every empty column or into none.

    *Whole-column transfers that only relabel.* Moving a whole column (no
    face-down card under its moving card) into an empty column, both beyond
    the stock's reach, gives the same position with two columns swapped:
    the same key as the position itself, which is already in the table (it
    is being expanded). Skipping it loses nothing. With
    ``relabels_are_noops`` false (the start position of a game under
    ``runs: collect`` that still holds an uncollected run, which any action
    collects) the transfer is not a relabelling and is kept.

    *Move ordering.* The order of children never changes what a complete
    search decides, only how soon it finds a win: moves that turn a card face
    up come first, then moves that empty a column or put a card on its
    successor, then moves into empty columns, and the deal last.
    """
    columns, stock, _collected = state
    reach = len(stock)
    first: list[FastMove] = []
    second: list[FastMove] = []
    third: list[FastMove] = []
    for move in moves:
        source, index, dest = move
        if not columns[dest]:
            if index == 0 and relabels_are_noops and source >= reach and dest >= reach:
                continue
            third.append(move)
        elif index and columns[source][index - 1] >= DOWN:
            first.append(move)
        else:
            second.append(move)
    first += second
    first += third
    if deal:
        first.append(DEAL)
    return first


def face_down_cycle(state: State, flags: Flags) -> bool:
    """The dead-deal theorem ``face-down-cycle``: face-down cards that wait on each other.

    For a face-down card ``A`` let ``B`` be the card directly above it. Cards
    only ever land on a column's top, so ``B`` stays directly on ``A`` until
    ``B`` leaves, and only ``B`` itself can lead the group that takes it
    away (the card under it is face down). ``A`` turns up at the action that
    takes ``B`` away, and at no other. Say "``X`` before ``Y``" when ``X`` must
    turn face up at an earlier action than ``Y``. Two kinds of facts hold in
    every legal line:

    1. a face-down card turns up before every face-down card under it in
       its column (it must turn up, then leave, for them to be reached);
    2. under ``empty_column: king``, if ``B`` is not a King, then ``B`` can
       leave only onto its successor ``S`` (same suit, one rank higher) at
       the top of another column: not into an empty column (only Kings go
       there) and not by being collected (a collected run leaves from the
       top and its lowest card is a King, so a run holding ``B`` would start
       at ``B``). So if ``S`` is face down now, ``S`` before ``A``.

    If these facts make a cycle, no card of the cycle can turn up first, so
    none ever turns up. Every win condition needs every card turned up (a
    collected suit's cards all face up in a run; four runs on the table are
    all 52 cards, face up; one run per column leaves no column with a
    face-down card), so no line wins: the position is lost. The facts only
    ever lose edges as cards turn up (the blocker of a face-down card never
    changes, and face-down cards never go back), so the test is needed only
    at the start of a search.
    """
    columns = state[0]
    down_cards = set()
    edges: dict[int, list[int]] = {}  # X -> the cards that X must precede
    for column in columns:
        for j in range(len(column) - 1):
            if column[j] < DOWN:
                break
            down_cards.add(column[j] - DOWN)
    for column in columns:
        for j in range(len(column) - 1):
            if column[j] < DOWN:
                break
            a = column[j] - DOWN
            b = column[j + 1] & (DOWN - 1)
            if column[j + 1] >= DOWN:
                edges.setdefault(b, []).append(a)
            if not flags.empty_any and b % 13 != 12 and b + 1 in down_cards:
                edges.setdefault(b + 1, []).append(a)
    # A cycle exists unless repeatedly removing cards with no predecessor empties the graph.
    indegree = dict.fromkeys(down_cards, 0)
    for targets in edges.values():
        for t in targets:
            indegree[t] += 1
    ready = [c for c, n in indegree.items() if n == 0]
    removed = 0
    while ready:
        card = ready.pop()
        removed += 1
        for t in edges.get(card, ()):
            indegree[t] -= 1
            if indegree[t] == 0:
                ready.append(t)
    return removed < len(down_cards)


def missing_cards(state: State, flags: Flags) -> bool:
    """The dead-deal theorem ``missing-cards``: a suit that can never make a complete run.

    A position may hold fewer than 52 cards. A suit with some but not all of
    its thirteen cards in play can never form a complete run, and every win
    condition puts every card in play into one (collected, or on the table).
    Under ``runs: collect`` a suit that is neither in play nor collected can
    never be collected, and all four must be; under ``runs: stay`` with
    ``win: four-runs`` the four runs on the table need all 52 cards. In each
    case no line wins.
    """
    columns, stock, collected = state
    counts = [0, 0, 0, 0]
    for column in (*columns, stock):
        for b in column:
            counts[(b & (DOWN - 1)) // 13] += 1
    for suit, n in enumerate(counts):
        if 0 < n < 13:
            return True
        if n == 0 and flags.collect and not collected >> suit & 1:
            return True
        if n == 0 and not flags.collect and not flags.one_per_column:
            return True
    return False
