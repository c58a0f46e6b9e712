"""Clean stops for the command line: SIGINT and SIGTERM, once or many times.

The first SIGINT (Ctrl-C) or SIGTERM (``timeout``, ``kill``, a CI runner) raises
:class:`Stopped` in the main thread; every later one is ignored, so the clean-up it started
(killing the workers, closing the output) is never itself interrupted and nothing hangs.
Writes of output lines run with both signals held back (:func:`held_signals`), so an output
file only ever holds complete lines. The command exits with ``128 + signal number``: 130
for SIGINT, 143 for SIGTERM.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["STOP_SIGNALS", "Stopped", "held_signals", "stop_on_signals"]

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


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn the first SIGINT/SIGTERM into :class:`Stopped`; ignore the later ones.

    The previous handlers are restored on the way out, unless a signal stopped the run: then
    the signals stay ignored (``SIG_IGN``) while the process exits, so its clean-up is never
    interrupted and its exit status is always ``128 + signal``.
    Outside the main thread (where Python cannot handle signals) this does nothing.
    """
    if not _in_main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    stopped = []

    def handle(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001
        if stopped:
            return  # already stopping: the clean-up runs to its end
        stopped.append(signum)
        # Ignored by the kernel from now on, also while Python shuts down (which resets the
        # handlers it installed, but leaves SIG_IGN alone): a later signal can neither
        # interrupt the clean-up nor kill the process before it exits with its status.
        for sig in STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        raise Stopped(signum)

    for sig in STOP_SIGNALS:
        signal.signal(sig, handle)
    try:
        yield
    finally:
        if not stopped:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the duration (they are delivered right after), so a
    line of output is written whole or not at all."""
    if not _in_main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
