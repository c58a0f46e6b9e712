"""Within-group (within-task) AUC of ``meta correlate --group-field``: values worked out by
hand, ties, groups with one outcome, undefined scores, and the errors (library and CLI)."""

import json

import numpy as np
import pytest

from ruby_metric.cli import meta as meta_cli
from ruby_metric.meta import correlate, correlate_metrics
from ruby_metric.meta.correlation import within_group_auc
from ruby_metric.meta.grouped_auc import grouped_auc

# Three tasks. a: passes 0.9, 0.6 vs fails 0.6, 0.2 -> 0.9>0.6, 0.9>0.2, 0.6=0.6 (1/2),
# 0.6>0.2: 3.5 of 4 pairs. b: pass 0.3 vs fails 0.5, 0.1 -> 1 of 2. c: two passes, no fail:
# no pair. Within-task AUC (3.5 + 1) / (4 + 2) = 0.75.
# Pooled, every pass against every fail (5 x 4 = 20 pairs): 0.9, 0.8, 0.7 win all 4 (12),
# 0.6 wins 3.5 (tie with 0.6), 0.3 wins 2 (over 0.2 and 0.1): 17.5 / 20 = 0.875.
SCORES = [0.9, 0.6, 0.6, 0.2, 0.3, 0.5, 0.1, 0.8, 0.7]
PASSED = [1, 1, 0, 0, 1, 0, 0, 1, 1]
TASKS = ["a", "a", "a", "a", "b", "b", "b", "c", "c"]


def test_within_task_auc_by_hand():
    out = correlate_metrics(
        {"m": SCORES, "reversed": [-s for s in SCORES]}, PASSED, groups=TASKS, bootstrap=0
    )
    w = out["m"].within_group
    assert w.value == 0.75 and out["m"].auc.value == 0.875
    assert (w.n, w.groups, w.pairs) == (7, 2, 6)
    assert (w.left_out_groups, w.left_out_items) == (1, 2)
    # reversed scores: wins become losses, the tie stays 1/2: (0.5 + 1) / 6
    r = out["reversed"].within_group
    assert r.value == 0.25 and out["reversed"].auc.value == 0.125
    assert (r.n, r.groups, r.pairs) == (7, 2, 6)


def test_ties_count_half():
    # every candidate scores the same: every within-task pair is a tie
    r = within_group_auc([0.4] * 6, [1, 0, 0, 1, 1, 0], "aaabbb", bootstrap=0)
    assert r.value == 0.5 and r.pairs == 4  # a: 1 x 2, b: 2 x 1
    # one tie and one win in one task: (1 + 0.5) / 2
    r = within_group_auc([0.7, 0.7, 0.2], [1, 0, 0], ["t", "t", "t"], bootstrap=0)
    assert r.value == 0.75


def test_groups_with_one_outcome_give_no_pair_and_are_counted():
    # an all-failing task scoring above everything: the pooled AUC drops, the within-task
    # AUC does not move; it is counted as left out, with the all-passing task c
    scores, passed, tasks = SCORES + [0.95, 0.99], PASSED + [0, 0], TASKS + ["d", "d"]
    r = correlate(scores, passed, groups=tasks, bootstrap=0)
    assert r.within_group.value == 0.75
    assert (r.within_group.left_out_groups, r.within_group.left_out_items) == (2, 4)
    assert r.within_group.n == 7 and r.n == 11
    assert r.auc.value == pytest.approx(17.5 / 30)  # 5 passes x 6 fails, none beats d
    # no task with both outcomes: no within-task AUC, every group left out
    r = within_group_auc([0.1, 0.2, 0.3], [1, 1, 0], ["x", "x", "y"], bootstrap=50)
    assert r.value is None and r.ci is None
    assert (r.n, r.groups, r.pairs, r.left_out_groups, r.left_out_items) == (0, 0, 0, 2, 3)


def test_undefined_scores_are_left_out_before_grouping():
    # b's only pass is undefined: b has fails only then, so only a's pairs count
    scores = [*SCORES[:4], None, *SCORES[5:]]
    r = correlate(scores, PASSED, groups=TASKS, bootstrap=0)
    assert r.excluded == 1 and r.n == 8
    w = r.within_group
    assert w.value == 3.5 / 4 and (w.n, w.groups, w.pairs) == (4, 1, 4)
    assert (w.left_out_groups, w.left_out_items) == (2, 4)  # b (2 fails) and c (2 passes)


def test_interval_resamples_groups_as_grouped_auc_does():
    rng = np.random.default_rng(3)
    tasks = [f"t{i // 6}" for i in range(60)]
    passed = rng.integers(0, 2, 60)
    scores = passed * 0.3 + rng.random(60)
    a = correlate(scores, passed, groups=tasks, bootstrap=200, seed=5).within_group
    b = correlate(scores, passed, groups=tasks, bootstrap=200, seed=5).within_group
    g = grouped_auc(scores, passed, tasks, resamples=200, seed=5)
    assert a == b and a.value == g.within and a.ci == g.within_ci
    assert a.ci[0] <= a.value <= a.ci[1]


def test_non_binary_judgments_and_lengths_are_errors():
    with pytest.raises(ValueError, match="binary"):
        correlate_metrics({"m": [0.1, 0.2, 0.3]}, [0, 2, 1], groups="aab")
    with pytest.raises(ValueError, match="groups"):
        correlate([0.1, 0.2], [0, 1], groups=["a"])


