"""The mutants of the reference engine: which code is mutated, each mutant's stable
key, and a copy of ``scorpion_ref`` with one mutant applied.

The mutants are cosmic-ray's (every core operator) plus our two Scorpion
operators (:mod:`.operators`), over the rule code of ``scorpion_ref`` and the
adapter's translation. A mutant's occurrence is cosmic-ray's: the n-th place
in the module where its operator applies, so ``cosmic-ray`` and this module
agree on what mutant N is. Its :attr:`Mutant.key` (module, definition,
operator, n-th within the definition) survives edits elsewhere in the module.

Left out, each for a stated reason (:data:`EXCLUDED`): code no protocol request
reaches (text notation, reprs, the adapter's reading of lines) and message
text inside f-strings (the protocol leaves messages free; scenarios assert
reason codes).

>>> mutants = enumerate_mutants()
>>> len(mutants) > 700, mutants[0].module
(True, 'engine')
"""

from __future__ import annotations

import difflib
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cosmic_ray.plugins
from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code
from cosmic_ray.operators.operator import Operator

from .operators import OWN_OPERATORS

__all__ = ["EXCLUDED", "EXCLUDED_LINES", "GUARDS", "MODULES", "Mutant", "apply_mutant", "engine_source",
           "enumerate_mutants", "write_mutant_tree"]

#: The modules of ``scorpion_ref`` that are mutated, in campaign order.
MODULES = ("engine", "rules", "position", "game", "actions", "serial", "adapter")

_VALIDATION = ("refuses impossible or malformed input; the scenarios draw valid tables only and the "
               "notation has no refused start (tests/test_reference_adapter.py and check-adapter test it)")

_CONVERSATION = ("the conversation (handshake, request ids, quit), not the rules: no scenario sentence "
                 "reaches it; tests/test_reference_adapter.py, tests/test_fault_matrix.py and "
                 "check-adapter test it")

_SOLVE = ("the optional solve capability: the scenarios' notation has no sentence that asks "
          "for a solution, and the solver's own tests and check-adapter's solve checks judge the answer")

#: Why a guard that only raises an input error is left out (see :func:`_in_input_guard`).
GUARDS = ("the test of an `if` whose branch only raises an input error, and a branch that ends by "
          "raising one (the code that refuses bad input and words the refusal): " + _VALIDATION)

#: The errors that refuse input (not actions the rules refuse: those are IllegalAction).
_INPUT_ERRORS = frozenset({"InvalidPosition", "NotationError", "Refusal", "UnknownRuleSet"})

#: Definitions left unmutated, by module, with the reason.
EXCLUDED: dict[str, dict[str, str]] = {
    "engine": {
        "is_legal": "not called on the protocol path (the adapter plays through Game.play and check)",
        "available_actions": "not called on the protocol path (status reads _available_moves itself)",
    },
    "position": {
        "Column.__post_init__": _VALIDATION,
        "Position.__post_init__": _VALIDATION,
        "Column.__repr__": "a repr for people; the protocol never sends it",
        "Column.parse": "the text notation; the protocol sends JSON",
        "Position.build": "the text notation; the protocol sends JSON",
        "Position.replace": "not called on the protocol path",
        "Column.__len__": "not called on the protocol path (nothing takes len() or the truth of a Column)",
    },
    "actions": {
        "Move.__post_init__": _VALIDATION,
        "Move.parse": "the text notation; the protocol sends JSON",
        "Move.__str__": "the text notation; the protocol sends JSON",
        "Move.__repr__": "a repr for people",
        "Deal.__str__": "the text notation; the protocol sends JSON",
        "Deal.__repr__": "a repr for people",
        "parse_action": "the text notation; the protocol sends JSON",
    },
    "rules": {
        "RuleSet.__repr__": "a repr for people",
        "RuleSet.__reduce__": "pickling; the adapter never pickles",
        "_rebuild": "pickling; the adapter never pickles",
        "RuleSet.__setattr__": "refuses assignment; no code assigns",
        "RuleSet.__delattr__": "refuses deletion; no code deletes",
        "get_ruleset": "the adapter looks rule sets up in its own table",
        "RuleSet.matches": "not called on the protocol path (the suite matches tags on its side)",
    },
    "serial": {
        "_card": _VALIDATION,
        "draw_position": "a drawing for people; the protocol never sends it",
    },
    "adapter": {
        "_check_cards": _VALIDATION,
        "_clip": "message length, not translation",
        "_show": "message text, not translation",
        "_reject_constant": "reading JSON lines, not translation",
        "Session._parse": "reading JSON lines, not translation (the harness's fault matrix tests it)",
        "encode_answer": "writing lines, not translation",
        "_read_line": "reading lines, not translation",
        "serve": "the line loop, not translation",
        "main": "the command line, not translation",
        "Refusal.__init__": "a guard on our own error codes",
        "read_position": _VALIDATION + " (the translation is serial.position_from_json, mutated)",
        "read_action": _VALIDATION + " (the translation is serial.action_from_json, mutated)",
        "Session.respond": _CONVERSATION,
        "_request_id": _CONVERSATION,
        "Session._hello": _CONVERSATION,
        "<module>": "line and message limits far above any request of the suite, and the __main__ guard",
    },
}

