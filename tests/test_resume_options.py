"""``score --resume`` on the translation benchmark (15 pairs, 3 systems sharing 5 ids): a file
written with other options is refused, repeated ids are matched by position, and the corpus
line of a resumed run says it covers only the pairs scored in this run."""

from __future__ import annotations

import json

import pytest
from cli_helpers import FIXTURES, run

from ruby_metric.cli.app import main
from ruby_metric.io.resume import resume_point

PAIRS = FIXTURES / "translation_benchmark" / "pairs.jsonl"
PLAIN = ["score", "--jsonl", PAIRS, "-l", "python", "-f", "jsonl"]
SYSTEMS = [*PLAIN, "--system-field", "model"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The whole run's lines, without and with --system-field."""
    out = {}
    for name, argv in (("plain", PLAIN), ("systems", SYSTEMS)):
        path = tmp_path_factory.mktemp(name) / "full.jsonl"
        assert main([str(a) for a in (*argv, "-o", path, "-q")]) == 0
        out[name] = path.read_text().splitlines(keepends=True)
    return out


@pytest.mark.parametrize("options", [
    ["--grs-beta", "1"], ["--metrics", "ruby,bleu"], ["--source-lang", "java"]])
def test_resume_refuses_a_file_written_with_other_options(written, tmp_path, capsys, options):
    part = tmp_path / "part.jsonl"
    part.write_text("".join(written["plain"][:9]))
    code, _, err = run(capsys, *PLAIN, "-o", part, "--resume", *options)
    assert code == 2
    # line 9 is coder-m's reverse_words (the ids cycle through the 5 tasks); its GRS is
    # 0.6584 with beta 2 and 0.4856 with beta 1 (line 7, an exact match, is 1.0 with both:
    # a last line that no option changes cannot tell the options apart)
    assert (f'{part}:9: pair "reverse_words" scores differently with these options than the '
            "line written there: --resume needs the options the file was written with") in err
    assert part.read_text() == "".join(written["plain"][:9])  # nothing appended


def test_resume_with_no_whole_line_checks_nothing(written, tmp_path, capsys):
    part = tmp_path / "part.jsonl"
    part.write_text(written["plain"][0][:30])  # cut short: dropped, no line to compare
    code, _, err = run(capsys, *PLAIN, "-o", part, "--resume", "--metrics", "ruby,bleu")
    assert code == 0, err
    lines = part.read_text().splitlines()
    assert len(lines) == 15 and json.loads(lines[0])["trs"] is None  # 0.8313 with all metrics


def test_resume_matches_repeated_ids_by_position(written, tmp_path, capsys):
    full = written["plain"]
    assert [json.loads(x)["id"] for x in full].count("count_divisors") == 3
    part = tmp_path / "part.jsonl"
    part.write_text("".join(full[:7]))
    code, _, err = run(capsys, *PLAIN, "-o", part, "--resume")
    assert code == 0, err
    assert part.read_text() == "".join(full)  # was: 7 lines, "0 pairs (15 ... skipped)"
    assert "8 pairs scored in this run only (resumed: 7 pairs already in" in err
    # lines that are not the input's first pairs in order: refused, file left as it is
    part.write_text(full[0] + full[2])
    code, _, err = run(capsys, *PLAIN, "-o", part, "--resume")
    assert code == 2
    assert (f'{part}:2: id "mean_floor", but pair 2 of the input has id "max_index": the '
            "input's ids repeat") in err and "pass --system-field NAME" in err
    assert part.read_text() == full[0] + full[2]
    # the same id in the right place but another system's line: its scores give it away
    part.write_text(full[0] + full[6])
    code, _, err = run(capsys, *PLAIN, "-o", part, "--resume")
    assert code == 2 and f'{part}:2: pair "max_index" scores differently' in err


def test_resumed_summary_says_it_covers_this_run_only_then_gives_the_files_ruby(
        written, tmp_path, capsys):
    full = written["systems"]
    part = tmp_path / "part.jsonl"
    part.write_text("".join(full[:12]))
    code, _, err = run(capsys, *SYSTEMS, "-o", part, "--resume")
    assert code == 0, err
    assert part.read_text() == "".join(full)
    rows = [json.loads(x) for x in full]
    assert [r["model"] for r in rows[10:]] == ["coder-s"] * 5
    this_run = sum(r["ruby"] for r in rows[12:]) / 3
    whole = sum(r["ruby"] for r in rows[10:]) / 5
    assert round(this_run, 4) != round(whole, 4)
    assert (f"coder-s: 3 pairs scored in this run only (resumed: 2 pairs already in {part} "
            f"skipped, not in these scores), RUBY {this_run:.4f}") in err
    assert (f"ruby-metric: 3 pairs scored in this run only (resumed: 12 pairs already in "
            f"{part} skipped, not in these scores), RUBY {this_run:.4f}") in err
    # then the whole file's RUBY, read back from its lines: what the whole run gives
    for model in ("coder-l", "coder-m", "coder-s"):
        mean = sum(r["ruby"] for r in rows if r["model"] == model) / 5
        assert (f"ruby-metric: {model}: all of {part}: 5 pairs, RUBY {mean:.4f} (the mean "
                "of its lines; corpus CrystalBLEU and BLEU need a run of every pair)") in err
    assert f"coder-s: all of {part}: 5 pairs, RUBY {whole:.4f}" in err
    mean = sum(r["ruby"] for r in rows) / 15
    assert f"ruby-metric: all of {part}: 15 pairs, RUBY {mean:.4f}" in err
    code, _, err = run(capsys, *SYSTEMS, "-o", tmp_path / "again.jsonl")
    assert f"ruby-metric: 15 pairs, RUBY {mean:.4f}" in err  # the corpus RUBY of a whole run


def test_resume_point_keeps_the_keys_in_order_and_the_last_line(tmp_path):
    path = tmp_path / "s.jsonl"
    first = '{"id": "b", "ruby": 1.0, "tier": "graph", "reasons": {}}'
    last = '{"id": "a", "ruby": 0.0, "tier": "string", "reasons": {}}'
    path.write_text(f"{first}\n{last}\n{first[:9]}")
    point = resume_point(path)
    assert point.keys == ('"b"', '"a"') and point.last == last.encode()
    assert point.lines == 2 and point.dropped == 9


def test_resume_with_labels_and_repeated_ids_matches_by_position(tmp_path, capsys):
    # --label-field without --system-field: rows with labels, ids repeating across systems
    argv = [*PLAIN, "--label-field", "passed"]
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    assert run(capsys, *argv, "-o", full)[0] == 0
    lines = full.read_text().splitlines(keepends=True)
    assert [json.loads(x)["id"] for x in lines[:6:5]] == ["count_divisors"] * 2
    part.write_text("".join(lines[:6]))  # line 6 is coder-m's count_divisors, not coder-l's
    code, _, err = run(capsys, *argv, "-o", part, "--resume")
    assert code == 0, err
    assert part.read_text() == "".join(lines)
    assert "9 pairs scored in this run only (resumed: 6 pairs already in" in err
