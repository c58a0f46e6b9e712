"""One table defines every metric; results, formats and the CLI follow it."""

from __future__ import annotations

import io

import pytest

from ruby_metric import RubyScorer
from ruby_metric.io.formats import CSV_FIELDS, write_table
from ruby_metric.scoring.metrics import (
    CORPUS_METRICS,
    LABELS,
    MEAN_METRICS,
    METRIC_TABLE,
    METRICS,
    REASON_KEYS,
    TIER_METRICS,
    label,
    metric_info,
    parse_metrics,
)
from ruby_metric.scoring.results import PairResult


def test_the_table():
    assert METRICS == ("ruby", "grs", "trs", "sts", "crystalbleu", "bleu")
    assert TIER_METRICS == {"graph": "grs", "tree": "trs", "string": "sts"}
    assert MEAN_METRICS == ("ruby", "grs", "trs", "sts")
    assert CORPUS_METRICS == ("crystalbleu", "bleu")
    assert LABELS["crystalbleu"] == "CrystalBLEU" and label("unknown") == "unknown"
    assert (*METRICS, "input", "error") == REASON_KEYS
    assert len({m.key for m in METRIC_TABLE}) == len(METRIC_TABLE)


def test_metric_names_are_checked():
    assert parse_metrics([" BLEU", "ruby"]) == ("ruby", "bleu")
    with pytest.raises(ValueError, match="unknown metric.*chrf.*known: ruby, grs"):
        parse_metrics(["chrf"])
    with pytest.raises(ValueError, match="no metric given"):
        parse_metrics([])
    with pytest.raises(ValueError, match="unknown metric 'x'"):
        metric_info("x")


def test_records_follow_the_table():
    pair = PairResult(id=7, ruby=0.5, tier="tree", trs=0.5, sts=0.25, reasons={"grs": "why"})
    assert list(pair.to_dict()) == [
        "id", "ruby", "tier", "grs", "trs", "sts", "crystalbleu", "bleu", "reasons"
    ]
    assert list(pair.to_record()) == CSV_FIELDS
    assert CSV_FIELDS[:3] == ["id", "ruby", "tier"]


def test_corpus_scores_by_aggregate():
    corpus = RubyScorer().score_corpus(["a b c d", "x y"], ["a b c e", "x y"])
    summary = corpus.summary()
    for m in METRIC_TABLE:
        assert corpus.score(m.key) == summary[m.key]
    assert corpus.score("sts") == (0.75 + 1.0) / 2  # a mean of the pair scores
    assert corpus.score("bleu") == corpus.bleu  # from summed statistics
    out = io.StringIO()
    write_table(corpus, out)
    text = out.getvalue()
    assert text.splitlines()[0].split() == [
        "id", "ruby", "tier", "grs", "trs", "sts", "cbleu", "bleu", "why", "not"
    ]
    assert "STS          0.8750  (mean of 2)" in text
    assert f"BLEU         {corpus.bleu:.4f}  (corpus)" in text
