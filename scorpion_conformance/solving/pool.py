"""Where a campaign's games are solved: local worker processes, or a Dask cluster.

Both backends take the same tasks (game, rule set, budgets, megabytes) and
hand back :class:`~scorpion_conformance.solving.results.Record` values as they
finish, in whatever order: one per budget tried, for each game in the order
of its budgets. A task climbs its budgets with one search that goes on from
each to the next (:func:`scorpion_ref.solver.climb`) and stops at the first
that decides the game. Locally, a :class:`~concurrent.futures.ProcessPoolExecutor`
of ``workers`` processes is kept fed with twice as many tasks as workers, so a
stop abandons few of them; each worker ignores SIGINT (the controller decides
when to stop) and dies with the controller, even a killed one
(``PR_SET_PDEATHSIG``). With an address, :func:`run_dask` hands the tasks to a
``dask.distributed`` scheduler.

A stop is asked by setting an event (the campaign's signal handler does,
and does nothing else). Both backends look at it between waits of a quarter
of a second, and raise :class:`Stopped` there, never inside a record being
written. :func:`run_local` then ends every worker's whole process tree before
it returns, and cancels the tasks on a cluster. The workers themselves are
killed and reaped through :mod:`multiprocessing`, never through :mod:`psutil`:
a worker reaped behind the pool's back stays "alive" to it forever, and the
pool's own thread then spins at exit (the hang this design removes).

>>> [(r.game, r.rules, r.outcome) for r in decide(1, "classic", (100_000,), 256)]
[(1, 'classic', 'lost')]
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from .inputs import BadInput
from .results import Record

__all__ = ["CONNECT_TIMEOUT", "POLL_SECONDS", "GameFailed", "Stopped", "Task", "decide", "run_dask",
           "run_local"]

#: One game to solve: (game, rule set name, the budgets of positions to climb, megabytes).
Task = tuple[int, str, tuple[int, ...], int]
_PR_SET_PDEATHSIG = 1
#: How long a backend waits for a result before it looks at the stop event again.
POLL_SECONDS = 0.25


class Stopped(KeyboardInterrupt):
    """The stop event was set: the run ends at a safe point, as a Ctrl-C would end it."""


class GameFailed(Exception):
    """Solving one game raised, or its worker died; the message names the game and what happened."""


def _failed(task: Task, error: BaseException) -> GameFailed:
    what = str(error) or "its worker process died"
    return GameFailed(f"game {task[0]} under {task[1]} at up to {task[2][-1]:,} positions: "
                      f"{type(error).__name__}: {what}")


def decide(game: int, rules: str, budgets: tuple[int, ...] | list[int], memory_mb: int) -> list[Record]:
    """Solve one game (PySolFC numbering, every card known) at each budget in turn, going on from
    each to the next, until it is decided; a record for each budget tried. A record's ``cpu`` and
    ``seconds`` are the whole search's so far, like its ``nodes``; ``carried`` says how many of
    those positions the record before it already counted."""
    from scorpion_ref import deal_game, get_ruleset
    from scorpion_ref.solver import SOLVER_VERSION, climb
    from scorpion_ref.solver.fast import knows
    from scorpion_ref.solver.search import chosen_core

    from .lines import show_line

    started = time.process_time()
    rule_set = get_ruleset(rules)
    core = chosen_core() if knows(rule_set) else "python"  # an unknown option: the plain search
    records = []
    for nodes, (found, carried) in zip(budgets, climb(deal_game(game), rule_set, list(budgets), memory_mb),
                                        strict=False):
        records.append(Record(
            game=game, rules=rules, outcome=found.outcome, nodes=found.nodes, seconds=found.seconds,
            budget=nodes, memory_mb=memory_mb, solver=SOLVER_VERSION,
            line=show_line(found.line) if found.outcome == "won" else None,
            proof=found.proof if found.outcome != "won" else None, cpu=time.process_time() - started,
            core=core, carried=carried or None,
        ))
    return records


def _decide_task(task: Task) -> list[Record]:
    return decide(*task)


def _worker_start() -> None:
    """In each local worker: leave Ctrl-C to the controller, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _end_workers(executor: ProcessPoolExecutor) -> None:
    """Kill every worker of ``executor`` and everything below it, and wait for them.

    The workers are the pool's own children: they are killed and reaped through
    their :class:`multiprocessing.Process` objects, so the pool sees them gone.
    Their descendants (none, unless a solver started some) are ended through
    :mod:`psutil`; they are not this process's children, so nothing of the pool's
    is reaped behind its back.
    """
    import psutil

    listed: dict[int, Any] = getattr(executor, "_processes", None) or {}
    # The pool's own list, and any worker still starting that is not on it yet.
    workers = {**{child.pid: child for child in multiprocessing.active_children() if child.pid}, **listed}
    below: list[psutil.Process] = []
    for pid in workers:
        with contextlib.suppress(psutil.Error):
            below += psutil.Process(pid).children(recursive=True)
    for process in below:
        with contextlib.suppress(psutil.Error):
            process.kill()
    for worker in workers.values():
        with contextlib.suppress(OSError, ValueError):
            worker.kill()
    for worker in workers.values():
        with contextlib.suppress(OSError, ValueError, AssertionError):
            worker.join(5)
    psutil.wait_procs(below, timeout=5)


