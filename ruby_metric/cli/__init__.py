"""The ``ruby-metric`` command line: one module per command (``score``, ``ngrams``,
``explain``, ``report``, ``meta``), the shared arguments, signals and progress.

The top layer: nothing of ours imports it. This module itself imports only the signal
handling: :func:`main` installs it before the program's own imports (numpy, scipy, numba
and the grammars: about half a second), so a stop signal during start-up ends the run as one
later does, with one line and status 130 or 143, never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .signals import Stopped, exit_at_once, stop_on_signals

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (see :func:`ruby_metric.cli.app.main`).

    The entry point of the ``ruby-metric`` program and of ``python -m ruby_metric``.
    """
    try:
        with stop_on_signals():
            from .app import main as run  # the heavy imports, under the signal handling

            return run(argv)
    except Stopped as exc:
        # Stopped before the run's own handling began: during the imports, say.
        print(f"ruby-metric: stopped by {exc}", file=sys.stderr)
        if argv is not None:
            return exc.exit_status
        exit_at_once(exc.exit_status)  # as after a later stop
