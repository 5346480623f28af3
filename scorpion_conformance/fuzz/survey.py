"""The fuzzer's survey mode: play every game, group the differences by kind, shrink one of each.

For a real implementation the first difference is not the end. ``fuzz
--survey`` plays all ``--games`` games: a game stops at its first
difference and the next game starts (the adapter is restarted after a
fault). Each difference falls in a group: its kind (:data:`KINDS`) and,
when a known-divergences file (``--known FILE``) lists it, the listed
divergence it matches. One game of each group is shrunk and the groups are
printed as a table. A run fails (exit 1) only on a group the file does not
list; a listed divergence the survey never sees is reported as not seen.

A known-divergences file is JSON: ``{"divergences": [{"kind": "status",
"match": "the status is won", "cause": "Scorpion.is_won looks at the
columns only", "scenarios": ["WIN-025"]}]}``. ``match`` is a regular
expression searched in the difference's message; ``scenarios`` (optional)
are the ids of the scenarios that catch the divergence without the fuzzer.
Other fields (the report page's ``does``, ``rules`` and ``nature``, the
``program`` it describes) are allowed and ignored here.

>>> known = Known("status", "the status is won", "is_won ignores the stock", ("WIN-025",))
>>> known.matches(Difference("start", -1, "start", "after start, the status is won; "
...                          "the rules give playing"))
True
"""

from __future__ import annotations

import random
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from scorpion_ref import Position, RuleSet
from scorpion_ref.reachable import cannot_arise

from ..client import AdapterClient
from ..errors import AdapterError, AdapterGaveUp
from .compare import Difference
from .play import Failure, FuzzOptions, Stats, Step, play_game
from .positions import _game_start
from .reports import _summary, report
from .run import _Chooser, _progress
from .shrinking import Shrinker

__all__ = [
    "KINDS",
    "Group",
    "Known",
    "KnownError",
    "Survey",
    "load_known",
    "print_survey",
    "run_survey",
    "shrink_groups",
    "survey_command",
    "survey_kind",
]

#: The kinds of difference a survey tells apart, and what each means.
KINDS: dict[str, str] = {
    "legal": "the legal set: the adapter lists actions the rules refuse, or leaves some out",
    "state": "a state field: the columns, the stock or the collected suits after an action",
    "status": "the status alone (playing, won, lost) differs",
    "refusal": "the adapter accepts an action the rules refuse, or refuses one they allow",
    "reason": "both refuse an action, for different reasons (or with another error code)",
    "undo": "undo does something else, or is refused",
    "start": "the adapter refuses a start position",
    "fault": "the adapter crashed, hung or answered out of protocol",
}

_FIELDS = {
    "columns": re.compile(r"\bcolumn \d+ reads\b|\bthe table has\b"),
    "stock": re.compile(r"\bthe stock holds\b"),
    "collected": re.compile(r"\bthe collected suits are\b"),
    "status": re.compile(r"\bthe status is\b"),
}


def survey_kind(difference: Difference) -> str:
    """The survey's kind of a fuzzer difference (a key of :data:`KINDS`).

    >>> survey_kind(Difference("state", 3, "play", "after deal, the status is won; the rules give playing"))
    'status'
    >>> survey_kind(Difference("accepted", 0, "play", "the adapter accepted deal, which the rules refuse"))
    'refusal'
    """
    kind = difference.kind
    if kind in ("accepted", "refused"):
        return "refusal"
    if kind in ("state", "unchanged", "start", "undo"):
        fields = {name for name, pattern in _FIELDS.items() if pattern.search(difference.message)}
        if kind == "start" and not fields:
            return "start"  # the start position was refused
        if fields == {"status"}:
            return "status"
        return "undo" if kind == "undo" else "state"
    return kind if kind in KINDS else "state"


@dataclass(frozen=True, slots=True)
class Known:
    """A divergence listed in a known-divergences file: its kind, a regular expression
    searched in the difference's message, its cause (naming the program's function) and
    the scenarios that catch it (none yet: empty)."""

    kind: str
    match: str
    cause: str
    scenarios: tuple[str, ...] = ()

    def matches(self, difference: Difference) -> bool:
        """Whether ``difference`` is this divergence: the same kind, and the message matches."""
        return survey_kind(difference) == self.kind and re.search(self.match, difference.message) is not None


class KnownError(ValueError):
    """A known-divergences file that cannot be used, naming the file and the entry."""


