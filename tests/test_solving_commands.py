"""``solve``, ``hint`` and ``check-line`` from the command line, on deals small enough to decide at once.

Under ``classic`` (the stock only when stuck) PySolFC's games 5 and 37 are
winnable and games 12 and 30 are lost, each within a few thousand positions
of any correct search. The tests hold only to what every correct solver must
say: the outcome, a line that replays to a win, where a line turns lost.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorpion_conformance.cli import main
from scorpion_conformance.solving import verdicts
from scorpion_conformance.solving.checkline import check_line
from scorpion_conformance.solving.lines import read_line, show_line
from scorpion_ref import Status, apply, available_actions, deal_game, get_ruleset, status
from scorpion_ref.serial import position_to_json
from scorpion_ref.solver import Budget, solve
from scorpion_shared.vocabulary import SOLVER_VERDICTS

CLASSIC = get_ruleset("classic")
BUDGET = Budget(nodes=200_000, memory_mb=256)
WON_GAMES, LOST_GAMES = (5, 37), (12, 30)


def replays_to_won(start: object, line: list[object]) -> bool:
    position = start
    for action in line:
        position = apply(position, CLASSIC, action).position  # type: ignore[arg-type]
    return status(position, CLASSIC) is Status.WON  # type: ignore[arg-type]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", WON_GAMES)
def test_solve_prints_a_winning_line_in_the_suite_notation(capsys: pytest.CaptureFixture[str],
                                                           game: int) -> None:
    code, out, err = run(capsys, "solve", "--game", str(game), "--rules", "classic", "--budget", "200k")
    assert code == 0 and err == ""
    first, meaning, heading, *moves, link = out.splitlines()
    count = int(re.search(r"won in (\d+) moves", first).group(1))  # type: ignore[union-attr]
    assert first.startswith(f"game {game} under classic: won in ") and "positions searched" in first
    assert meaning == "  " + SOLVER_VERDICTS["won", ""]
    assert heading.startswith("the winning line, a move a line")
    assert len(moves) == count and link == f"what the solver's verdicts mean: {verdicts.explained()}"
    position = deal_game(game)
    for number, (said, action) in enumerate(zip(moves, read_line(moves), strict=True), start=1):
        # each move numbered, with the column its card leaves (checked against the position)
        assert said.lstrip().startswith(f"{number}. "), said
        if str(action) != "deal":
            source = re.search(r" from column (\d) to column ", said)
            assert source and position.columns[int(source.group(1)) - 1].up.count(action.card) == 1, said
        position = apply(position, CLASSIC, action).position
    assert replays_to_won(deal_game(game), read_line(moves))  # the numbered lines read back as a line


@pytest.mark.parametrize("game", LOST_GAMES)
def test_solve_json_of_a_lost_game(capsys: pytest.CaptureFixture[str], game: int) -> None:
    code, out, _ = run(capsys, "solve", "--game", str(game), "--rules", "classic", "--json")
    data = json.loads(out)
    assert code == 0 and data["outcome"] == "lost" and data["line"] == "" and data["actions"] == []
    assert data["proof"] and data["nodes"] >= 0 and data["rules"] == "classic" and data["game"] == game
    assert data["budget"] == {"nodes": 2_000_000, "memory_mb": 1024} and data["solver"]
    assert data["meaning"] == SOLVER_VERDICTS["lost", data["proof"]] and data["moves"] == []


def test_solve_from_a_position_file_as_deal_writes_it(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    assert main(["deal", "5", "--json"]) == 0
    path = tmp_path / "five.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    code, out, _ = run(capsys, "solve", "--position", str(path), "--rules", "classic", "--json")
    data = json.loads(out)
    assert code == 0 and data["outcome"] == "won" and data["start"] == str(path)
    assert replays_to_won(deal_game(5), read_line(data["line"]))


def test_a_tiny_budget_leaves_it_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--game", "3", "--rules", "standard", "--budget", "1")
    assert code == 0 and ("unknown (nodes): the budget of 1 position ran out" in out or "lost (" in out)
    code, out, _ = run(capsys, "hint", "--game", "3", "--rules", "standard", "--budget", "1")
    assert code == 0 and out.startswith(("no winning move found: unknown", "no winning move: lost"))


def test_hint_is_the_first_action_of_a_winning_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", "--game", "37", "--rules", "classic")
    move, said, link = out.splitlines()
    assert code == 0 and " from column " in move and said.startswith("  the first move of a winning line of")
    assert link.startswith("what the solver's verdicts mean: ")
    hint = read_line(move)
    assert len(hint) == 1
    after = apply(deal_game(37), CLASSIC, hint[0]).position
    assert solve(after, CLASSIC, BUDGET).outcome == "won"
    code, out, _ = run(capsys, "hint", "--game", "12", "--rules", "classic")
    assert code == 0 and out.startswith("no winning move: lost (")


def losing_deviation(game: int) -> tuple[list[object], int]:
    """A prefix of a winning line, then one action that the solver proves loses: (line, its length - 1)."""
    start = deal_game(game)
    line = list(solve(start, CLASSIC, BUDGET).line)
    position = start
    for k, played in enumerate(line):
        for other in available_actions(position, CLASSIC):
            if other == played:
                continue
            after = apply(position, CLASSIC, other).position
            if solve(after, CLASSIC, BUDGET).outcome == "lost":
                return [*line[:k], other], k
        position = apply(position, CLASSIC, played).position
    raise AssertionError(f"no losing move found along the winning line of game {game}")


@pytest.mark.parametrize("game", WON_GAMES)
def test_check_line_finds_the_move_that_threw_the_game_away(game: int) -> None:
    line, k = losing_deviation(game)
    # Play on a little after the mistake: the verdict must still point at it.
    position = deal_game(game)
    for action in line:
        position = apply(position, CLASSIC, action).position
    line += list(available_actions(position, CLASSIC)[:1])
    verdict = check_line(deal_game(game), CLASSIC, line, BUDGET)  # type: ignore[arg-type]
    assert verdict.lost_after == k + 1 and verdict.last_winnable == k and not verdict.unknown
    assert replays_to_won(verdict.positions[k], list(verdict.line))


def test_check_line_of_a_winning_line_stays_winnable_and_of_a_lost_game_is_lost_at_once() -> None:
    line = list(solve(deal_game(5), CLASSIC, BUDGET).line)
    verdict = check_line(deal_game(5), CLASSIC, line[:10], BUDGET)
    assert verdict.lost_after is None and verdict.last_winnable == 10
    assert len(verdict.solutions) == 1  # the last position was winnable, so every earlier one was
    verdict = check_line(deal_game(12), CLASSIC, [], BUDGET)
    assert verdict.lost_after == 0 and verdict.last_winnable is None


def test_check_line_command_prints_the_verdict_and_the_position_to_go_back_to(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line, k = losing_deviation(5)
    path = tmp_path / "line.txt"
    path.write_text("# my game\n" + "\n".join(show_line([a]) for a in line[:-1]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "check-line", "--game", "5", "--rules", "classic", "--line", str(path),
                         str(line[-1]))  # the last action in the engine's short form, as an argument
    assert code == 0 and err == "", err
    card = show_line(line[-1:]).split(" to column ")[0]
    assert "proven lost (" in out and f") after move {k + 1}: {card} from column " in out
    assert ("still winnable after the start" if k == 0 else f"still winnable after move {k}: ") in out
    onward = out.split("a winning line from there, a move a line:\n")[1].splitlines()
    assert onward[0].lstrip().startswith(f"{k + 1}. ")  # numbered on from the last winnable position
    assert "the last winnable position:" in out and "stock:" in out
    code, out, _ = run(capsys, "check-line", "--game", "5", "--rules", "classic", "--json", *map(str, line))
    data = json.loads(out)
    assert data["lost_after"] == k + 1 and data["last_winnable"] == k and data["winnable_position"]
    if k == 0:
        assert data["winnable_position"] == position_to_json(deal_game(5))


@pytest.mark.parametrize(("argv", "says"), [
    (["solve", "--game", "1", "--rules", "nonesuch"], "unknown rule set 'nonesuch'"),
    (["solve", "--game", "0", "--rules", "classic"], "--game 0: game numbers run from 1"),
    (["solve", "--game", "x", "--rules", "classic"], "--game 'x' is not a game number"),
    (["hint", "--rules", "classic"], "give either --game N or --position FILE"),
    (["solve", "--game", "1", "--rules", "classic", "--budget", "lots"], "--budget 'lots' is not a positive"),
    (["hint", "--game", "1", "--rules", "classic", "--budget", "0"], "--budget '0' is not a positive"),
    (["solve", "--position", "/nonexistent/p.json", "--rules", "classic"],
     "cannot read the position file /nonexistent/p.json"),
    (["check-line", "--game", "1", "--rules", "classic", "KS>1"], "move 1 (K♠ to column 1) is illegal"),
    (["check-line", "--game", "1", "--rules", "classic", "deal", "nine to five"], "move 2: 'nine to five'"),
    (["check-line", "--game", "1", "--rules", "classic", "--line", "/nonexistent"], "cannot read the line"),
    (["winnability", "--rules", "classic", "--games", "5-1"], "--games '5-1'"),
    (["winnability", "--rules", "classic", "--workers", "none"], "--workers 'none'"),
    (["winnability", "--rules", "classic", "--budget", "10", "--max-budget", "5"], "smaller than --budget"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          says: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"scorpion-conformance {argv[0]}: "), err
    assert says in err


@pytest.mark.parametrize("content", ["{not json", '{"columns": []}', "\x00\xff"])
def test_an_unreadable_position_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  content: str) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(content.encode("latin-1"))
    code, out, err = run(capsys, "solve", "--position", str(path), "--rules", "classic")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and str(path) in err


def _documented_keys(heading: str) -> set[str]:
    """The keys a table of docs/winnability.md lists after ``heading`` (``start``, ``game``...)."""
    page = (Path(__file__).parent.parent / "docs" / "winnability.md").read_text(encoding="utf-8")
    table = page.split(heading, 1)[1].split("\n\n| key |", 1)[1].split("\n\n", 1)[0]
    return {key for row in table.splitlines()[2:] for key in re.findall(r"`([a-z_]+)`", row.split(" | ")[0])}


def test_the_json_of_each_command_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    solve_keys = _documented_keys("The keys of `solve`")
    assert {"outcome", "moves", "first_move"} <= solve_keys
    _, out, _ = run(capsys, "solve", "--game", "5", "--rules", "classic", "--json")
    solved = json.loads(out)
    assert set(solved) == solve_keys - {"hint", "first_move"}
    _, out, _ = run(capsys, "hint", "--game", "5", "--rules", "classic", "--json")
    hinted = json.loads(out)
    assert set(hinted) == solve_keys and hinted["first_move"] == solved["moves"][0]
    move = solved["moves"][0]
    assert set(move) == {"number", "action", "card", "from", "to", "carried", "turned_up", "collected"}
    assert move["number"] == 1 and move["action"] == solved["actions"][0]
    assert move["to"] == [move["action"]["to"]]
    assert deal_game(5).columns[move["from"] - 1].up[-1 - move["carried"]].__str__() == move["card"]
    check_keys = _documented_keys("The keys of `check-line`")
    _, out, _ = run(capsys, "check-line", "--game", "5", "--json", "deal")
    checked = json.loads(out)
    assert set(checked) == check_keys, set(checked) ^ check_keys
    assert checked["played"][0]["action"] == {"type": "deal"} and checked["played"][0]["from"] is None


def test_every_word_the_solver_gives_is_explained_and_the_output_says_where() -> None:
    """The words the solver's source can answer with (its Python loops and its compiled core) are
    exactly the vocabulary's, and each has its meaning; the page named is the site's section."""
    solver = Path(__file__).parent.parent / "scorpion_ref" / "solver"
    # done("lost", (), WHY, ...) in the plain search; ("lost", WHY, ...) in the search and its loop.
    said = re.compile(r'(?:done\("(?:lost|unknown)", \(\), |\("(?:lost|unknown)", )"([a-z-]+)"')
    python = {m for f in solver.glob("*.py") for m in said.findall(f.read_text(encoding="utf-8"))}
    proofs = re.search(r"proofs\[\] = \{([^}]*)\}", (solver / "_core.c").read_text(encoding="utf-8"))
    assert proofs, "the compiled core's table of proofs"
    compiled = set(re.findall(r'"([a-z-]+)"', proofs.group(1)))
    given = {why for (outcome, why) in SOLVER_VERDICTS if why}
    assert python | compiled == given and {"exhausted", "face-down-cycle", "missing-cards"} <= python
    assert all(len(words.split()) >= 8 for words in SOLVER_VERDICTS.values())
    assert verdicts.explained({"SCORPION_SITE_URL": "https://me.example/s/"}) == \
        "https://me.example/s/winnability/#what-the-solver-says"
    page = (Path(__file__).parent.parent / "docs" / "winnability.md").read_text(encoding="utf-8")
    assert "## What the solver says\n" in page and "<!-- scorpion:solver-verdicts -->" in page
