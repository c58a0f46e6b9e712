"""References' representations kept across pairs: a text scored again is not built again.

Real evaluations repeat references: a HumanEval-style run scores about 20 samples of each
task against one reference, and a comparison of systems scores each of them against the same
references. A :class:`ReferenceCache` keeps the :class:`~ruby_metric.scoring.code.Code` of
each reference text (its tokens, parse, AST and PDG, built lazily as the tiers ask for them)
so the next pair with that reference reuses them.

Sharing is safe because scoring never mutates a representation: the tiers compare their
inputs and build nothing into them (one :class:`Code` is already shared by both sides of an
exact match). The key is everything that changes a representation besides the scorer's own
settings: the text, its language, tokenizer, size limits and repair; a cache belongs to one
scorer (its tiers, beta and call table are fixed), and to one process: pickled, it arrives
empty, so worker processes build their own and no representation is ever sent between them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from .code import Code, Limits

__all__ = ["DEFAULT_REFERENCE_CACHE", "ReferenceCache", "check_max_chars"]

#: Characters of reference text kept by default. It holds the distinct references of the
#: usual benchmark runs (HumanEval's 161 references: 105,317 characters; CodeXGLUE's 1,000
#: Java->C# test references: 228,147) with room to spare, while bounding memory: a fully
#: built reference takes about 85 (Python) to 170 (C#) bytes a character, so a full cache
#: is on the order of 100 MB.
DEFAULT_REFERENCE_CACHE = 500_000

_Key = tuple[str, str | None, str, Limits, bool]


def check_max_chars(max_chars: int) -> int:
    """``max_chars`` when it is a cache's size, a number of characters >= 0.

    Raises
    ------
    ValueError : anything else (a bool, a float, a negative number).

    >>> check_max_chars(0)
    0
    """
    if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 0:
        raise ValueError(
            f"reference_cache must be a number of characters >= 0, got {max_chars!r}"
        )
    return max_chars


class ReferenceCache:
    """The :class:`Code` of recently seen reference texts, least recently used dropped first.

    Parameters
    ----------
    max_chars : total characters of the texts kept (0: keep nothing, every call builds a new
        :class:`Code`). A text longer than this is never kept.

    The cache is safe to share between threads (a foreign thread-pool executor scores chunks
    with one scorer). Pickling it gives an empty cache with the same bound.

    Examples
    --------
    >>> cache = ReferenceCache(max_chars=100)
    >>> a = cache.code("int f() { return 1; }", "java", "code", Limits(), True)
    >>> a is cache.code("int f() { return 1; }", "java", "code", Limits(), True)
    True
    >>> a is cache.code("int f() { return 1; }", "java", "code", Limits(), False)
    False
    """

    def __init__(self, max_chars: int) -> None:
        self.max_chars = check_max_chars(max_chars)
        self._codes: OrderedDict[_Key, Code] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        #: lookups answered from the cache, and texts built (for benchmarks and tests)
        self.hits = 0
        self.misses = 0

    def __reduce__(self) -> tuple[type[ReferenceCache], tuple[int]]:
        # never its contents: a worker builds its own, and the payload stays the same bytes
        return ReferenceCache, (self.max_chars,)

    def __len__(self) -> int:
        return len(self._codes)

    @property
    def chars(self) -> int:
        """Characters of the texts kept now."""
        return self._chars

    def code(
        self, text: str, language: str | None, tokenizer: str, limits: Limits, repair: bool
    ) -> Code:
        """The kept :class:`Code` of ``text`` under these settings, or a new one (kept).

        Parameters
        ----------
        text, language, tokenizer, limits, repair : as for :class:`Code`.

        Returns
        -------
        Code : the same object for the same key while it is kept.
        """
        if len(text) > self.max_chars:
            return Code(text, language, tokenizer, limits, repair)
        key = (text, language, tokenizer, limits, repair)
        with self._lock:
            code = self._codes.get(key)
            if code is not None:
                self._codes.move_to_end(key)
                self.hits += 1
                return code
            self.misses += 1
            code = self._codes[key] = Code(text, language, tokenizer, limits, repair)
            self._chars += len(text)
            while self._chars > self.max_chars:
                (old, *_), _ = self._codes.popitem(last=False)
                self._chars -= len(old)
            return code

    def clear(self) -> None:
        """Drop every kept representation."""
        with self._lock:
            self._codes.clear()
            self._chars = 0
