"""Where a campaign's games are solved: local worker processes, or a Dask cluster.

Both backends take the same tasks (game, rule set, positions, megabytes) and
hand back :class:`~scorpion_conformance.solving.results.Record` values as they
finish, in whatever order. Locally, a :class:`~concurrent.futures.ProcessPoolExecutor`
of ``workers`` processes is kept fed with twice as many tasks as workers, so a
stop abandons few of them; each worker ignores SIGINT (the controller decides
when to stop) and dies with the controller, even a killed one
(``PR_SET_PDEATHSIG``). On a stop, :func:`run_local` ends every worker's whole
process tree before it returns. With an address, :func:`run_dask` hands the
tasks to a ``dask.distributed`` scheduler and cancels them on a stop.

>>> record = decide(1, "classic", 100_000, 256)
>>> record.game, record.rules, record.outcome in ("won", "lost", "unknown")
(1, 'classic', True)
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from .inputs import BadInput
from .results import Record

__all__ = ["GameFailed", "Task", "decide", "run_dask", "run_local"]

#: One game to solve: (game, rule set name, positions, megabytes).
Task = tuple[int, str, int, int]
_PR_SET_PDEATHSIG = 1


class GameFailed(Exception):
    """Solving one game raised, or its worker died; the message names the game and what happened."""


def _failed(task: Task, error: BaseException) -> GameFailed:
    what = str(error) or "its worker process died"
    return GameFailed(f"game {task[0]} under {task[1]} at {task[2]:,} positions: "
                      f"{type(error).__name__}: {what}")


def decide(game: int, rules: str, nodes: int, memory_mb: int) -> Record:
    """Solve one game (PySolFC numbering, every card known) and say what was found, as a record."""
    from scorpion_ref import deal_game, get_ruleset
    from scorpion_ref.solver import SOLVER_VERSION, Budget, solve

    from .lines import show_line

    started = time.process_time()
    found = solve(deal_game(game), get_ruleset(rules), Budget(nodes=nodes, memory_mb=memory_mb))
    cpu = time.process_time() - started
    return Record(
        game=game, rules=rules, outcome=found.outcome, nodes=found.nodes, seconds=found.seconds,
        budget=nodes, memory_mb=memory_mb, solver=SOLVER_VERSION,
        line=show_line(found.line) if found.outcome == "won" else None,
        proof=found.proof if found.outcome != "won" else None, cpu=cpu,
    )


def _decide_task(task: Task) -> Record:
    return decide(*task)


def _worker_start() -> None:
    """In each local worker: leave Ctrl-C to the controller, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def _end_trees(pids: Iterable[int]) -> None:
    """Kill each process and everything below it, and wait for them."""
    import psutil

    doomed: list[psutil.Process] = []
    for pid in pids:
        try:
            root = psutil.Process(pid)
            doomed += [*root.children(recursive=True), root]
        except psutil.Error:
            continue
    for process in doomed:
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(doomed, timeout=5)


def run_local(tasks: list[Task], workers: int, on_record: Callable[[Record], None]) -> None:
    """Solve ``tasks`` in ``workers`` local processes, calling ``on_record`` in this process as
    each finishes. On any exception (a Ctrl-C too) the workers' trees are ended, then it propagates."""
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_start)
    pending: dict[Future[Record], Task] = {}
    queue: Iterator[Task] = iter(tasks)
    try:
        for task in queue:
            pending[executor.submit(_decide_task, task)] = task
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, _running = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                task = pending.pop(future)
                try:
                    record = future.result()
                except Exception as error:
                    raise _failed(task, error) from error
                on_record(record)
                following = next(queue, None)
                if following is not None:
                    pending[executor.submit(_decide_task, following)] = following
    except BaseException:
        processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
        # The pool's own list, and any worker still starting that is not on it yet.
        _end_trees({*processes, *(child.pid for child in multiprocessing.active_children() if child.pid)})
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    executor.shutdown(wait=True)


def run_dask(tasks: list[Task], address: str, on_record: Callable[[Record], None]) -> None:
    """Solve ``tasks`` on the ``dask.distributed`` scheduler at ``address``; raises :class:`BadInput`
    when there is no scheduler there. On any exception the tasks are cancelled, then it propagates."""
    try:
        from distributed import Client, as_completed  # the package is typed only in part
    except ImportError:
        raise BadInput("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    try:
        client = Client(address, timeout="10s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as error:
        raise BadInput(f"--scheduler {address}: cannot reach a Dask scheduler there ({error})") from None
    futures: dict[Any, Task] = {}
    try:
        for task in tasks:
            key = f"scorpion-{task[1]}-{task[0]}-{task[2]}"
            futures[client.submit(decide, *task, pure=False, key=key)] = task
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            try:
                record = future.result()
            except Exception as error:
                raise _failed(futures[future], error) from error
            on_record(record)
    except BaseException:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))  # type: ignore[no-untyped-call]
        raise
    finally:
        client.close()  # type: ignore[no-untyped-call]
