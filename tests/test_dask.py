"""Distributed scoring: a Dask cluster's executor gives exactly the local results."""

import pickle
from pathlib import Path

import pytest

from ruby_metric import RubyScorer

distributed = pytest.importorskip("distributed", reason="dask[distributed] is a test extra")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_dask_local_cluster_matches_local_scoring():
    refs = (FIXTURES / "java_to_cs" / "references.cs").read_text().split("\n")[:10] * 8
    hyps = (FIXTURES / "java_to_cs" / "candidates.cs").read_text().split("\n")[:10] * 8
    scorer = RubyScorer(language="cs")
    local = scorer.score_corpus(refs, hyps)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = scorer.score_corpus(refs, hyps, executor=client.get_executor())
    assert remote.to_dict() == local.to_dict()


def test_scorer_pickles_small_without_parsers_or_caches():
    scorer = RubyScorer(language="java")
    scorer.score("int f(){return 1;}", "int f(){return 2;}")  # warm any caches
    blob = pickle.dumps(scorer)
    assert len(blob) < 64_000  # the 500-n-gram set dominates
    assert b"tree_sitter" not in blob
    clone = pickle.loads(blob)
    assert clone.score("int f(){return 1;}", "int f(){return 2;}") == scorer.score(
        "int f(){return 1;}", "int f(){return 2;}"
    )
