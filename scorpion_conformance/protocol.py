"""The adapter protocol, version 1: requests, responses and their JSON Schema.

Requests are small frozen classes that turn into one JSON line; responses are
checked against ``schemas/protocol-v1.json`` (draft 2020-12), and a problem is
reported with the JSON path where it lies. The protocol version is compared in
one place only, :func:`version_problem`. Nothing here starts a process: that is
:mod:`scorpion_conformance.harness`.

>>> Play({"type": "move", "card": "9D", "to": 5}).to_json()
{'cmd': 'play', 'action': {'type': 'move', 'card': '9D', 'to': 5}}
>>> print(validate_response("legal", {"ok": True, "actions": [{"type": "deal", "to": 1}]}))
... # doctest: +ELLIPSIS
at $.actions[0]: Additional properties are not allowed ('to' was unexpected) (expected ...)
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import Any, ClassVar

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from scorpion_conformance.vocabulary import (
    COMMANDS,
    ERROR_CODES,
    NAMED_RULESETS,
    OPTION_DEFAULTS,
    OPTIONS,
    RANKS,
    REASONS,
    STATUSES,
    SUITS,
)

__all__ = [
    "COMMANDS",
    "ERROR_CODES",
    "NAMED_RULESETS",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "PROTOCOL_VERSION",
    "REASONS",
    "CustomRuleSet",
    "ErrorInfo",
    "Hello",
    "HelloInfo",
    "Implementation",
    "Legal",
    "Play",
    "Quit",
    "Request",
    "Response",
    "Start",
    "State",
    "Undo",
    "encode",
    "schema",
    "validate_request",
    "validate_response",
    "version_problem",
]

#: The version of the protocol this harness speaks.
PROTOCOL_VERSION = 1

# COMMANDS, ERROR_CODES, REASONS, OPTIONS, OPTION_DEFAULTS and NAMED_RULESETS
# are the vocabulary's (imported above): scorpion_conformance.vocabulary reads
# them from the engine's vocabulary.json without importing the engine.


def version_problem(got: object) -> str | None:
    """What is wrong with the protocol version an adapter announced, or None.

    This is the one place where the version is compared.

    >>> version_problem(1) is None
    True
    >>> version_problem(2)
    'the adapter speaks protocol version 2; this harness speaks version 1'
    """
    if isinstance(got, int) and not isinstance(got, bool) and got == PROTOCOL_VERSION:
        return None
    return (
        f"the adapter speaks protocol version {got!r};"
        f" this harness speaks version {PROTOCOL_VERSION}"
    )


def encode(obj: Any) -> bytes:
    """One protocol line: compact JSON, ASCII only, ending in a newline.

    >>> encode({"cmd": "state"})
    b'{"cmd":"state"}\\n'
    """
    return (
        json.dumps(obj, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode() + b"\n"
    )


# -- the schema -----------------------------------------------------------------


@functools.cache
def schema() -> Mapping[str, Any]:
    """The protocol's JSON Schema, as shipped in the package."""
    text = (
        resources.files("scorpion_conformance")
        .joinpath("schemas/protocol-v1.json")
        .read_text("utf-8")
    )
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def _validator(definition: str) -> Draft202012Validator:
    root = schema()
    if definition not in root["$defs"]:
        raise KeyError(f"the protocol schema defines no {definition!r}")
    return Draft202012Validator({**root, "$ref": f"#/$defs/{definition}"})


def check(definition: str, instance: Any) -> str | None:
    """Validate ``instance`` against ``$defs/<definition>``; a readable problem, or None.

    >>> check("card", "TH") is None
    True
    >>> check("position", {"columns": [], "stock": [], "removed": []})
    'at $.columns: [] is too short (expected the seven columns, left to right)'
    """
    errors = list(_validator(definition).iter_errors(instance))
    if not errors:
        return None
    # The deepest problem is the most precise one ("$.ok is not a boolean" rather
    # than "$ is not a refusal"); among those, jsonschema's own ranking decides.
    depth = max(len(error.absolute_path) for error in errors)
    error = best_match(e for e in errors if len(e.absolute_path) == depth)
    assert error is not None
    return _describe(error)


def _describe(error: jsonschema.ValidationError) -> str:
    message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
    text = f"at {error.json_path}: {message}"
    described = error.schema if isinstance(error.schema, Mapping) else {}
    if "description" in described:
        text += f" (expected {described['description']})"
    return text


# -- a fast path for the answers that come by the thousand ---------------------------
#
# jsonschema takes about a millisecond for a full state. The checks below accept
# exactly the common well-formed answers (a state, a list of actions, a refusal)
# and never accept anything the schema refuses (tests/test_protocol_schema.py
# checks this with Hypothesis); whatever they do not accept goes to the schema,
# which has the last word and writes the message.

_RANKS = frozenset(RANKS)
_SUITS = frozenset(SUITS)
_STATUSES = frozenset(STATUSES)
_CODES = frozenset(ERROR_CODES)
_STATE_KEYS = frozenset(("columns", "stock", "removed", "status"))
_COLUMN_KEYS = frozenset(("down", "up"))
_MOVE_KEYS = frozenset(("type", "card", "to"))
_REASON = re.compile(r"[a-z][a-z0-9-]*")


def _is_card(value: Any) -> bool:
    return type(value) is str and len(value) == 2 and value[0] in _RANKS and value[1] in _SUITS


def _are_cards(value: Any, limit: int = 52) -> bool:
    return (
        type(value) is list
        and len(value) <= limit
        and all(_is_card(card) for card in value)
        and len(set(value)) == len(value)
    )