def test_json_shape_with_and_without_groups():
    d = correlate(SCORES, PASSED, groups=TASKS, bootstrap=0).to_dict()
    assert d["within_group"] == {
        "auc": 0.75,
        "auc_ci": None,
        "n": 7,
        "groups": 2,
        "pairs": 6,
        "left_out_groups": 1,
        "left_out_items": 2,
        # the same 7 items pooled: 0.9 beats the 4 fails, 0.6 three and a tie, 0.3 two
        "pooled_auc": pytest.approx(9.5 / 12),
    }
    plain = correlate(SCORES, PASSED, bootstrap=0)
    assert plain.within_group is None and "within_group" not in plain.to_dict()


# ------------------------------------------------------------------------------ the CLI

REFS = {
    "t1": "def add(a, b):\n    return a + b\n",
    "t2": "def largest(xs):\n    best = xs[0]\n    for x in xs:\n"
    "        if x > best:\n            best = x\n    return best\n",
    "t3": "def neg(x):\n    return -x\n",
    "t4": "def half(x):\n    return x / 2\n",
}
NEAR = {  # one token changed: BLEU below 1, above nothing else here
    "t1": REFS["t1"].replace("+", "-"),
    "t2": REFS["t2"].replace(">", "<"),
}
CLI = ["--lang", "python", "--metrics", "bleu"]


def run(capsys, *argv):
    code = meta_cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def he(tmp_path):
    """t1, t2: the reference passing (BLEU 1), the reference failing (a tie at 1) and a near
    copy failing (below 1): 1 + 1/2 of 2 pairs each, within-task AUC 3 / 4 = 0.75. t3: two
    passes, t4: one fail (the reference, BLEU 1): no pair. Pooled: 4 passes at 1.0 against 5
    fails, three of them at 1.0: 4 x (2 + 3/2) / 20 = 0.7."""
    rows = []
    for task in ("t1", "t2"):
        ref = REFS[task]
        rows += [
            {"reference": ref, "candidate": ref, "passed": True, "task_id": task},
            {"reference": ref, "candidate": ref, "passed": False, "task_id": task},
            {"reference": ref, "candidate": NEAR[task], "passed": False, "task_id": task},
        ]
    rows += [{"reference": REFS["t3"], "candidate": REFS["t3"], "passed": 1, "task_id": "t3"}] * 2
    rows += [{"reference": REFS["t4"], "candidate": REFS["t4"], "passed": 0, "task_id": "t4"}]
    path = tmp_path / "he.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_cli_group_field_json_and_table(capsys, he):
    argv = ["correlate", "--jsonl", he, "--human-field", "passed", "--group-field", "task_id"]
    code, out, err = run(capsys, *argv, *CLI, "--bootstrap", "0", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert (data["pairs"], data["group_field"], data["groups"]) == (9, "task_id", 4)
    bleu = data["metrics"]["bleu"]
    assert bleu["auc"] == pytest.approx(0.7)
    assert bleu["within_group"] == {
        "auc": 0.75,
        "auc_ci": None,
        "n": 6,
        "groups": 2,
        "pairs": 4,
        "left_out_groups": 2,
        "left_out_items": 3,
        # t1 and t2 pooled: each pass beats the two near copies and ties the two references
        "pooled_auc": 0.75,
    }
    code, out, err = run(capsys, *argv, *CLI, "--bootstrap", "20")
    assert code == 0, err
    assert "within-group AUC by 'task_id' (4 groups)" in out
    within_table = out[out.index("within AUC") :].splitlines()
    row = next(line for line in within_table if line.startswith("BLEU"))
    assert row.split()[:2] == ["BLEU", "0.7500"] and row.split()[-4:] == ["0.7500", "6", "2", "4"]
    assert "left out: 2 groups (3 candidates) with one outcome only" in out
    # without --group-field nothing changes
    code, out, _ = run(capsys, "correlate", "--jsonl", he, "--human-field", "passed", *CLI,
                       "--bootstrap", "0", "-f", "json")
    assert code == 0 and "group_field" not in json.loads(out)
    assert "within_group" not in json.loads(out)["metrics"]["bleu"]


def test_cli_group_field_errors(capsys, tmp_path, he):
    lines = he.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    third = json.loads(lines[2])
    del third["task_id"]
    bad.write_text("\n".join([*lines[:2], json.dumps(third)]) + "\n")
    argv = ["--human-field", "passed", "--group-field", "task_id", *CLI]
    code, _, err = run(capsys, "correlate", "--jsonl", bad, *argv)
    assert code == 2 and err == f"ruby-metric: error: {bad}:3: missing 'task_id'\n"
    bad.write_text("\n".join([lines[0], lines[1].replace('"t1"', "null")]) + "\n")
    code, _, err = run(capsys, "correlate", "--jsonl", bad, *argv)
    assert code == 2 and f"{bad}:2: 'task_id' must be a string or a finite number" in err
    bad.write_text("\n".join([lines[0], lines[1].replace('"t1"', "NaN")]) + "\n")
    code, _, err = run(capsys, "correlate", "--jsonl", bad, *argv)
    assert code == 2 and f"{bad}:2: 'task_id' must be a string or a finite number" in err
    # a graded (not pass/fail) human field
    bad.write_text("\n".join([lines[0], lines[1].replace('"passed": false', '"passed": 3')]))
    code, out, err = run(capsys, "correlate", "--jsonl", bad, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{bad}:2: --group-field needs a binary human field (0/1 or true/false)" in err
    # through the main CLI too
    from ruby_metric import cli

    assert cli.main(["meta", "correlate", "--jsonl", str(bad), *argv]) == 2
    assert "needs a binary human field" in capsys.readouterr().err


def test_cli_help_shows_the_option_and_an_example(capsys):
    with pytest.raises(SystemExit) as exc:
        meta_cli.main(["correlate", "-h"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "--group-field NAME" in out
    assert "--human-field passed --group-field task_id" in out
