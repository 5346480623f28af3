"""The reference adapter: the reference engine behind the suite's JSON Lines protocol.

Run it as ``python -m scorpion_ref.adapter`` (or ``scorpion-ref-adapter``) and
write requests to its stdin, one JSON object per line; it answers each with
one line on stdout. ``docs/protocol.md`` describes the protocol.

It offers every named rule set and the ``undo`` and ``solve`` capabilities
(:mod:`scorpion_ref.adapter_solve`). The request loop, the handshake, the
refusals of malformed requests and the limits are the front end every Python
adapter shares (:mod:`scorpion_shared.frontend`): whatever arrives (bytes
that are not UTF-8, JSON that is not an object, nesting too deep to read,
lines over a mebibyte, requests the engine chokes on) is answered with an
error, and only ``quit``, the end of stdin or a ``hello`` for another
protocol version ends it. This module is the engine's side: the rule sets
it declares, and each command read into the engine and answered from it.

It uses only the public API of :mod:`scorpion_ref`.

>>> session = Session()
>>> session.respond(b'{"cmd":"hello","protocol":1}')[0]["capabilities"]
['undo', 'solve']
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from scorpion_ref import (
    OPTIONS,
    RULESETS,
    Game,
    IllegalAction,
    InvalidPosition,
    NotationError,
    NothingToUndo,
    RuleSet,
    __version__,
    legal_actions,
)
from scorpion_ref.adapter_solve import read_budget, solve_answer
from scorpion_ref.serial import (
    action_from_json,
    action_to_json,
    position_from_json,
    position_to_json,
)
from scorpion_shared import frontend
from scorpion_shared.frontend import JsonObject, Refusal, encode_answer, serve, show
from scorpion_shared.vocabulary import CARD, NAMED_RULESETS, RANKS, SUITS

__all__ = ["Reference", "Refusal", "Session", "encode_answer", "every_bundle", "main", "serve"]

#: How a refusal describes a card.
_CARD_FORM = f"rank {RANKS}, then suit {SUITS}"


def _ruleset_entry(rules: RuleSet) -> str | JsonObject:
    if rules.name in NAMED_RULESETS:
        return rules.name
    return {"name": rules.name, "options": rules.options}


def every_bundle() -> dict[str, RuleSet]:
    """The named rule sets, then every other combination of the options as a
    custom bundle named by the values where it differs from each option's first
    value (``stay/any``: runs stay, empty columns take any card, the rest as in
    ``standard``). Names stay within the protocol's 64 characters as options are added.

    >>> every_bundle()["stay/any"].options["stock"]
    'any-time'
    """
    bundles = dict(RULESETS)
    named = {tuple(rules.options.values()) for rules in RULESETS.values()}
    first = [values[0] for values in OPTIONS.values()]
    for values in itertools.product(*OPTIONS.values()):
        if values not in named:
            name = "/".join(v for v, base in zip(values, first, strict=True) if v != base)
            bundles[name] = RuleSet.from_options(name, dict(zip(OPTIONS, values, strict=True)))
    return bundles


def _check_cards(value: Any, where: str) -> None:
    if isinstance(value, list):
        for i, card in enumerate(value):
            if isinstance(card, str) and not CARD.fullmatch(card):
                raise Refusal(
                    "invalid-position",
                    f"{where}[{i}]: {show(card)} is not a card ({_CARD_FORM})",
                )


def read_position(obj: Any) -> Any:
    """The engine's position for a protocol position; raises :class:`Refusal`.

    Stricter than the engine's reader: all three fields (and down and up in
    every column) must be present, and cards must be written exactly as the
    protocol writes them.
    """
    if isinstance(obj, dict):
        missing = [key for key in ("columns", "stock", "removed") if key not in obj]
        if missing:
            raise Refusal("invalid-position", f"the position has no {' or '.join(missing)}")
        columns = obj["columns"]
        if isinstance(columns, list):
            for number, column in enumerate(columns, start=1):
                if isinstance(column, dict):
                    for part in ("down", "up"):
                        if part not in column:
                            raise Refusal("invalid-position", f"column {number} has no {part} list")
                        _check_cards(column[part], f"column {number} {part}")
        _check_cards(obj["stock"], "stock")
    try:
        return position_from_json(obj)
    except InvalidPosition as error:
        raise Refusal("invalid-position", str(error)) from None


def read_action(obj: Any) -> Any:
    """The engine's action for a protocol action; raises :class:`Refusal` (bad-request)."""
    if isinstance(obj, dict) and obj.get("type") == "move":
        card = obj.get("card")
        if isinstance(card, str) and not CARD.fullmatch(card):
            raise Refusal("bad-request", f"{show(card)} is not a card ({_CARD_FORM})")
    try:
        return action_from_json(obj)
    except NotationError as error:
        raise Refusal("bad-request", f"malformed action {show(obj)}: {error}") from None


class ReferenceGame:
    """A game of the engine, read and answered in the protocol's terms."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def legal(self) -> list[JsonObject]:
        return [action_to_json(a) for a in legal_actions(self.game.position, self.game.rules)]

    def play(self, action: Any) -> None:
        try:
            self.game.play(read_action(action))
        except IllegalAction as error:
            raise Refusal("illegal-action", error.message, error.reason) from None

    def state(self) -> JsonObject:
        return {**position_to_json(self.game.position), "status": self.game.status.value}

    def undo(self) -> None:
        try:
            self.game.undo()
        except NothingToUndo as error:
            raise Refusal("nothing-to-undo", str(error)) from None

    def solve(self, request: JsonObject) -> JsonObject:
        try:
            return solve_answer(self.game.position, self.game.rules, read_budget(request))
        except ValueError as error:
            raise Refusal("bad-request", str(error)) from None


class Reference:
    """The reference engine as an adapter's program: every named rule set (or ``rulesets``)."""

    def __init__(self, rulesets: Mapping[str, RuleSet] | None = None) -> None:
        self.implementation: JsonObject = {
            "name": "scorpion-ref", "version": __version__, "language": "python"}
        self.capabilities = ("undo", "solve")
        self.by_name = dict(RULESETS) if rulesets is None else dict(rulesets)
        self.rulesets = [_ruleset_entry(rules) for rules in self.by_name.values()]

    def start(self, rules: str, position: Any) -> ReferenceGame:
        return ReferenceGame(Game(read_position(position), self.by_name[rules]))


class Session(frontend.Session):
    """One conversation with the reference: the front end's, over :class:`Reference`.

    >>> session = Session()
    >>> session.respond(b'{"cmd":"hello","protocol":1}')[0]["implementation"]["name"]
    'scorpion-ref'
    >>> session.respond(b'{"cmd":"legal"}')[0]["error"]["code"]
    'bad-request'
    >>> Session().respond(b'{"cmd":"state","id":7}')[0]["id"]
    7
    """

    def __init__(self, rulesets: Mapping[str, RuleSet] | None = None) -> None:
        super().__init__(Reference(rulesets))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the adapter on this process's stdin and stdout; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="scorpion-ref-adapter",
        description="The reference engine behind the adapter protocol, on stdin and stdout.",
    )
    parser.add_argument(
        "--all-bundles", action="store_true",
        help="also offer every other combination of the rule options as a custom bundle",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    return frontend.run(Session(every_bundle() if args.all_bundles else None))


if __name__ == "__main__":
    sys.exit(main())
