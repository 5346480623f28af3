"""The solver against unreduced searches, and its contract.

* exhaustive agreement: on small generated positions under every combination
  of the rule options, wherever an unreduced search decides, the solver
  decides the same (so every reduction and every dead-deal theorem that fired
  there is confirmed);
* every game of PySolFC 1-40 that the solver calls lost within a small budget
  under a named rule set is lost for the unreduced search wherever it decides
  (and for the plain search over the engine under ``classic``);
* every won line replays to won through the engine;
* budgets: nodes and memory end in ``unknown``, never in a wrong answer.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from scorpion_ref import (
    OPTIONS,
    RULESETS,
    Card,
    Column,
    Position,
    Rank,
    RuleSet,
    Status,
    Suit,
    apply,
    deal_game,
    get_ruleset,
    parse_action,
    status,
)
from scorpion_ref.solver import SOLVER_VERSION, Budget, Solution, fast, plain_solve, solve
from scorpion_ref.solver.fast import Flags, encode, knows
from scorpion_ref.solver.reductions import face_down_cycle, missing_cards
from scorpion_ref.solver.search import search

#: Every combination of the options, named or not.
EVERY_RULESET = [
    RuleSet.from_options("combination", dict(zip(OPTIONS, values, strict=True)))
    for values in itertools.product(*OPTIONS.values())
]


def small_position(seed: int, few_pieces: bool = False) -> Position:
    """A position with one or two suits in play, cut into a few same-suit descending pieces.

    The other suits are collected, or lie on the table as complete runs
    (then under ``runs: collect`` the first action collects the ones on top).
    Some cards are face down, a few are in the stock.
    """
    rnd = random.Random(seed)
    suits = list(Suit)
    rnd.shuffle(suits)
    count = 1 if few_pieces else rnd.choice((1, 1, 1, 1, 2))
    play, rest = suits[:count], suits[count:]
    pieces: list[list[Card]] = []
    for suit in play:
        whole = [Card(Rank(r), suit) for r in range(13, 0, -1)]
        cuts = sorted(rnd.sample(range(1, 13), rnd.randint(1, 2 if few_pieces else 4)))
        pieces += [whole[a:b] for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    rnd.shuffle(pieces)
    stock = []
    for _ in range(rnd.choice((0, 0, 1, 2, 3))):
        piece = rnd.choice([p for p in pieces if p])
        stock.append(piece.pop(rnd.randrange(len(piece))))
    heaps: list[list[Card]] = [[] for _ in range(7)]
    runs_on_table = rnd.random() < 0.4 and not few_pieces
    if runs_on_table:
        for column, suit in zip(rnd.sample(range(7), 7), rest, strict=False):
            heaps[column].extend(Card(Rank(r), suit) for r in range(13, 0, -1))
    used = rnd.sample(range(7), rnd.randint(3, 7))
    for piece in pieces:
        heaps[rnd.choice(used)].extend(piece)
    bias = rnd.choice((0.0, 0.3, 0.6))
    columns = []
    for heap in heaps:
        down = 0
        while down < len(heap) - 1 and rnd.random() < bias and heap[down].suit in play:
            down += 1
        columns.append(Column(tuple(heap[:down]), tuple(heap[down:])))
    return Position(tuple(columns), tuple(stock), frozenset(() if runs_on_table else rest))


def replays_to_won(position: Position, rules: RuleSet, solution: Solution) -> bool:
    for action in solution.line:
        assert status(position, rules) is Status.PLAYING
        position = apply(position, rules, action).position
    return status(position, rules) is Status.WON


def test_the_contract() -> None:
    assert Budget() == Budget(nodes=2_000_000, memory_mb=1024)
    assert isinstance(SOLVER_VERSION, str) and SOLVER_VERSION
    with pytest.raises(ValueError, match="nodes"):
        Budget(nodes=-1)
    start = deal_game(5)
    found = solve(start, get_ruleset("classic"))
    assert found.outcome == "won" and found.proof is None and found.nodes > 0 and found.seconds >= 0
    assert replays_to_won(start, get_ruleset("classic"), found)


def test_every_shipped_named_rule_set_takes_the_fast_path() -> None:
    """A set added later with an option the compact representation does not read is searched
    through the engine (slower, never wrong); the five shipped ones all take the fast path."""
    assert all(knows(RULESETS[name]) for name in ("standard", "classic", "wasp", "pysolfc", "aisleriot"))


def test_an_option_the_fast_path_does_not_read_sends_the_search_through_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules, start = get_ruleset("aisleriot"), deal_game(5)
    assert knows(rules)
    monkeypatch.delitem(fast.READ, "win")  # as if `win` had been added after fast.py was written
    assert not knows(rules) and knows(get_ruleset("standard"))  # standard plays win's default
    budget = Budget(nodes=3000)
    found, plain = solve(start, rules, budget), plain_solve(start, rules, budget)
    assert (found.outcome, found.line, found.nodes) == (plain.outcome, plain.line, plain.nodes)


def test_an_option_with_a_value_the_fast_path_was_not_written_for_is_not_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    grown = {**OPTIONS, "empty_column": (*OPTIONS["empty_column"], "king-or-queen")}
    monkeypatch.setattr(fast, "OPTIONS", grown)
    assert not knows(get_ruleset("standard"))


def test_exhaustive_agreement_with_the_unreduced_search_under_every_combination() -> None:
    seen: Counter[tuple[str, str | None]] = Counter()
    decided = 0
    for i, rules in enumerate(r for r in EVERY_RULESET if knows(r)):
        for j in range(4):
            position = small_position(100 * i + j, few_pieces=rules.empty_column == "any")
            unreduced = search(position, rules, Budget(nodes=1500), reduced=False)
            if unreduced.outcome == "unknown":
                continue
            decided += 1
            solution = solve(position, rules, Budget(nodes=20_000))
            assert solution.outcome == unreduced.outcome, (position, rules)
            seen[solution.outcome, solution.proof] += 1
            if solution.outcome == "won":
                assert replays_to_won(position, rules, solution)
    assert decided >= 150, seen
    assert seen["won", None] >= 50, seen
    for proof in ("exhausted", "face-down-cycle", "missing-cards"):
        assert seen["lost", proof] >= 3, seen


def test_agreement_on_whole_deals_where_the_stock_waits_and_spaces_take_kings() -> None:
    # Whole deals under every combination with `stock: when-stuck` and
    # `empty_column: king` are small enough for the unreduced search to decide.
    seen: Counter[tuple[str, str | None]] = Counter()
    for rules in EVERY_RULESET:
        if rules.stock != "when-stuck" or rules.empty_column != "king" or not knows(rules):
            continue
        for game in range(1, 7):
            start = deal_game(game)
            unreduced = search(start, rules, Budget(nodes=3000), reduced=False)
            if unreduced.outcome == "unknown":
                continue
            solution = solve(start, rules, Budget(nodes=20_000))
            assert solution.outcome == unreduced.outcome, (game, rules)
            seen[solution.outcome, solution.proof] += 1
    assert seen["lost", "exhausted"] >= 20 and seen["lost", "face-down-cycle"] >= 10, seen
    assert seen["won", None] >= 4, seen


@pytest.mark.parametrize("name", ["standard", "classic", "aisleriot"])
def test_agreement_with_the_plain_search_over_the_engine(name: str) -> None:
    rules = get_ruleset(name)
    decided = 0
    for j in range(12):
        position = small_position(7000 + j)
        plain = plain_solve(position, rules, Budget(nodes=800))
        if plain.outcome == "unknown":
            continue
        decided += 1
        assert solve(position, rules, Budget(nodes=20_000)).outcome == plain.outcome
    assert decided >= 6


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_games_called_lost_are_lost_for_the_unreduced_search(name: str) -> None:
    rules = get_ruleset(name)
    outcomes: Counter[str] = Counter()
    confirmed = 0
    for game in range(1, 41):
        start = deal_game(game)
        solution = solve(start, rules, Budget(nodes=3000))
        outcomes[solution.outcome] += 1
        if solution.outcome == "won":
            assert replays_to_won(start, rules, solution)
        if solution.outcome != "lost":
            continue
        unreduced = search(start, rules, Budget(nodes=4000), reduced=False)
        assert unreduced.outcome != "won", game
        confirmed += unreduced.outcome == "lost"
    assert outcomes["lost"] >= 4 and confirmed >= 4, (outcomes, confirmed)


def test_classic_games_called_lost_are_lost_for_the_plain_search() -> None:
    rules = get_ruleset("classic")
    for game in range(1, 21):
        start = deal_game(game)
        solution = solve(start, rules, Budget(nodes=5000))
        if solution.outcome == "lost":
            assert plain_solve(start, rules, Budget(nodes=20_000)).outcome == "lost", game


def test_the_face_down_cycle() -> None:
    # 4S waits for 5S, face down under 4H, which waits for 5H, face down under 4S.
    two = Position.build(["5H | 4S", "5S | 4H"])
    assert face_down_cycle(encode(two), Flags.of(get_ruleset("standard")))
    # Under empty_column: any the 4S may leave into an empty column: no theorem.
    assert not face_down_cycle(encode(two), Flags.of(get_ruleset("wasp")))
    # A card sitting on its own successor, face down: it can never leave.
    assert face_down_cycle(encode(Position.build(["5S | 4S"])), Flags.of(get_ruleset("classic")))
    # A King may always go to an empty column.
    assert not face_down_cycle(encode(Position.build(["QS | KS"])), Flags.of(get_ruleset("classic")))


def test_missing_cards() -> None:
    spades = [Card(Rank(r), Suit.SPADES) for r in range(13, 0, -1)]
    alone = Position.build([Column((), tuple(spades))], collected="CDH")
    assert not missing_cards(encode(alone), Flags.of(get_ruleset("standard")))
    lone = encode(Position.build([Column((), tuple(spades))]))
    assert missing_cards(lone, Flags.of(get_ruleset("standard")))
    # One run per column needs no other suit.
    assert not missing_cards(lone, Flags.of(get_ruleset("aisleriot")))
    # A suit cut short can never make its run.
    assert missing_cards(
        encode(Position.build([Column((), tuple(spades[:-1]))])), Flags.of(get_ruleset("aisleriot"))
    )


def test_budgets_end_in_unknown() -> None:
    rules = get_ruleset("standard")
    start = deal_game(10)  # lost, after about 130,000 positions
    cut = solve(start, rules, Budget(nodes=500))
    assert (cut.outcome, cut.line, cut.proof, cut.nodes) == ("unknown", (), "nodes", 500)
    nothing = solve(start, rules, Budget(memory_mb=0))
    assert (nothing.outcome, nothing.proof, nothing.nodes) == ("unknown", "memory", 0)
    some = solve(start, rules, Budget(memory_mb=2))
    assert (some.outcome, some.proof) == ("unknown", "memory") and 0 < some.nodes < 130_000
    plain = plain_solve(start, rules, Budget(memory_mb=0))
    assert (plain.outcome, plain.proof) == ("unknown", "memory")


def test_progress_is_reported() -> None:
    reports: list[int] = []
    solve(deal_game(3), get_ruleset("standard"), Budget(nodes=20_000), progress=reports.append)
    assert reports and reports == sorted(reports) and reports[-1] <= 20_000


def test_a_start_position_that_is_already_decided() -> None:
    rules = get_ruleset("standard")
    done = Position.build([], collected="CDHS")
    assert solve(done, rules) == Solution("won", (), None, 0, pytest.approx(0, abs=60))
    # The King (with the rest) may go to an empty column; then the 2 and 3 are stuck.
    stuck = Position.build(["AS KS QS JS TS 9S 8S 7S 6S 5S 4S 2S 3S"], collected="CDH")
    assert status(stuck, rules) is Status.PLAYING
    assert solve(stuck, rules).outcome == plain_solve(stuck, rules).outcome == "lost"
    over = apply(stuck, rules, parse_action("KS>2")).position
    assert status(over, rules) is Status.LOST
    assert solve(over, rules) == Solution("lost", (), "exhausted", 0, pytest.approx(0, abs=60))
