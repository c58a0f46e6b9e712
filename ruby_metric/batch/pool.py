"""A pool of clean worker processes that starts once and is reused across calls.

:class:`WorkerPool` is ``size`` worker processes, each with a queue of its own (a
one-process executor from :func:`ruby_metric.batch.worker.launch_pool`): the batch engine
sends the pairs of one reference to the worker that built it before
(:mod:`ruby_metric.batch.routing`; the pool's :attr:`WorkerPool.homes` remember where each
went, for as long as these workers live), and sees how much work each worker has
(:meth:`WorkerPool.outstanding`). A worker that dies breaks only its own queue; the engine
replaces it (:meth:`WorkerPool.replace`) and the others go on.

A :class:`~ruby_metric.api.scorer.RubyScorer` keeps one pool across
``score_corpus``/``stream`` calls, so only the first call pays the workers' start-up (and
the later calls find their references where they were built); it is closed by
:meth:`RubyScorer.close <ruby_metric.api.scorer.RubyScorer.close>`, by leaving a ``with``
block, or when the scorer is garbage-collected or the interpreter exits. It can also be
used on its own as a context manager.

On an interrupt (Ctrl-C, SIGTERM) or any other error in the middle of a run,
:meth:`WorkerPool.terminate` kills all the workers at once (they ignore SIGINT and SIGTERM,
which the caller's process handles) and reaps them: nothing waits for a chunk still being
scored.
"""

from __future__ import annotations

import pickle
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .routing import Homes
from .worker import (
    abandon_pools,
    check_results,
    launch_pool,
    submit_checks,
    worker_context,
)

__all__ = ["WorkerPool"]


@dataclass
class _Worker:
    """One worker process: its one-process executor, the context that spawned it (which
    records the process), and its tasks not yet seen done, oldest first, with their
    weights."""

    executor: ProcessPoolExecutor
    context: Any
    tasks: deque[tuple[Future, int]] = field(default_factory=deque)


