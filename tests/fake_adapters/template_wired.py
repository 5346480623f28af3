"""The adapter template (adapters/python/adapter.py) with the reference
engine plugged into its TODOs: proof that the template's protocol loop is right."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))

import adapter as template

from scorpion_ref import (
    RULESETS,
    Game,
    IllegalAction,
    InvalidPosition,
    NotationError,
    NothingToUndo,
    get_ruleset,
)
from scorpion_ref.serial import (
    action_from_json,
    action_to_json,
    position_from_json,
    position_to_json,
)


class Engine(template.Engine):
    def start(self, rules, position):
        try:
            self.game = Game(position_from_json(position), get_ruleset(rules))
        except InvalidPosition as error:
            raise template.Refusal("invalid-position", str(error)) from None

    def state(self):
        return {**position_to_json(self.game.position), "status": self.game.status.value}

    def legal(self):
        return [action_to_json(a) for a in self.game.legal_actions()]

    def play(self, action):
        try:
            self.game.play(action_from_json(action))
        except NotationError as error:
            raise template.Refusal("bad-request", str(error)) from None
        except IllegalAction as error:
            raise template.Refusal("illegal-action", error.message, error.reason) from None

    def undo(self):
        try:
            self.game.undo()
        except NothingToUndo as error:
            raise template.Refusal("nothing-to-undo", str(error)) from None


template.Engine = Engine
template.RULESETS = list(RULESETS)
template.CAPABILITIES = ["undo"]
sys.exit(template.main())
