"""Clean stops for the command line: SIGINT and SIGTERM, once or many times.

The first SIGINT (Ctrl-C) or SIGTERM (``timeout``, ``kill``, a CI runner) raises
:class:`Stopped` in the main thread; every later one is ignored, so the clean-up it started
(killing the workers, closing the output) is never itself interrupted and nothing hangs.
Output lines are written inside :meth:`SignalGuard.held`: a signal arriving meanwhile stops
the run right after the line, so an output file only ever holds complete lines. The command
exits with ``128 + signal number``: 130 for SIGINT, 143 for SIGTERM.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import NoReturn

__all__ = ["STOP_SIGNALS", "SignalGuard", "Stopped", "exit_at_once", "stop_on_signals"]

#: The signals that stop a run cleanly.
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


class Stopped(KeyboardInterrupt):
    """A run stopped by a signal; ``signum`` says which, ``exit_status`` is 128 + it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        """The shell's convention: 128 + the signal number."""
        return 128 + self.signum


class SignalGuard:
    """The state of one run's signal handling (see :func:`stop_on_signals`).

    Python runs signal handlers in the main thread between bytecodes, whichever thread the
    kernel delivered the signal to; so holding a signal back is done here, not with the
    thread's signal mask: inside :meth:`held` the handler only notes the signal, and the stop
    happens when the block ends.
    """

    def __init__(self) -> None:
        self.stopped: int | None = None
        self._holding = 0
        self._pending: int | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:  # noqa: ARG002
        """The signal handler: stop now, or when the held block ends; ignore later ones."""
        if self.stopped is not None or self._pending is not None:
            return  # already stopping: the clean-up runs to its end
        if self._holding:
            self._pending = signum
            return
        self._stop(signum)

    def _stop(self, signum: int) -> None:
        self.stopped = signum
        # Ignored by the kernel from now on, also while Python shuts down (which resets the
        # handlers it installed but leaves SIG_IGN alone): a later signal can neither
        # interrupt the clean-up nor kill the process before it exits with its status.
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        raise Stopped(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Run the block whole: a stop signal arriving meanwhile takes effect after it."""
        self._holding += 1
        try:
            yield
        finally:
            self._holding -= 1
            if not self._holding and self._pending is not None and self.stopped is None:
                self._stop(self._pending)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def stop_on_signals() -> Iterator[SignalGuard]:
    """Turn the first SIGINT/SIGTERM into :class:`Stopped`; ignore the later ones.

    Yields the run's :class:`SignalGuard` (its :meth:`~SignalGuard.held` blocks are written
    whole). The previous handlers are restored on the way out, unless a signal stopped the
    run: then the signals stay ignored (``SIG_IGN``) while the process exits, so its clean-up
    is never interrupted and its exit status is always ``128 + signal``. Outside the main
    thread (where Python cannot handle signals) nothing is installed.
    """
    guard = SignalGuard()
    if not _in_main_thread():
        yield guard
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig in STOP_SIGNALS:
        signal.signal(sig, guard.handle)
    try:
        yield guard
    finally:
        if guard.stopped is None:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def exit_at_once(status: int) -> NoReturn:
    """End the program with ``status`` after flushing its output, without the interpreter's
    shutdown (which a stopped run's threads and pool could hold up or make noisy).

    What is garbage is collected first: a killed pool's queues hold semaphores that, once
    collected, unregister from multiprocessing's resource tracker, which would otherwise warn
    of "leaked semaphore objects" after this process is gone.
    """
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    gc.collect()
    os._exit(status)
