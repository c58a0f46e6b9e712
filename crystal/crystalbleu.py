"""CrystalBLEU as the scorer uses it: one configured, immutable, reproducible metric.

Variants (Eghbali & Pradel, ASE 2022, section 3.3.2, algorithm 1 line 22):

``"ignore"`` (the paper's main variant)
    N-grams in S are removed from hypothesis and reference counts before clipping.
``"log-weight"`` (the paper's second variant)
    Each n-gram g in S has its hypothesis and reference counts divided by the natural log
    of its corpus count c(g), kept as real numbers:
    ``weight(g) = 1 / max(1, ln c(g))``, and weight 1 for n-grams not in S. The natural log
    is the authors' (``math.log`` in their code). Clamping at 1 means an n-gram of S seen
    fewer than e ~ 2.72 times (ln c < 1, and ln 1 = 0) is never up-weighted or divided by
    zero; with k = 500 on a real corpus every member of S is far above that. Totals are
    real too and a segment's denominator is its total (1 if the total is 0), not
    ``int(max(1, total))`` as the authors' commented-out code would have it.

Edge cases (all scores are floats in [0, 1]):

* exact match: a hypothesis equal, token for token, to one of its references scores 1.0,
  even when every n-gram of it is trivially shared (ignored) or it is empty (both sides
  empty scores 1.0);
* one side empty (empty hypothesis, or every reference empty) and not an exact match: 0.0;
* nothing countable: no unigram of the hypothesis matches once S is ignored: 0.0 (as
  crystalbleu and NLTK, which return the int 0 there);
* otherwise BLEU with the chosen smoothing, capped at 1.0 (NLTK's method5 can exceed 1);
* corpus level: 1.0 if every segment is an exact match, 0.0 for an empty corpus, otherwise
  BLEU of the summed statistics.

Plain BLEU is the same metric with an empty set (``ngrams=None``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from crystal.counting import match_counts, prepare_segment, segment_stats, segment_stats_with_plain
from crystal.ngrams import NgramSet
from crystal.scoring import bleu_from_counts, bleu_from_stats
from crystal.smoothing import SACREBLEU_METHODS, check_smoothing
from crystal.stats import SegmentStats
from crystal.tokenize import get_tokenizer, tokenize

__all__ = ["CrystalBLEU", "VARIANTS", "log_weights"]

VARIANTS = ("ignore", "log-weight")

Tokens = Sequence[str]


def log_weights(counts: Mapping[tuple[str, ...], int]) -> dict[tuple[str, ...], float]:
    """Weights of the log-weight variant: ``1 / max(1, ln count)`` per n-gram.

    Parameters
    ----------
    counts : mapping of tuple to int
        Corpus counts of the n-grams of S.

    Returns
    -------
    dict of tuple to float

    Examples
    --------
    >>> from crystal.crystalbleu import log_weights
    >>> w = log_weights({("(",): 1000, ("x",): 2})
    >>> round(w[("(",)], 4), w[("x",)]
    (0.1448, 1.0)
    """
    weights = {}
    for gram, count in counts.items():
        if not count > 0:
            raise ValueError(f"corpus count of n-gram {gram!r} must be positive, got {count!r}")
        weights[gram] = 1.0 / max(1.0, math.log(count))
    return weights


def _grams_hash(grams: Iterable[tuple[str, ...]]) -> str:
    payload = json.dumps(sorted(list(g) for g in grams), ensure_ascii=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(payload.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class CrystalBLEU:
    """A configured CrystalBLEU (or, without n-grams, BLEU) metric.

    Parameters
    ----------
    ngrams : NgramSet, frozenset of tuples, mapping of tuple to count, or None
        The trivially shared n-grams S. None (or empty) gives plain BLEU. The log-weight
        variant needs counts (an NgramSet or a mapping).
    variant : {"ignore", "log-weight"}, optional (default "ignore")
        See the module documentation.
    smoothing : str, optional (default "method1")
        NLTK's ``"method0"`` .. ``"method7"`` or sacrebleu's ``"exp"``, ``"floor"``,
        ``"add-k"``.
    epsilon : float, optional (default 1e-4, as the CrystalBLEU authors)
        Method 1's count for zero matches.
    max_n : int, optional (default 4)
        Highest n-gram order; weights are uniform over orders 1..max_n.
    tokenizer : str, optional (default "code")
        Used by :meth:`tokenize` and :meth:`score_text`; must match the NgramSet's.
    smooth_value : float, optional
        sacrebleu's floor value or add-k's k (None: sacrebleu's defaults 0.1 and 1).

    Raises
    ------
    ValueError
        On an unknown variant, smoothing or tokenizer, ``max_n < 1``, a log-weight variant
        without counts, or an NgramSet built with another tokenizer.

    Examples
    --------
    >>> from crystal import CrystalBLEU, build_ngram_set
    >>> corpus = ["int f(int a) { return a + 1; }", "int g(int b) { return b * 2; }"]
    >>> metric = CrystalBLEU(build_ngram_set(corpus, k=20))
    >>> ref, hyp = metric.tokenize("return x + y;"), metric.tokenize("return x - y;")
    >>> round(metric.sentence_score([ref], hyp), 4)
    0.0049
    >>> metric.sentence_score([ref], ref)
    1.0
    >>> round(CrystalBLEU().sentence_score([ref], hyp), 4)  # plain BLEU
    0.0051
    """

    ngrams: NgramSet | frozenset | Mapping[tuple[str, ...], int] | None = None
    variant: str = "ignore"
    smoothing: str = "method1"
    epsilon: float = 1e-4
    max_n: int = 4
    tokenizer: str = "code"
    smooth_value: float | None = None
    _ignore: frozenset | None = field(init=False, repr=False, compare=False)
    _weighting: dict[tuple[str, ...], float] | None = field(init=False, repr=False, compare=False)
    _orders: int = field(init=False, repr=False, compare=False)
    _weights: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"unknown variant {self.variant!r} (known: {', '.join(VARIANTS)})")
        check_smoothing(self.smoothing)
        if not isinstance(self.max_n, int) or self.max_n < 1:
            raise ValueError(f"max_n must be a positive integer, got {self.max_n!r}")
        if not self.epsilon > 0:
            raise ValueError(f"epsilon must be positive, got {self.epsilon!r}")
        get_tokenizer(self.tokenizer)
        grams = self.ngrams
        if isinstance(grams, NgramSet) and grams.tokenizer != self.tokenizer:
            raise ValueError(
                f"the n-gram set was built with tokenizer {grams.tokenizer!r} but the metric "
                f"uses {self.tokenizer!r}; pass tokenizer={grams.tokenizer!r}"
            )
        counts: Mapping[tuple[str, ...], int] | None
        if grams is None:
            ignore, counts = frozenset(), {}
        elif isinstance(grams, NgramSet):
            ignore, counts = grams.ngrams, grams.counts
        elif isinstance(grams, Mapping):
            ignore, counts = frozenset(grams), grams
        elif isinstance(grams, (frozenset, set, list, tuple)):
            ignore, counts = frozenset(grams), None
        else:
            raise TypeError(
                f"ngrams must be an NgramSet, a frozenset or mapping of tuples, or None; "
                f"got {type(grams).__name__}"
            )
        weighting = None
        if self.variant == "log-weight":
            if counts is None:
                raise ValueError("the log-weight variant needs corpus counts: pass an NgramSet")
            weighting = log_weights(counts) if counts else None
            ignore = frozenset()
        object.__setattr__(self, "_ignore", ignore or None)
        object.__setattr__(self, "_weighting", weighting)
        # Methods 5 and 7 average with the precision of one order more.
        extra = 1 if self.smoothing in ("method5", "method7") else 0
        object.__setattr__(self, "_orders", self.max_n + extra)
        object.__setattr__(self, "_weights", (1.0 / self.max_n,) * self.max_n)

    def tokenize(self, text: str) -> list[str]:
        """Tokenize ``text`` with the metric's tokenizer.

        Parameters
        ----------
        text : str

        Returns
        -------
        list of str
        """
        return tokenize(text, self.tokenizer)

    def segment_stats(
        self, references_tokens: Sequence[Tokens], hypothesis_tokens: Tokens
    ) -> SegmentStats:
        """Statistics of one hypothesis against its references (for corpus scores).

        Parameters
        ----------
        references_tokens : sequence of token lists
            At least one reference.
        hypothesis_tokens : token list

        Returns
        -------
        SegmentStats
            With ``max_n`` orders (one more for smoothing method5/method7).
        """
        return segment_stats(
            references_tokens,
            hypothesis_tokens,
            self._orders,
            ignoring=self._ignore,
            weighting=self._weighting,
        )

    def segment_stats_with_bleu(
        self, references_tokens: Sequence[Tokens], hypothesis_tokens: Tokens
    ) -> tuple[SegmentStats, SegmentStats]:
        """:meth:`segment_stats`, and plain BLEU's statistics of the segment from one count.

        The second item is what ``CrystalBLEU(None, max_n=..., smoothing=...)`` (same
        orders) would count: one encoding of the pair serves both metrics.

        Returns
        -------
        (SegmentStats, SegmentStats)

        Examples
        --------
        >>> from crystal import CrystalBLEU
        >>> metric = CrystalBLEU(frozenset({("(",), (")",)}))
        >>> ref, hyp = ["f", "(", "x", ")"], ["f", "(", "y", ")"]
        >>> cb, bleu = metric.segment_stats_with_bleu([ref], hyp)
        >>> cb == metric.segment_stats([ref], hyp), bleu == CrystalBLEU().segment_stats([ref], hyp)
        (True, True)
        """
        stats, plain = segment_stats_with_plain(
            references_tokens,
            hypothesis_tokens,
            self._orders,
            ignoring=self._ignore,
            weighting=self._weighting,
        )
        return stats, plain  # type: ignore[return-value]

    def score_stats(self, stats: SegmentStats) -> float:
        """Score one segment's or a summed corpus's statistics, applying the edge cases.

        Parameters
        ----------
        stats : SegmentStats
            From :meth:`segment_stats` (or a sum of them).

        Returns
        -------
        float
            In [0, 1].
        """
        if stats.segments == 0:
            return 0.0
        if stats.exact == stats.segments:
            return 1.0
        score = bleu_from_stats(
            stats,
            self._weights,
            self.smoothing,
            epsilon=self.epsilon,
            smooth_value=self.smooth_value,
        )
        return min(1.0, float(score))

    def sentence_score(
        self, references_tokens: Sequence[Tokens], hypothesis_tokens: Tokens
    ) -> float:
        """Sentence-level score of one hypothesis against its references.

        Parameters
        ----------
        references_tokens : sequence of token lists
        hypothesis_tokens : token list

        Returns
        -------
        float
            In [0, 1]; see the module documentation for the edge cases.
        """
        # score_stats(segment_stats(...)) without building the SegmentStats object.
        hyp, refs, hyp_len, ref_len, exact = prepare_segment(references_tokens, hypothesis_tokens)
        if exact:
            return 1.0
        (matches, totals), _ = match_counts(refs, hyp, self._orders, self._ignore, self._weighting)
        score = bleu_from_counts(
            matches,
            [t if t > 0 else 1 for t in totals],
            totals,
            hyp_len,
            ref_len,
            self._weights,
            self.smoothing,
            epsilon=self.epsilon,
            smooth_value=self.smooth_value,
        )
        return min(1.0, float(score))

    def corpus_score(self, list_of_stats: Iterable[SegmentStats]) -> float:
        """Corpus-level score from per-segment statistics (micro-averaged precisions).

        Parameters
        ----------
        list_of_stats : iterable of SegmentStats

        Returns
        -------
        float
            In [0, 1]; 0.0 for an empty corpus, 1.0 when every segment is an exact match.

        Examples
        --------
        >>> from crystal import CrystalBLEU
        >>> m = CrystalBLEU()
        >>> stats = [m.segment_stats([list("abcde")], list("abcdf"))]
        >>> stats.append(m.segment_stats([["x"]], ["x"]))
        >>> round(m.corpus_score(stats), 4)
        0.5373
        """
        total = None
        for stats in list_of_stats:
            total = stats if total is None else total + stats
        return 0.0 if total is None else self.score_stats(total)

    def score_text(self, references: str | Sequence[str], hypothesis: str) -> float:
        """Sentence-level score of code strings, tokenized with the metric's tokenizer.

        Parameters
        ----------
        references : str or sequence of str
            One reference, or several.
        hypothesis : str

        Returns
        -------
        float
        """
        refs = [references] if isinstance(references, str) else list(references)
        return self.sentence_score([self.tokenize(r) for r in refs], self.tokenize(hypothesis))

    def signature(self) -> dict[str, Any]:
        """What a reproducibility signature needs to name about this metric.

        Returns
        -------
        dict
            ``metric`` ("crystalbleu" or "bleu"), ``tokenizer``, ``k`` (requested size of
            S, 0 for BLEU), ``max_n``, ``ngrams_hash`` (the NgramSet's content hash, or a
            sha256 of the bare n-grams; None for BLEU), ``variant``, ``smoothing``,
            ``epsilon`` and ``smooth_value``.

        Examples
        --------
        >>> from crystal import CrystalBLEU
        >>> CrystalBLEU().signature()["metric"]
        'bleu'
        """
        grams = self.ngrams
        if isinstance(grams, NgramSet):
            k, digest = grams.k, grams.content_hash
        elif grams:
            k, digest = len(grams), _grams_hash(grams)
        else:
            k, digest = 0, None
        sacre = self.smoothing in SACREBLEU_METHODS
        return {
            "metric": "crystalbleu" if digest else "bleu",
            "tokenizer": self.tokenizer,
            "k": k,
            "max_n": self.max_n,
            "ngrams_hash": digest,
            "variant": self.variant if digest else None,
            "smoothing": self.smoothing,
            "epsilon": self.epsilon if self.smoothing == "method1" else None,
            "smooth_value": self.smooth_value if sacre else None,
        }
