"""crystal: language-agnostic code tokens, n-gram statistics, BLEU and CrystalBLEU.

Depends on nothing else of ruby-metric (numpy and numba, for fast counting).

>>> from crystal import CrystalBLEU, build_ngram_set, tokenize
>>> metric = CrystalBLEU(build_ngram_set(["int a = 0;", "int b = 1;"], k=4))
>>> round(metric.sentence_score([tokenize("int c = a;")], tokenize("int c = b;")), 4)
0.0452
"""

from crystal import bleu  # noqa: F401 - ``import crystal`` has always bound ``crystal.bleu``
from crystal.chrf import (
    PACKED_CHARS,
    ChrfStatistics,
    chrf_matrix,
    chrf_statistics,
    sentence_chrf,
)
from crystal.compat import corpus_bleu, sentence_bleu
from crystal.corpus import CorpusError, read_corpus
from crystal.counting import segment_stats, segment_stats_with_plain
from crystal.crystalbleu import CrystalBLEU
from crystal.interning import InternedTokens, joint_ids
from crystal.ngrams import NgramSet, build_ngram_set, clipped_matches, count_ngrams
from crystal.scoring import bleu_from_stats
from crystal.smoothing import SMOOTHING_METHODS
from crystal.stats import SegmentStats
from crystal.tokenize import available_tokenizers, register_tokenizer, token_spans, tokenize

__all__ = [
    "tokenize",
    "token_spans",
    "register_tokenizer",
    "available_tokenizers",
    "NgramSet",
    "build_ngram_set",
    "clipped_matches",
    "count_ngrams",
    "read_corpus",
    "CorpusError",
    "sentence_bleu",
    "corpus_bleu",
    "SegmentStats",
    "segment_stats",
    "segment_stats_with_plain",
    "InternedTokens",
    "joint_ids",
    "bleu_from_stats",
    "CrystalBLEU",
    "SMOOTHING_METHODS",
    "sentence_chrf",
    "chrf_matrix",
    "chrf_statistics",
    "PACKED_CHARS",
    "ChrfStatistics",
]
