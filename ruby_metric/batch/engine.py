"""The batch engine: chunks of pairs scored in this process or on a pool, in input order.

:meth:`RubyScorer.stream <ruby_metric.api.scorer.RubyScorer.stream>` returns a
:class:`ScoreStream`; it feeds chunks of pairs to :func:`score_chunk` here or on an executor
(clean worker processes from :mod:`ruby_metric.batch.worker`, or any
:class:`concurrent.futures.Executor`), keeps a bounded window in flight, recovers from a
worker that dies (the pair that killed it gets a result with a reason; no pair is lost), and
folds the results into corpus aggregates.
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..io.formats import counted
from ..io.inputs import PairInput
from ..scoring.code import canonical_language
from ..scoring.missing import missing_result
from ..scoring.pair_scorer import UNKNOWN_LANGUAGE, PairScorer, Scored
from ..scoring.results import CorpusAccumulator, CorpusResult, PairResult
from .heartbeat import Watch, pair_chars
from .pool import WorkerPool
from .routing import assign, pack, reference_groups, split
from .worker import load_payload

if TYPE_CHECKING:
    import crystal

logger = logging.getLogger(__name__)

__all__ = [
    "ScoreStream", "Scored", "score_chunk", "score_payload_chunk", "unparsed_says_wrong_language",
]

#: Pairs handed to a worker at a time: large enough to amortize pickling, small enough to
#: keep every worker busy until the end.
_CHUNK = 64
#: Chunks a worker has queued or running at a time: the one it scores and the next, so it
#: never waits for the caller between two chunks.
_DEPTH = 2
#: The gap in pairs between two workers' loads that routing leaves as it is: what a worker
#: keeps queued (:data:`_DEPTH` chunks), by which two workers' loads differ from moment to
#: moment by timing alone. Beyond it, pairs go to a worker that has to build their
#: reference again (a build more beats a worker left idle).
_SLACK = _DEPTH * _CHUNK
#: A run warns that its references (against a source: its sources, or its candidates) do
#: not parse (the wrong language?) from this many pairs up when over half of them do not;
#: below, where a majority can be one or two odd fragments, when every one of them does not
#: (what a wrong language does to every pair, and what good code never does).
_UNPARSED_MIN_PAIRS = 10


class ScoreStream:
    """Results of :meth:`RubyScorer.stream`, in input order; then :meth:`corpus`.

    Chunks of pairs are scored in this process (``workers=1``) or on an executor with a
    bounded number of chunks in flight, so memory stays constant however long the input.
    With ``workers`` > 1 and no executor, the scorer's own
    :class:`~ruby_metric.batch.pool.WorkerPool`
    is used (started on first use and kept for later calls), with no more workers than there
    are chunks: a run of one chunk is scored in this process.

    ``readable`` counts the pairs that could be read, ``boms`` the byte-order marks dropped
    from the input. If the run ends early (an interrupt, an error, or the consumer stopping),
    the pool's workers are killed at once instead of finishing their chunks.

    ``scorer`` scores each pair (pickled, on workers); ``pools`` gives the pool of at least
    N workers that the run's owner keeps (:meth:`RubyScorer.worker_pool
    <ruby_metric.api.scorer.RubyScorer.worker_pool>`).
    """

    def __init__(
        self,
        scorer: PairScorer,
        cbleus: dict[str | None, crystal.CrystalBLEU | None],
        pairs: Iterable[PairInput],
        workers: int,
        executor: Executor | None,
        keep_pairs: bool,
        watch: Watch | None = None,
        *,
        pools: Callable[[int], WorkerPool],
    ) -> None:
        self._scorer = scorer
        self._pools = pools
        self._watch = watch
        self._cbleus = cbleus
        self._pairs = pairs
        self._workers = workers
        self._executor = executor
        self._acc = CorpusAccumulator(keep_pairs=keep_pairs)
        self._done = False
        self._pool: WorkerPool | None = None
        self._blob = b""
        self._raw: set[str | None] = set()  # the languages the readable pairs ask for
        self._gen: Iterator[Scored] | None = None
        self.readable = 0
        self.boms = 0
        # per side checked: pairs whose side did not parse, and the first (id, reason)
        self._unparsed: dict[str, list[Any]] = {
            side: [0, None] for side in self._checked_sides()}
        self._unread = 0
        self._missing = 0  # readable pairs with no candidate (a file missing from a folder)
        self._no_language = 0  # readable pairs with no language of their own nor the scorer's

    def __iter__(self) -> Iterator[PairResult]:
        if self._done:
            raise RuntimeError("this stream was iterated to its end already: stream() again")
        self._gen = self._scored()
        first_unread: tuple[Any, str] | None = None
        try:
            for scored in self._gen:
                result = scored.result
                self._acc.add(result, scored.crystalbleu_stats, scored.bleu_stats)
                for side, seen in self._unparsed.items():
                    unparsed = scored.unparsed.get(side)  # from the side's parse, not reasons
                    if unparsed is not None:
                        seen[0] += 1
                        seen[1] = seen[1] or (result.id, f"{side}: {unparsed}")
                if "input" in result.reasons:
                    first_unread = first_unread or (result.id, result.reasons["input"])
                    self._unread += 1
                yield result
        finally:
            self._gen.close()  # an interrupted run stops its workers now
            if self._watch is not None:
                self._watch.close()
        self._done = True
        if self._no_language and any(self._raw):
            # some pairs name their language and these do not: the structure tiers skip them
            logger.warning(
                "%s without a language (and none given with --lang or language=) scored with "
                "STS, CrystalBLEU and BLEU only, while the other pairs get every tier",
                counted(self._no_language, "pair"),
            )
        if first_unread is not None:
            self._warn_unread(*first_unread)
        for side, (count, first) in self._unparsed.items():
            if first is not None:
                self._warn_unparsed(side, count, *first)

    def _warn_unread(self, first_id: Any, why: str) -> None:
        """Say that some pairs could not be read: the corpus scores leave them out, and a
        model that wrote nothing on the hard items must not pass unseen behind a good mean."""
        total = self._acc.n
        logger.warning(
            "%s of %s cannot be read and get no scores (first: pair %s, %s); the corpus "
            "scores are over the other %s",
            f"{self._unread:,}", counted(total, "pair"), first_id, why,
            counted(total - self._unread, "pair"),
        )

    def _checked_sides(self) -> tuple[str, ...]:
        """The sides whose parse failures say the language is wrong: the references (meant
        to be good code); against a source, the sources and the candidates, each in a
        language of its own that nothing else checks."""
        if self._scorer.config.source_language is None:
            return ("reference",)
        return ("source", "candidate")

    def _warn_unparsed(self, side: str, count: int, first_id: Any, why: str) -> None:
        """Warn when one side of most pairs of a run does not parse as code: that is most
        often the wrong language, which no pair's score says by itself (against a
        reference they fall back to the string tier or to contained structure; against a
        source a candidate scores 0 and a source leaves no score)."""
        # a missing candidate (no file) is not one that failed to parse, nor one that parsed
        total = self.readable - (self._missing if side == "candidate" else 0)
        if not unparsed_says_wrong_language(count, total):
            return
        if side == "source":
            language = self._scorer.config.source_language
        else:
            languages = self._languages()
            language = next(iter(languages)) if len(languages) == 1 else "their languages"
        logger.warning(
            "the %ss of %s of %s do not parse cleanly as %s (first: pair %s, %s): is "
            "the language right?",
            side, f"{count:,}", counted(total, "pair"), language, first_id, why,
        )

    def _languages(self) -> set[str]:
        """The canonical languages the readable pairs were scored in."""
        languages = {self._scorer.language_of(raw) for raw in self._raw}
        languages.discard(UNKNOWN_LANGUAGE)
        return languages

    def close(self) -> None:
        """Stop the run: kill the workers of an unfinished run (nothing is waited for)."""
        if self._gen is not None:
            self._gen.close()
        if self._watch is not None:
            self._watch.close()

    @property
    def count(self) -> int:
        """Pairs scored so far."""
        return self._acc.n

    def ngram_set_for(self, language: str | None) -> crystal.NgramSet | None:
        """The trivially shared n-grams this run scores ``language``'s CrystalBLEU with (the
        scorer's, a shipped set, or one built from the corpus), ``None`` when it has none."""
        metric = self._cbleus.get(language)
        return metric.ngrams if metric is not None else None

    def _noted(self, pairs: Iterable[PairInput]) -> Iterator[PairInput]:
        """``pairs``, noting the language each readable pair asks for (for the signature)."""
        raw = self._raw
        no_language = self._scorer.config.language is None
        for pair in pairs:
            if pair.problem is None:
                raw.add(pair.language)
                self.readable += 1
                self._missing += pair.missing is not None
                if no_language and not pair.language:
                    self._no_language += 1
            self.boms += pair.boms
            yield pair

    def _scored(self) -> Iterator[Scored]:
        pairs = self._noted(self._pairs)
        if self._executor is None and self._workers <= 1:
            # one process, one reference cache: the input's own order is as good as any
            for chunk in _chunked(pairs, _CHUNK):
                yield from score_chunk(self._scorer, self._cbleus, chunk, self._watch)
            return
        parallel = self._parallel(pairs)
        try:
            yield from _in_input_order(parallel)
        finally:
            parallel.close()  # an interrupted run stops its workers now, not when collected

    def _parallel(self, pairs: Iterator[PairInput]) -> Iterator[tuple[list[int], list[Scored]]]:
        """Chunks scored on the executor or the pool, each with its pairs' input positions."""
        # A bounded window of chunks in flight keeps every worker busy without reading the
        # whole input ahead; pairs are read a block of the window's size at a time.
        window = _DEPTH * max(self._workers, 2)
        if self._executor is not None:
            yield from self._shared(pairs, window)
            return
        blocks = _chunked(pairs, window * _CHUNK)
        first = next(blocks, [])
        chunks = pack(reference_groups(first)[0], _CHUNK)
        size = min(self._workers, len(chunks))  # never more workers than chunks
        if size <= 1:  # one chunk: a pool would only add its start-up
            for members in chunks:
                yield members, score_chunk(
                    self._scorer, self._cbleus, [first[i] for i in members], self._watch)
            return
        self._blob = pickle.dumps((self._scorer, self._cbleus))
        self._pool = self._pools(size)
        # No barrier: the first chunks are queued behind the workers' start-up checks
        # while the workers start, and the checks are read before any result is.
        self._pool.start(self._blob, wait=False)
        yield from self._routed(itertools.chain([first], blocks), self._pool)

    def _shared(
        self, pairs: Iterator[PairInput], window: int
    ) -> Iterator[tuple[list[int], list[Scored]]]:
        """Chunks on a foreign executor (its one queue feeds all its workers, which it
        recovers itself): the pairs of one reference go together within a block."""
        assert self._executor is not None
        pending: deque[tuple[Future, list[PairInput], list[int]]] = deque()
        try:
            for positions, chunk in _grouped(pairs, window * _CHUNK, _CHUNK):
                future = self._executor.submit(score_chunk, self._scorer, self._cbleus, chunk)
                pending.append((future, chunk, positions))
                if len(pending) >= window:
                    yield self._collect(pending)
            while pending:
                yield self._collect(pending)
        finally:
            for future, _, _ in pending:
                future.cancel()

    def _collect(
        self, pending: deque[tuple[Future, list[PairInput], list[int]]]
    ) -> tuple[list[int], list[Scored]]:
        """The oldest chunk's positions and results."""
        future, chunk, positions = pending.popleft()
        if self._watch is None:
            return positions, future.result()
        self._watch.started(tuple(p.id for p in chunk), sum(map(pair_chars, chunk)))
        try:
            return positions, future.result()
        finally:
            self._watch.ended()

    def _routed(
        self, blocks: Iterator[list[PairInput]], pool: WorkerPool
    ) -> Iterator[tuple[list[int], list[Scored]]]:
        """Chunks on the pool's workers, each reference's pairs routed to the worker that
        built it before (:mod:`ruby_metric.batch.routing`), yielded in submission order.

        Each worker has at most :data:`_DEPTH` chunks queued or running; a block of pairs is
        read and routed when a worker would otherwise run out of work, and not before every
        chunk of the block before the last one was yielded (the reorder buffer holds at
        most two blocks). A worker left idle takes a chunk waiting for another one that
        lags by more than its queue (see :meth:`_feed`). A worker that dies costs
        only the pair that killed it: its chunk is scored again pair by pair, the worker is
        replaced, and its other chunks are queued again on the new one.
        """
        ready: list[deque[_Ready]] = [deque() for _ in range(pool.size)]
        pending: deque[_Flight] = deque()
        unfinished: dict[int, int] = {}  # chunks of each block not yielded yet
        read = start = 0
        exhausted = False
        watched: _Flight | None = None
        try:
            while True:
                while (not exhausted and not unfinished.get(read - 2)
                       and any(not ready[w] and _room(pending, w) for w in range(pool.size))):
                    batch = next(blocks, None)
                    if batch is None:
                        exhausted = True
                        break
                    unfinished[read] = self._route(batch, start, read, pool, ready)
                    start, read = start + len(batch), read + 1
                self._feed(pool, ready, pending, None if exhausted else read - 2)
                if not pending:
                    return
                pool.confirm()  # a pool that cannot work reports no pair as lost
                head = pending[0]
                if not head.future.done():
                    if self._watch is not None and watched is not head:
                        self._watch.started(tuple(p.id for p in head.chunk),
                                            sum(map(pair_chars, head.chunk)))
                        watched = head
                    wait([f.future for f in pending if not f.future.done()],
                         return_when=FIRST_COMPLETED)
                for worker in sorted({f.worker for f in pending if _broken(f.future)}):
                    self._recover(pool, pending, worker)
                while pending and pending[0].future.done():
                    head = pending.popleft()
                    if self._watch is not None and watched is head:
                        self._watch.ended()
                        watched = None
                    unfinished[head.block] -= 1
                    if not unfinished[head.block]:
                        del unfinished[head.block]
                    yield head.positions, head.future.result()
        except BaseException:
            # Interrupted (Ctrl-C, SIGTERM), failed, or abandoned by the consumer: kill the
            # workers instead of waiting for the chunks they are scoring.
            pool.terminate()
            raise
        finally:
            for flight in pending:
                flight.future.cancel()

    def _route(
        self, batch: list[PairInput], start: int, block: int, pool: WorkerPool,
        ready: list[deque[_Ready]],
    ) -> int:
        """Route a block of pairs (the first at input position ``start``): its reference
        groups to workers (:func:`~ruby_metric.batch.routing.assign`), each worker's groups
        cut into chunks at the end of its ready queue. Returns the number of chunks."""
        groups, keys = reference_groups(batch)
        pieces = split(groups, _CHUNK)  # a reference with many pairs can go to several
        # with the cache off no worker holds a reference: balance the load alone
        remember = self._scorer.reference_cache.max_chars > 0
        homes = [pool.homes.get(key) if remember and key is not None else None
                 for key in keys]
        loads = [_load(pool, ready, w) for w in range(pool.size)]
        owners = assign([len(members) for _, members in pieces],
                        [homes[g] for g, _ in pieces], loads, _SLACK)
        if remember:
            for (g, _), worker in zip(reversed(pieces), reversed(owners), strict=True):
                if keys[g] is not None:
                    pool.homes.set(keys[g], worker)  # type: ignore[arg-type]  # the first's
        count = 0
        for worker in range(pool.size):
            mine = [p for p, owner in enumerate(owners) if owner == worker]
            key_of = {i: keys[pieces[p][0]] for p in mine for i in pieces[p][1]}
            for members in pack([pieces[p][1] for p in mine], _CHUNK):
                chunk_keys = [k for k in dict.fromkeys(key_of[i] for i in members)
                              if k is not None]
                positions, chunk = _positioned(batch, members, start)
                ready[worker].append((block, positions, chunk, chunk_keys))
                count += 1
        return count

    def _feed(
        self, pool: WorkerPool, ready: list[deque[_Ready]], pending: deque[_Flight],
        oldest: int | None,
    ) -> None:
        """Give every worker with room its next ready chunks. A worker left idle with none
        takes a chunk waiting for another worker that lags by more than its queue (a build
        more beats an idle core; :func:`_steal`): while the input goes on, only a chunk of
        block ``oldest``, the one that keeps the next block from being read."""
        for worker in range(pool.size):
            while _room(pending, worker):
                if ready[worker]:
                    block, positions, chunk, keys = ready[worker].popleft()
                else:
                    taken = _steal(pool, ready, pending, worker, oldest)
                    if taken is None:
                        break
                    block, positions, chunk, keys = taken
                    for key in keys:
                        pool.homes.set(key, worker)  # built here now
                future = pool.submit_to(worker, score_payload_chunk, self._blob, chunk,
                                        weight=len(chunk))
                pending.append(_Flight(future, chunk, positions, worker, block))

    def _recover(self, pool: WorkerPool, pending: deque[_Flight], worker: int) -> None:
        """Worker ``worker`` died: score its oldest unfinished chunk (the one it was
        running) pair by pair, replace the worker, and queue its other chunks again."""
        flights = [f for f in pending if f.worker == worker]
        wait([f.future for f in flights])  # a dead worker fails all its chunks at once
        broken = [f for f in flights if _broken(f.future)]
        logger.warning("a worker process died; rescoring its chunk one pair at a time")
        pool.replace(worker)
        crashed, *requeued = broken
        for flight in requeued:
            flight.future = pool.submit_to(worker, score_payload_chunk, self._blob,
                                           flight.chunk, weight=len(flight.chunk))
        done: Future = Future()
        done.set_result(self._isolate(crashed.chunk))
        crashed.future = done

    def _isolate(self, chunk: list[PairInput]) -> list[Scored]:
        """Score pairs one by one in a single worker, so a crash costs only its own pair."""
        results = []
        pool = WorkerPool(1)
        try:
            pool.start(self._blob)
            for pair in chunk:
                try:
                    results.extend(pool.submit(score_payload_chunk, self._blob, [pair]).result())
                except BrokenProcessPool:
                    reason = "worker process died while scoring this pair (crash or out of memory)"
                    logger.warning("pair %r: %s", pair.id, reason)
                    results.append(
                        Scored(PairResult(id=pair.id, reasons={"error": reason}), None, None)
                    )
                    pool.terminate()
                    pool = WorkerPool(1)
                    pool.start(self._blob)
        except BaseException:
            pool.terminate()
            raise
        pool.close()
        return results

    def corpus(self) -> CorpusResult:
        """Corpus aggregates of everything scored (call after iterating to the end)."""
        if not self._done:
            raise RuntimeError("iterate the stream to its end before asking for the corpus")
        scorer = self._scorer
        corpus_cb = corpus_bleu = None
        if "crystalbleu" in scorer.config.metrics and self._acc.crystalbleu_total is not None:
            # Statistics are already filtered by each language's set; scoring their sum
            # depends only on the smoothing, which all languages share.
            corpus_cb = scorer.bleu_metric.score_stats(self._acc.crystalbleu_total)
        if "bleu" in scorer.config.metrics:
            total = self._acc.bleu_total
            # no statistics (no pairs, or none readable): undefined, like the other means
            corpus_bleu = scorer.bleu_metric.score_stats(total) if total is not None else None
        sets = {lang: c.ngrams for lang, c in self._cbleus.items() if c is not None}
        languages = self._languages()
        return self._acc.result(
            crystalbleu=corpus_cb,
            bleu=corpus_bleu,
            signature=scorer.signature_of(sets, languages),
        )


def _chunked(items: Iterable[PairInput], size: int) -> Iterator[list[PairInput]]:
    chunk: list[PairInput] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _grouped(
    pairs: Iterable[PairInput], block: int, size: int
) -> Iterator[tuple[list[int], list[PairInput]]]:
    """Chunks of at most ``size`` pairs with their input positions, read ``block`` pairs at a
    time: within a block, the pairs of one reference (and language) go together, in their
    first pair's order (:func:`~ruby_metric.batch.routing.pack`). Pairs that all differ keep
    their order and sizes."""
    start = 0
    for batch in _chunked(pairs, block):
        for members in pack(reference_groups(batch)[0], size):
            yield _positioned(batch, members, start)
        start += len(batch)


def _positioned(
    batch: list[PairInput], members: list[int], start: int
) -> tuple[list[int], list[PairInput]]:
    return [start + i for i in members], [batch[i] for i in members]


#: A chunk routed to a worker, not submitted yet: its block, input positions, pairs, and
#: the home keys of its references.
_Ready = tuple[int, list[int], list[PairInput], list[int]]


@dataclasses.dataclass
class _Flight:
    """A chunk submitted to worker ``worker``: its future (replaced when the chunk is
    scored again), pairs, input positions, and the block it was read in."""

    future: Future
    chunk: list[PairInput]
    positions: list[int]
    worker: int
    block: int


def _room(pending: deque[_Flight], worker: int) -> bool:
    """Whether ``worker`` has fewer than :data:`_DEPTH` chunks queued or running."""
    return sum(f.worker == worker and not f.future.done() for f in pending) < _DEPTH


def _load(pool: WorkerPool, ready: list[deque[_Ready]], worker: int) -> int:
    """Pairs ``worker`` has to go: in flight on it, and routed to it but not sent yet."""
    return pool.outstanding(worker) + sum(len(item[2]) for item in ready[worker])


def _steal(
    pool: WorkerPool, ready: list[deque[_Ready]], pending: deque[_Flight], thief: int,
    oldest: int | None,
) -> _Ready | None:
    """The chunk an idle ``thief`` takes from the ready queue of the worker with the most
    pairs to go, when that is over :data:`_SLACK` (it lags by more than its queue): while
    the input goes on, only a chunk of block ``oldest``, which keeps the next block from
    being read (its owner's next one); once it is read (``oldest`` is ``None``), the
    owner's last one."""
    if any(f.worker == thief and not f.future.done() for f in pending):
        return None  # busy: reading the next block soon gives it work of its own
    loads = {w: _load(pool, ready, w) for w, queue in enumerate(ready)
             if queue and (oldest is None or queue[0][0] <= oldest)}
    if not loads:
        return None
    victim = max(loads, key=lambda w: (loads[w], -w))
    if loads[victim] <= _SLACK:
        return None
    return ready[victim].pop() if oldest is None else ready[victim].popleft()


def _broken(future: Future) -> bool:
    """Whether ``future`` failed because its worker died."""
    return (future.done() and not future.cancelled()
            and isinstance(future.exception(), BrokenProcessPool))


def _in_input_order(chunks: Iterable[tuple[list[int], list[Scored]]]) -> Iterator[Scored]:
    """Results of chunks taken in submission order, yielded in input order (positions
    0, 1, 2, ...: every position comes exactly once)."""
    waiting: dict[int, Scored] = {}
    following = 0
    for positions, results in chunks:
        waiting.update(zip(positions, results, strict=True))
        while following in waiting:
            yield waiting.pop(following)
            following += 1


def score_payload_chunk(blob: bytes, pairs: list[PairInput]) -> list[Scored]:
    """:func:`score_chunk` in a worker: the scorer and its CrystalBLEUs come pickled as
    ``blob``, unpickled once per worker process (:func:`ruby_metric.batch.worker.load_payload`)."""
    scorer, cbleus = load_payload(blob)
    return score_chunk(scorer, cbleus, pairs)


def score_chunk(
    scorer: PairScorer,
    cbleus: dict[str | None, crystal.CrystalBLEU | None],
    pairs: list[PairInput],
    watch: Watch | None = None,
) -> list[Scored]:
    """Score pairs, turning an unreadable pair into a result with a reason; ``watch`` is
    told when each pair starts and ends (a heartbeat for one that runs long)."""
    out = []
    for p in pairs:
        if watch is not None:
            watch.started((p.id,), pair_chars(p))
        try:
            if p.problem is not None:
                raise ValueError(p.problem)
            lang = canonical_language(p.language or scorer.config.language)
            cbleu = cbleus.get(lang)
            if p.missing is None:
                out.append(scorer.score_detailed(p.reference, p.candidate, p.id, lang, cbleu))
            else:  # no candidate at all: a failed translation, scored as an empty one, 0
                empty = scorer.score_detailed(p.reference, "", p.id, lang, cbleu)
                out.append(dataclasses.replace(
                    empty, result=missing_result(empty.result, p.missing)))
        except (TypeError, ValueError) as exc:
            out.append(Scored(PairResult(id=p.id, reasons={"input": str(exc)}), None, None))
        except SystemError as exc:
            interrupt = interrupt_behind(exc)
            if interrupt is not None:
                raise interrupt from None
            raise
        finally:
            if watch is not None:
                watch.ended()
    return out


def unparsed_says_wrong_language(unparsed: int, pairs: int) -> bool:
    """Whether ``unparsed`` of ``pairs`` sides that do not parse cleanly say the language is
    wrong: over half of them from :data:`_UNPARSED_MIN_PAIRS` pairs up; below, all of them
    (a majority of a few can be one or two fragments; a wrong language fails every one).

    >>> unparsed_says_wrong_language(6, 10), unparsed_says_wrong_language(5, 10)
    (True, False)
    >>> unparsed_says_wrong_language(3, 3), unparsed_says_wrong_language(2, 3)
    (True, False)
    >>> unparsed_says_wrong_language(1, 1), unparsed_says_wrong_language(0, 0)
    (True, False)
    """
    if pairs < _UNPARSED_MIN_PAIRS:
        return 0 < pairs == unparsed
    return 2 * unparsed > pairs


def interrupt_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The :class:`KeyboardInterrupt` (Ctrl-C, or the CLI's SIGTERM) that ``exc`` wraps, if
    any. A signal's handler that raises while a compiled (numba) function calls back into
    Python surfaces as a ``SystemError`` ("returned a result with an exception set") with
    the interrupt as its cause: the caller must still see the interrupt.
    """
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return link
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return None
