"""The protocol's messages: requests as small frozen classes, each bound to its answer.

A request class names its command and the kind of answer it gets, with the
:func:`command` decorator, so that the client returns an answer of the right
type for each request (``send(Legal())`` is an :class:`ActionsAnswer`). Every
command of the vocabulary has exactly one class (``REQUESTS``).

>>> Play({"type": "move", "card": "9D", "to": 5}).to_json()
{'cmd': 'play', 'action': {'type': 'move', 'card': '9D', 'to': 5}}
>>> REQUESTS["legal"].answer.__name__
'ActionsAnswer'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar, cast

from scorpion_shared.vocabulary import NAMED_RULESETS, OPTION_DEFAULTS, OPTIONS, PROTOCOL_VERSION

__all__ = [
    "REQUESTS",
    "SOLVE_OUTCOMES",
    "ActionsAnswer",
    "CustomRuleSet",
    "ErrorInfo",
    "Hello",
    "HelloAnswer",
    "HelloInfo",
    "Implementation",
    "Legal",
    "Play",
    "Quit",
    "QuitAnswer",
    "Request",
    "Response",
    "Solve",
    "SolveAnswer",
    "Start",
    "State",
    "StateAnswer",
    "Undo",
    "command",
    "encode",
]

def encode(obj: Any) -> bytes:
    """One protocol line: compact JSON, ASCII only, ending in a newline.

    >>> encode({"cmd": "state"})
    b'{"cmd":"state"}\\n'
    """
    return (
        json.dumps(obj, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode() + b"\n"
    )


# -- answers ------------------------------------------------------------------


@dataclass(frozen=True)
class ErrorInfo:
    """The ``error`` object of a refusal."""

    code: str
    message: str
    reason: str | None = None


@dataclass(frozen=True)
class Response:
    """A well-formed answer (already validated): a success or a refusal.

    >>> r = Response("play", {"ok": False, "error": {"code": "illegal-action", "message": "no"}})
    >>> r.ok, r.error.code, r.error.reason
    (False, 'illegal-action', None)
    """

    cmd: str
    body: Mapping[str, Any] = field(hash=False)

    @property
    def ok(self) -> bool:
        return bool(self.body["ok"])

    @property
    def error(self) -> ErrorInfo | None:
        if self.ok:
            return None
        error = self.body["error"]
        return ErrorInfo(error["code"], error["message"], error.get("reason"))

    @property
    def state(self) -> dict[str, Any] | None:
        """The state a successful start, play, state or undo returned."""
        state: dict[str, Any] | None = self.body.get("state") if self.ok else None
        return state

    @property
    def actions(self) -> list[dict[str, Any]] | None:
        """The actions a successful legal returned."""
        actions: list[dict[str, Any]] | None = self.body.get("actions") if self.ok else None
        return actions


@dataclass(frozen=True)
class Implementation:
    """What an adapter runs."""

    name: str
    version: str
    language: str
    homepage: str | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.version} ({self.language})"


@dataclass(frozen=True)
class CustomRuleSet:
    """A rule set an adapter declares by its options."""

    name: str
    options: Mapping[str, str] = field(hash=False)

    def resolved(self) -> dict[str, str]:
        """Every option, the omitted ones at their defaults."""
        return {option: dict(OPTION_DEFAULTS, **self.options)[option] for option in OPTIONS}


@dataclass(frozen=True)
class HelloInfo:
    """What an adapter said about itself in answer to ``hello``."""

    protocol: int
    implementation: Implementation
    rulesets: tuple[str | CustomRuleSet, ...]
    capabilities: frozenset[str]

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> HelloInfo:
        """Read a validated successful hello response.

        Raises :class:`ValueError` when two rule sets share a name.
        """
        entries: list[str | CustomRuleSet] = []
        for entry in body["rulesets"]:
            if isinstance(entry, str):
                entries.append(entry)
            else:
                entries.append(
                    CustomRuleSet(entry["name"], MappingProxyType(dict(entry["options"])))
                )
        names = [e if isinstance(e, str) else e.name for e in entries]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"rulesets declares {', '.join(map(repr, twice))} more than once")
        impl = body["implementation"]
        return cls(
            protocol=body["protocol"],
            implementation=Implementation(
                impl["name"], impl["version"], impl["language"], impl.get("homepage")
            ),
            rulesets=tuple(entries),
            capabilities=frozenset(body["capabilities"]),
        )

    @property
    def ruleset_names(self) -> tuple[str, ...]:
        """The names to pass to ``start``, in the order declared."""
        return tuple(e if isinstance(e, str) else e.name for e in self.rulesets)

    def rulesets_resolved(self) -> dict[str, dict[str, str]]:
        """Each declared rule set by name, with every option's value.

        >>> info = HelloInfo(1, Implementation("x", "1", "py"), ("classic",), frozenset())
        >>> info.rulesets_resolved()["classic"]["stock"]
        'when-stuck'
        """
        return {
            entry if isinstance(entry, str) else entry.name: (
                dict(NAMED_RULESETS[entry]) if isinstance(entry, str) else entry.resolved()
            )
            for entry in self.rulesets
        }

    def offers(self, capability: str) -> bool:
        """Whether the adapter declared ``capability`` (such as ``"undo"``)."""
        return capability in self.capabilities


@dataclass(frozen=True)
class StateAnswer(Response):
    """The answer to start, play, state and undo: the new state, or a refusal."""


@dataclass(frozen=True)
class ActionsAnswer(Response):
    """The answer to legal: every legal action, or a refusal."""


@dataclass(frozen=True)
class HelloAnswer(Response):
    """The answer to hello: what the adapter is and offers, or a refusal."""


@dataclass(frozen=True)
class QuitAnswer(Response):
    """The answer to quit, after which the adapter exits."""


#: What a ``solve`` may answer: a winning line, a proof that none exists, or out of budget.
SOLVE_OUTCOMES = ("won", "lost", "unknown")


@dataclass(frozen=True)
class SolveAnswer(Response):
    """The answer to solve (capability ``solve``): an outcome and, with ``won``, its line.

    >>> a = SolveAnswer("solve", {"ok": True, "outcome": "won", "line": [{"type": "deal"}]})
    >>> a.outcome, a.line
    ('won', [{'type': 'deal'}])
    >>> SolveAnswer("solve", {"ok": True, "outcome": "unknown", "nodes": 9}).line
    []
    """

    @property
    def outcome(self) -> str | None:
        """``won``, ``lost`` or ``unknown``; None for a refusal."""
        outcome: str | None = self.body["outcome"] if self.ok else None
        return outcome

    @property
    def line(self) -> list[dict[str, Any]]:
        """The winning line (protocol actions, in order); ``[]`` unless the outcome is ``won``."""
        line: list[dict[str, Any]] = self.body.get("line", []) if self.ok else []
        return line

    @property
    def nodes(self) -> int | None:
        """How many positions the adapter says it examined, if it says."""
        nodes: int | None = self.body.get("nodes") if self.ok else None
        return nodes


# -- requests -------------------------------------------------------------------

A = TypeVar("A", bound=Response)
R = TypeVar("R", bound="type[Request[Any]]")

#: Every request class, by its command.
REQUESTS: dict[str, type[Request[Any]]] = {}


def command(name: str, answer: type[Response]) -> Callable[[R], R]:
    """Bind a request class to its command and to the class of its answer."""

    def bind(cls: R) -> R:
        cls.cmd = name
        cls.answer = answer
        REQUESTS[name] = cls
        return cls

    return bind


@dataclass(frozen=True)
class Request(Generic[A]):
    """A request to an adapter; :func:`command` sets ``cmd`` and ``answer``."""

    cmd: ClassVar[str] = ""
    answer: ClassVar[type[Response]] = Response

    def fields(self) -> dict[str, Any]:
        return {}

    def to_json(self) -> dict[str, Any]:
        """The request as a JSON object."""
        return {"cmd": self.cmd, **self.fields()}

    def to_line(self) -> bytes:
        """The request as one protocol line."""
        return encode(self.to_json())

    def read(self, body: Mapping[str, Any]) -> A:
        """The answer to this request, from a body already checked against the schema."""
        return cast(A, self.answer(self.cmd, body))


@command("hello", HelloAnswer)
@dataclass(frozen=True)
class Hello(Request[HelloAnswer]):
    """Open the conversation; the adapter says what it is and what it offers."""

    protocol: int = PROTOCOL_VERSION

    def fields(self) -> dict[str, Any]:
        return {"protocol": self.protocol}


@command("start", StateAnswer)
@dataclass(frozen=True)
class Start(Request[StateAnswer]):
    """Start a game from ``position`` (protocol JSON) under the rule set named ``rules``."""

    rules: str
    position: Mapping[str, Any] = field(hash=False)

    def fields(self) -> dict[str, Any]:
        return {"rules": self.rules, "position": self.position}


@command("legal", ActionsAnswer)
@dataclass(frozen=True)
class Legal(Request[ActionsAnswer]):
    """Ask for every legal action in the current position."""


@command("play", StateAnswer)
@dataclass(frozen=True)
class Play(Request[StateAnswer]):
    """Play an action (protocol JSON, such as ``{"type": "deal"}``)."""

    action: Mapping[str, Any] = field(hash=False)

    def fields(self) -> dict[str, Any]:
        return {"action": self.action}


@command("state", StateAnswer)
@dataclass(frozen=True)
class State(Request[StateAnswer]):
    """Ask for the current state."""


@command("undo", StateAnswer)
@dataclass(frozen=True)
class Undo(Request[StateAnswer]):
    """Take back the last action (capability ``undo``)."""


@command("solve", SolveAnswer)
@dataclass(frozen=True)
class Solve(Request[SolveAnswer]):
    """Solve the current position, examining at most ``budget`` positions (capability ``solve``).

    >>> Solve(1000).to_json()
    {'cmd': 'solve', 'budget': 1000}
    """

    budget: int

    def fields(self) -> dict[str, Any]:
        return {"budget": self.budget}


@command("quit", QuitAnswer)
@dataclass(frozen=True)
class Quit(Request[QuitAnswer]):
    """End the conversation; the adapter answers and exits with status 0."""