def run_local(tasks: list[Task], workers: int, on_record: Callable[[Record], None],
              stop: threading.Event | None = None) -> None:
    """Solve ``tasks`` in ``workers`` local processes, calling ``on_record`` in this process for
    each record of a task as the task finishes. When ``stop`` is set it raises :class:`Stopped`; on
    that or any other exception the workers' trees are ended, then it propagates."""
    stop = stop or threading.Event()
    workers = max(1, min(workers, len(tasks)))  # never more processes than there are games
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start)
    pending: dict[Future[list[Record]], Task] = {}
    queue: Iterator[Task] = iter(tasks)
    try:
        for task in queue:
            pending[executor.submit(_decide_task, task)] = task
            if len(pending) >= 2 * workers:
                break
        while pending:
            if stop.is_set():
                raise Stopped
            done, _running = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                task = pending.pop(future)
                try:
                    records = future.result()
                except Exception as error:
                    raise _failed(task, error) from error
                for record in records:
                    on_record(record)
                following = next(queue, None)
                if following is not None:
                    pending[executor.submit(_decide_task, following)] = following
    except BaseException:
        _end_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True)


#: How long ``--scheduler ADDRESS`` keeps trying to reach a scheduler before it says there is none.
CONNECT_TIMEOUT = "10s"


def run_dask(tasks: list[Task], address: str, on_record: Callable[[Record], None],
             stop: threading.Event | None = None) -> None:
    """Solve ``tasks`` on the ``dask.distributed`` scheduler at ``address``; raises :class:`BadInput`
    when there is no scheduler there, and :class:`Stopped` when ``stop`` is set. On any
    exception the tasks are cancelled, then it propagates."""
    stop = stop or threading.Event()
    try:
        from distributed import Client  # the package is typed only in part
        from distributed import wait as wait_some
    except ImportError:
        raise BadInput("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as error:
        raise BadInput(f"--scheduler {address}: cannot reach a Dask scheduler there ({error})") from None
    futures: dict[Any, Task] = {}
    try:
        for task in tasks:
            key = f"scorpion-{task[1]}-{task[0]}-{task[2][0]}-{task[2][-1]}"
            futures[client.submit(decide, *task, pure=False, key=key)] = task
        pending = set(futures)
        while pending:
            if stop.is_set():
                raise Stopped
            try:
                done, pending = wait_some(  # type: ignore[no-untyped-call]
                    pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            except TimeoutError:
                continue
            for future in done:
                try:
                    records = future.result()
                except Exception as error:
                    raise _failed(futures[future], error) from error
                for record in records:
                    on_record(record)
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))  # type: ignore[no-untyped-call]
        raise
    finally:
        client.close()  # type: ignore[no-untyped-call]
