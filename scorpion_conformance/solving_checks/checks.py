"""The solve checks: an adapter's ``solve`` answers judged on positions with proven answers.

Each position of ``positions.json`` was decided by the reference solver and
proved again by an unreduced search (``benchmarks/make_solve_positions.py``).
The checks go through the client only, never the engine:

* every ``won`` must come with a line that replays to a won state through the
  adapter's own ``play`` and through the reference (in this process, through
  the protocol like any adapter); one that does not is a **failure** of the
  implementation, and so is a line that wins a position proved lost;
* a ``lost`` on a position proved winnable is a **failure** of the
  implementation (a false dead end);
* ``unknown`` is allowed (the budget ran out);
* an answer of the wrong shape, a refusal of a declared capability, a timeout
  or a crash is an **error**, the adapter program's fault;
* an adapter that does not declare ``solve`` is not checked at all, and a
  position under a rule set it does not declare is skipped;
* every answer to ``solve`` is followed by one more round trip (``state``),
  so a second copy of it is caught, and blamed, at the position it belongs to;
* time is bounded: each answer may take ``timeout`` seconds
  (:data:`SOLVE_TIMEOUT`, ``check-adapter --solve-timeout``), the checks as a
  whole :data:`SECTION_FACTOR` times that, and after :data:`GIVE_UP_AFTER`
  timeouts the positions left are not checked (one failure of the adapter
  program says so), so an adapter that never answers in time holds
  ``check-adapter`` for a minute and a half, not for every position.

>>> [v.name for v in load_positions()][:1]
['standard-game-5']
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

from ..arguments import GIVE_UP_AFTER, SECTION_FACTOR, SOLVE_TIMEOUT
from ..client import AdapterClient
from ..errors import AdapterError, AdapterTimeout, ErrorAnswer, InvalidResponse
from ..protocol import NAMED_RULESETS, HelloInfo, Solve, Start
from ..reference import in_process

__all__ = [
    "BUDGET",
    "GIVE_UP_AFTER",
    "SECTION_FACTOR",
    "SOLVE_TIMEOUT",
    "ProvenPosition",
    "SolveVerdict",
    "check_position",
    "load_positions",
    "run_solve_checks",
]

#: The budget the checks ask for, in positions: the reference decides every position well within it.
BUDGET = 100_000

Verdict = Literal["passed", "unknown", "failed", "error", "skipped"]


@dataclass(frozen=True)
class ProvenPosition:
    """A position, its rule set and its proven answer (``won`` or ``lost``)."""

    name: str
    rules: str
    answer: Literal["won", "lost"]
    why: str
    position: Mapping[str, Any] = field(hash=False)


@dataclass(frozen=True)
class SolveVerdict:
    """How an adapter fared on one position, and whose fault a failure is.

    ``blame`` is ``implementation`` for a wrong claim, ``adapter`` for a
    fault of the adapter program, None otherwise.
    """

    name: str
    verdict: Verdict
    detail: str
    blame: Literal["implementation", "adapter"] | None = None

    @property
    def bad(self) -> bool:
        return self.verdict in ("failed", "error")


@functools.cache
def _data() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("positions.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def load_positions() -> tuple[ProvenPosition, ...]:
    """The shipped positions with proven answers, in the file's order."""
    return tuple(
        ProvenPosition(p["name"], p["rules"], p["answer"], p["why"], p["position"])
        for p in _data()["positions"]
    )


def _declared_as(info: HelloInfo, rules: str) -> str | None:
    """The name under which the adapter plays the named rule set ``rules`` (itself or a bundle)."""
    wanted = dict(NAMED_RULESETS[rules])
    for name, options in info.rulesets_resolved().items():
        if options == wanted:
            return name
    return None


def _say(action: Mapping[str, Any]) -> str:
    return "deal" if action.get("type") == "deal" else f"{action.get('card')} to column {action.get('to')}"


def _replay(client: AdapterClient, line: list[dict[str, Any]], by: str = "its own play") -> str | None:
    """Play ``line`` through ``client`` from its current state; what went wrong (``by`` names who
    refused an action), or None when it ends won."""
    status = client.state()["status"]
    for number, action in enumerate(line, start=1):
        response = client.play(action)
        if not response.ok:
            error = response.error
            assert error is not None
            return f"action {number} of its line ({_say(action)}) was refused by {by}: {error.code}" + (
                f" ({error.reason})" if error.reason else "")
        assert response.state is not None
        status = response.state["status"]
    if status != "won":
        return f"its line of {len(line)} action{'s' * (len(line) != 1)} ends {status}, not won" + (
            "" if by == "its own play" else f", under {by}")
    return None


def _replay_in_reference(proven: ProvenPosition, line: list[dict[str, Any]]) -> str | None:
    """Play ``line`` from the position through the reference adapter (in this process, through
    the protocol); what the rules refuse, or None when it ends won."""
    with in_process() as reference:
        reference.start(proven.rules, proven.position)  # a shipped position under a named rule set
        return _replay(reference, line, "the rules (the reference)")


