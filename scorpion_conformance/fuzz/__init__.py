"""Differential fuzzing: play random games through an adapter and the reference side by side.

``scorpion-conformance fuzz --adapter CMD --rules SET`` starts games from
random deals (by game number) and from generated positions built around the
rare cases that random play from a deal almost never reaches (a run one move
or one stock deal from completion, a run over face-down cards, passengers
above the Ace, two runs completed by one action, the classic stock lock, a
whole-column King and empty columns, a near win). Each step plays a random
legal action, or now and then an action the rules refuse, or an undo where
the adapter offers it; after every step the accepted/refused answer (and the
refusal reason, when the adapter gives one), the state and the sorted legal
actions are compared with the reference engine.

On a difference the game is shrunk by delta debugging: the game is re-rooted
at the latest position from which it still fails, the action list is cut
down, and the start position loses every card, face-down card, stock card
and collected suit it can spare. The result is printed as a report and, with
``--emit-scenario FILE``, written as a Gherkin scenario in the suite's own
notation that passes against the reference and fails against the adapter.

The modules, in the order data flows through them:

- ``compare``: the record of a difference (the words that say one come from
  :mod:`scorpion_conformance.compare`, which perft and the suite share);
- ``play``: one game played through the adapter and the reference side by
  side, and the options;
- ``positions``: the rare-case position templates and where each game starts;
- ``run``: choosing each step, and the run of games from the seed;
- ``shrinking``: the delta-debugging shrinker;
- ``scenario``: a difference rendered as a Gherkin scenario;
- ``emit``: fresh ids, minimal option tags, checking and writing scenarios;
- ``reports``: what is printed for people;
- ``command``: ``add_arguments`` and ``main`` of ``scorpion-conformance fuzz``.
"""

from ..compare import state_difference
from .command import add_arguments, main
from .compare import Difference
from .emit import build_scenario, next_fuzz_id
from .play import FuzzOptions, Step
from .positions import TEMPLATES, generate_position
from .run import run_fuzz
from .scenario import scenario_text
from .shrinking import shrink

__all__ = [
    "TEMPLATES",
    "Difference",
    "FuzzOptions",
    "Step",
    "add_arguments",
    "build_scenario",
    "generate_position",
    "main",
    "next_fuzz_id",
    "run_fuzz",
    "scenario_text",
    "shrink",
    "state_difference",
]
