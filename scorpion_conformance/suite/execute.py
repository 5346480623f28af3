"""Carry out a scenario's instructions against an adapter, through the harness client.

A :class:`ScenarioRun` gathers the ``given`` instructions into a start
position, sends ``start`` before the first action or check, plays the
actions, and judges each expectation against what the adapter answers.
A failed expectation raises :class:`ScenarioFailure` whose message says what
was expected and what the adapter showed, in the scenarios' notation. An
adapter may refuse a synthetic start (one no game reaches from a deal) with
``unsupported-position``: that raises :class:`UnsupportedStart`, neither a pass
nor a failure; the same answer to any other start is a :class:`ScenarioFailure`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorpion_conformance.client import AdapterClient
from scorpion_conformance.compare import action_key, normalized_state, same_position
from scorpion_conformance.errors import ErrorAnswer, quote
from scorpion_conformance.protocol import Response

from ..notation import COLUMNS, SUIT_SYMBOLS, show_action, show_card, show_column

__all__ = ["UNSUPPORTED_POSITION", "ScenarioFailure", "ScenarioRun", "UnsupportedStart", "empty_position",
           "fold_given"]

#: The error code of a start position the adapter's program cannot represent.
UNSUPPORTED_POSITION = "unsupported-position"

Instruction = Mapping[str, Any]


class ScenarioFailure(AssertionError):
    """The adapter's answer differs from what the scenario expects."""

    def __init__(self, message: str, expected: Any = None, actual: Any = None) -> None:
        super().__init__(message)
        self.expected = expected
        self.actual = actual


class UnsupportedStart(Exception):
    """The adapter cannot represent a synthetic start position: the case is unsupported."""


def empty_position() -> dict[str, Any]:
    """The position a scenario starts from before its Given steps: nothing on the table."""
    return {"columns": [{"down": [], "up": []} for _ in range(COLUMNS)], "stock": [], "removed": []}


def fold_given(position: Mapping[str, Any], instruction: Instruction) -> dict[str, Any]:
    """The start position after one ``given`` instruction."""
    result = {"columns": list(position["columns"]), "stock": list(position["stock"]),
              "removed": list(position["removed"])}
    kind = instruction["given"]
    if kind == "columns":
        result["columns"] = [dict(c) for c in instruction["columns"]]
    elif kind == "stock":
        result["stock"] = list(instruction["stock"])
    elif kind == "removed":
        result["removed"] = sorted({*result["removed"], *instruction["suits"]})
    else:  # pragma: no cover - the library builds only the kinds above
        raise ValueError(f"unknown given instruction {kind!r}")
    return result


def _show_state(state: Mapping[str, Any]) -> str:
    lines = [
        f"  column {i}: {show_column(column)}"
        for i, column in enumerate(state.get("columns", []), start=1)
    ]
    stock = " ".join(show_card(c) for c in state.get("stock", [])) or "(dealt)"
    removed = " ".join(SUIT_SYMBOLS.get(s, s) for s in sorted(state.get("removed", []))) or "none"
    lines.append(f"  stock: {stock}; collected: {removed}; status: {state.get('status')}")
    return "\n".join(lines)


