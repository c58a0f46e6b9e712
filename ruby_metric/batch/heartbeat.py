"""A heartbeat for a pair that runs long: a callback every few seconds while it is scored.

A typical pair is scored in milliseconds, but a pair of multi-megabyte files can take a
minute, and a run that prints nothing for a minute looks hung. :class:`Watch` runs one
daemon thread that wakes once a second; while one piece of work (a pair scored in this
process, or a chunk of pairs on a worker process) has run for ``every`` seconds, it calls
``report`` with a :class:`LongPair`, and again every ``every`` seconds until it ends. The
scoring kernels release the GIL (``numba.njit(nogil=True)``), so the thread gets to run.
The library only calls the callback; the command line writes the line on stderr.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..io.inputs import PairInput

__all__ = ["LongPair", "Watch", "pair_chars"]


@dataclass(frozen=True)
class LongPair:
    """Work that has run long.

    Attributes
    ----------
    ids : the pair's id; several when a worker process scores a chunk of pairs (which of
        them is the long one is known only to the worker).
    chars : characters of code in those pairs (references and candidates).
    seconds : how long the work has run.
    """

    ids: tuple[Any, ...]
    chars: int
    seconds: float


def pair_chars(pair: PairInput) -> int:
    """Characters of code in a pair: its candidate and its reference(s)."""
    texts = [pair.candidate, *(pair.reference if isinstance(pair.reference, list)
                               else [pair.reference])]
    return sum(len(text) for text in texts if isinstance(text, str))


class Watch:
    """Calls ``report`` every ``every`` seconds while a piece of work runs.

    Parameters
    ----------
    report : called (on the watch's thread) with a :class:`LongPair`.
    every : seconds of work before the first call, and between calls.

    >>> beats = []
    >>> watch = Watch(beats.append, every=0.05)
    >>> watch.started((7,), 120); time.sleep(0.3); watch.ended(); watch.close()
    >>> beats[0].ids, beats[0].chars, beats[0].seconds >= 0.05
    ((7,), 120, True)
    """

    def __init__(self, report: Callable[[LongPair], None], every: float = 10.0) -> None:
        if not every > 0:
            raise ValueError(f"every must be a positive number of seconds, got {every!r}")
        self._report = report
        self._every = every
        self._lock = threading.Lock()
        self._work: tuple[tuple[Any, ...], int, float] | None = None
        self._beats = 0  # reports made for the current work
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def started(self, ids: tuple[Any, ...], chars: int) -> None:
        """Work on ``ids`` (``chars`` characters of code) begins now."""
        with self._lock:
            self._work = (ids, chars, time.monotonic())
            self._beats = 0
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="ruby-metric-heartbeat",
                                            daemon=True)
            self._thread.start()

    def ended(self) -> None:
        """The current work is done."""
        with self._lock:
            self._work = None

    def close(self) -> None:
        """Stop the thread (the watch cannot be used again)."""
        self._closed.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        tick = min(1.0, self._every / 4)
        while not self._closed.wait(tick):
            with self._lock:
                if self._work is None:
                    continue
                ids, chars, start = self._work
                elapsed = time.monotonic() - start
                if elapsed < self._every * (self._beats + 1):
                    continue
                self._beats += 1
            self._report(LongPair(ids, chars, elapsed))
