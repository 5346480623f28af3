"""Reading one module of the engine: its decisions, their conditions and the guards on
each condition's path, the calls between its functions, and the syntax nodes the
instrumenter wraps (:mod:`.probe`). :mod:`.model` explains what counts as a decision.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .syntax import Condition, Decision, Guard, always_exits, is_rule_expr, reasons_of

__all__ = ["MODULES", "Function", "Reader"]

#: The engine's modules whose decisions make the model (the rules and the game with its undo).
MODULES = ("scorpion_ref.engine", "scorpion_ref.game")

#: Return annotations that make a loop-free function a rule function.
_VERDICTS = {"bool", "None", "Status"}


@dataclass
class Function:
    module: str
    qualname: str
    node: ast.FunctionDef
    rule: bool
    #: The functions of the model it calls (their keys), with the guards of each call.
    calls: list[tuple[str, tuple[Guard, ...]]] = field(default_factory=list)


class Reader:
    """Walks one module's tree and collects its decisions."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.short = module.rsplit(".", 1)[-1]
        mod = importlib.import_module(module)
        self.globals = vars(mod)
        self.source = inspect.getsource(mod)
        self.tree = ast.parse(self.source)
        self.decisions: list[Decision] = []
        self.functions: list[Function] = []
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
        function = Function(self.module, qualname, node, rule)
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
                tuple(self._rule_conditions), (), reasons_of(node),
            ))
            self._rule_id = None
        else:
            self._rule_id = None
            self._block(node.body, ())

    # -- walking statements and expressions, with the guards of the path ------

    def _block(self, body: Sequence[ast.stmt], guards: tuple[Guard, ...]) -> None:
        for stmt in body:
            self._stmt(stmt, guards)
            if isinstance(stmt, ast.If) and always_exits(stmt.body) and not stmt.orelse:
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
                is_rule_expr(atom, self.globals), atom_guards, atom,
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
