"""A progress line on stderr for long runs: pairs done, rate, and percentage when known.

It draws only when stderr is a terminal, at most a few times a second, and clears itself at
the end, so piped output and logs stay clean.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from ..batch.heartbeat import LongPair
from ..io.formats import counted


class Progress:
    """Report ``update(done)`` calls as one self-overwriting line.

    Parameters
    ----------
    total : number of pairs expected, or ``None`` when unknown.
    stream : where to draw (default ``sys.stderr``).
    enabled : ``None`` draws only when ``stream`` is a terminal.
    interval : seconds between redraws.
    """

    def __init__(
        self,
        total: int | None = None,
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        interval: float = 0.25,
    ) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.interval = interval
        self._start = time.monotonic()
        self._last = 0.0
        self._drawn = False
        self._lock = threading.Lock()  # heartbeats come from another thread

    def update(self, done: int) -> None:
        """Record that ``done`` pairs are finished; redraw if it is time."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.interval:
            return
        self._last = now
        rate = done / max(now - self._start, 1e-9)
        if self.total:
            line = f"scored {done:,}/{self.total:,} pairs ({100 * done / self.total:.0f}%)"
        else:
            line = f"scored {counted(done, 'pair')}"
        with self._lock:
            self.stream.write(f"\r{line}, {rate:,.0f} pairs/s\x1b[K")
            self.stream.flush()
            self._drawn = True

    def close(self) -> None:
        """Erase the line."""
        with self._lock:
            if self._drawn:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
                self._drawn = False

    def heartbeat(self, beat: LongPair) -> None:
        """Write :func:`heartbeat_line` on a line of its own, whether or not the progress
        line is drawn (stderr to a log file gets it too); the progress line comes back with
        the next update."""
        with self._lock:
            if self._drawn:
                self.stream.write("\r\x1b[K")
                self._drawn = False
            self.stream.write(heartbeat_line(beat) + "\n")
            self.stream.flush()


def heartbeat_line(beat: LongPair) -> str:
    """The line for a pair that runs long.

    >>> heartbeat_line(LongPair(("Main.py",), 2_000_000, 20.2))
    'ruby-metric: still scoring pair Main.py (2,000,000 chars, 20 s)'
    >>> heartbeat_line(LongPair((64, 65, 66), 9000, 10.0))
    'ruby-metric: still scoring one of 3 pairs on a worker, 64 to 66 (9,000 chars, 10 s)'
    """
    if len(beat.ids) == 1:
        what = f"pair {beat.ids[0]}"
    else:
        what = f"one of {len(beat.ids)} pairs on a worker, {beat.ids[0]} to {beat.ids[-1]}"
    return f"ruby-metric: still scoring {what} ({beat.chars:,} chars, {beat.seconds:.0f} s)"
