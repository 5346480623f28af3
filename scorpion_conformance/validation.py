"""Checking protocol messages: the JSON Schema, and a fast path for the common answers.

Every answer an adapter writes, and every request the harness sends, is
checked here. :func:`check` asks the schema (``schemas/protocol-v1.json``,
draft 2020-12) and says where a problem lies, as a JSON path. The schema
takes about a millisecond for a full state, so the answers that come by the
thousand (states, lists of actions, refusals) first meet a fast path that
accepts exactly the common well-formed ones and never anything the schema
refuses (``tests/test_protocol_schema.py`` checks this with Hypothesis). So do
the handshake and the goodbye of every session: a process whose adapter
answers as expected never imports :mod:`jsonschema` (a twentieth of a short
``scorpion-conformance run``).

>>> print(validate_response("legal", {"ok": True, "actions": [{"type": "deal", "to": 1}]}))
... # doctest: +ELLIPSIS
at $.actions[0]: Additional properties are not allowed ('to' was unexpected) (expected ...)
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from scorpion_shared.vocabulary import COMMANDS, ERROR_CODES, RANKS, STATUSES, SUITS

if TYPE_CHECKING:
    import jsonschema

__all__ = ["check", "schema", "validate_request", "validate_response"]


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
def _validator(definition: str) -> jsonschema.Draft202012Validator:
    from jsonschema import Draft202012Validator

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
    from jsonschema.exceptions import best_match

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


# -- the fast path (whatever it does not accept goes to the schema, which has the
# last word and writes the message) ------------------------------------------------

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


_SOLVE_KEYS = frozenset(("ok", "outcome", "line", "nodes", "proof", "id"))
_CAPABILITY = re.compile(r"[a-z][a-z0-9-]*")


def _is_hello_answer(obj: dict[str, Any]) -> bool:
    """A successful handshake of the usual shape: named rule sets only (a custom one goes to the schema)."""
    implementation, rulesets = obj.get("implementation"), obj.get("rulesets")
    capabilities = obj.get("capabilities")
    named = schema()["$defs"]["named-ruleset"]["enum"]
    return (
        type(obj.get("protocol")) is int and obj["protocol"] >= 1
        and type(implementation) is dict
        and all(type(implementation.get(k)) is str for k in ("name", "version", "language"))
        and implementation["name"] != "" and implementation["language"] != ""
        and type(implementation.get("homepage", "")) is str
        and type(rulesets) is list and len(rulesets) >= 1 and len(set(map(str, rulesets))) == len(rulesets)
        and all(type(r) is str and r in named for r in rulesets)
        and type(capabilities) is list and len(set(map(str, capabilities))) == len(capabilities)
        and all(type(c) is str and _CAPABILITY.fullmatch(c) is not None for c in capabilities)
    )


def _is_solve_answer(obj: dict[str, Any]) -> bool:
    """A successful solve answer of the usual shape: won with a line of actions, lost or unknown."""
    outcome, nodes, proof = obj.get("outcome"), obj.get("nodes", 0), obj.get("proof", "")
    if not (obj.keys() <= _SOLVE_KEYS and type(nodes) is int and nodes >= 0 and type(proof) is str):
        return False
    if outcome == "won":
        line = obj.get("line")
        return type(line) is list and all(_action_key(action) is not None for action in line)
    return outcome in ("lost", "unknown") and "line" not in obj


def _quick_ok(cmd: str, obj: Any) -> bool:
    """Whether ``obj`` is surely a well-formed answer to ``cmd`` (False: ask the schema)."""
    if type(obj) is not dict:
        return False
    if "id" in obj and not (type(obj["id"]) is int and obj["id"] >= 0):
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
        if cmd == "solve":
            return _is_solve_answer(obj)
        if cmd == "hello":
            return _is_hello_answer(obj)
        return cmd == "quit"  # ok is all its answer must hold
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
_POSITION_KEYS = frozenset(("columns", "stock", "removed"))


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
    if cmd == "hello":
        return keys == {"cmd", "protocol"} and type(obj["protocol"]) is int and obj["protocol"] >= 1
    if cmd == "play":
        return keys == {"cmd", "action"} and _action_key(obj["action"]) is not None
    if cmd == "solve":
        budget = obj.get("budget")
        return keys == {"cmd", "budget"} and type(budget) is int and budget >= 1
    if cmd == "start":
        rules, position = obj.get("rules"), obj.get("position")
        return (
            keys == {"cmd", "rules", "position"}
            and type(rules) is str
            and len(rules) > 0
            and type(position) is dict
            and position.keys() == _POSITION_KEYS
            and _is_state({**position, "status": "playing"})
        )
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
