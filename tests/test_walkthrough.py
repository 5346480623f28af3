"""The map's count for a new rule option, done for real on a copy of the tree.

``docs/architecture.md`` says that a new rule option, with a reason code, a
named rule set that plays its new value and two scenarios, is four files by
hand, and that everything else is generated or already true. This test makes
that change in a temporary copy of the tree: it edits the four files the map
lists (the vocabulary, the engine, one feature file, the catalogue), runs the
two generators the map names, and checks that no other file changed, that
every generated copy is fresh, that the lint passes, that the new scenarios
pass through the protocol under the new named set while an old scenario that
assumes the old behaviour stays out of it, and that the tests which guard the
vocabulary, the catalogue, the perft files and the tags pass in the copy.

It runs only those: the whole suite on such a copy is the walk-through of
the map's note, done by hand when the map changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What the copy holds: the packages, their data, the scenarios, the docs, the adapters, the tests.
COPIED = ("scorpion_shared", "scorpion_ref", "scorpion_conformance", "features", "docs", "adapters",
          "tests", "pyproject.toml")
#: The files the walk-through edits by hand, as the map lists them.
HAND = ("scorpion_ref/vocabulary.json", "scorpion_ref/engine.py", "features/stock.feature",
        "scorpion_ref/catalogue.yaml")
#: What the generators the map names rewrite or make (and the new named set's perft file).
GENERATED = ("scorpion_shared/words.py", "scorpion_conformance/schemas/protocol-v1.json",
             "adapters/javascript/vocabulary.js", "docs/protocol.md", "docs/perft.md")
#: The tests that guard what a new option touches, run in the copy.
GUARDS = (
    "tests/test_one_source.py", "tests/test_catalogue.py", "tests/test_features_lint.py",
    "tests/test_rules.py::test_a_later_option_leaves_the_named_sets_as_they_were",
    "tests/test_rules.py::test_every_option_is_tried_both_ways",
    "tests/test_perft.py::test_every_named_rule_set_has_a_perft_file_with_the_agreed_entries",
    "tests/test_perft.py::test_the_docs_show_the_table_of_the_files",
    "tests/test_scenario_tags.py::test_every_case_holds_under_every_bundle_its_tags_admit[The stock]",
)
#: The one guard run for the new option alone: the walk-through adds code that names only it, and
#: the checkout's own run holds every other option to it (each reads every module's syntax tree).
FOR_THE_NEW_OPTION = "test_an_option_is_named_in_code_by_at_most_two_modules"


def _edit(root: Path, name: str, old: str, new: str, count: int = 1) -> None:
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == count, f"the walk-through's edit of {name} no longer fits: update {__file__}"
    path.write_text(text.replace(old, new), encoding="utf-8")


#: What the names of a walk-through end with in a tree walked through before (option names have no digits).
AGAIN = ("", "again", "anew", "once_more")


@dataclass(frozen=True)
class Names:
    """The walk-through's names: fresh ones (a number after them) in a tree that was walked before."""

    n: int

    def _(self, text: str, joint: str = "") -> str:
        return f"{text}{joint}{AGAIN[self.n]}" if self.n else text

    @property
    def option(self) -> str:
        return self._("deal_onto_empty", "_")

    @property
    def words(self) -> str:
        return self.option.replace("_", "-")

    @property
    def ruleset(self) -> str:
        return self._("filled", "-").replace("_", "-")

    @property
    def ids(self) -> tuple[str, str]:
        return f"STOCK-{901 + 2 * self.n}", f"STOCK-{902 + 2 * self.n}"

    @property
    def rule(self) -> str:
        return f"R-{self.words.upper()}"

    def titled(self, text: str) -> str:
        """A scenario's name, made fresh in a tree walked before (two scenarios may not share one)."""
        return f"{text}, {AGAIN[self.n]}" if self.n else text

    @staticmethod
    def fresh(root: Path) -> Names:
        options = {o["name"] for o in json.loads((root / HAND[0]).read_text(encoding="utf-8"))["options"]}
        return Names(next(n for n in range(len(AGAIN)) if Names(n).option not in options))


