"""Validity v3: within-task AUC, like-for-like judged views, operator orders, chance level.

Everything here runs without ``../shared``: the examples are hand-made (values worked out
by hand in the comments).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ruby_metric import RubyScorer
from ruby_metric.meta.correlation import roc_auc
from validity import scoring as validity_scoring
from validity.benchmark import (
    JudgedItem,
    Reference,
    ScoredCandidate,
    chance_level,
    derangement,
    group_win_matrix,
    grouped_auc,
    judged_validity,
    judged_view,
    like_for_like,
    operator_orders,
    run_mutation_benchmark,
    score_judged,
    unrelated_pairs,
)
from validity.mutations import OPERATORS
from validity.scoring import scorer_options

# ------------------------------------------------------------------------ within-task AUC

#: Task a: passes 0.9, 0.5; fails 0.5, 0.2. Task b: pass 0.3; fails 0.6, 0.3. Task c: one
#: pass only (no within-task pair).
SCORES = [0.9, 0.5, 0.5, 0.2, 0.3, 0.6, 0.3, 0.8]
LABELS = [1, 1, 0, 0, 1, 0, 0, 1]
GROUPS = ["a", "a", "a", "a", "b", "b", "b", "c"]


def test_within_task_auc_by_hand() -> None:
    # a: (0.9>0.5) 1 + (0.9>0.2) 1 + (0.5=0.5) 1/2 + (0.5>0.2) 1 = 3.5 of 4 pairs
    # b: (0.3<0.6) 0 + (0.3=0.3) 1/2 = 0.5 of 2 pairs;  c: no pair
    # within = (3.5 + 0.5) / (4 + 2) = 2/3
    r = grouped_auc(SCORES, LABELS, GROUPS, resamples=0)
    assert r.within == pytest.approx(2 / 3)
    assert (r.n, r.positives, r.groups, r.mixed_groups, r.within_pairs) == (8, 4, 3, 2, 6)
    assert r.within_ci is None and r.pooled_ci is None


def test_pooled_auc_by_hand() -> None:
    # passes 0.9, 0.5, 0.3, 0.8 against fails 0.5, 0.2, 0.6, 0.3:
    # 0.9 -> 4; 0.5 -> 1/2 + 1 + 0 + 1 = 2.5; 0.3 -> 0 + 1 + 0 + 1/2 = 1.5; 0.8 -> 4
    # pooled = 12 / 16
    r = grouped_auc(SCORES, LABELS, GROUPS, resamples=0)
    assert r.pooled == pytest.approx(0.75)
    assert r.pooled == pytest.approx(roc_auc(SCORES, LABELS))


def test_within_task_auc_is_not_the_pooled_auc() -> None:
    # each task alone is perfectly ordered, but task y's scores are all lower than task x's:
    # within-task 1.0, pooled only 3/4
    scores = [0.9, 0.8, 0.3, 0.2]
    r = grouped_auc(scores, [1, 0, 1, 0], ["x", "x", "y", "y"], resamples=0)
    assert r.within == 1.0
    assert r.pooled == pytest.approx(0.75)


def test_within_task_auc_without_mixed_task_is_none() -> None:
    r = grouped_auc([0.1, 0.9], [1, 0], ["x", "y"], resamples=20)
    assert r.within is None and r.within_ci is None
    assert r.pooled == 0.0


def test_group_win_matrix_by_hand() -> None:
    wins, pos, neg, keys = group_win_matrix(SCORES, LABELS, GROUPS)
    assert keys == ["a", "b", "c"]
    assert pos.tolist() == [2, 1, 1] and neg.tolist() == [2, 2, 0]
    # row a: 0.9 and 0.5 against b's fails 0.6, 0.3: 1 + 1 + 0 + 1 = 3
    assert wins.tolist() == [[3.5, 3.0, 0.0], [1.0, 0.5, 0.0], [2.0, 2.0, 0.0]]


def _naive(scores: list[float], labels: list[int], groups: list[str],
           draw: list[str]) -> tuple[float, float]:
    """Within-task and pooled AUC of the items of the drawn groups (a group drawn twice is
    there twice), by brute force."""
    items = [(s, y, f"{g}#{k}") for k, g in enumerate(draw)
             for s, y, gg in zip(scores, labels, groups, strict=True) if gg == g]
    win = pairs = pwin = ppairs = 0.0
    for s1, y1, g1 in items:
        for s2, y2, g2 in items:
            if y1 == 1 and y2 == 0:
                w = 1.0 if s1 > s2 else 0.5 if s1 == s2 else 0.0
                pwin += w
                ppairs += 1
                if g1 == g2:
                    win += w
                    pairs += 1
    return win / pairs, pwin / ppairs


def test_task_bootstrap_matches_brute_force() -> None:
    # with one resample the interval is that resample's value: recompute it by hand
    seed = 3
    r = grouped_auc(SCORES, LABELS, GROUPS, resamples=1, seed=seed)
    idx = np.random.default_rng(seed).integers(0, 3, size=(1, 3))[0]
    draw = [["a", "b", "c"][i] for i in idx]
    if not {"a", "b"} & set(draw):  # pragma: no cover - seed 3 draws a mixed task
        pytest.skip("resample without a mixed task")
    within, pooled = _naive(SCORES, LABELS, GROUPS, draw)
    assert r.within_ci == pytest.approx((within, within))
    assert r.pooled_ci == pytest.approx((pooled, pooled))


def test_task_bootstrap_is_seeded_and_covers_the_estimate() -> None:
    rng = random.Random(0)
    groups = [f"t{i // 6}" for i in range(60)]
    labels = [rng.randint(0, 1) for _ in groups]
    scores = [y * 0.3 + rng.random() for y in labels]
    a = grouped_auc(scores, labels, groups, resamples=300, seed=1)
    b = grouped_auc(scores, labels, groups, resamples=300, seed=1)
    c = grouped_auc(scores, labels, groups, resamples=300, seed=2)
    assert a == b and a.within_ci != c.within_ci
    assert a.within_ci is not None and a.within_ci[0] <= a.within <= a.within_ci[1]
    assert a.pooled_ci is not None and a.pooled_ci[0] <= a.pooled <= a.pooled_ci[1]


# ------------------------------------------------------------------------ like for like


def _items(judgments: list[float], groups: list[str]) -> list[JudgedItem]:
    return [JudgedItem(["r"], "c", j, g) for j, g in zip(judgments, groups, strict=True)]


def test_like_for_like_keeps_items_where_grs_and_every_metric_apply() -> None:
    scores = {
        "grs": [0.9, None, 0.4, 0.7, None],
        "trs": [0.8, 0.5, None, 0.6, None],
        "sts": [0.1, 0.2, 0.3, 0.4, 0.5],
        "bleu": [0.3, 0.3, 0.3, 0.3, 0.3],
    }
    keep, values = like_for_like(scores, ["grs", "trs", "sts", "bleu"])
    assert keep == [0, 3]  # 1, 4: no GRS; 2: no TRS
    assert values["bleu"] == [0.3, 0.3] and values["sts"] == [0.1, 0.4]
    # anchored on GRS but reporting only the string scores: item 2 is back
    assert like_for_like(scores, ["sts", "bleu"])[0] == [0, 2, 3]
    # fallback: every item, a missing tier filled from the next lower one
    keep, values = like_for_like(scores, ["grs", "trs", "bleu"], anchor=None, fallback=True)
    assert keep == [0, 1, 2, 3, 4]
    assert values["grs"] == [0.9, 0.5, 0.4, 0.7, 0.5]
    assert values["trs"] == [0.8, 0.5, 0.3, 0.6, 0.5]


def test_judged_view_reports_every_metric_on_the_same_items() -> None:
    # task t: items 0-3; GRS misses items 2 and 3. On the GRS items (0 pass, 1 fail) BLEU
    # orders right; on every item BLEU gets (pass 0.9, 0.1) vs (fail 0.5, 0.5): 2/4 = 0.5
    scores = {
        "grs": [0.8, 0.2, None, None],
        "trs": [0.7, 0.3, 0.6, 0.6],
        "sts": [0.6, 0.4, 0.5, 0.5],
        "bleu": [0.9, 0.5, 0.1, 0.5],
    }
    items = _items([1, 0, 1, 0], ["t"] * 4)
    grs_view = judged_view(scores, items, statistic="auc", view="grs", resamples=0)
    assert (grs_view.n, grs_view.total, grs_view.within_pairs) == (2, 4, 1)
    assert grs_view.metrics["bleu"].value == 1.0  # on the 2 GRS items only
    assert set(grs_view.metrics) == {"grs", "trs", "sts", "bleu"}
    both = judged_validity(scores, items, statistic="auc", resamples=0)
    fb = both["fallback"]
    assert fb.n == 4 and fb.within_pairs == 4
    assert fb.metrics["bleu"].value == pytest.approx(0.5)
    # GRS with fallback: 0.8, 0.2, then TRS 0.6, 0.6 -> pass 0.8 beats both fails, pass 0.6
    # beats 0.2 and ties 0.6: (2 + 1.5) / 4
    assert fb.metrics["grs"].value == pytest.approx(3.5 / 4)


def test_judged_view_spearman_on_the_same_items() -> None:
    scores = {"grs": [0.1, 0.2, None, 0.4, 0.3], "bleu": [0.5, 0.1, 0.9, 0.2, 0.3]}
    items = _items([1, 2, 0, 4, 3], ["a", "b", "c", "d", "e"])
    view = judged_view(scores, items, statistic="spearman", resamples=0)
    assert view.n == 4
    assert view.metrics["grs"].value == pytest.approx(1.0)
    with pytest.raises(ValueError):
        judged_view(scores, items, statistic="pearson")


def test_score_judged_end_to_end_small() -> None:
    ref = "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"
    items = [
        JudgedItem([ref], ref, 1, "t"),
        JudgedItem([ref], ref.replace("s += x", "s -= x"), 0, "t"),
        JudgedItem([ref], "x = = 1", 0, "t"),  # no graph: only in the fallback view
    ]
    scores = score_judged(items)
    assert scores["grs"][2] is None and scores["bleu"][2] is not None
    views = judged_validity(scores, items, statistic="auc", resamples=0)
    assert views["grs"].n == 2 and views["fallback"].n == 3
    assert views["grs"].metrics["grs"].value == 1.0


def test_scorer_options_only_when_given() -> None:
    assert scorer_options() == {}
    assert scorer_options(1.0) == {"grs_beta": 1.0}
    assert scorer_options(None, ["grs"]) == {"metrics": ("grs",)}


# ------------------------------------------------------------------------ operator orders


def _sc(ref: str, op: str, keep: bool, value: float) -> ScoredCandidate:
    return ScoredCandidate(ref, "java", "snippets", op, keep, {"grs": value})


def test_operator_orders_split_right_tied_reversed() -> None:
    scored = [
        _sc("r", "rename_local", True, 0.9),
        _sc("r", "brand_new_variant", True, 0.6),  # an operator OPERATORS does not know yet
        _sc("r", "off_by_one", False, 0.6),
        _sc("r", "relational_op", False, 0.95),
    ]
    orders = operator_orders(scored, tiers=("grs",))
    # known operators in the order of OPERATORS, an unknown one last
    position = {op.name: i for i, op in enumerate(OPERATORS)}
    known = sorted(["rename_local", "off_by_one", "relational_op"], key=position.__getitem__)
    assert list(orders) == [*known, "brand_new_variant"]
    ren = orders["rename_local"]["grs"]  # 0.9 > 0.6, 0.9 < 0.95
    assert (ren.kind, ren.pairs, ren.right, ren.tied, ren.reversed) == ("variant", 2, .5, 0, .5)
    new = orders["brand_new_variant"]["grs"]  # 0.6 = 0.6, 0.6 < 0.95
    assert (new.kind, new.right, new.tied, new.reversed, new.wrong) == ("variant", 0, .5, .5, 1)
    obo = orders["off_by_one"]["grs"]  # below 0.9, ties 0.6
    assert (obo.kind, obo.right, obo.tied, obo.wrong) == ("mutant", 0.5, 0.5, 0.5)


# --------------------------------------------------------------------------- chance level


@pytest.mark.parametrize("n", [0, 2, 3, 5, 17, 164])
def test_derangement_has_no_fixed_point(n: int) -> None:
    for seed in range(30):
        perm = derangement(n, random.Random(seed))
        assert sorted(perm) == list(range(n))
        assert all(p != i for i, p in enumerate(perm))


def test_derangement_of_one_is_impossible() -> None:
    with pytest.raises(ValueError):
        derangement(1, random.Random(0))


def test_unrelated_pairs_never_meet_their_own_text() -> None:
    codes = ["a = 1", "b = 2", "a = 1", "c = 3", "d = 4", "b = 2", "e = 5"]
    refs = [Reference(f"r{i}", "test", "python", c) for i, c in enumerate(codes)]
    for seed in range(20):
        pairs = unrelated_pairs(refs, None, seed=seed)
        assert len(pairs) == 5  # distinct texts
        assert all(a.code != b.code for a, b in pairs)
        assert sorted(a.code for a, _ in pairs) == sorted(b.code for _, b in pairs)
    three = unrelated_pairs(refs, 3, seed=0)
    assert len(three) == 3 and three == unrelated_pairs(refs, 3, seed=0)
    assert unrelated_pairs(refs[:1], None) == []


def test_chance_level_small() -> None:
    codes = ["def f(a):\n    return a + 1\n", "def g(xs):\n    xs.sort()\n    return xs\n",
             "def h(n):\n    while n > 0:\n        n -= 2\n    return n\n"]
    refs = [Reference(f"r{i}", "test", "python", c) for i, c in enumerate(codes)]
    level = chance_level("test", unrelated_pairs(refs, None, seed=0))
    assert level.pairs == 3 and level.applicable["ruby"] == 3
    assert all(0.0 <= v < 1.0 for v in level.means.values() if v is not None)


# ------------------------------------------------------------------------------ grs_beta


def test_grs_beta_reaches_the_scorer_and_also_beta_reruns_grs(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With a scorer that takes ``grs_beta`` (stood in for here), the mutation benchmark
    passes it on, and ``also_betas`` reruns GRS alone at each extra beta."""
    seen: list[tuple[float | None, tuple[str, ...]]] = []

    class BetaScorer(RubyScorer):
        def __init__(self, *args: Any, grs_beta: float | None = None, **kw: Any) -> None:
            super().__init__(*args, **kw)
            seen.append((grs_beta, self.metrics))

    monkeypatch.setattr(validity_scoring, "RubyScorer", BetaScorer)
    report, scored = run_mutation_benchmark(10, datasets=tmp_path / "absent", resamples=10,
                                            grs_beta=2.0, also_betas=(1.0,))
    assert report.grs_beta == 2.0 and set(report.other_betas) == {1.0}
    assert {b for b, _ in seen} == {2.0, 1.0}
    assert all(m == ("grs",) for b, m in seen if b == 1.0)
    again = report.other_betas[1.0]
    assert again["tier"].tier == "grs" and again["tier"].pairs == report.tiers["grs"].pairs
    assert set(again["operators"]) <= set(report.operators)
    json.dumps(report.to_dict())  # every number serializes


def test_grs_beta_on_a_scorer_without_it_says_so() -> None:
    try:
        RubyScorer(language="python", grs_beta=1.0)  # type: ignore[call-arg]
    except TypeError:
        with pytest.raises(TypeError, match="no grs_beta option"):
            validity_scoring.scorer_for("python", [], grs_beta=1.0)
    else:  # the v3 scorer is merged: the option simply works
        assert validity_scoring.scorer_for("python", [], grs_beta=1.0) is not None
