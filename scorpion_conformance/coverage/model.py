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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .reader import MODULES, Function, Reader
from .syntax import Condition, Decision, Guard, is_rule_expr, raises, reasons_of_raise

__all__ = ["MODULES", "Condition", "Decision", "Model", "Unknown", "load_model"]

class _UnknownType:
    """A value the rule set alone does not decide (three-valued logic)."""

    def __repr__(self) -> str:
        return "Unknown"


Unknown: Any = _UnknownType()


@dataclass
class Model:
    """Every decision of the engine's modules, with the knowledge to judge reachability."""

    decisions: tuple[Decision, ...]
    readers: Mapping[str, Any] = field(repr=False)
    functions: tuple[Function, ...] = field(repr=False)
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
    def _by_function(self) -> dict[str, Function]:
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
        if not is_rule_expr(node, glob):
            return Unknown
        code = compile(ast.Expression(node), "<rule condition>", "eval")
        return bool(eval(code, dict(glob), {"rules": rules}))

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
        decided = decision.node is not None and self.rule_value(decision.node, decision.module, rules)
        if decision.node is not None and decided is not Unknown:
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
            for raise_node, guards in raises(node):
                raised = reasons_of_raise(raise_node, node)
                if reason in raised and self._open(guards, decision.module, rules):
                    return True
        return False


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
            reader = Reader(module)
            reader.read()
            readers[module] = reader
        _MODEL = Model(
            tuple(d for r in readers.values() for d in r.decisions),
            readers,
            tuple(f for r in readers.values() for f in r.functions),
            _entries(),
        )
    return _MODEL
