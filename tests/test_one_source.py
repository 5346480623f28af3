"""One vocabulary, one file: ``scorpion_ref/vocabulary.json``, and one reader of it.

The engine, the suite and the Python adapters read the file through
:mod:`scorpion_shared.vocabulary` (which never imports the engine); the
schema's enums and the tables of ``docs/protocol.md`` are generated from it;
the JavaScript adapter, being another language, reads a module generated from
it (``adapters/javascript/vocabulary.js``). These tests check the file's shape,
that the generated copies are fresh, that the JavaScript engine takes its words
from its generated module, and that no Python module of either package writes
the vocabulary out again by hand.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args, get_type_hints

import programs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorpion_ref
from scorpion_conformance import generated, notation
from scorpion_shared import vocabulary, words

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "scorpion_ref" / "vocabulary.json"
PACKAGES = ("scorpion_shared", "scorpion_ref", "scorpion_conformance")
#: The reader of the file, and the module generated from it.
READERS = {"scorpion_shared/vocabulary.py", "scorpion_shared/words.py"}


# -- the file ------------------------------------------------------------------------


def test_the_vocabulary_file_is_sound() -> None:
    assert vocabulary.problems(json.loads(FILE.read_text(encoding="utf-8"))) == []
    assert vocabulary.vocabulary_path().resolve() == FILE.resolve()


def _tampered() -> dict[str, object]:
    data = json.loads(FILE.read_text(encoding="utf-8"))
    data["options"][4]["default"] = "three-runs"
    data["options"][1]["values"][1]["tag"] = data["options"][0]["values"][0]["tag"]
    del data["rulesets"][2]["options"]["stock"]
    data["reasons"].append(dict(data["reasons"][0]))
    data["cards"]["suits"][0]["colour"] = "green"
    data["protocol"]["version"] = "1"
    data["options"][0]["tagged"] = False
    return data


def test_a_broken_vocabulary_is_refused_with_every_problem_named(tmp_path: Path) -> None:
    found = vocabulary.problems(_tampered())
    assert "option win: the default 'three-runs' is not one of its values" in found
    assert "option tags: runs-collect more than once" in found
    assert "rule set wasp: options must give every option, in the order of options" in found
    assert "reasons: card-face-down more than once" in found
    assert "cards.suits: colour 'green' is not red or black" in found
    assert "protocol: version must be a whole number above 0" in found
    assert "option runs: tagged is false, so untagged scenarios need a default to run under" in found
    path = tmp_path / "vocabulary.json"
    path.write_text(json.dumps(_tampered()), encoding="utf-8")
    with pytest.raises(vocabulary.VocabularyError, match="three-runs"):
        vocabulary.load(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(vocabulary.VocabularyError, match="cannot read the vocabulary"):
        vocabulary.load(path)


def test_a_new_option_keeps_protocol_v1_adapters_working() -> None:
    """Only the options of the first version may be required; any later one has a default."""
    required = [option for option in vocabulary.OPTIONS if option not in vocabulary.OPTION_DEFAULTS]
    assert required == ["runs", "stock", "empty_column", "whole_column_to_empty"]


# -- the one reader ----------------------------------------------------------------------


def test_the_reader_needs_neither_package() -> None:
    """The suite reads the vocabulary without the engine, and an adapter without either."""
    code = (
        "import sys, scorpion_shared.vocabulary as v; "
        "assert not {'scorpion_ref', 'scorpion_conformance'} & set(sys.modules), sorted(sys.modules); "
        "print(len(v.OPTIONS))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(len(vocabulary.OPTIONS))


def test_the_default_adapter_survives_a_path_with_a_space() -> None:
    from scorpion_conformance.transport import split_command

    python = "/opt/my python/bin/python3"
    assert split_command(vocabulary.reference_adapter(python))[1] == (python, "-m", "scorpion_ref.adapter")
    assert split_command(vocabulary.DEFAULT_ADAPTER)[1] == (sys.executable, "-m", "scorpion_ref.adapter")


def test_the_engine_builds_its_rule_sets_from_the_vocabulary() -> None:
    assert dict(scorpion_ref.OPTIONS) == dict(vocabulary.OPTIONS)
    assert {n: r.options for n, r in scorpion_ref.RULESETS.items()} == {
        n: dict(o) for n, o in vocabulary.NAMED_RULESETS.items()
    }
    for ours in vocabulary.VOCABULARY.rulesets:
        engine = scorpion_ref.get_ruleset(ours.name)
        assert (engine.summary, engine.sources) == (ours.summary, ours.sources)


def test_the_engine_enums_name_the_vocabulary_in_its_order() -> None:
    ranks, suits = vocabulary.VOCABULARY.ranks, vocabulary.VOCABULARY.suits
    assert [r.letter for r in scorpion_ref.Rank] == [r.letter for r in ranks]
    assert [r.name.title() for r in scorpion_ref.Rank][::12] == [ranks[0].name, ranks[12].name]
    assert [s.value for s in scorpion_ref.Suit] == [s.letter for s in suits]
    assert [s.name.lower() for s in scorpion_ref.Suit] == [s.name for s in suits]
    assert [s.symbol for s in scorpion_ref.Suit] == [s.symbol for s in suits]
    assert [s.is_red for s in scorpion_ref.Suit] == [s.colour == "red" for s in suits]
    assert tuple(s.value for s in scorpion_ref.Status) == vocabulary.STATUSES


def test_the_engine_refuses_a_reason_the_vocabulary_does_not_list() -> None:
    with pytest.raises(ValueError, match=r"not a reason code of vocabulary\.json"):
        scorpion_ref.IllegalAction("made-up-reason", "no")


@given(st.sampled_from(scorpion_ref.DECK), st.booleans())
def test_the_suite_reads_cards_as_the_engine_writes_them(card: scorpion_ref.Card, fancy: bool) -> None:
    text = card.unicode if fancy else str(card)
    assert notation.parse_card(text).code == str(card)
    assert notation.show_card(str(card)) == card.unicode


# -- the generated copies --------------------------------------------------------------


def test_the_generated_copies_are_fresh() -> None:
    stale = generated.stale(ROOT)
    assert not stale, (
        f"{', '.join(stale)} differ from scorpion_ref/vocabulary.json: run `{generated.COMMAND}`"
    )


def test_the_schema_enums_are_the_vocabulary() -> None:
    defs = json.loads((ROOT / generated.SCHEMA).read_text(encoding="utf-8"))["$defs"]
    options = defs["option-values"]
    assert {o: tuple(p["enum"]) for o, p in options["properties"].items()} == dict(vocabulary.OPTIONS)
    assert options["required"] == [o for o in vocabulary.OPTIONS if o not in vocabulary.OPTION_DEFAULTS]
    assert defs["named-ruleset"]["enum"] == list(vocabulary.NAMED_RULESETS)
    assert defs["error-code"]["enum"] == list(vocabulary.ERROR_CODES)
    assert defs["request"]["properties"]["cmd"]["enum"] == list(vocabulary.COMMANDS)
    pattern = re.compile(defs["card"]["pattern"])
    every_pair = {a + b for a in "A0123456789TJQKXCDHS" for b in "A0123456789TJQKXCDHS"}
    assert {p for p in every_pair if pattern.match(p)} == {str(c) for c in scorpion_ref.DECK}


def test_the_generator_mends_a_stale_copy(tmp_path: Path) -> None:
    for name in generated.TARGETS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    doc = tmp_path / "docs" / "protocol.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("| `stock-empty` |", "| `stock-gone` |"),
                   encoding="utf-8")
    schema = tmp_path / generated.SCHEMA
    stale = schema.read_text(encoding="utf-8").replace('"bad-request"', '"bad-requests"')
    schema.write_text(stale, encoding="utf-8")
    typed = tmp_path / generated.WORDS
    typed.write_text(typed.read_text(encoding="utf-8").replace("when-stuck", "when-stcuk"), encoding="utf-8")
    script = tmp_path / generated.JAVASCRIPT
    script.write_text(script.read_text(encoding="utf-8").replace('"when-stuck"', '"when-stcuk"'),
                      encoding="utf-8")
    assert sorted(generated.stale(tmp_path)) == sorted(generated.TARGETS)
    assert generated.main(["--check", "--root", str(tmp_path)]) == 1
    assert sorted(generated.write(tmp_path)) == sorted(generated.TARGETS)
    assert generated.stale(tmp_path) == []
    for name in generated.TARGETS:
        assert (tmp_path / name).read_text(encoding="utf-8") == (ROOT / name).read_text(encoding="utf-8")


def test_a_page_without_its_markers_is_an_error_not_a_silent_pass(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "protocol.md").write_text("no markers here\n", encoding="utf-8")
    (tmp_path / generated.SCHEMA).parent.mkdir(parents=True)
    shutil.copy(ROOT / generated.SCHEMA, tmp_path / generated.SCHEMA)
    assert generated.main(["--check", "--root", str(tmp_path)]) == 2


def test_the_doc_tables_cover_the_vocabulary() -> None:
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for code in (*vocabulary.REASONS, *vocabulary.ERROR_CODES, *vocabulary.NAMED_RULESETS):
        assert f"| `{code}` |" in page, code
    for option in vocabulary.VOCABULARY.options:
        assert f"| `{option.name}` | {', '.join(f'`{v}`' for v in option.values)} |" in page


# -- the JavaScript adapter's generated module ---------------------------------------------

JS = ROOT / "adapters" / "javascript"


def test_the_javascript_vocabulary_module_is_the_vocabulary() -> None:
    """What Node reads from the generated module (kept fresh with the other copies) is the vocabulary."""
    node = programs.node()
    script = ("const V = require(process.argv[1]); console.log(JSON.stringify({options: V.options.map(o => "
              "[o.name, o.values, o.default || null]), sets: V.rulesets.map(s => [s.name, s.options]), "
              "reasons: V.reasons, ranks: V.ranks.map(r => r.letter).join(''), "
              "suits: V.suits.map(s => s.letter).join('')}))")
    seen = json.loads(subprocess.run([node, "-e", script, str(JS / "vocabulary.js")], capture_output=True,
                                     text=True, check=True, timeout=60).stdout)
    options = vocabulary.OPTIONS.items()
    assert seen["options"] == [[o, list(v), vocabulary.OPTION_DEFAULTS.get(o)] for o, v in options]
    assert seen["sets"] == [[n, dict(o)] for n, o in vocabulary.NAMED_RULESETS.items()]
    assert seen["reasons"] == list(vocabulary.REASONS)
    assert (seen["ranks"], seen["suits"]) == (vocabulary.RANKS, vocabulary.SUITS)


def test_the_javascript_engine_restates_no_word_of_the_vocabulary() -> None:
    """The engine and the adapter name option values where the rules use them, but never
    list the options, the named sets, the card alphabet or the reasons again."""
    adapter = (JS / "adapter.js").read_text(encoding="utf-8")
    engine = (JS / "engine.js").read_text(encoding="utf-8")
    for text in (adapter, engine):
        assert vocabulary.RANKS not in text and f"'{vocabulary.SUITS}'" not in text
        assert not any(f"'{name}'" in text for name in vocabulary.NAMED_RULESETS if name != "standard")
    assert "require('./vocabulary.js')" in engine
    reasons = set(re.findall(r"refuse\('([a-z-]+)'", engine))
    # Only the vocabulary's reasons (a reason it never gives shows in its run of the suite).
    assert reasons and reasons <= set(vocabulary.REASONS), reasons - set(vocabulary.REASONS)
    codes = set(re.findall(r"EngineError\('([a-z-]+)'", adapter + engine))
    assert codes and codes <= set(vocabulary.ERROR_CODES), codes - set(vocabulary.ERROR_CODES)
    values = {v for vs in vocabulary.OPTIONS.values() for v in vs}
    named = set(re.findall(r"rules\.(\w+) === '([a-z-]+)'", engine))
    assert named and all(o in vocabulary.OPTIONS and v in values for o, v in named), named
    # The options it says it reads are the ones its rules and its solver compare.
    solver = (JS / "solver.js").read_text(encoding="utf-8")
    reads = re.search(r"const READS = new Set\(\[(.*?)\]\)", engine)
    compared = set(re.findall(r"rules\.(\w+) [!=]==", engine + solver))
    assert reads, "engine.js names no READS"
    assert set(re.findall(r"'(\w+)'", reads.group(1))) == compared <= set(vocabulary.OPTIONS), compared


# -- copies made impossible, not policed -------------------------------------------------


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_only_the_reader_opens_the_vocabulary_file() -> None:
    """Every other module takes the words from the reader, so there is no second reading to drift."""
    opening = []
    for path in _modules():
        name = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if name not in READERS and any(isinstance(node, ast.Constant) and node.value == "vocabulary.json"
                                       for node in ast.walk(tree)):
            opening.append(name)
    assert not opening, f"read the vocabulary through scorpion_shared.vocabulary, not again in {opening}"


def test_the_typed_words_are_the_vocabulary() -> None:
    """A value the vocabulary does not list is a type error wherever the engine compares or raises it."""
    for option, values in vocabulary.OPTIONS.items():
        assert get_args(getattr(words, generated.type_name(option))) == values, option
        hint = get_type_hints(getattr(words.OptionValues, option).fget, vars(words))["return"]
        assert get_args(hint) == values, option
    assert get_args(words.OptionName) == tuple(vocabulary.OPTIONS)
    assert get_args(words.RuleSetName) == tuple(vocabulary.NAMED_RULESETS)
    assert get_args(words.ReasonCode) == vocabulary.REASONS
    assert get_args(words.ErrorCode) == vocabulary.ERROR_CODES
    assert get_args(words.CommandName) == vocabulary.COMMANDS
    assert get_args(words.StatusName) == vocabulary.STATUSES
    assert issubclass(scorpion_ref.RuleSet, words.OptionValues)
    for rules in scorpion_ref.RULESETS.values():
        assert {option: getattr(rules, option) for option in vocabulary.OPTIONS} == rules.options


def _names_in_code(path: Path) -> set[str]:
    """Identifiers and string constants of a module, its docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            names.update(re.findall(r"[a-z][a-z0-9_-]*", node.value))
    return names


@pytest.mark.parametrize("option", [o for o in vocabulary.OPTIONS if "_" in o])
def test_an_option_is_named_in_code_by_at_most_two_modules(option: str) -> None:
    """Issue 9's criterion: the engine implements an option; nothing else spells it out.

    Options named by an ordinary word (runs, stock, win) cannot be told apart by
    name, so the check covers the others.
    """
    spellings = {option, option.replace("_", "-")}
    naming = [p.relative_to(ROOT).as_posix() for p in _modules()
              if p.relative_to(ROOT).as_posix() not in READERS and spellings & _names_in_code(p)]
    assert len(naming) <= 2, naming
