"""A pool of clean worker processes that starts once and is reused across calls.

:class:`WorkerPool` wraps the checked process pool of :func:`ruby_metric.batch.worker.start_pool`:
a :class:`~ruby_metric.api.scorer.RubyScorer` keeps one across ``score_corpus``/``stream`` calls,
so only the first call pays the workers' start-up; it is closed by
:meth:`RubyScorer.close <ruby_metric.api.scorer.RubyScorer.close>`, by leaving a ``with`` block,
or when the scorer is garbage-collected or the interpreter exits. It can also be used on its
own as a context manager.

On an interrupt (Ctrl-C, SIGTERM) or any other error in the middle of a run,
:meth:`WorkerPool.terminate` kills the workers at once (they ignore SIGINT and SIGTERM, which
the caller's process handles) and reaps them: nothing waits for a chunk still being scored.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from .worker import (
    abandon_pool,
    check_results,
    launch_pool,
    submit_checks,
    worker_context,
)

__all__ = ["WorkerPool"]


class WorkerPool:
    """``size`` clean worker processes, started by :meth:`start` and reusable until closed.

    Parameters
    ----------
    size : number of worker processes.

    Examples
    --------
    >>> with WorkerPool(2) as pool:                                        # doctest: +SKIP
    ...     pool.start(payload)
    ...     pool.submit(function, *args).result()
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self._executor: ProcessPoolExecutor | None = None
        self._context: Any = None
        self._checked: bytes | None = None
        self._checks: list[Future] = []  # start-up checks not read yet (see confirm)
        self._queued_behind = False  # whether tasks may be queued behind those checks

    @property
    def started(self) -> bool:
        """Whether the workers are running (and not closed)."""
        return self._executor is not None

    @property
    def processes(self) -> list[Any]:
        """The worker :class:`multiprocessing.Process` objects this pool has created."""
        if self._executor is None:
            return []
        return list(getattr(self._context, "processes", []))

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
        if self._executor is not None and blob == self._checked:
            return
        if self._executor is None:
            self._context = worker_context()
            self._executor = launch_pool(self.size, self._context)
        try:
            self._checks = submit_checks(self._executor, self.size, blob)
        except BaseException:
            self.terminate()
            raise
        self._checked = blob
        self._queued_behind = not wait
        if wait:
            self.confirm()

    def confirm(self) -> None:
        """Read the start-up checks that :meth:`start` queued (nothing to do when they were
        read already).

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
        """Run ``function(*args)`` on a worker (start the pool first)."""
        if self._executor is None:
            raise RuntimeError("the worker pool is not started (or already closed)")
        return self._executor.submit(function, *args)

    def terminate(self, timeout: float = 3.0) -> None:
        """Kill the workers now and forget them (safe to call twice, or on a closed pool).

        The pool's bookkeeping (its queues, their semaphores, its thread) is then released
        in a helper thread, waited for at most ``timeout`` seconds: never a hang.
        """
        executor = self._executor
        self._executor, self._checked, self._checks = None, None, []
        if executor is not None:
            abandon_pool(executor, self._context, timeout)

    def close(self) -> None:
        """Let the idle workers exit and wait for them (safe to call twice)."""
        executor, self._executor, self._checked, self._checks = self._executor, None, None, []
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.terminate()