def add_the_option(root: Path) -> Names:
    """The four files by hand: an option whose new value only a new named set plays, a reason
    code, the engine's one check, two scenarios and the rules they prove."""
    names = Names.fresh(root)
    option, words, ruleset, (first, second) = names.option, names.words, names.ruleset, names.ids
    path = root / HAND[0]
    data = json.loads(path.read_text(encoding="utf-8"))
    data["options"].append({
        "name": option, "default": "allowed", "compared": False, "tagged": False, "covered": False,
        "meaning": "whether the stock may be dealt while a column it deals onto is empty",
        "values": [{"value": "allowed", "tag": f"{words}-allowed"},
                   {"value": "refused", "tag": f"{words}-refused"}],
    })
    codes = [reason["code"] for reason in data["reasons"]]
    data["reasons"].insert(codes.index("stock-locked"), {
        "code": words, "meaning": f"a deal while a column it deals onto is empty, under `{option}: refused`"})
    for named in data["rulesets"]:
        named["options"][option] = "allowed"
    data["rulesets"].append({
        "name": ruleset, "sources": ["000_712d3b658eade62b.txt"],
        "summary": "Standard Scorpion whose stock waits until the columns it deals onto hold a card.",
        "options": {**data["rulesets"][0]["options"], option: "refused"},
    })
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    engine, helper = HAND[1], f"_{option}"
    _edit(root, engine, "def _check_deal(position: Position, rules: RuleSet) -> None:\n", f'''\
def {helper}(position: Position, rules: RuleSet) -> bool:
    """Whether a deal would reach an empty column where the rules refuse that."""
    reached = position.columns[: len(position.stock)]
    return rules.{option} == "refused" and any(column.is_empty for column in reached)


def _check_deal(position: Position, rules: RuleSet) -> None:
    if {helper}(position, rules) and position.stock:
        raise IllegalAction("{words}", "the stock waits until the columns it reaches hold a card")
''')
    # The deal is listed (legal and available) only where the rules allow it...
    _edit(root, engine, "    if position.stock and ",
          f"    if position.stock and not {helper}(position, rules) and ", count=2)
    # ... and a game whose only action would be that deal is lost.
    _edit(root, engine, "    if position.stock or _available_moves(position, rules):", f"""\
    if {helper}(position, rules) and position.stock and not _available_moves(position, rules):
        return Status.LOST
    if position.stock or _available_moves(position, rules):""")

    feature = root / HAND[2]
    feature.write_text(feature.read_text(encoding="utf-8") + f'''
  @{names.rule} @R-SET-{ruleset.upper()} @stock-any-time
  Rule: Where the columns must hold a card first, the stock waits for them

    @id:{first} @{words}-refused
    Example: {names.titled("The deal is refused while a column it reaches is empty")}
      Given the table
        | 1 | 2  | 3  | 4  |
        |   | 9♠ | J♦ | 4♣ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then the action is refused as {words}

    @id:{second} @{words}-refused
    Example: {names.titled("The deal goes ahead once the columns it reaches hold a card")}
      Given the table
        | 1  | 2  | 3  |
        | 5♥ | 9♠ | J♦ |
      And the stock holds 2♣ 3♦ 7♠
      When the player deals the stock
      Then column 1 reads 5♥ 2♣
      And column 2 reads 9♠ 3♦
      And column 3 reads J♦ 7♠
''', encoding="utf-8")

    catalogue = HAND[3]
    _edit(root, catalogue, "  - id: R-STOCK-ANY-TIME\n", f'''\
  - id: {names.rule}
    area: stock
    title: Where the columns must hold a card first, the stock waits for them
    statement: >-
      Under this rule set the stock is not dealt while one of the columns it
      would reach is empty; it is dealt once each of them holds a card.
    holds_under: {{{option}: refused}}
    sources: []
    decision: true
    rationale: >-
      A variant made up to show what a new option touches.

  - id: R-STOCK-ANY-TIME
''')
    _edit(root, catalogue, "  - id: R-SET-STANDARD\n", f'''\
  - id: R-SET-{ruleset.upper()}
    area: variants
    title: The {ruleset} rule set
    statement: >-
      {ruleset.capitalize()} is the standard set with one change: the stock waits until
      the columns it would reach hold a card.
    holds_under: {{}}
    sources: []
    decision: true
    rationale: >-
      A rule set made up to show what a new named set touches.

  - id: R-SET-STANDARD
''')
    # The old rule that empty columns never stop the deal now holds under the old value only.
    text = (root / catalogue).read_text(encoding="utf-8")
    head, entry = text.split("  - id: R-STOCK-INTO-EMPTY\n", 1)
    held = re.search(r"    holds_under: \{(.*)\}\n", entry)
    assert held, f"the walk-through's edit of {catalogue} no longer fits: update {__file__}"
    inside = ", ".join(part for part in (held[1], f"{option}: allowed") if part)
    entry = entry[: held.start()] + f"    holds_under: {{{inside}}}\n" + entry[held.end():]
    (root / catalogue).write_text(head + "  - id: R-STOCK-INTO-EMPTY\n" + entry, encoding="utf-8")
    return names