class WorkerPool:
    """``size`` clean worker processes, started by :meth:`start` and reusable until closed;
    each has a queue of its own.

    Parameters
    ----------
    size : number of worker processes.

    Attributes
    ----------
    homes : the worker each recently routed reference went to
        (:class:`~ruby_metric.batch.routing.Homes`), kept while the workers live and score
        the same payload: it only steers where pairs are scored.

    Examples
    --------
    >>> with WorkerPool(2) as pool:                                        # doctest: +SKIP
    ...     pool.start(payload)
    ...     pool.submit_to(1, function, *args).result()
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self.homes = Homes()
        self._workers: list[_Worker] | None = None
        self._checked: bytes | None = None
        self._checks: list[Future] = []  # start-up checks not read yet (see confirm)
        self._queued_behind = False  # whether tasks may be queued behind those checks

    @property
    def started(self) -> bool:
        """Whether the workers are running (and not closed)."""
        return self._workers is not None

    @property
    def processes(self) -> list[Any]:
        """The :class:`multiprocessing.Process` objects of this pool's workers (a worker
        replaced after it died is no longer among them)."""
        if self._workers is None:
            return []
        return [proc for worker in self._workers
                for proc in getattr(worker.context, "processes", [])]

    def start(self, payload: Any, *, wait: bool = True) -> None:
        """Start the workers if needed, and check that each can load ``payload``.

        Parameters
        ----------
        payload : the objects every task carries, or their pickled bytes. A pool already
            checked against the same bytes is not checked again.
        wait : wait for the check now (the default). With ``wait=False`` the checks are
            only queued, ahead of any task submitted next: the caller queues its first
            chunks while the workers start, and calls :meth:`confirm` before it reads a
            result.

        Raises
        ------
        WorkerStartError : the workers cannot start or cannot load ``payload`` (the pool is
            then closed).
        """
        blob = payload if isinstance(payload, bytes) else pickle.dumps(payload)
        if self._workers is not None and blob == self._checked:
            return
        try:
            if self._workers is None:
                self._workers = []
                for _ in range(self.size):
                    self._workers.append(_launch())
            self._checks = [check for worker in self._workers
                            for check in submit_checks(worker.executor, 1, blob)]
        except BaseException:
            self.terminate()
            raise
        if blob != self._checked:
            self.homes.clear()  # another payload: its scorer's caches start empty
        self._checked = blob
        self._queued_behind = not wait
        if wait:
            self.confirm()

    def confirm(self) -> None:
        """Read the start-up checks that :meth:`start` or :meth:`replace` queued (nothing
        to do when they were read already).

        Raises
        ------
        WorkerStartError : a worker died at start-up or cannot load the payload (the pool
            is then killed: nothing waits for the tasks queued behind the checks).
        """
        checks, self._checks = self._checks, []
        try:
            check_results(checks, chunks_queued=self._queued_behind)
        except BaseException:
            self.terminate()
            raise

    def submit(self, function: Callable[..., Any], *args: Any) -> Future:
        """Run ``function(*args)`` on the worker with the least outstanding work (start
        the pool first)."""
        return self.submit_to(min(range(self.size), key=self.outstanding), function, *args)

    def submit_to(
        self, worker: int, function: Callable[..., Any], *args: Any, weight: int = 1
    ) -> Future:
        """Run ``function(*args)`` on worker ``worker`` (0 to ``size - 1``), after the tasks
        already queued there; ``weight`` is what it counts for in :meth:`outstanding` (the
        engine gives a chunk's number of pairs).

        A worker that has died gives a future that fails with
        :class:`~concurrent.futures.process.BrokenProcessPool`, as its queued tasks do,
        instead of raising here: the caller recovers from it where it reads results.
        """
        if self._workers is None:
            raise RuntimeError("the worker pool is not started (or already closed)")
        slot = self._workers[worker]
        try:
            future = slot.executor.submit(function, *args)
        except BrokenProcessPool as exc:
            future = Future()
            future.set_exception(exc)
        slot.tasks.append((future, weight))
        return future

    def outstanding(self, worker: int) -> int:
        """The weight of the tasks on worker ``worker`` not done yet (queued or running)."""
        if self._workers is None:
            return 0
        tasks = self._workers[worker].tasks
        while tasks and tasks[0][0].done():  # a worker finishes its tasks in order
            tasks.popleft()
        return sum(weight for future, weight in tasks if not future.done())

    def replace(self, worker: int) -> None:
        """Kill worker ``worker`` (if it still runs) and start a fresh one in its place,
        its start-up check queued (read by :meth:`confirm`); the other workers go on.

        Raises
        ------
        WorkerStartError : the new worker cannot be created (the pool is then killed).
        """
        if self._workers is None or self._checked is None:
            raise RuntimeError("the worker pool is not started (or already closed)")
        old = self._workers[worker]
        abandon_pools([old.executor], getattr(old.context, "processes", []))
        try:
            self._workers[worker] = fresh = _launch()
            self._checks += submit_checks(fresh.executor, 1, self._checked)
        except BaseException:
            self.terminate()
            raise
        self._queued_behind = True

    def terminate(self, timeout: float = 3.0) -> None:
        """Kill every worker now, all at once, and forget them (safe to call twice, or on a
        closed pool).

        The pool's bookkeeping (its queues, their semaphores, its threads) is then released
        in a helper thread, waited for at most ``timeout`` seconds: never a hang.
        """
        processes = self.processes
        workers, self._workers, self._checked, self._checks = self._workers, None, None, []
        self.homes.clear()
        if workers is not None:
            abandon_pools([worker.executor for worker in workers], processes, timeout)

    def close(self) -> None:
        """Let the idle workers exit and wait for them (safe to call twice)."""
        workers, self._workers, self._checked, self._checks = self._workers, None, None, []
        self.homes.clear()
        for worker in workers or []:  # all told first, so they exit side by side
            worker.executor.shutdown(wait=False, cancel_futures=True)
        for worker in workers or []:
            worker.executor.shutdown(wait=True)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.terminate()


def _launch() -> _Worker:
    """A worker in a clean spawn context of its own, not started yet (its process starts
    with its first task: the start-up check)."""
    context = worker_context()
    return _Worker(launch_pool(1, context), context)
