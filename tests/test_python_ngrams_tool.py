"""tools/python_ngrams.py: which standard library files the shipped Python n-gram set is
counted on."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("python_ngrams_tool",
                                                  ROOT / "tools" / "python_ngrams.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("python_ngrams_tool", module)
    spec.loader.exec_module(module)
    return module


def test_the_corpus_is_the_library_without_tests_tables_and_bundled_packages(tmp_path):
    files = ["os.py", "json/decoder.py", "json/tests/test_x.py", "test/test_os.py",
             "idlelib/idle_test/test_a.py", "encodings/cp1252.py", "pydoc_data/topics.py",
             "html/entities.py", "html/parser.py", "site-packages/pkg/mod.py",
             "lib2to3/fixer_base.py", "config-3.11-x86_64-linux-gnu/python-config.py",
             "turtledemo/clock.py", "__pycache__/os.cpython-311.py", "notes.txt"]
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    kept = [p.relative_to(tmp_path).as_posix() for p in _tool().corpus_files(tmp_path)]
    assert kept == ["html/parser.py", "json/decoder.py", "os.py"]
