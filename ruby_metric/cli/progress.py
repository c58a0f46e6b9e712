"""A progress line on stderr for long runs: pairs done, rate, and percentage when known.

It draws only when stderr is a terminal, at most a few times a second, and clears itself at
the end, so piped output and logs stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

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
        self.stream.write(f"\r{line}, {rate:,.0f} pairs/s\x1b[K")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the line."""
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
