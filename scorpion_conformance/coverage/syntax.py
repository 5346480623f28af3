"""The pieces of the coverage model, and what is read off the engine's syntax tree: the
guards on a condition's path, whether a test reads the rule set alone, where a function
raises and with which reason code.

>>> import ast
>>> is_rule_expr(ast.parse('rules.stock == "when-stuck"', mode="eval").body, {})
True
>>> is_rule_expr(ast.parse("rules.stock == card.rank", mode="eval").body, {})
False
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Condition", "Decision", "Guard", "always_exits", "is_rule_expr", "raises", "reasons_of",
           "reasons_of_raise"]


@dataclass(frozen=True, slots=True)
class Guard:
    """On a condition's path: ``expr`` must evaluate to ``value`` for it to be reached."""

    expr: ast.expr
    value: bool


@dataclass(frozen=True)
class Condition:
    """One atomic test of a decision."""

    decision: str
    index: int
    text: str
    line: int
    #: Whether it reads the rule set alone.
    rule: bool
    guards: tuple[Guard, ...] = field(default=(), compare=False, repr=False)
    node: ast.expr | None = field(default=None, compare=False, repr=False)

    @property
    def id(self) -> str:
        return f"{self.decision}#{self.index}"


@dataclass(frozen=True)
class Decision:
    """A decision of the engine: a rule function, or one test elsewhere."""

    id: str
    module: str
    function: str
    kind: str  # "rule" (a rule function) or "test" (one test)
    line: int
    text: str
    doc: str
    conditions: tuple[Condition, ...]
    guards: tuple[Guard, ...] = field(default=(), compare=False, repr=False)
    #: For a rule function, the refusal reasons it raises itself (codes written in it).
    reasons: tuple[str, ...] = ()
    #: For a test, its expression.
    node: ast.expr | None = field(default=None, compare=False, repr=False)

    @property
    def file(self) -> str:
        return self.module.replace(".", "/") + ".py"


def is_rule_expr(node: ast.expr, module_globals: Mapping[str, Any]) -> bool:
    """Whether ``node`` reads only ``rules`` (and constants or names of its module), no calls."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if "rules" not in names:
        return False
    if any(isinstance(n, (ast.Call, ast.Lambda, ast.NamedExpr)) for n in ast.walk(node)):
        return False
    return all(name == "rules" or name in module_globals for name in names)


def always_exits(body: Sequence[ast.stmt]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    if isinstance(last, ast.If):
        return always_exits(last.body) and always_exits(last.orelse)
    return False


def reasons_of(node: ast.FunctionDef) -> tuple[str, ...]:
    """The reason codes a function writes into the refusals it raises."""
    found = [reason for raise_node, _ in raises(node) for reason in reasons_of_raise(raise_node, node)]
    return tuple(dict.fromkeys(found))


def raises(function: ast.FunctionDef) -> Iterator[tuple[ast.Raise, tuple[Guard, ...]]]:
    """Every raise of a function, with the guards of its path."""

    Found = Iterator[tuple[ast.Raise, tuple[Guard, ...]]]

    def block(body: Sequence[ast.stmt], guards: tuple[Guard, ...]) -> Found:
        for stmt in body:
            if isinstance(stmt, ast.Raise):
                yield stmt, guards
            elif isinstance(stmt, (ast.If, ast.While)):
                yield from block(stmt.body, (*guards, Guard(stmt.test, True)))
                yield from block(stmt.orelse, (*guards, Guard(stmt.test, False)))
            elif isinstance(stmt, ast.Try):
                for part in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                    yield from block(part, guards)
            if isinstance(stmt, ast.If) and always_exits(stmt.body) and not stmt.orelse:
                guards = (*guards, Guard(stmt.test, False))

    yield from block(function.body, ())


def reasons_of_raise(raise_node: ast.Raise, function: ast.FunctionDef) -> tuple[str, ...]:
    """The reason codes one raise can carry: a string written there, or the strings
    assigned in the function to the name it passes."""
    if not isinstance(raise_node.exc, ast.Call) or not raise_node.exc.args:
        return ()
    first = raise_node.exc.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return (first.value,)
    if isinstance(first, ast.Name):
        return tuple(
            c.value for sub in ast.walk(function)
            if isinstance(sub, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == first.id for t in sub.targets)
            for c in ast.walk(sub.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
        )
    return ()
