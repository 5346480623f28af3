"""The coverage model of the rules, read from the engine's own source.

Nothing here is typed by hand: the decisions and their conditions are found in
the abstract syntax tree of the engine's modules (:data:`MODULES`).

* A **condition** is an atomic boolean test: an operand of ``and``/``or``/``not``
  that is not itself one, the test of an ``if``, ``while`` or conditional
  expression, a filter of a comprehension, or a comparison a rule function
  returns. Its name is its source text.
* A **rule function** is a function without loops whose every answer is a
  verdict: annotated to return ``bool``, ``None`` or a ``Status``, so it either
  returns one of those or raises a refusal. It is one **decision** whose outcome
  is what it returns or the reason it raises (``_check_move`` is the decision
  "which reason refuses this move"), and whose conditions are every test in its
  body.
* Everywhere else (functions with loops, or that build a value), each test is a
  decision of its own whose outcome is its truth, the usual reading of DO-178C.
* A **rule condition** reads the rule set and nothing else
  (``rules.stock == "when-stuck"``): constant under one rule set, so it can
  flip an outcome only between two rule sets.
* A condition **can matter** under a rule set unless the rule set itself keeps
  it from being evaluated (a rule condition on its path, an enclosing ``if``,
  an earlier operand of its ``and``, an earlier ``if ...: return``, that the
  rule set decides the other way, or a function that only such paths call), or
  decides its test whatever it says (``whole and rules.whole_column_to_empty ==
  "refused"`` under a rule set that allows whole columns).

>>> model = load_model()
>>> move = model.decision("engine._check_move")
>>> move.kind, "dest == source" in [c.text for c in move.conditions]
('rule', True)
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

__all__ = [
    "MODULES",
    "Condition",
    "Decision",
    "Model",
    "Unknown",
    "load_model",
]

#: The engine's modules whose decisions make the model (the rules and the game with its undo).
MODULES = ("scorpion_ref.engine", "scorpion_ref.game")

#: Return annotations that make a loop-free function a rule function.
_VERDICTS = {"bool", "None", "Status"}


class _UnknownType:
    """A value the rule set alone does not decide (three-valued logic)."""

    def __repr__(self) -> str:
        return "Unknown"


Unknown: Any = _UnknownType()


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


@dataclass
class _Function:
    module: str
    qualname: str
    node: ast.FunctionDef
    rule: bool
    #: The functions of the model it calls (their keys), with the guards of each call.
    calls: list[tuple[str, tuple[Guard, ...]]] = field(default_factory=list)


def _is_rule_expr(node: ast.expr, module_globals: Mapping[str, Any]) -> bool:
    """Whether ``node`` reads only ``rules`` (and constants or names of its module), no calls."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if "rules" not in names:
        return False
    if any(isinstance(n, (ast.Call, ast.Lambda, ast.NamedExpr)) for n in ast.walk(node)):
        return False
    return all(name == "rules" or name in module_globals for name in names)


def _atoms(node: ast.expr) -> Iterator[ast.expr]:
    """The atomic conditions of a boolean expression, left to right."""
    if isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _atoms(value)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from _atoms(node.operand)
    else:
        yield node


def _always_exits(body: Sequence[ast.stmt]) -> bool:
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    if isinstance(last, ast.If):
        return _always_exits(last.body) and _always_exits(last.orelse)
    return False


def _reasons_of(node: ast.FunctionDef) -> tuple[str, ...]:
    """The reason codes a function writes into the refusals it raises."""
    found = [reason for raise_node, _ in _raises(node) for reason in _reasons_of_raise(raise_node, node)]
    return tuple(dict.fromkeys(found))


