"""The engine's decisions recorded as they are taken, condition by condition.

The engine carries no hook of its own. For a measurement, :func:`instrumented`
compiles a copy of each module of the model (:data:`.model.MODULES`) from its
own source, with every condition of the model wrapped in a call that notes its
value and every decision in calls that open and close one evaluation, and puts
that code into the engine's functions in place (``function.__code__``), so every
caller, the reference adapter included, runs it. On leaving, the original code
goes back: outside a measurement the engine runs exactly as written, at no cost.

>>> from scorpion_ref import Position, get_ruleset, parse_action
>>> from scorpion_ref.engine import is_legal
>>> with instrumented() as recorder:
...     with recorder.context("example", "standard"):
...         is_legal(Position.build(["TD", "3S | 9D"]), get_ruleset("standard"), parse_action("9D>1"))
...         recorder.keep(recorder.take(), observed=True, status_observed=True)
True
>>> any(row.outcome == "legal" for row in recorder.rows("engine._check_move"))
True
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import types
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .model import Model, load_model

__all__ = ["Recorder", "Row", "instrumented"]

#: The name the instrumented code calls the recorder by, in the engine's module globals.
PROBE = "__scorpion_coverage__"


@dataclass(frozen=True, slots=True)
class Row:
    """One kind of evaluation of a decision: the value of each condition (None where
    it was not evaluated) and the outcome, under one rule set, first seen in ``case``."""

    decision: str
    rules: str
    values: tuple[bool | None, ...]
    outcome: str
    case: str


def _outcome(value: Any) -> str:
    if value is None:
        return "legal"
    if isinstance(value, bool):
        return str(value).lower()
    return str(getattr(value, "value", value))


class Recorder:
    """Collects evaluations while a context (a case under a rule set) is open."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.ids = [d.id for d in model.decisions]
        self.sizes = [len(d.conditions) for d in model.decisions]
        self._stacks: list[list[list[bool | None]]] = [[] for _ in self.ids]
        self._case: str | None = None
        self._rules: str | None = None
        #: Per decision index: (rules, values, outcome) -> the first case, and how many times.
        self._seen: list[dict[tuple[str, tuple[bool | None, ...], str], list[Any]]] = [{} for _ in self.ids]
        #: Evaluations made in the current request, kept until the measurement says whether
        #: a scenario looked at what that request answered (see :meth:`flush`).
        self._pending: list[tuple[int, tuple[bool | None, ...], str, bool]] = []
        self._status_depth = 0
        self._status_index = self.ids.index("engine.status") if "engine.status" in self.ids else -1

    # -- what the instrumented code calls -----------------------------------

    def b(self, d: int) -> None:
        """Open one evaluation of decision ``d``."""
        self._stacks[d].append([None] * self.sizes[d])
        if d == self._status_index:
            self._status_depth += 1

    def c(self, d: int, k: int, value: Any) -> Any:
        """Condition ``k`` of decision ``d`` has ``value`` (returned unchanged)."""
        stack = self._stacks[d]
        if stack:
            stack[-1][k] = bool(value)
        return value

    def t(self, d: int, value: Any) -> Any:
        """A test decision ends with ``value`` (returned unchanged)."""
        self._close(d, _outcome(bool(value)))
        return value

    def r(self, d: int, value: Any) -> Any:
        """A rule function returns ``value`` (returned unchanged)."""
        self._close(d, _outcome(value))
        return value

    def x(self, d: int, error: BaseException) -> None:
        """A rule function raises ``error``: its outcome is the refusal's reason."""
        reason = getattr(error, "reason", None)
        self._close(d, f"refused: {reason}" if reason else f"raises {type(error).__name__}")

    def _close(self, d: int, outcome: str) -> None:
        stack = self._stacks[d]
        if not stack:
            return
        values = tuple(stack.pop())
        if d == self._status_index:
            self._status_depth -= 1
        if self._case is not None:
            self._pending.append((d, values, outcome, self._status_depth > 0 or d == self._status_index))

    # -- what the measurement calls -----------------------------------------

    @contextmanager
    def context(self, case: str, rules: str) -> Iterator[Recorder]:
        """Note the evaluations made for ``case`` under ``rules``: :meth:`take` hands them
        over, request by request, and :meth:`keep` keeps those a scenario looked at."""
        self._case, self._rules = case, rules
        self._pending.clear()
        try:
            yield self
        finally:
            self._pending.clear()
            self._case = self._rules = None

    def take(self) -> list[tuple[int, tuple[bool | None, ...], str, bool]]:
        """The evaluations noted since the last call (those of one request)."""
        taken, self._pending = self._pending, []
        return taken

    def keep(self, evaluations: Iterable[tuple[int, tuple[bool | None, ...], str, bool]],
             observed: bool, status_observed: bool, reason_observed: bool = True) -> None:
        """Keep what a request decided: its evaluations for a status if a scenario looked
        at the status it answered, the others if a scenario looked at its answer at all
        (a refusal whose reason no scenario read is kept as a refusal without reason)."""
        assert self._case is not None and self._rules is not None
        for d, values, outcome, for_status in evaluations:
            if not reason_observed and outcome.startswith("refused: "):
                outcome = "refused"
            if status_observed if for_status else observed:
                key = (self._rules, values, outcome)
                seen = self._seen[d].get(key)
                if seen is None:
                    self._seen[d][key] = [self._case, 1]
                else:
                    seen[1] += 1

    def rows(self, decision: str) -> list[Row]:
        """Every kind of evaluation of ``decision`` kept so far."""
        d = self.ids.index(decision)
        return [Row(decision, rules, values, outcome, seen[0])
                for (rules, values, outcome), seen in self._seen[d].items()]


