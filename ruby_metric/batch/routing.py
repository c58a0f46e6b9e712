"""Which worker scores which pairs: a reference's pairs go where it was built before.

Each worker process keeps its own reference cache
(:class:`~ruby_metric.scoring.reference_cache.ReferenceCache`), so a reference whose pairs
land on two workers is parsed and built twice. Real runs bring references back far apart:
a model comparison scores every reference once per system, a HumanEval-style run scores
about 20 samples per task. The batch engine reads pairs a block at a time and groups the
pairs of one reference (:func:`reference_groups`), cut to at most a chunk each
(:func:`split`); each piece goes to the worker that built that reference before
(:class:`Homes` remembers it), unless that worker already has clearly more work than
another (:func:`assign`); each worker's pieces are then cut into chunks (:func:`pack`).

Routing only decides where a pair is scored, never what it scores: results are the same
bytes wherever a pair lands.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from ..io.inputs import PairInput

__all__ = ["HOMES", "Homes", "assign", "pack", "reference_groups", "reference_key", "split"]

#: References whose worker is remembered. A home only helps while its worker still holds
#: the reference: the default cache (500,000 characters) holds about 2,200 CodeXGLUE C#
#: references (228 characters on average) per worker, and this many homes cover the caches
#: of several workers full of references a third of that size, for about 3 MB.
HOMES = 32_768


class Homes:
    """The worker each recently routed reference went to; the least recently used are
    forgotten first, beyond ``capacity`` references.

    Keys are hashes of (language, reference text): a collision only sends a pair to a
    worker that has to build its reference, as a forgotten home does.

    >>> homes = Homes(capacity=2)
    >>> homes.set(11, 0); homes.set(22, 1); homes.get(11)
    0
    >>> homes.set(33, 1)  # forgets 22, used less recently than 11
    >>> homes.get(22), homes.get(11), len(homes)
    (None, 0, 2)
    """

    def __init__(self, capacity: int = HOMES) -> None:
        if capacity < 1:
            raise ValueError(f"homes need a capacity of at least 1, not {capacity}")
        self.capacity = capacity
        self._workers: OrderedDict[int, int] = OrderedDict()

    def __len__(self) -> int:
        return len(self._workers)

    def get(self, key: int) -> int | None:
        """The worker ``key``'s reference went to last, or ``None`` when not known."""
        worker = self._workers.get(key)
        if worker is not None:
            self._workers.move_to_end(key)
        return worker

    def set(self, key: int, worker: int) -> None:
        """Remember that ``key``'s reference went to ``worker``."""
        self._workers[key] = worker
        self._workers.move_to_end(key)
        while len(self._workers) > self.capacity:
            self._workers.popitem(last=False)

    def clear(self) -> None:
        """Forget every home (the workers are gone)."""
        self._workers.clear()


def reference_key(pair: PairInput, index: int) -> Hashable:
    """What pairs sharing a reference share: its text(s) and the pair's language; a pair
    that cannot be read, or whose reference is not text, is a group of its own (a key that
    is a tuple ``(None, index)``: texts are never ``None``)."""
    reference = pair.reference
    if pair.problem is None and isinstance(reference, str):
        return pair.language, reference
    if (pair.problem is None and isinstance(reference, (list, tuple))
            and all(isinstance(text, str) for text in reference)):
        return pair.language, tuple(reference)
    return None, index


def reference_groups(batch: Sequence[PairInput]) -> tuple[list[list[int]], list[int | None]]:
    """The pairs of ``batch`` grouped by reference, in their first pair's order, and each
    group's home key: a hash of its reference's key, ``None`` for a pair of its own.

    >>> pairs = [PairInput(i, ref, "x", "java") for i, ref in enumerate("abab")]
    >>> groups, keys = reference_groups(pairs)
    >>> groups, keys[0] == hash(("java", "a"))
    ([[0, 2], [1, 3]], True)
    """
    groups: dict[Hashable, list[int]] = {}
    for i, pair in enumerate(batch):
        groups.setdefault(reference_key(pair, i), []).append(i)
    keys = [None if key[0] is None and isinstance(key[1], int) else hash(key)  # type: ignore[index]
            for key in groups]
    return list(groups.values()), keys


def pack(groups: Sequence[list[Any]], size: int) -> list[list[Any]]:
    """Groups cut into chunks of at most ``size`` members, in order: a chunk ends before a
    group that would not fit in it whole, and a group larger than a chunk is split.

    >>> pack([[0, 1], [2, 3, 4], [5]], 4)
    [[0, 1], [2, 3, 4, 5]]
    >>> pack([[0, 1, 2, 3, 4, 5]], 4)
    [[0, 1, 2, 3], [4, 5]]
    """
    chunks: list[list[Any]] = []
    chunk: list[Any] = []
    for members in groups:
        if chunk and len(chunk) + len(members) > size:
            chunks.append(chunk)
            chunk = []
        chunk.extend(members)
        while len(chunk) >= size:
            chunks.append(chunk[:size])
            chunk = chunk[size:]
    if chunk:
        chunks.append(chunk)
    return chunks


def split(groups: Sequence[list[Any]], size: int) -> list[tuple[int, list[Any]]]:
    """Groups cut into pieces of at most ``size`` members, each with its group's index: a
    reference with more pairs than a chunk can then be spread over workers (each piece
    that moves costs one build) instead of loading one worker with all of them.

    >>> split([[0, 1, 2, 3, 4], [5]], 2)
    [(0, [0, 1]), (0, [2, 3]), (0, [4]), (1, [5])]
    """
    return [(g, members[i:i + size]) for g, members in enumerate(groups)
            for i in range(0, len(members), size)]


def assign(
    sizes: Sequence[int], homes: Sequence[int | None], loads: Sequence[int], slack: int
) -> list[int]:
    """The worker of each group of pairs.

    Every group goes to its home (the worker that holds its reference) when it has one;
    then the others, in order, each to the least loaded worker (the first of equals).
    Then, while the busiest worker has more than ``slack`` pairs more than the idlest, a
    group moves from the busiest to the idlest: the largest that narrows the gap (a moved
    reference is built once more, and the largest moves the most pairs per build), the
    last of equals.

    Parameters
    ----------
    sizes : pairs in each group.
    homes : each group's home worker, or ``None``.
    loads : pairs each worker already has to score (in flight or waiting).
    slack : the gap in pairs between two workers' loads that is left as it is.

    Returns
    -------
    list[int] : the worker of each group.

    >>> assign([10, 10, 10], [None, None, None], [0, 0], slack=0)
    [0, 1, 0]
    >>> assign([30, 30, 30, 30], [0, 0, 0, 0], [0, 0], slack=64)
    [0, 0, 0, 1]
    """
    loads = list(loads)
    workers = range(len(loads))
    out = [home if home is not None and home in workers else -1 for home in homes]
    for g, worker in enumerate(out):
        if worker >= 0:
            loads[worker] += sizes[g]
    for g, worker in enumerate(out):  # after the homes: they fill in the gaps
        if worker < 0:
            out[g] = worker = min(workers, key=loads.__getitem__)
            loads[worker] += sizes[g]
    while True:
        busiest = max(workers, key=lambda w: (loads[w], -w))
        idlest = min(workers, key=loads.__getitem__)
        gap = loads[busiest] - loads[idlest]
        if gap <= slack:
            return out
        movable = [g for g, w in enumerate(out) if w == busiest and 0 < sizes[g] < gap]
        if not movable:
            return out
        g = max(movable, key=lambda g: (sizes[g], g))
        out[g] = idlest
        loads[busiest] -= sizes[g]
        loads[idlest] += sizes[g]
