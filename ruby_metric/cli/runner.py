"""How a ``ruby-metric`` command runs and ends: its warnings on stderr, and its errors,
signals and a reader gone turned into one line and an exit status.

Exit status: 2 on bad usage or unreadable input, 1 when worker processes cannot start,
130 on SIGINT (Ctrl-C) and 143 on SIGTERM, 141 when standard output's reader has gone.
:mod:`ruby_metric.cli.app` runs every command through :func:`run_command`, and so does
``python -m ruby_metric.cli.meta``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable

from ..batch.engine import interrupt_behind
from ..batch.worker import WorkerStartError
from ..io.inputs import InputError
from .args import EXIT_USAGE
from .signals import STOP_SIGNALS, SignalGuard, Stopped, stop_on_signals

__all__ = ["EXIT_BROKEN_PIPE", "SIGNAL_STATUSES", "log_to_stderr", "run_command"]

#: The exit statuses of a run stopped by a signal: 128 + SIGINT, 128 + SIGTERM.
SIGNAL_STATUSES = frozenset(128 + sig for sig in STOP_SIGNALS)
#: The exit status when standard output's reader has gone: 128 + SIGPIPE.
EXIT_BROKEN_PIPE = 141


def log_to_stderr(quiet: bool) -> None:
    """The library's warnings (with ``quiet``: its errors only) as ``ruby-metric: LEVEL:
    message`` lines on stderr."""
    logging.basicConfig(
        level=logging.ERROR if quiet else logging.WARNING,
        format="ruby-metric: %(levelname)s: %(message)s",
        stream=sys.stderr,
    )


def run_command(run: Callable[[SignalGuard], int]) -> int:
    """``run(guard)``'s exit status, with SIGINT and SIGTERM stopping it cleanly (``guard``
    says when) and its errors one line on stderr: ``ruby-metric: error: ...`` with status 2
    (:class:`InputError`, ``ValueError``) or 1 (worker processes that cannot start);
    ``ruby-metric: interrupted`` or ``stopped by SIGTERM`` with 128 + the signal."""
    with stop_on_signals() as guard:
        try:
            return run(guard)
        except (InputError, ValueError) as exc:
            print(f"ruby-metric: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except WorkerStartError as exc:
            print(f"ruby-metric: error: {exc}", file=sys.stderr)
            return 1
        except BrokenPipeError:
            return _stdout_gone()
        except KeyboardInterrupt as exc:
            return _interrupted(exc)
        except SystemError as exc:
            # a signal that arrived inside a compiled function's call back into Python
            interrupt = interrupt_behind(exc)
            if interrupt is None:
                raise
            return _interrupted(interrupt)


def _stdout_gone() -> int:
    """Standard output's reader closed the pipe: point stdout at /dev/null, so nothing
    written or flushed later fails again, and stop."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return EXIT_BROKEN_PIPE


def _interrupted(interrupt: KeyboardInterrupt) -> int:
    """Say how the run was stopped; its exit status (128 + the signal)."""
    if isinstance(interrupt, Stopped):
        print(f"ruby-metric: stopped by {interrupt}", file=sys.stderr)
        return interrupt.exit_status
    print("ruby-metric: interrupted", file=sys.stderr)
    return 130