def _snapshot(root: Path) -> dict[str, str]:
    # A link (the Python kit's protocol.md) is no file anyone edits: the file it names is counted.
    return {path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in root.rglob("*")
            if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts}


def _copy(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", ".hypothesis")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore, symlinks=True)
        else:
            shutil.copy(source, target / name)
    # The wheel's package folders that pyproject.toml maps from elsewhere, where a checkout has them
    # (a copy walked before has them already).
    for link, to in (("features", "../features"), ("kit/python", "../../adapters/python"),
                     ("kit/javascript", "../../adapters/javascript")):
        if not (target / "scorpion_conformance" / link).exists():
            (target / "scorpion_conformance" / link).symlink_to(to)


def _in(copy: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_a_new_option_is_four_files_by_hand(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    said = page.split("**A new rule option.**", 1)[1].split("\n\n**", 1)[0]
    assert "Four files by hand" in said
    assert [name for name in HAND if f"`{name}`" in said] == list(HAND), "the map lists other files"

    copy = tmp_path / "tree"
    _copy(copy)
    before = _snapshot(copy)
    names = add_the_option(copy)
    for command in (["-m", "scorpion_conformance.generated", "--write"],
                    ["-m", "scorpion_conformance.cli", "perft", "--update", "--budget", "2000",
                     "--write-docs", "docs/perft.md"]):
        done = _in(copy, *command)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    after = _snapshot(copy)
    changed = sorted(name for name in after if before.get(name) != after[name])
    assert changed == sorted((*HAND, *GENERATED, f"scorpion_conformance/perft/data/{names.ruleset}.perft"))

    checks = _in(copy, "-m", "scorpion_conformance.generated", "--check")
    assert checks.returncode == 0, checks.stdout + checks.stderr
    lint = _in(copy, "-m", "scorpion_conformance.cli", "lint")
    assert lint.returncode == 0, lint.stdout[-2000:] + lint.stderr[-2000:]

    report = copy / "report.jsonl"
    first, second = names.ids
    run = _in(copy, "-m", "scorpion_conformance.cli", "run", "-q", "--id", f"{first},{second},STOCK-006",
              "--report", str(report))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    records = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()][:-1]
    ran = {(r["id"], r["rules"]): r["status"] for r in records if r["status"] != "unsupported"}
    assert ran[(first, names.ruleset)] == ran[(second, names.ruleset)] == "passed"
    # STOCK-006 (@empty-king) deals onto empty columns: written before the option, it runs where the
    # option (and any other not yet tagged) holds its default, under every such named set but the new one.
    vocabulary = json.loads((copy / HAND[0]).read_text(encoding="utf-8"))
    untagged = {o["name"]: o["default"] for o in vocabulary["options"] if o.get("tagged") is False}
    expected = {named["name"] for named in vocabulary["rulesets"]
                if named["options"]["empty_column"] == "king"
                and all(named["options"][o] == value for o, value in untagged.items())}
    assert names.ruleset not in expected and {"standard", "classic"} <= expected
    assert {rules for (case, rules) in ran if case == "STOCK-006"} == expected

    guards = _in(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", *GUARDS,
                 "-k", f"not {FOR_THE_NEW_OPTION} or {FOR_THE_NEW_OPTION}[{names.option}]", timeout=600)
    assert guards.returncode == 0, guards.stdout[-4000:] + guards.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", guards.stdout) and " failed" not in guards.stdout
    older = [o["name"] for o in vocabulary["options"] if "_" in o["name"] and o["name"] != names.option]
    assert f" {len(older)} deselected" in guards.stdout, guards.stdout[-2000:]  # the new option's ran
