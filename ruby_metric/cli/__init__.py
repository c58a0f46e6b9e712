"""The ``ruby-metric`` command line: one module per command (``score``, ``ngrams``,
``explain``, ``report``, ``meta``), the shared arguments, signals and progress.

The top layer: nothing of ours imports it.
"""

from .app import main

__all__ = ["main"]
