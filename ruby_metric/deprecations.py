"""Old module paths that still import, with a DeprecationWarning, for one version.

0.5.0 moved the modules of ``ruby_metric`` into layers (``scoring``, ``io``, ``pages``,
``batch``, ``api``, ``reports``, ``cli``; see ``docs/architecture.md``). Each old path a user
may have imported is a two-line module that re-exports the new one's public names and calls
:func:`warn_moved`. They go away in 0.6.
"""

from __future__ import annotations

import sys
import warnings
from types import FrameType

#: The release that removes the old paths.
REMOVED_IN = "0.6"


def warn_moved(old: str, new: str) -> None:
    """Warn that module ``old`` is now ``new``, pointing at the code that imported it.

    The warning is attributed to the first frame outside the import machinery and outside
    this package, so Python's default filter shows it when a user's ``__main__`` imports
    the old path.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_moved("ruby_metric.tiers", "ruby_metric.scoring.tiers")
    >>> str(caught[0].message).split(";")[0]
    'ruby_metric.tiers is deprecated: import ruby_metric.scoring.tiers instead'
    """
    # warnings.warn itself skips the import system's frames when it counts stacklevel
    # (CPython's _is_internal_frame: "importlib" and "_bootstrap" in the file name), so only
    # the other frames are counted here.
    level, frame = 2, sys._getframe(1)  # level 2 is this function's caller
    while frame.f_back is not None and (_ours(frame) or _bootstrap(frame)):
        frame = frame.f_back
        level += not _bootstrap(frame)
    warnings.warn(
        f"{old} is deprecated: import {new} instead; the old path goes away in {REMOVED_IN}",
        DeprecationWarning,
        stacklevel=level,
    )


def _ours(frame: FrameType) -> bool:
    module = frame.f_globals.get("__name__", "")
    return module.startswith("ruby_metric.") or module == "ruby_metric"


def _bootstrap(frame: FrameType) -> bool:
    filename = frame.f_code.co_filename
    return "importlib" in filename and "_bootstrap" in filename
