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

from .worker import check_pool, kill_processes, release_pool, start_pool, worker_context

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

    def start(self, payload: Any) -> None:
        """Start the workers if needed, and check that each can load ``payload``.

        Parameters
        ----------
        payload : the objects every task carries, or their pickled bytes. A pool already
            checked against the same bytes is not checked again.

        Raises
        ------
        WorkerStartError : the workers cannot start or cannot load ``payload`` (the pool is
            then closed).
        """
        blob = payload if isinstance(payload, bytes) else pickle.dumps(payload)
        if self._executor is None:
            self._context = worker_context()
            self._executor = start_pool(self.size, blob, self._context)
        elif blob != self._checked:
            try:
                check_pool(self._executor, self.size, blob)
            except BaseException:
                self.terminate()
                raise
        self._checked = blob

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
        processes = self.processes
        executor, self._executor, self._checked = self._executor, None, None
        if executor is None:
            return
        kill_processes(processes)
        release_pool(executor, timeout)

    def close(self) -> None:
        """Let the idle workers exit and wait for them (safe to call twice)."""
        executor, self._executor, self._checked = self._executor, None, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.terminate()