class _Reader:
    """Walks one module's tree and collects its decisions."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.short = module.rsplit(".", 1)[-1]
        mod = importlib.import_module(module)
        self.globals = vars(mod)
        self.source = inspect.getsource(mod)
        self.tree = ast.parse(self.source)
        self.decisions: list[Decision] = []
        self.functions: list[_Function] = []
        #: The node of each decision's test, for the instrumenter (by node id).
        self.test_nodes: dict[int, str] = {}
        self.condition_nodes: dict[int, tuple[str, int]] = {}
        self.rule_function_nodes: dict[int, str] = {}
        self._counts: dict[str, int] = {}
        self.own = {n.name for n in self.tree.body if isinstance(n, ast.FunctionDef)}
        #: Names this module imports from the other modules of the model, with their keys.
        self.imported: dict[str, str] = {}
        package = module.rsplit(".", 1)[0]
        for node in self.tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                source = f"{package}.{node.module}"
                if source in MODULES:
                    for alias in node.names:
                        self.imported[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def _callee(self, call: ast.Call) -> str | None:
        func = call.func
        if isinstance(func, ast.Name):
            if func.id in self.own:
                return f"{self.short}.{func.id}"
            return self.imported.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            owner = self._current.qualname.rsplit(".", 1)[0]
            return f"{self.short}.{owner}.{func.attr}"
        return None

    def read(self) -> None:
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef):
                self._function(node, node.name)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        self._function(item, f"{node.name}.{item.name}")

    def _text(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.source, node) or ast.unparse(node)

    def _function(self, node: ast.FunctionDef, qualname: str) -> None:
        has_loop = any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(node))
        returns = ast.unparse(node.returns) if node.returns is not None else ""
        rule = not has_loop and returns in _VERDICTS
        doc = (ast.get_docstring(node) or "").strip().split("\n\n")[0].replace("\n", " ")
        function = _Function(self.module, qualname, node, rule)
        self.functions.append(function)
        self._current = function
        self._doc = doc
        if rule:
            decision_id = f"{self.short}.{qualname}"
            self.rule_function_nodes[id(node)] = decision_id
            self._rule_id: str | None = decision_id
            self._rule_conditions: list[Condition] = []
            self._block(node.body, ())
            self.decisions.append(Decision(
                decision_id, self.module, qualname, "rule", node.lineno, qualname, doc,
                tuple(self._rule_conditions), (), _reasons_of(node),
            ))
            self._rule_id = None
        else:
            self._rule_id = None
            self._block(node.body, ())

    # -- walking statements and expressions, with the guards of the path ------

    def _block(self, body: Sequence[ast.stmt], guards: tuple[Guard, ...]) -> None:
        for stmt in body:
            self._stmt(stmt, guards)
            if isinstance(stmt, ast.If) and _always_exits(stmt.body) and not stmt.orelse:
                guards = (*guards, Guard(stmt.test, False))

    def _stmt(self, stmt: ast.stmt, guards: tuple[Guard, ...]) -> None:
        if isinstance(stmt, (ast.If, ast.While)):
            self._test(stmt.test, guards)
            self._block(stmt.body, (*guards, Guard(stmt.test, True)))
            self._block(stmt.orelse, (*guards, Guard(stmt.test, False)))
        elif isinstance(stmt, ast.For):
            self._expr(stmt.iter, guards)
            self._block(stmt.body, guards)
            self._block(stmt.orelse, guards)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                self._block(block, guards)
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            if self._rule_id is not None and isinstance(stmt.value, (ast.BoolOp, ast.Compare, ast.UnaryOp)):
                self._test(stmt.value, guards)
            else:
                self._expr(stmt.value, guards)
        elif isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            return
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self._expr(child, guards)

    def _test(self, test: ast.expr, guards: tuple[Guard, ...]) -> None:
        """A boolean test: its atoms are conditions of the rule function, or of a new decision."""
        if self._rule_id is not None:
            self._conditions(test, guards, self._rule_id, self._rule_conditions)
            return
        decision_id = self._new_test_id(test)
        conditions: list[Condition] = []
        self.test_nodes[id(test)] = decision_id
        self._conditions(test, guards, decision_id, conditions)
        self.decisions.append(Decision(
            decision_id, self.module, self._current.qualname, "test", test.lineno, self._text(test),
            self._doc, tuple(conditions), guards, node=test,
        ))

    def _new_test_id(self, test: ast.expr) -> str:
        base = f"{self.short}.{self._current.qualname}: {ast.unparse(test)}"
        self._counts[base] = self._counts.get(base, 0) + 1
        count = self._counts[base]
        return base if count == 1 else f"{base} ({count})"

    def _conditions(self, test: ast.expr, guards: tuple[Guard, ...], decision_id: str,
                    conditions: list[Condition]) -> None:
        for atom, atom_guards in self._atoms_with_guards(test, guards):
            index = len(conditions)
            self.condition_nodes[id(atom)] = (decision_id, index)
            conditions.append(Condition(
                decision_id, index, self._text(atom), atom.lineno,
                _is_rule_expr(atom, self.globals), atom_guards, atom,
            ))
            self._expr(atom, atom_guards, inside_condition=True)

    def _atoms_with_guards(self, node: ast.expr, guards: tuple[Guard, ...]
                           ) -> Iterator[tuple[ast.expr, tuple[Guard, ...]]]:
        if isinstance(node, ast.BoolOp):
            stop = isinstance(node.op, ast.Or)  # an `or` goes on past a false operand
            for value in node.values:
                yield from self._atoms_with_guards(value, guards)
                guards = (*guards, Guard(value, not stop))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield from self._atoms_with_guards(node.operand, guards)
        else:
            yield node, guards

    def _expr(self, node: ast.expr, guards: tuple[Guard, ...], inside_condition: bool = False) -> None:
        """Decisions inside an expression: calls (for reachability), and-or values,
        conditional expressions and comprehension filters."""
        if isinstance(node, ast.Call):
            callee = self._callee(node)
            if callee:
                self._current.calls.append((callee, guards))
        if isinstance(node, ast.BoolOp) and not inside_condition:
            self._test(node, guards)
            return
        if isinstance(node, ast.IfExp):
            self._test(node.test, guards)
            self._expr(node.body, (*guards, Guard(node.test, True)))
            self._expr(node.orelse, (*guards, Guard(node.test, False)))
            return
        if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            inner = guards
            for generator in node.generators:
                self._expr(generator.iter, inner)
                for condition in generator.ifs:
                    self._test(condition, inner)
                    inner = (*inner, Guard(condition, True))
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            saved, self._rule_id = self._rule_id, None  # an element is a test of its own
            for element in elements:
                self._expr(element, inner)
            self._rule_id = saved
            return
        if isinstance(node, ast.Lambda):
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._expr(child, guards, inside_condition and not isinstance(child, ast.BoolOp))


@dataclass
class Model:
    """Every decision of the engine's modules, with the knowledge to judge reachability."""

    decisions: tuple[Decision, ...]
    readers: Mapping[str, Any] = field(repr=False)
    functions: tuple[_Function, ...] = field(repr=False)
    entries: frozenset[str] = field(repr=False)

    def decision(self, decision_id: str) -> Decision:
        for decision in self.decisions:
            if decision.id == decision_id:
                return decision
        raise KeyError(decision_id)

    @property
    def conditions(self) -> tuple[Condition, ...]:
        return tuple(c for d in self.decisions for c in d.conditions)

    @cached_property
    def _by_function(self) -> dict[str, _Function]:
        return {f"{f.module.rsplit('.', 1)[-1]}.{f.qualname}": f for f in self.functions}

    def rule_value(self, node: ast.expr, module: str, rules: Any) -> Any:
        """The value of a condition's expression under ``rules``, or :data:`Unknown`."""
        glob = self.readers[module].globals
        if isinstance(node, ast.BoolOp):
            values = [self.rule_value(v, module, rules) for v in node.values]
            if isinstance(node.op, ast.And):
                if any(v is not Unknown and not v for v in values):
                    return False
                return Unknown if any(v is Unknown for v in values) else True
            if any(v is not Unknown and v for v in values):
                return True
            return Unknown if any(v is Unknown for v in values) else False
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            value = self.rule_value(node.operand, module, rules)
            return value if value is Unknown else not value
        if not _is_rule_expr(node, glob):
            return Unknown
        code = compile(ast.Expression(node), "<rule condition>", "eval")
        return bool(eval(code, dict(glob), {"rules": rules}))  # noqa: S307 - our own engine's text

    def _open(self, guards: Iterable[Guard], module: str, rules: Any) -> bool:
        for guard in guards:
            value = self.rule_value(guard.expr, module, rules)
            if value is not Unknown and value != guard.value:
                return False
        return True

    def live_functions(self, rules: Any) -> frozenset[str]:
        """The functions a game under ``rules`` can reach from the adapter's calls."""
        live = set(self.entries)
        changed = True
        while changed:
            changed = False
            for key in list(live):
                function = self._by_function.get(key)
                if function is None:
                    continue
                for target, guards in function.calls:
                    if target not in live and self._open(guards, function.module, rules):
                        live.add(target)
                        changed = True
        return frozenset(live)

    def can_matter(self, condition: Condition, rules: Any, live: frozenset[str] | None = None) -> bool:
        """Whether ``condition`` can flip an outcome in a game under ``rules`` alone
        (never for a rule condition, constant there)."""
        if condition.rule:
            return False
        decision = self.decision(condition.decision)
        if decision.node is not None and self.rule_value(decision.node, decision.module, rules) is not Unknown:
            return False  # the rule set alone decides the test, whatever this condition says
        return self.reached(condition, rules, live)

    def reached(self, condition: Condition, rules: Any, live: frozenset[str] | None = None) -> bool:
        """Whether a game under ``rules`` can evaluate ``condition`` at all."""
        decision = self.decision(condition.decision)
        live = self.live_functions(rules) if live is None else live
        key = f"{decision.module.rsplit('.', 1)[-1]}.{decision.function}"
        if key not in live:
            return False
        return self._open((*decision.guards, *condition.guards), decision.module, rules)

    def reason_possible(self, reason: str, rules: Any, live: frozenset[str] | None = None) -> bool:
        """Whether a refusal for ``reason`` can be raised under ``rules``."""
        live = self.live_functions(rules) if live is None else live
        for decision in self.decisions:
            if reason not in decision.reasons or f"{decision.module.rsplit('.', 1)[-1]}.{decision.function}" \
                    not in live:
                continue
            node = self._by_function[f"{decision.module.rsplit('.', 1)[-1]}.{decision.function}"].node
            for raise_node, guards in _raises(node):
                if reason in _reasons_of_raise(raise_node, node) and self._open(guards, decision.module, rules):
                    return True
        return False


