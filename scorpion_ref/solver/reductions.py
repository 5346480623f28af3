"""The reductions of the solver's search, each with the argument that it is sound.

"Sound" means: the reduced search answers ``won`` exactly when some line of
legal actions from the start reaches a won status through the engine (a
position whose status is lost ends the game), and ``lost`` only when none
does. Every function here is checked against the unreduced search in
``tests/test_solver.py`` and ``tests/test_solver_reductions.py``.

Why a search that keeps only some children still finds every win: write
``d(P)`` for the length of a shortest winning line from ``P``. Each
reduction below keeps, for every winnable position it is given, a child
``c`` (or the settled form of one) with ``d(c) < d(P)``, or one that differs
from such a child only by the names of columns the stock cannot reach (same
``d``, same key). Take the winnable position in the transposition table with
the smallest ``d``: the search expands it (or has found a win), and one of
the children it keeps, or the table's entry for that child's key, is
winnable with a smaller ``d``: so the smallest one is a won position, and the
search answers ``won``.

>>> from scorpion_ref import Position, get_ruleset
>>> from scorpion_ref.solver.fast import Flags, encode
>>> state = encode(Position.build(["5H | 4S", "5S | 4H"]))
>>> face_down_cycle(state, Flags.of(get_ruleset("standard")))
True
"""

from __future__ import annotations

from .fast import DEAL, DOWN, RUNS, SEP, FastMove, Flags, State, apply_move

__all__ = [
    "canonical_key",
    "empty_targets",
    "face_down_cycle",
    "missing_cards",
    "order_moves",
    "safe_move",
    "settle",
]

_DOWN_BYTES = bytes(range(DOWN, DOWN + 52))
_BYTE = tuple(bytes([b]) for b in range(256))
#: For each card, the cards of its suit ranked above it.
_HIGHER = tuple(bytes(range(x + 1, x - x % 13 + 13)) for x in range(52))


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


def safe_move(state: State, flags: Flags) -> FastMove | None:
    """A move that can never hurt, if there is one: a card ``X`` (with the cards above it,
    its *group*) onto its successor ``X + 1``.

    The candidates: for each column ``B``, in order, whose top card ``X + 1``
    is not an Ace, the face-up card ``X`` in another column ``A``. The first
    candidate that meets all three conditions is returned (None if none does):

    1. no deal can come before ``X`` reaches ``X + 1``: the stock is empty,
       or it may be dealt only when no move is available (``X`` onto
       ``X + 1`` stays available until it is made: ``X`` sits on no
       successor and is no King, so it is in no complete run, and the move
       is no whole-column transfer);
    2. with the stock empty, moves out of complete runs count as available
       (not :attr:`~.fast.Flags.runs_ignored`);
    3. and one of these holds:

       a. *the move completes a run*: the group is ``X`` down to the Ace, and
          ``B`` ends in the King down to ``X + 1``;
       b. *the group is frozen* (empty columns take only Kings): every card
          of the group above ``X`` is no King and has its successor below it
          in the group, and the group's top card is an Ace or has its
          predecessor in the group;
       c. *``B`` is frozen* (empty columns take only Kings): every face-up
          card of ``B`` is a King or has its successor below it and above the
          nearest King below it (a face-down card counts as below every
          face-up card up to ``B``'s first King);
       d. *the higher cards of the suit keep to themselves*: every column
          whose face-up cards include one of ``X``'s suit ranked above ``X``
          has only such cards face up.

    Soundness. Let ``P`` be the position, ``m`` the move and ``a1 ... an`` a
    shortest winning line from ``P``. Every win has every card on its
    successor (in a collected run, or in a run on the table), and only a
    move of ``X`` onto ``X + 1`` puts ``X`` there (no other card goes on
    ``X + 1``): let ``ak`` be the first such action. Compare each position
    ``Qi`` after ``a1 ... ai`` (``i < k``) with ``Ri``, the same position
    with ``X``'s group on ``X + 1``. Until ``ak``, ``X + 1`` stays a top card
    outside ``X``'s column: no deal comes first (1), only ``X`` goes on
    ``X + 1``, and ``X + 1`` could get above ``X`` only with a group led by
    a card at or below it in its column landing on the top of ``X``'s group,
    the successor of that card. Condition 3 rules that out: (a) the group's
    top is the Ace, which takes nothing, and if the group loses cards (into
    empty columns) its top is still of the suit and below ``X``, whose
    predecessor is never under ``X + 1``; (b) the group never changes (its
    cards can go nowhere, nothing lands on its top); (c) the cards of ``B``
    never move, except Kings into empty columns with all the cards above
    them, which keeps the condition; (d) the higher cards of the suit only
    ever move among columns of their own (only they and ``X`` go on them),
    so none of them, and nothing under ``X + 1``, joins the group. Then each
    ``ai`` is legal in ``R(i-1)`` as the same card moved to wherever its
    target now lies (onto the group's top: now in ``B``; the cards under
    ``X`` move without the group; ``X`` itself into an empty column is left
    out, its group being on ``X + 1`` already) and leads to ``Ri``; and
    ``ak`` takes ``Q(k-1)`` to ``Qk = R(k-1)``. A whole-column transfer is
    no move in a shortest line when the stock is dealt (it only swaps two
    columns' names), so with the stock empty every ``ai`` counts as
    available, and so does the same move in ``R(i-1)`` (2: no move there
    takes cards out of a run that ``Q(i-1)`` does not have); with the stock
    not dealt, no ``Ri`` is lost either. Flips come only sooner; runs are
    collected in both as they complete. So ``m`` and then the rest of the
    line win from ``P``, and from ``P`` after ``m`` a line at least one
    action shorter wins: ``d`` goes down, as the module's argument needs.

    >>> from scorpion_ref import Position, get_ruleset
    >>> from scorpion_ref.solver.fast import encode
    >>> state = encode(Position.build(["KH QH JH", "3S | 2C", "4D TH 9H"]))
    >>> safe_move(state, Flags.of(get_ruleset("standard")))  # TH 9H onto JH: B is frozen (c)
    (2, 1, 0)
    """
    columns, stock, _collected = state
    if stock:
        if flags.any_time:
            return None
    elif flags.runs_ignored:
        return None
    kings_only = not flags.empty_any
    joined = SEP + SEP.join(columns)  # a face-down card is written + 64: find() meets face-up cards only
    for dest, target_column in enumerate(columns):
        if not target_column:
            continue
        target = target_column[-1]
        if target % 13 == 0:
            continue
        at = joined.find(_BYTE[target - 1])
        if at < 0:
            continue
        source = joined.count(SEP, 0, at) - 1
        if source == dest:
            continue
        index = at - joined.rfind(SEP, 0, at) - 1
        group = columns[source][index:]
        suit, rank = divmod(target - 1, 13)
        if group == RUNS[suit][12 - rank :] and target_column.endswith(RUNS[suit][: 12 - rank]):
            return source, index, dest
        if kings_only and (_frozen_group(group) or _frozen_column(target_column)):
            return source, index, dest
        if _apart(columns, target - 1):
            return source, index, dest
    return None