def _is_state(value: Any) -> bool:
    if type(value) is not dict or value.keys() != _STATE_KEYS:
        return False
    columns, removed = value["columns"], value["removed"]
    return (
        type(value["status"]) is str
        and value["status"] in _STATUSES
        and type(columns) is list
        and len(columns) == 7
        and all(
            type(c) is dict
            and c.keys() == _COLUMN_KEYS
            and _are_cards(c["down"])
            and _are_cards(c["up"])
            for c in columns
        )
        and _are_cards(value["stock"], 3)
        and type(removed) is list
        and all(type(s) is str and s in _SUITS for s in removed)
        and len(set(removed)) == len(removed)
    )


def _action_key(value: Any) -> tuple[str, ...] | None:
    if type(value) is not dict:
        return None
    if value.get("type") == "deal" and len(value) == 1:
        return ("deal",)
    if (
        value.get("type") == "move"
        and value.keys() == _MOVE_KEYS
        and _is_card(value["card"])
        and type(value["to"]) is int
        and 1 <= value["to"] <= 7
    ):
        return ("move", value["card"], str(value["to"]))
    return None


def _quick_ok(cmd: str, obj: Any) -> bool:
    """Whether ``obj`` is surely a well-formed answer to ``cmd`` (False: ask the schema)."""
    if type(obj) is not dict:
        return False
    ok = obj.get("ok")
    if ok is True:
        if cmd in ("start", "play", "state", "undo"):
            return _is_state(obj.get("state"))
        if cmd == "legal":
            actions = obj.get("actions")
            if type(actions) is not list:
                return False
            keys = [_action_key(action) for action in actions]
            return None not in keys and len(set(keys)) == len(keys)
        return False
    if ok is False:
        error = obj.get("error")
        return (
            type(error) is dict
            and type(error.get("code")) is str
            and error["code"] in _CODES
            and type(error.get("message")) is str
            and (
                "reason" not in error
                or (type(error["reason"]) is str and _REASON.fullmatch(error["reason"]) is not None)
            )
        )
    return False


def validate_response(cmd: str, obj: Any) -> str | None:
    """Check a response to ``cmd``; returns None when it is well formed, else what is wrong.

    Raises :class:`ValueError` for a command the protocol does not have.

    >>> validate_response("state", {"ok": False, "error": {"code": "bad-request", "message": "?"}})
    >>> validate_response("quit", {"ok": "yes"})
    "at $.ok: 'yes' is not of type 'boolean'"
    """
    if cmd not in COMMANDS:
        raise ValueError(f"the protocol has no command {cmd!r}")
    if _quick_ok(cmd, obj):
        return None
    return check(f"response-{cmd}", obj)


_BARE_COMMANDS = frozenset(("legal", "state", "undo", "quit"))


def _quick_request_ok(obj: Any) -> bool:
    """Whether ``obj`` is surely a well-formed request (False: ask the schema)."""
    if type(obj) is not dict:
        return False
    number = obj.get("id", 0)
    if type(number) is not int or number < 0:
        return False
    keys = obj.keys() - {"id"}
    cmd = obj.get("cmd")
    if cmd in _BARE_COMMANDS:
        return keys == {"cmd"}
    if cmd == "play":
        return keys == {"cmd", "action"} and _action_key(obj["action"]) is not None
    return False


def validate_request(obj: Any) -> str | None:
    """Check a request; returns None when it is well formed, else what is wrong.

    >>> validate_request({"cmd": "legal", "id": 3}) is None
    True
    >>> print(validate_request({"cmd": "play", "action": {"type": "deal", "to": 8}}))
    ... # doctest: +ELLIPSIS
    at $.action: Additional properties are not allowed ('to' was unexpected) (expected ...)
    """
    if _quick_request_ok(obj):
        return None
    return check("request", obj)


# -- requests -------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """A request to an adapter; subclasses set ``cmd``."""

    cmd: ClassVar[str] = ""

    def fields(self) -> dict[str, Any]:
        return {}

    def to_json(self) -> dict[str, Any]:
        """The request as a JSON object."""
        return {"cmd": self.cmd, **self.fields()}

    def to_line(self) -> bytes:
        """The request as one protocol line."""
        return encode(self.to_json())


@dataclass(frozen=True)
class Hello(Request):
    """Open the conversation; the adapter says what it is and what it offers."""

    cmd: ClassVar[str] = "hello"
    protocol: int = PROTOCOL_VERSION

    def fields(self) -> dict[str, Any]:
        return {"protocol": self.protocol}


@dataclass(frozen=True)
class Start(Request):
    """Start a game from ``position`` (protocol JSON) under the rule set named ``rules``."""

    cmd: ClassVar[str] = "start"
    rules: str
    position: Mapping[str, Any] = field(hash=False)

    def fields(self) -> dict[str, Any]:
        return {"rules": self.rules, "position": self.position}


@dataclass(frozen=True)
class Legal(Request):
    """Ask for every legal action in the current position."""

    cmd: ClassVar[str] = "legal"


@dataclass(frozen=True)
class Play(Request):
    """Play an action (protocol JSON, such as ``{"type": "deal"}``)."""

    cmd: ClassVar[str] = "play"
    action: Mapping[str, Any] = field(hash=False)

    def fields(self) -> dict[str, Any]:
        return {"action": self.action}


@dataclass(frozen=True)
class State(Request):
    """Ask for the current state."""

    cmd: ClassVar[str] = "state"


@dataclass(frozen=True)
class Undo(Request):
    """Take back the last action (capability ``undo``)."""

    cmd: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Quit(Request):
    """End the conversation; the adapter answers and exits with status 0."""

    cmd: ClassVar[str] = "quit"


# -- responses ------------------------------------------------------------------


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