def _raises(function: ast.FunctionDef) -> Iterator[tuple[ast.Raise, tuple[Guard, ...]]]:
    """Every raise of a function, with the guards of its path."""

    def block(body: Sequence[ast.stmt], guards: tuple[Guard, ...]) -> Iterator[tuple[ast.Raise, tuple[Guard, ...]]]:
        for stmt in body:
            if isinstance(stmt, ast.Raise):
                yield stmt, guards
            elif isinstance(stmt, (ast.If, ast.While)):
                yield from block(stmt.body, (*guards, Guard(stmt.test, True)))
                yield from block(stmt.orelse, (*guards, Guard(stmt.test, False)))
            elif isinstance(stmt, ast.Try):
                for part in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                    yield from block(part, guards)
            if isinstance(stmt, ast.If) and _always_exits(stmt.body) and not stmt.orelse:
                guards = (*guards, Guard(stmt.test, False))

    yield from block(function.body, ())


def _reasons_of_raise(raise_node: ast.Raise, function: ast.FunctionDef) -> tuple[str, ...]:
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
            if isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == first.id for t in sub.targets)
            for c in ast.walk(sub.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
        )
    return ()


def _entries() -> frozenset[str]:
    """What the reference adapter calls: the engine functions it imports, and every
    method of the classes it imports (the game)."""
    from scorpion_ref import adapter

    tree = ast.parse(inspect.getsource(adapter))
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "scorpion_ref"
        for alias in node.names
    }
    entries: set[str] = set()
    for module in MODULES:
        mod = importlib.import_module(module)
        short = module.rsplit(".", 1)[-1]
        for name in imported:
            value = getattr(mod, name, None)
            if value is None or getattr(value, "__module__", None) != module:
                continue
            if inspect.isclass(value):
                entries.update(f"{short}.{name}.{member}" for member, _ in inspect.getmembers(value)
                               if not member.startswith("__") or member == "__init__")
            else:
                entries.add(f"{short}.{name}")
    return frozenset(entries)


_MODEL: Model | None = None


def load_model() -> Model:
    """The model of :data:`MODULES`, read once per process."""
    global _MODEL
    if _MODEL is None:
        readers = {}
        for module in MODULES:
            reader = _Reader(module)
            reader.read()
            readers[module] = reader
        _MODEL = Model(
            tuple(d for r in readers.values() for d in r.decisions),
            readers,
            tuple(f for r in readers.values() for f in r.functions),
            _entries(),
        )
    return _MODEL