def _frozen_group(group: bytes) -> bool:
    """Condition 3b of :func:`safe_move`."""
    top = group[-1]
    if top % 13 and top - 1 not in group[:-1]:
        return False  # at once: the top card is no Ace and its predecessor is not below it
    for k in range(1, len(group)):
        card = group[k]
        if card % 13 == 12 or card + 1 not in group[:k]:
            return False
    top = group[-1]
    return top % 13 == 0 or top - 1 in group[:-1]


def _frozen_column(column: bytes) -> bool:
    """Condition 3c of :func:`safe_move`."""
    top = column[-1]
    if top % 13 != 12 and top + 1 not in column and top + 1 + DOWN not in column:
        return False  # at once: the top card is no King and its successor is not below it
    first = len(column) - len(column.lstrip(_DOWN_BYTES))
    below = {b - DOWN for b in column[:first]}
    for card in column[first:]:
        if card % 13 == 12:
            below = {card}
        elif card + 1 not in below:
            return False
        else:
            below.add(card)
    return True


def _apart(columns: tuple[bytes, ...], x: int) -> bool:
    """Condition 3d of :func:`safe_move` for the card ``x``."""
    higher = _HIGHER[x]
    for column in columns:
        up = column.lstrip(_DOWN_BYTES)
        rest = up.translate(None, higher)
        if 0 < len(rest) < len(up):
            return False
    return True


def settle(state: State, flags: Flags) -> tuple[State, list[FastMove]]:
    """The state after playing :func:`safe_move` until there is none, and the moves played.

    The search keeps only settled positions: by :func:`safe_move`'s argument
    each safe move shortens the shortest winning line, so a position is
    winnable exactly when its settled form is (it is also reached from it).
    It ends: each safe move puts one more card on its successor (the card
    under ``X`` was not its successor) and collecting a run takes away
    twelve such links but adds a suit, so ``links + 13 * suits collected``
    goes up by one each time. A position that is won has no safe move (every
    top card is an Ace, or there is no card left).

    >>> from scorpion_ref import Position, get_ruleset
    >>> from scorpion_ref.solver.fast import encode
    >>> state = encode(Position.build(["KH QH JH", "3S | 2C", "4D TH 9H"]))
    >>> settle(state, Flags.of(get_ruleset("standard")))[1]
    [(2, 1, 0)]
    """
    moves: list[FastMove] = []
    while (move := safe_move(state, flags)) is not None:
        moves.append(move)
        state = apply_move(state, flags, move)
    return state, moves
