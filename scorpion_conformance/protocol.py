"""The adapter protocol, version 1: its vocabulary, its messages and their checks.

This module is the protocol's front door. The version is compared in one
place only, :func:`version_problem`; the messages are
:mod:`scorpion_conformance.messages`, their checks
:mod:`scorpion_conformance.validation`, and the words (options, rule sets,
reason and error codes) come from :mod:`scorpion_shared.vocabulary`,
the one reader of ``vocabulary.json``, which never imports the engine.
Nothing here starts a process: that is :mod:`scorpion_conformance.transport`.

>>> Play({"type": "move", "card": "9D", "to": 5}).to_line()
b'{"cmd":"play","action":{"type":"move","card":"9D","to":5}}\\n'
>>> validate_response("state", {"ok": False, "error": {"code": "bad-request", "message": "?"}}) is None
True
"""

from __future__ import annotations

from scorpion_shared.vocabulary import (
    COMMANDS,
    ERROR_CODES,
    NAMED_RULESETS,
    OPTION_DEFAULTS,
    OPTIONS,
    PROTOCOL_VERSION,
    REASONS,
)

from .messages import (
    REQUESTS,
    SOLVE_OUTCOMES,
    ActionsAnswer,
    CustomRuleSet,
    ErrorInfo,
    Hello,
    HelloAnswer,
    HelloInfo,
    Implementation,
    Legal,
    Play,
    Quit,
    QuitAnswer,
    Request,
    Response,
    Solve,
    SolveAnswer,
    Start,
    State,
    StateAnswer,
    Undo,
    encode,
)
from .validation import check, schema, validate_request, validate_response

__all__ = [
    "COMMANDS",
    "ERROR_CODES",
    "NAMED_RULESETS",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "PROTOCOL_VERSION",
    "REASONS",
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
    "check",
    "encode",
    "schema",
    "validate_request",
    "validate_response",
    "version_problem",
]


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