def load_known(path: Path) -> tuple[Known, ...]:
    """Read a known-divergences file; raises :class:`KnownError` saying what is wrong where."""
    from ..json_input import InputError, read_json

    try:
        data: Any = read_json(path, max_bytes=16 * 2**20, what="known-divergences file")
    except InputError as error:
        raise KnownError(str(error)) from None
    entries = data.get("divergences") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise KnownError(f'{path}: a known-divergences file is a JSON object with "divergences": '
                         '[{"kind": ..., "match": ..., "cause": ...}, ...]')
    known = []
    for number, entry in enumerate(entries, start=1):
        where = f"{path}: divergence {number}"
        if not isinstance(entry, dict):
            raise KnownError(f"{where} is not a JSON object")
        for name in ("kind", "match", "cause"):
            if not isinstance(entry.get(name), str) or not entry[name].strip():
                raise KnownError(f'{where} has no "{name}" (a non-empty string)')
        if entry["kind"] not in KINDS:
            raise KnownError(f"{where}: unknown kind {entry['kind']!r}; the kinds are {', '.join(KINDS)}")
        try:
            re.compile(entry["match"])
        except re.error as error:
            raise KnownError(f"{where}: the match {entry['match']!r} is not a regular expression "
                             f"({error})") from None
        scenarios = entry.get("scenarios", [])
        if not isinstance(scenarios, list) or not all(isinstance(s, str) and s for s in scenarios):
            raise KnownError(f'{where}: "scenarios" is a list of scenario ids')
        known.append(Known(entry["kind"], entry["match"], entry["cause"], tuple(scenarios)))
    return tuple(known)


@dataclass
class Group:
    """The differences of one kind (and, when listed, one known divergence)."""

    kind: str
    known: Known | None
    fault: str  # the fault's class, for kind "fault"
    first: Failure
    count: int = 1
    shrunk: Failure | None = None
    replays: int = 0
    #: How many of its games started from a synthetic position (one no deal leads to).
    synthetic: int = 0

    @property
    def reach(self) -> str:
        """Who meets it: a player (some game started where a deal can lead), or only
        synthetic starts."""
        return "synthetic only" if self.synthetic == self.count else (
            f"player ({self.synthetic:,} synthetic)" if self.synthetic else "player")

    @property
    def label(self) -> str:
        return f"{self.kind} ({self.fault})" if self.fault else self.kind

    @property
    def message(self) -> str:
        """The one-line message of the shrunk reproducer (of the first game, before shrinking);
        for a fault, its headline and its problem line."""
        lines = (self.shrunk or self.first).difference.message.splitlines() or [""]
        text = lines[0]
        problem = next((line.split(":", 1)[1] for line in lines
                        if line.strip().startswith("problem:")), "")
        if problem:
            text = f"{text.rstrip('.')}: {problem.strip()}"
        return " ".join(text.split())


@dataclass
class Survey:
    """What a survey found: the groups in the order first seen, the counts, and why it
    stopped early (empty when it played every game)."""

    seed: int
    groups: list[Group] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    seconds: float = 0.0
    stopped: str = ""

    @property
    def new(self) -> list[Group]:
        return [g for g in self.groups if g.known is None]

    def add(self, failure: Failure, known: Sequence[Known], rules: RuleSet | None = None) -> None:
        """Count ``failure`` in its group (a new group when it is the first of its kind), and
        whether its start is synthetic under ``rules``."""
        difference = failure.difference
        kind = survey_kind(difference)
        listed = next((k for k in known if k.matches(difference)), None)
        fault = difference.fault if kind == "fault" else ""
        synthetic = int(rules is not None and bool(cannot_arise(failure.start, rules)))
        for group in self.groups:
            if (group.kind, group.known, group.fault) == (kind, listed, fault):
                group.count += 1
                group.synthetic += synthetic
                return
        self.groups.append(Group(kind, listed, fault, failure, synthetic=synthetic))


def run_survey(client: AdapterClient, name: str, rules: RuleSet, options: FuzzOptions,
               known: Sequence[Known] = (), *, positions: str = "both",
               progress: bool = True) -> Survey:
    """Play every game of ``options``, past each difference; nothing is shrunk yet."""
    survey = Survey(options.seed)
    can_undo = client.info is not None and client.info.offers("undo")
    bar = _progress(options.games, progress)
    began = time.perf_counter()
    try:
        for index in range(options.first, options.first + options.games):
            rng = random.Random(f"{options.seed}:{index}")
            origin, start, hints = _game_start(rng, rules, options, positions)
            chooser = _Chooser(rng, rules, options, can_undo, hints)
            steps, difference = play_game(client, name, rules, start, chooser, survey.stats)
            survey.stats.games += 1
            bar.update()
            if difference is None:
                continue
            survey.add(Failure(start, steps, difference, origin, index), known, rules)
            bar.set_postfix_str(f"{sum(g.count for g in survey.groups)} differences")
            if difference.fault == "TooManyRestarts" or not _restarted(client, difference):
                survey.stopped = (f"the adapter could not be restarted after game #{index}: "
                                  f"{difference.message.splitlines()[0]}")
                break
    finally:
        bar.close()
        survey.seconds = time.perf_counter() - began
    return survey


def _restarted(client: AdapterClient, difference: Difference) -> bool:
    """Restart the adapter after a fault; False when it cannot be restarted."""
    if difference.kind != "fault":
        return True
    try:
        client.restart()
    except (AdapterGaveUp, AdapterError):
        return False
    return True