#: Source lines left unmutated, by module (stripped text), with the reason.
EXCLUDED_LINES: dict[str, dict[str, str]] = {
    "adapter": {
        'if cmd == "quit":': _CONVERSATION,
        'return {"ok": True}, 0': _CONVERSATION,
        "self.greeted = False": _CONVERSATION,
        'elif cmd == "solve":': _SOLVE,
        "except ValueError as error:": _SOLVE,
    },
}


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutation: cosmic-ray's operator and occurrence in a module, and where it lies."""

    module: str
    definition: str
    operator: str
    occurrence: int
    #: The n-th mutant of this operator within this definition.
    index: int
    line: int
    #: The source line it changes, stripped.
    before: str

    @property
    def key(self) -> str:
        """A stable name: ``module:definition:operator:index``."""
        return f"{self.module}:{self.definition}:{self.operator}:{self.index}"

    @property
    def path(self) -> str:
        return f"scorpion_ref/{self.module}.py"


def _operator(name: str) -> Operator:
    if name in OWN_OPERATORS:
        return OWN_OPERATORS[name]()
    return cosmic_ray.plugins.get_operator(name)()


@cache
def operator_names() -> tuple[str, ...]:
    """cosmic-ray's operators that take no arguments, then ours."""
    core = [n for n in cosmic_ray.plugins.operator_names()
            if not cosmic_ray.plugins.get_operator(n).arguments()]
    return (*core, *OWN_OPERATORS)


def _definition(node: Any) -> str:
    names = []
    obj = node.parent
    while obj is not None:
        if obj.type in ("funcdef", "classdef"):
            names.append(obj.name.value)
        obj = obj.parent
    return ".".join(reversed(names)) or "<module>"


def _in_fstring(node: Any) -> bool:
    obj = node
    while obj is not None:
        if obj.type == "fstring":
            return True
        obj = obj.parent
    return False


def _in_annotation(node: Any) -> bool:
    """Whether ``node`` lies in a type annotation, which no module evaluates
    (each starts ``from __future__ import annotations``)."""
    obj = node
    while obj.parent is not None:
        parent = obj.parent
        before = obj.get_previous_sibling()
        said = getattr(before, "value", None)
        if (parent.type, said) in (("param", ":"), ("tfpdef", ":"), ("funcdef", "->")):
            return True
        if parent.type == "annassign" and before is not None and getattr(before, "value", None) == ":":
            return True
        obj = parent
    return False


def _raises_input_error(suite: Any) -> bool:
    statements = [c for c in getattr(suite, "children", [suite]) if c.type not in ("newline", "operator")]
    if not statements:
        return False
    for statement in statements:
        raise_stmt = statement.children[0] if statement.type == "simple_stmt" else statement
        if raise_stmt.type != "raise_stmt":
            return False
        called = raise_stmt.children[1]
        name = called.children[0] if called.type in ("atom_expr", "power") else called
        if getattr(name, "value", None) not in _INPUT_ERRORS:
            return False
    return True