class ScenarioRun:
    """One scenario under one rule set, played through ``client``; ``synthetic``: its start
    position is one no game reaches from a deal (the scenario is tagged ``@synthetic``)."""

    def __init__(self, client: AdapterClient, rules: str, synthetic: bool = False) -> None:
        self.client = client
        self.rules = rules
        self.synthetic = synthetic
        #: Why the case is unsupported, once the adapter refused its synthetic start.
        self.unsupported: str | None = None
        self.columns: list[dict[str, list[str]]] = [{"down": [], "up": []} for _ in range(COLUMNS)]
        self.stock: list[str] = []
        self.removed: list[str] = []
        self.start_state: dict[str, Any] | None = None
        self.before: dict[str, Any] | None = None
        self._state: dict[str, Any] | None = None
        self.last_action: dict[str, Any] | None = None
        self.last_error: dict[str, Any] | None = None
        self.refusal_checked = False
        self.checks = 0
        self.log: list[str] = []

    def describe(self) -> str:
        """The start position and the requests sent so far, for a failure report."""
        start = {**self.position, "status": (self.start_state or {}).get("status", "?")}
        return (
            f"start position under {self.rules}:\n{_show_state(start)}\n"
            f"requests: {'; '.join(self.log) or '(none)'}"
        )

    def perform(self, instruction: Instruction) -> None:
        """Carry out any instruction: a given, an action or an expectation."""
        if "given" in instruction:
            self.given(instruction)
        elif "do" in instruction:
            self.do(instruction)
        else:
            self.expect(instruction)

    # -- the start position -------------------------------------------------

    @property
    def position(self) -> dict[str, Any]:
        return {"columns": self.columns, "stock": self.stock, "removed": self.removed}

    def given(self, instruction: Instruction) -> None:
        if self.start_state is not None:
            raise ScenarioFailure("a Given step comes after the game has started")
        position = fold_given(self.position, instruction)
        self.columns, self.stock, self.removed = (
            position["columns"], position["stock"], position["removed"]
        )

    def _started(self) -> None:
        if self.unsupported is not None:
            raise UnsupportedStart(self.unsupported)
        if self.start_state is None:
            self.log.append(f"start {self.rules}")
            try:
                self.start_state = dict(self.client.start(self.rules, self.position))
            except ErrorAnswer as error:
                if error.code != UNSUPPORTED_POSITION:
                    raise
                self._unsupported_start(error)
            self._state = self.start_state

    def _unsupported_start(self, error: ErrorAnswer) -> None:
        message = str(error.response.error.message)
        if not self.synthetic:
            raise ScenarioFailure(
                f"the adapter answered {UNSUPPORTED_POSITION} to a start position a game can reach "
                f"from a deal (only a synthetic start may be refused so): {message}",
                expected="the game started", actual={"code": error.code, "message": message},
            )
        self.client.check_in_step()  # an answer out of step is the adapter's fault, not a skip
        self.unsupported = (f"the adapter cannot represent this synthetic start position "
                            f"({UNSUPPORTED_POSITION}): {quote(' '.join(message.split()), 200)}")
        raise UnsupportedStart(self.unsupported)

    def state(self) -> dict[str, Any]:
        """The adapter's current state (asked once after each action)."""
        self._started()
        if self._state is None:
            self._state = dict(self.client.state())
        return self._state

    # -- actions --------------------------------------------------------------

    def do(self, instruction: Instruction) -> None:
        self._started()
        kind = instruction["do"]
        self.before = self.state()
        if kind == "sequence":
            for action in instruction["actions"]:
                self._play(action)
                if self.last_error is not None:
                    raise ScenarioFailure(
                        f"the adapter refused {show_action(action)} in the middle of a sequence: "
                        f"{self._say_error()}"
                    )
                self.before = self.state()
        elif kind == "undo":
            self.last_action = {"type": "undo"}
            self.log.append("undo")
            self._record(self.client.undo())
        else:
            self._play({"type": "move", "card": instruction["card"], "to": instruction["to"]}
                       if kind == "move" else {"type": "deal"})

    def _play(self, action: dict[str, Any]) -> None:
        self.last_action = action
        self.log.append(f"play {show_action(action)}")
        self._record(self.client.play(action))

    def _record(self, response: Response) -> None:
        self._state = None
        self.refusal_checked = False
        if response.ok:
            self.last_error = None
            self._state = dict(response.body["state"])
        else:
            self.last_error = dict(response.body.get("error", {}))

    def _say_error(self) -> str:
        error = self.last_error or {}
        reason = f" ({error['reason']})" if error.get("reason") else ""
        return f"{error.get('code')}{reason}: {error.get('message', '')}"

    # -- expectations -----------------------------------------------------------

    def expect(self, instruction: Instruction) -> None:
        self._started()
        self.checks += 1
        kind = instruction["expect"]
        if kind == "refused":
            self._expect_refused(instruction.get("reason"))
            return
        if self.last_error is not None and not self.refusal_checked:
            action = show_action(self.last_action or {})
            raise ScenarioFailure(
                f"the adapter refused {action}: {self._say_error()}",
                expected="accepted", actual=self.last_error,
            )
        getattr(self, "_expect_" + kind.replace("-", "_"))(instruction)

    def _expect_refused(self, reason: str | None) -> None:
        action = show_action(self.last_action or {})
        if self.last_error is None:
            raise ScenarioFailure(
                f"the adapter accepted {action}, which the rules refuse"
                + (f" ({reason})" if reason else "")
                + "; the table became:\n" + _show_state(self.state()),
                expected={"refused": reason}, actual="accepted",
            )
        expected_code = "nothing-to-undo" if (self.last_action or {}).get("type") == "undo" \
            else "illegal-action"
        if self.last_error.get("code") != expected_code:
            raise ScenarioFailure(
                f"{action} was answered with error {self._say_error()}; expected {expected_code}",
                expected=expected_code, actual=self.last_error,
            )
        given = self.last_error.get("reason")
        if reason and given and given != reason:
            raise ScenarioFailure(
                f"{action} was refused for {given!r}; the rules refuse it for {reason!r}",
                expected=reason, actual=given,
            )
        now = self.state()
        if self.before is not None and not same_position(now, self.before):
            raise ScenarioFailure(
                f"{action} was refused but the table changed:\n" + _show_state(now),
                expected=normalized_state(self.before), actual=normalized_state(now),
            )
        self.refusal_checked = True  # later Then steps may look at the unchanged table

    def _column(self, number: int) -> dict[str, Any]:
        columns = self.state().get("columns", [])
        return dict(columns[number - 1]) if 0 < number <= len(columns) else {}

    def _expect_column(self, instruction: Instruction) -> None:
        number = instruction["column"]
        expected = {"down": list(instruction["down"]), "up": list(instruction["up"])}
        actual = self._column(number)
        if {"down": actual.get("down"), "up": actual.get("up")} != expected:
            raise ScenarioFailure(
                f"column {number} reads {show_column(actual)}; expected {show_column(expected)}",
                expected=expected, actual=actual,
            )

    def _expect_column_ends(self, instruction: Instruction) -> None:
        number, wanted = instruction["column"], list(instruction["up"])
        actual = self._column(number)
        if list(actual.get("up", []))[-len(wanted):] != wanted:
            raise ScenarioFailure(
                f"column {number} reads {show_column(actual)}; expected it to end with "
                f"{' '.join(show_card(c) for c in wanted)}",
                expected=wanted, actual=actual,
            )

    def _legal(self) -> list[dict[str, Any]]:
        self._started()
        return list(self.client.legal())

    def _expect_legal(self, instruction: Instruction) -> None:
        expected = {action_key(a): a for a in instruction["actions"]}
        actual = {action_key(a): a for a in self._legal()}
        if set(expected) != set(actual):
            missing = [show_action(expected[k]) for k in sorted(set(expected) - set(actual))]
            extra = [show_action(actual[k]) for k in sorted(set(actual) - set(expected))]
            parts = []
            if missing:
                parts.append("missing: " + ", ".join(missing))
            if extra:
                parts.append("listed, though the scenario does not allow them: " + ", ".join(extra))
            raise ScenarioFailure(
                "the legal actions differ; " + "; ".join(parts),
                expected=sorted(map(show_action, expected.values())),
                actual=sorted(map(show_action, actual.values())),
            )

    def _expect_listed(self, instruction: Instruction) -> None:
        action, wanted = instruction["action"], instruction["listed"]
        listed = action_key(action) in {action_key(a) for a in self._legal()}
        if listed != wanted:
            raise ScenarioFailure(
                f"{show_action(action)} is {'not ' if not listed else ''}listed as legal; "
                f"the rules {'allow' if wanted else 'refuse'} it",
                expected=wanted, actual=listed,
            )

    def _expect_status(self, instruction: Instruction) -> None:
        actual = self.state().get("status")
        if actual != instruction["status"]:
            raise ScenarioFailure(
                f"the status is {actual!r}; expected {instruction['status']!r}\n"
                + _show_state(self.state()),
                expected=instruction["status"], actual=actual,
            )

    def _expect_collected(self, instruction: Instruction) -> None:
        removed = set(self.state().get("removed", []))
        suit, wanted = instruction["suit"], instruction["collected"]
        if (suit in removed) != wanted:
            raise ScenarioFailure(
                f"the {SUIT_SYMBOLS[suit]} run has {'not ' if wanted else ''}been collected\n"
                + _show_state(self.state()),
                expected=wanted, actual=sorted(removed),
            )

    def _expect_removed(self, instruction: Instruction) -> None:
        removed = sorted(self.state().get("removed", []))
        if removed != sorted(instruction["suits"]):
            raise ScenarioFailure(
                f"the collected suits are {removed}; expected {sorted(instruction['suits'])}",
                expected=sorted(instruction["suits"]), actual=removed,
            )

    def _expect_face(self, instruction: Instruction) -> None:
        card, wanted = instruction["card"], instruction["face"]
        face = None
        for column in self.state().get("columns", []):
            if card in column.get("down", []):
                face = "down"
            elif card in column.get("up", []):
                face = "up"
        if face != wanted:
            where = f"face {face}" if face else "not on the table"
            raise ScenarioFailure(
                f"{show_card(card)} is {where}; expected face {wanted}",
                expected=wanted, actual=face,
            )

    def _expect_stock(self, instruction: Instruction) -> None:
        stock = list(self.state().get("stock", []))
        if stock != list(instruction["stock"]):
            raise ScenarioFailure(
                f"the stock holds {' '.join(map(show_card, stock)) or 'nothing'}; expected "
                f"{' '.join(map(show_card, instruction['stock'])) or 'nothing'}",
                expected=instruction["stock"], actual=stock,
            )

    def _expect_unchanged(self, instruction: Instruction) -> None:
        self._same_as(self.before, "before the last action")

    def _expect_as_start(self, instruction: Instruction) -> None:
        self._same_as(self.start_state, "at the start")

    def _same_as(self, reference: Mapping[str, Any] | None, when: str) -> None:
        now = self.state()
        if reference is not None and not same_position(now, reference):
            raise ScenarioFailure(
                f"the table differs from the table {when}; it is now:\n{_show_state(now)}\n"
                f"and was:\n{_show_state(reference)}",
                expected=normalized_state(reference), actual=normalized_state(now),
            )