def check_position(client: AdapterClient, info: HelloInfo, proven: ProvenPosition,
                   budget: int = BUDGET, timeout: float = SOLVE_TIMEOUT) -> SolveVerdict:
    """Judge the adapter's ``solve`` on one proven position (see the module doc).

    Raises :class:`AdapterError` for a fault of the adapter program after which the
    conversation cannot go on (a timeout, a crash, answers out of step, a second copy of
    its answer); the caller restarts the adapter. An answer of the wrong shape is returned
    as an error verdict.
    """
    name = proven.name
    rules = _declared_as(info, proven.rules)
    if rules is None:
        return SolveVerdict(name, "skipped", f"the adapter does not declare the rule set {proven.rules}")
    started = client.send(Start(rules, proven.position))
    if not started.ok:
        error = started.error
        assert error is not None
        return SolveVerdict(name, "failed", f"start under {rules!r} refused a valid position: {error.code}"
                            f" ({error.message})", "implementation")
    try:
        answer = client.send(Solve(budget), timeout=timeout)
    except InvalidResponse as malformed:
        problem = malformed.problem
        return SolveVerdict(name, "error", f"its answer to solve is malformed: {problem}", "adapter")
    client.check_in_step()  # a second copy of the answer is caught here, at its own position
    if not answer.ok:
        error = answer.error
        assert error is not None
        return SolveVerdict(name, "error", f"solve was refused although the adapter declares it: "
                            f"{error.code} ({error.message})", "adapter")
    outcome = answer.outcome
    if outcome == "unknown":
        return SolveVerdict(name, "unknown", f"unknown within {budget} positions (allowed); it is"
                            f" {proven.answer}")
    if outcome == "lost":
        if proven.answer == "won":
            return SolveVerdict(name, "failed", f"claimed lost, but the position is proved winnable under"
                                f" {proven.rules} ({proven.why})", "implementation")
        return SolveVerdict(name, "passed", "lost, as proved")
    replayed = _replay(client, answer.line)
    if replayed is not None:
        return SolveVerdict(name, "failed", f"claimed won, but {replayed}", "implementation")
    if proven.answer == "lost":
        return SolveVerdict(name, "failed", f"its line wins through its own play, but the position is proved"
                            f" lost under {proven.rules}: its play accepts what the rules refuse",
                            "implementation")
    refused = _replay_in_reference(proven, answer.line)
    if refused is not None:
        return SolveVerdict(name, "failed", f"claimed won, and its line wins through its own play, but "
                            f"{refused}: its play accepts what the rules refuse", "implementation")
    count = len(answer.line)
    return SolveVerdict(name, "passed", f"won; its line of {count} action{'s' * (count != 1)} replays to won")


def run_solve_checks(client: AdapterClient, info: HelloInfo, *, budget: int = BUDGET,
                     timeout: float = SOLVE_TIMEOUT,
                     positions: tuple[ProvenPosition, ...] | None = None,
                     clock: Callable[[], float] = time.monotonic) -> Iterator[SolveVerdict]:
    """Judge every proven position in turn; yields a verdict each (none if ``solve`` is not declared).

    After a fault of the adapter program the adapter is restarted and the next
    position is checked; if it cannot be restarted, the remaining ones are not.
    Each answer may take ``timeout`` seconds, all of them :data:`SECTION_FACTOR`
    times that; once that time is spent, or after :data:`GIVE_UP_AFTER`
    timeouts, the positions left are not checked and one last verdict (an
    error of the adapter program) says so.
    """
    if not info.offers("solve"):
        return
    chosen = positions if positions is not None else load_positions()
    allowed = SECTION_FACTOR * timeout
    deadline = clock() + allowed
    timeouts = 0
    for index, proven in enumerate(chosen):
        left = deadline - clock()
        if timeouts >= GIVE_UP_AFTER or left <= 0:
            why = (f"{timeouts} answers took longer than they may ({timeout:g} s each)"
                   if timeouts >= GIVE_UP_AFTER else f"the solve checks used all their time ({allowed:g} s)")
            rest = len(chosen) - index
            yield SolveVerdict(f"({rest} position{'s' * (rest != 1)} left)", "error",
                               f"not checked: {why}; the reference answers each position in well under a "
                               "second", "adapter")
            return
        try:
            verdict = check_position(client, info, proven, budget, round(min(timeout, left), 1))
        except (AdapterError, ErrorAnswer) as fault:
            what = fault.problem if isinstance(fault, AdapterError) else str(fault)
            timeouts += isinstance(fault, AdapterTimeout)
            yield SolveVerdict(proven.name, "error", f"{type(fault).__name__}: {what}", "adapter")
            if isinstance(fault, AdapterError) and not client.running:
                try:
                    info = client.restart()
                except AdapterError:
                    return
            continue
        yield verdict