class _GroupShrinker(Shrinker):
    """The shrinker, keeping only candidates that stay in the same survey group."""

    def __init__(self, client: Any, name: str, rules: RuleSet, failure: Failure, seconds: float,
                 same: Callable[[Difference], bool]) -> None:
        super().__init__(client, name, rules, failure, seconds)
        self.same = same

    def test(self, start: Position, steps: Sequence[Step]) -> Difference | None:
        found = super().test(start, steps)
        return found if found is not None and self.same(found) else None


def shrink_groups(survey: Survey, client: AdapterClient, name: str, rules: RuleSet,
                  seconds: float, known: Sequence[Known] = ()) -> None:
    """Shrink the first game of each group, each within ``seconds``."""
    for group in survey.groups:
        def same(found: Difference, group: Group = group) -> bool:
            listed = next((k for k in known if k.matches(found)), None)
            fault = found.fault if group.kind == "fault" else ""
            return (survey_kind(found), listed, fault) == (group.kind, group.known, group.fault)

        try:
            shrinker = _GroupShrinker(client, name, rules, group.first, seconds, same)
            group.shrunk, group.replays = shrinker.shrink(), shrinker.tests
        except AdapterError:  # the adapter gave up while shrinking: keep the game as found
            group.shrunk = None


def _rerun(command: str, name: str, seed: int, game: int, max_steps: int) -> str:
    return shlex.join(["scorpion-conformance", "fuzz", "--adapter", command, "--rules", name,
                       "--seed", str(seed), "--first-game", str(game), "--games", "1",
                       "--max-steps", str(max_steps)])


def print_survey(survey: Survey, known: Sequence[Known], out: TextIO, *, command: str, name: str,
                 max_steps: int, known_file: Path | None = None,
                 scenario_ids: frozenset[str] | None = None) -> int:
    """Print the table of groups, the listed divergences and the verdict; returns the exit
    code: 1 when a group is not listed (new), 0 otherwise."""
    _summary(survey.stats, survey.seconds, survey.seed, out)
    if survey.stopped:
        print(f"the survey stopped early: {survey.stopped}", file=out)
    total = sum(g.count for g in survey.groups)
    print(f"survey: {total:,} of {survey.stats.games:,} games ended on a difference, "
          f"in {len(survey.groups)} group{'s' * (len(survey.groups) != 1)}", file=out)
    if survey.groups:
        rows = [("kind", "count", "first game", "listed", "who meets it", "reproducer (shrunk)")]
        for g in survey.groups:
            rows.append((g.label, f"{g.count:,}", f"#{g.first.game}",
                         "listed" if g.known else "NEW", g.reach, g.message[:160]))
        widths = [max(len(row[i]) for row in rows) for i in range(5)]
        for row in rows:
            print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False))
                  + "  " + row[5], file=out)
    for listed in known:
        seen = sum(g.count for g in survey.groups if g.known == listed)
        absent = [s for s in listed.scenarios if scenario_ids is not None and s not in scenario_ids]
        if not listed.scenarios or len(absent) == len(listed.scenarios):
            where = "no scenario catches it: the fuzzer alone does"
        else:
            where = "caught by " + ", ".join(listed.scenarios)
        if absent:
            where += f"; {', '.join(absent)} not in the feature files"
        verdict = f"seen {seen:,} times" if seen else "not seen in this survey"
        print(f"listed {listed.kind} /{listed.match}/ ({where}): {verdict}", file=out)
    for group in survey.new:
        shown = group.shrunk or group.first
        print("", file=out)
        report(shown, group.first, group.replays, out)
        print("reproduce with: " + _rerun(command, name, survey.seed, group.first.game, max_steps),
              file=out)
    source = f" in {known_file}" if known_file else ""
    if survey.new:
        kinds = ", ".join(g.label for g in survey.new)
        print(f"NEW: {len(survey.new)} group{'s' * (len(survey.new) != 1)} of differences not "
              f"listed{source} ({kinds})", file=out)
        return 1
    if survey.stopped:
        print("the survey did not finish", file=out)
        return 1
    print(f"no new divergence: every difference is listed{source}" if survey.groups
          else "no difference", file=out)
    return 0


def survey_command(client: AdapterClient, name: str, rules: RuleSet, options: FuzzOptions,
                   known: Sequence[Known], out: TextIO, *, command: str, positions: str,
                   progress: bool, known_file: Path | None, features: Path | None) -> int:
    """``fuzz --survey``: play, shrink one game per group, print; returns the exit code."""
    from ..suite.scenarios import feature_dir, load_cases

    survey = run_survey(client, name, rules, options, known, positions=positions, progress=progress)
    if survey.groups:
        print(f"shrinking one game of each of {len(survey.groups)} group(s)...", file=sys.stderr)
    shrink_groups(survey, client, name, rules, options.shrink_seconds, known)
    ids = frozenset(c.id.split("/")[0] for c in load_cases(features or feature_dir()) if c.id)
    return print_survey(survey, known, out, command=command, name=name,
                        max_steps=options.max_steps, known_file=known_file, scenario_ids=ids)