def _ends_raising_input_error(suite: Any) -> bool:
    statements = [c for c in getattr(suite, "children", [suite]) if c.type not in ("newline", "operator")]
    return bool(statements) and _raises_input_error(statements[-1])


def _in_input_guard(node: Any) -> bool:
    """Whether ``node`` lies in the test of an ``if`` (or ``elif``) whose branch only
    raises an input error, or in a branch that ends by raising one: such code decides
    nothing but whether, and in which words, bad input is refused."""
    obj = node
    while obj.parent is not None:
        parent = obj.parent
        if parent.type == "if_stmt":
            children = parent.children
            i = children.index(obj)
            keyword = getattr(children[i - 1], "value", None) if i > 0 else None
            if keyword in ("if", "elif") and _raises_input_error(children[i + 2]):
                return True
            if obj.type == "suite" and _ends_raising_input_error(obj):
                return True
        obj = parent
    return False


def engine_source(root: Path) -> dict[str, str]:
    """The text of each mutated module under ``root`` (a folder holding ``scorpion_ref``)."""
    return {m: (root / "scorpion_ref" / f"{m}.py").read_text(encoding="utf-8") for m in MODULES}


def _left_out(definition: str, excluded: dict[str, str]) -> bool:
    """Whether ``definition`` or a definition it lies in is left out."""
    parts = definition.split(".")
    return any(".".join(parts[:n]) in excluded for n in range(1, len(parts) + 1))


def _module_mutants(module: str, source: str) -> Iterator[Mutant]:
    tree = get_ast(source)
    lines = source.splitlines()
    excluded = EXCLUDED.get(module, {})
    lines_out = EXCLUDED_LINES.get(module, {})
    for name in operator_names():
        operator = _operator(name)
        seen: dict[str, int] = {}
        positions = ((node, start) for node in ast_nodes(tree)
                     for start, _ in operator.mutation_positions(node))
        for occurrence, (node, start) in enumerate(positions):
            definition = _definition(node)
            if _left_out(definition, excluded) or lines[start[0] - 1].strip() in lines_out:
                continue
            if _in_fstring(node) or _in_annotation(node) or _in_input_guard(node):
                continue
            index = seen.get(definition, 0)
            seen[definition] = index + 1
            yield Mutant(module, definition, name, occurrence, index, start[0], lines[start[0] - 1].strip())


def enumerate_mutants(root: Path | None = None) -> list[Mutant]:
    """Every mutant of the modules under ``root`` (default: the installed ``scorpion_ref``'s folder)."""
    if root is None:
        import scorpion_ref

        root = Path(scorpion_ref.__file__).resolve().parent.parent
    sources = engine_source(root)
    return [m for module in MODULES for m in _module_mutants(module, sources[module])]


def apply_mutant(mutant: Mutant, source: str) -> str:
    """The module's source with ``mutant`` applied; raises ValueError when it does not apply."""
    mutated = mutate_code(source, _operator(mutant.operator), mutant.occurrence)
    if mutated is None:
        raise ValueError(f"{mutant.key} does not apply to this source")
    return str(mutated)


def diff(mutant: Mutant, source: str, mutated: str) -> str:
    """The changed lines, as a unified diff without its header."""
    lines = difflib.unified_diff(source.splitlines(), mutated.splitlines(), lineterm="", n=0)
    return "\n".join(line for line in list(lines)[2:] if not line.startswith("@@"))


def write_mutant_tree(mutant: Mutant, root: Path, into: Path) -> str:
    """Copy ``root/scorpion_ref`` into ``into`` with ``mutant`` applied; returns its diff."""
    source = (root / mutant.path).read_text(encoding="utf-8")
    mutated = apply_mutant(mutant, source)
    target = into / "scorpion_ref"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(root / "scorpion_ref", target, ignore=shutil.ignore_patterns("__pycache__"))
    (into / mutant.path).write_text(mutated, encoding="utf-8")
    return diff(mutant, source, mutated)
