"""Natural order of ids: the numbers in them compared as numbers.

Benchmarks name their files and folders by number (``2/Solution.py``, ``10/Solution.py``,
``task_9.py``); sorted as text, ``10/...`` comes before ``2/...``, which is not the order
anyone numbered them in. :func:`natural_key` compares the runs of digits of two ids as
numbers and the rest as text, and breaks the ties that leaves (``02`` and ``2``) by the
text itself, so the order is total and never depends on the order things were found in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["natural_key", "natural_sorted"]

#: A run of ASCII digits (``\d`` would take other scripts' digits too, whose order as
#: numbers no file name means).
_DIGITS = re.compile(r"([0-9]+)")


def natural_key(text: object) -> tuple[tuple[str | int, ...], str]:
    """The sort key of ``text`` (anything, compared as its ``str``) in natural order.

    The text splits into alternating runs, text first (possibly empty), then digits, then
    text, ...: position by position the runs of two keys are of one type (text at even
    positions, numbers at odd ones), so any two keys compare. Equal numbers written
    differently (``02``, ``2``) fall back to the text.

    >>> sorted(["10/x.py", "2/x.py", "1/x.py"], key=natural_key)
    ['1/x.py', '2/x.py', '10/x.py']
    >>> sorted(["a10", "a9", "a", "b1", "a02", "a2"], key=natural_key)
    ['a', 'a02', 'a2', 'a9', 'a10', 'b1']
    """
    string = str(text)
    runs = _DIGITS.split(string)
    return tuple(int(run) if odd % 2 else run for odd, run in enumerate(runs)), string


def natural_sorted(items: Iterable[object]) -> list:
    """``items`` sorted by :func:`natural_key`.

    >>> natural_sorted(["task_10", "task_9"])
    ['task_9', 'task_10']
    """
    return sorted(items, key=natural_key)