class _Instrumenter(ast.NodeTransformer):
    """Rewrites a second parse of a module: conditions, tests and rule functions noted."""

    def __init__(self, model: Model, module: str, index: dict[str, int]) -> None:
        self.index = index
        reader = model.readers[module]
        spans = {id(n): _span(n) for n in ast.walk(reader.tree)}
        self.conditions = {spans[node]: (index[d], k) for node, (d, k) in reader.condition_nodes.items()}
        self.tests = {spans[node]: index[d] for node, d in reader.test_nodes.items()}
        self.functions = {spans[node]: index[d] for node, d in reader.rule_function_nodes.items()}
        self._rule: list[int | None] = []

    @staticmethod
    def _call(method: str, *args: ast.expr) -> ast.Call:
        return ast.Call(ast.Attribute(ast.Name(PROBE, ast.Load()), method, ast.Load()), list(args), [])

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        d = self.functions.get(_span(node))
        self._rule.append(d)
        self.generic_visit(node)
        self._rule.pop()
        if d is None:
            return node
        number = ast.Constant(d)
        error = "__scorpion_coverage_error__"
        body = node.body
        docstring = body[:1] if body and isinstance(body[0], ast.Expr) and isinstance(
            getattr(body[0], "value", None), ast.Constant) else []
        rest = body[len(docstring):]
        node.body = [
            *docstring,
            ast.Expr(self._call("b", number)),
            ast.Try(
                body=[*rest, ast.Expr(self._call("r", number, ast.Constant(None)))],
                handlers=[ast.ExceptHandler(
                    ast.Name("BaseException", ast.Load()), error,
                    [ast.Expr(self._call("x", number, ast.Name(error, ast.Load()))), ast.Raise()],
                )],
                orelse=[], finalbody=[],
            ),
        ]
        return node

    def visit_Return(self, node: ast.Return) -> ast.AST:
        self.generic_visit(node)
        d = self._rule[-1] if self._rule else None
        if d is not None:
            node.value = self._call("r", ast.Constant(d), node.value or ast.Constant(None))
        return node

    def visit(self, node: ast.AST) -> Any:
        if not isinstance(node, ast.expr):
            return super().visit(node)
        span = _span(node)
        result = super().visit(node)
        where = self.conditions.get(span)
        if where is not None:
            result = self._call("c", ast.Constant(where[0]), ast.Constant(where[1]), result)
        d = self.tests.get(span)
        if d is not None:
            opened = ast.Tuple([self._call("b", ast.Constant(d)), result], ast.Load())
            result = self._call("t", ast.Constant(d), ast.Subscript(opened, ast.Constant(1), ast.Load()))
        return result


def _span(node: ast.AST) -> tuple[Any, ...]:
    return (type(node).__name__, getattr(node, "lineno", None), getattr(node, "col_offset", None),
            getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _code_objects(const)


def _functions(module: types.ModuleType) -> Iterator[types.FunctionType]:
    for value in vars(module).values():
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            yield value
        elif inspect.isclass(value) and value.__module__ == module.__name__:
            for member in vars(value).values():
                target = member.fget if isinstance(member, property) else member
                if isinstance(target, types.FunctionType):
                    yield target


@contextmanager
def instrumented(model: Model | None = None) -> Iterator[Recorder]:
    """The engine's functions run instrumented code inside the block; its own code after."""
    model = model or load_model()
    recorder = Recorder(model)
    index = {d: i for i, d in enumerate(recorder.ids)}
    swapped: list[tuple[types.FunctionType, types.CodeType]] = []
    modules = []
    try:
        for name in model.readers:
            module = importlib.import_module(name)
            reader = model.readers[name]
            tree = _Instrumenter(model, name, index).visit(copy.deepcopy(ast.parse(reader.source)))
            ast.fix_missing_locations(tree)
            compiled = compile(tree, inspect.getsourcefile(module) or name, "exec")
            codes = {c.co_qualname: c for c in _code_objects(compiled)}
            module.__dict__[PROBE] = recorder
            modules.append(module)
            for function in _functions(module):
                new = codes.get(function.__qualname__)
                if new is not None and new.co_freevars == function.__code__.co_freevars:
                    swapped.append((function, function.__code__))
                    function.__code__ = new
        yield recorder
    finally:
        for function, code in swapped:
            function.__code__ = code
        for module in modules:
            module.__dict__.pop(PROBE, None)
