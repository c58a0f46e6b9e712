"""What the CLI tests share: the bundled fixture pair files and a runner."""

from __future__ import annotations

from pathlib import Path

from ruby_metric.cli.app import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REFS = FIXTURES / "java_to_cs" / "references.cs"
HYPS = FIXTURES / "java_to_cs" / "candidates.cs"


def run(capsys, *argv):
    """Run ``ruby-metric argv...``; its exit status, stdout and stderr."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def write_folder(root, name, files):
    """``root/name`` holding ``files`` (relative path -> text), folders made as needed."""
    folder = root / name
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    return folder
