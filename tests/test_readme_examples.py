"""Every README and docs example runs (done-when of the layering issue, #21, and of #32).

The examples are read from README.md and every ``docs/*.md`` itself, one test each, named by
the file and line (``L43`` in the README, ``metrics.md:L12`` in a doc):

- every fenced ``python`` block runs in a namespace that holds the placeholder names the
  README uses (``reference``, ``refs``, ``df``...: :func:`_python_names`), in a tmp folder
  where the files it names exist (:data:`PY_FILES`);
- every ``ruby-metric ...`` line of a fenced ``bash`` block, and every inline
  `` `ruby-metric ...` `` span that is a whole command, runs in-process through
  ``ruby_metric.cli.main`` with its placeholders (``REFS``, ``pairs.jsonl``, ``train/``...:
  :func:`_cli_file`) made from ``fixtures/`` in a tmp folder: exit status 0 and some output.
  ``[--format table|json|...]`` runs once per alternative, ``[--opt X]`` with the option; a
  pipe from another program (``python translate.py``, ``jq``) becomes the ruby-metric part
  with what that program would print on stdin (:data:`PIPED`);
- every plain fenced block that starts with ``$ ruby-metric ...`` runs its command and must
  print the lines shown, in order (a ``...`` line stands for lines left out).

Other command lines of the bash blocks (installing, the test suite itself, the benchmarks)
are collected too and skipped with their reason (:data:`NOT_RUN`), so that no new example
goes unnoticed.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The files whose examples run: the README, then the docs it sends readers to.
DOCS = (README, *sorted((ROOT / "docs").glob("*.md")))
FIXTURES = ROOT / "fixtures"
MODEL_OUTPUTS = ROOT.parent / "shared" / "datasets" / "codexglue_code2code_trans" / "model_outputs"

#: Command lines of the bash blocks that are not ruby-metric commands, by a part of them.
NOT_RUN = {
    "python -m pytest": "installs the test extras and runs the test suite, this test included",
    "python benchmarks/": "a benchmark script over ../shared/datasets, not a ruby-metric "
    "command: run by hand",
}
#: Inline spans that name a command or an option in passing, not a command to run.
INLINE_MENTIONS = {
    "ruby-metric score",
    "ruby-metric explain",
    "ruby-metric score --workers N",
    "ruby-metric report",
    # docs/report_pages.md: the hint forms a page gives, ID standing for a pair's id
    "ruby-metric explain --jsonl pairs.jsonl --pair ID --lang java",
    "ruby-metric explain --pair ID refs.java hyps.java --lang java",
}
#: What the program piped into ruby-metric would print: the name of a file of _cli_file.
PIPED = {
    "python translate.py": "candidates.cs",  # a model's C# outputs, one a line
    "jq": "jq-pairs.jsonl",  # {reference, candidate, language: "java"} per line
}
#: Python blocks that need a service no test has, by a string in them.
PY_SKIPS = {
    'Client("scheduler-address:8786")': "needs a running Dask scheduler (tests/test_dask.py "
    "scores through a LocalCluster's executor)",
}
#: Files the Python blocks read, by name: their content.
PY_FILES = {
    # crystal.read_corpus reads a .java file as one snippet a line (CodeXGLUE's training set)
    "train.java-cs.txt.java": lambda: (FIXTURES / "cs_to_java" / "references.java").read_text(),
}


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# -- reading the README ----------------------------------------------------------------------


@dataclass
class Example:
    kind: str  # "python", "cli", "shown", "other"
    line: int  # README line of the example's first line
    text: str  # the code, the command line, or the command of a shown block
    shown: list[str] = field(default_factory=list)  # a shown block's output lines
    env: dict[str, str] = field(default_factory=dict)  # shell variables set before it
    doc: str = "README.md"  # the file it is in

    @property
    def id(self) -> str:
        return f"L{self.line}" if self.doc == "README.md" else f"{self.doc}:L{self.line}"

    @property
    def where(self) -> str:
        return f"{self.doc} line {self.line}"


FENCE = re.compile(r"^\s*```(\S*)\s*$")


def _strip_comment(line: str) -> str:
    """The line without a shell comment (a ``#`` after a blank, outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def _bash_examples(start: int, body: list[str]) -> list[Example]:
    examples, env, i = [], {}, 0
    while i < len(body):
        line_no, text = start + i, _strip_comment(body[i])
        while text.endswith("\\") and i + 1 < len(body):  # a continued line
            i += 1
            text = text[:-1].rstrip() + " " + _strip_comment(body[i]).strip()
        i += 1
        if not text.strip():
            continue
        assignment = re.fullmatch(r"(\w+)=(\S+)", text.strip())
        if assignment:
            env[assignment[1]] = assignment[2]
            continue
        words = shlex.split(text, posix=True)
        kind = "cli" if "ruby-metric" in words else "other"
        examples.append(Example(kind, line_no, text.strip(), env=dict(env)))
    return examples


def _collect() -> list[Example]:
    examples: list[Example] = []
    for path in DOCS:
        found = _collect_in(_lines(path))
        for example in found:
            example.doc = path.name
        examples.extend(found)
    return examples


def _collect_in(lines: list[str]) -> list[Example]:
    examples: list[Example] = []
    in_fence: set[int] = set()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        lang, j = opening[1], i + 1
        while not FENCE.match(lines[j]):
            j += 1
        body, start = lines[i + 1 : j], i + 2  # lines are 1-based
        in_fence.update(range(i, j + 1))
        if lang == "python":
            examples.append(Example("python", start, "\n".join(body)))
        elif lang in ("bash", "sh", "shell"):
            examples.extend(_bash_examples(start, body))
        elif lang == "" and body and body[0].startswith("$ ruby-metric "):
            examples.append(Example("shown", start, body[0][2:], shown=body[1:]))
        i = j + 1
    for n, line in enumerate(lines):
        if n in in_fence:
            continue
        for span in re.findall(r"`(ruby-metric [^`]+)`", line):
            if span not in INLINE_MENTIONS:
                examples.append(Example("cli", n + 1, span))
    return examples


EXAMPLES = _collect()


def _cases(kind: str) -> list:
    return [pytest.param(e, id=e.id) for e in EXAMPLES if e.kind == kind]


def _cli_cases() -> list:
    """Each ruby-metric line once per alternative of its ``[--opt a|b|c]`` groups (the id
    names the alternative: ``L43-csv``), with every ``[--opt X]`` group's option given."""
    cases = []
    for e in EXAMPLES:
        if e.kind != "cli":
            continue
        forms = [(e.text, e.id)]
        while any("[" in text for text, _ in forms):
            expanded = []
            for text, label in forms:
                group = re.search(r"\[([^\[\]]*)\]", text)
                if group is None:
                    expanded.append((text, label))
                    continue
                head, tail = text[: group.start()], text[group.end() :]
                choice = re.search(r"\S+\|\S+", group[1])
                if choice is None:
                    expanded.append((head + group[1] + tail, label))
                    continue
                for option in choice[0].split("|"):
                    inner = group[1].replace(choice[0], option)
                    expanded.append((head + inner + tail, f"{label}-{option}"))
            forms = expanded
        cases.extend(pytest.param(e.where, text, e.env, id=label) for text, label in forms)
    return cases


# -- small real inputs made from fixtures/ ---------------------------------------------------


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


CS_REFS = _lines(FIXTURES / "java_to_cs" / "references.cs")
CS_HYPS = _lines(FIXTURES / "java_to_cs" / "candidates.cs")[: len(CS_REFS)]
JAVA_REFS = _lines(FIXTURES / "cs_to_java" / "references.java")
JAVA_HYPS = _lines(FIXTURES / "cs_to_java" / "candidates.java")[: len(JAVA_REFS)]


def _cli_file(name: str, tmp: Path, lang: str, pairs: int) -> Path | None:
    """The small real file (or folder) standing for a README placeholder; None: not one.

    ``lang`` is the command's ``--lang`` (REFS and HYPS are Java files for ``java``, C#
    otherwise); ``pairs`` the number of lines REFS and HYPS need (the fixtures, cycled, when
    an example names a pair beyond them).
    """
    java = lang == "java"
    refs, hyps = (JAVA_REFS, JAVA_HYPS) if java else (CS_REFS, CS_HYPS)
    cycled = max(1, -(-pairs // len(refs)))
    made = {
        "REFS": lambda: "\n".join((refs * cycled)[:pairs]) + "\n",
        "HYPS": lambda: "\n".join((hyps * cycled)[:pairs]) + "\n",
        "refs.cs": lambda: "\n".join(CS_REFS) + "\n",
        "sys_a.cs": lambda: "\n".join(CS_HYPS) + "\n",
        "sys_b.cs": lambda: "\n".join(CS_REFS[:5] + CS_HYPS[5:]) + "\n",
        "candidates.cs": lambda: "\n".join(CS_HYPS) + "\n",
        "ref.cs": lambda: CS_REFS[7] + "\n",  # one snippet each: the README's explain example
        "hyp.cs": lambda: CS_HYPS[7] + "\n",
        "pairs.jsonl": lambda: (FIXTURES / "pairs.jsonl").read_text(encoding="utf-8"),
        # scored against the source: Java programs and (unrelated) C# "translations"
        "sources.java": lambda: "\n".join(JAVA_REFS) + "\n",
        "translations.cs": lambda: "\n".join(CS_REFS[: len(JAVA_REFS)]) + "\n",
        "translations.jsonl": lambda: _jsonl(
            [{"source": s, "candidate": c} for s, c in zip(JAVA_REFS, CS_REFS, strict=False)]
        ),
        "jq-pairs.jsonl": lambda: _jsonl(
            [
                {"reference": r, "candidate": h, "language": "java"}
                for r, h in zip(JAVA_REFS, JAVA_HYPS, strict=True)
            ]
        ),
        # a program and its translation back are one class: 8 classes of 2 programs
        "programs.jsonl": lambda: _jsonl(
            [
                {"class": i, "code": code}
                for i, pair in enumerate(zip(JAVA_REFS, JAVA_HYPS, strict=True))
                for code in pair
            ]
        ),
        "judged.jsonl": lambda: _jsonl(
            [
                {"reference": r, "candidate": h, "score": (3 * i) % 5}
                for i, (r, h) in enumerate(zip(JAVA_REFS, JAVA_HYPS, strict=True))
            ]
        ),
        # HumanEval-like: Python candidates of two tasks, each passing or failing its tests
        "he.jsonl": lambda: _jsonl(
            [
                {"reference": ref, "candidate": ref.replace(old, new), "passed": ok,
                 "task_id": task}
                for task, ref, old in (
                    ("add", "def add(a, b):\n    return a + b\n", "a + b"),
                    ("neg", "def neg(x):\n    return -x\n", "-x"),
                )
                for new, ok in ((old, True), ("a", False), (f"({old})", True))
            ]
        ),
    }
    folders = {"train/", "googlejam4_src/"}  # folders of whole Java files
    if name in made:
        return _write(tmp / "inputs" / f"{name}.{lang}.{pairs}", made[name]())
    if name in folders:
        folder = tmp / "inputs" / name
        for i, code in enumerate(JAVA_REFS + JAVA_HYPS):
            _write(folder / f"Program{i}.java", code + "\n")
        return folder
    if name == "cs.json":  # an n-gram set file: the bundled C# one
        return ROOT / "ruby_metric" / "data" / "ngrams" / "csharp.json"
    if name in ("java-cs-model1.gold", "java-cs-model1.output"):
        if not MODEL_OUTPUTS.is_dir():
            pytest.skip(f"the published model outputs are not in {MODEL_OUTPUTS}")
        return MODEL_OUTPUTS / name
    return None


#: Placeholders that stand for a value, not a file.
VALUES = {"ID": "7", "LANG": "cs"}
#: Options whose value the command writes: the file must be there, not empty, afterwards.
OUTPUT_OPTIONS = {"-o", "--output", "--html"}


@dataclass
class Command:
    argv: list[str]
    stdin: Path | None = None
    stdout: str | None = None  # the file of a `> FILE` redirection
    outputs: list[str] = field(default_factory=list)


def _command(text: str, env: dict[str, str], tmp: Path) -> Command:
    """The ruby-metric part of a README line, with its placeholders made real."""
    text = re.sub(r"\$\{?(\w+)\}?", lambda m: env[m[1]], text)
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    segments, current, ops = [], [], []
    for tok in tokens:
        if tok in ("|", "&&", "||"):
            segments.append(current)
            ops.append(tok)
            current = []
        else:
            current.append(tok)
    segments.append(current)
    ours = [k for k, s in enumerate(segments) if s and s[0] == "ruby-metric"]
    assert len(ours) == 1, f"one ruby-metric command a line: {text}"
    k = ours[0]
    words = segments[k][1:]
    cmd = Command([])
    if k > 0 and ops[k - 1] == "|":  # another program pipes into it
        source = " ".join(w for w in segments[k - 1] if w not in "<>")
        program = next((p for p in PIPED if source.startswith(p)), None)
        assert program, f"what does {source!r} print? add it to PIPED"
        cmd.stdin = PIPED[program]
    argv, n = [], 0
    while n < len(words):
        word = words[n]
        if word in ("<", ">"):
            target = words[n + 1]
            if word == "<":
                cmd.stdin = target
            else:
                cmd.stdout = target
            n += 2
            continue
        argv.append(word)
        n += 1
    lang = "cs"
    for flag in ("--lang", "-l"):
        if flag in argv:
            lang = "java" if argv[argv.index(flag) + 1] == "java" else "cs"
    pairs = len(CS_REFS)
    if "--pair" in argv:
        pair = str(VALUES.get(argv[argv.index("--pair") + 1], argv[argv.index("--pair") + 1]))
        if pair.isdigit():  # a position in a placeholder file; else an id of a real file
            pairs = max(pairs, int(pair) + 1)
    real = []
    for n, word in enumerate(argv):
        before = argv[n - 1] if n else ""
        if before in OUTPUT_OPTIONS:
            cmd.outputs.append(word)
            real.append(word)
        elif word == "FILE" and before == "--ngrams":
            real.append(str(_cli_file("cs.json", tmp, lang, pairs)))
        elif word in VALUES:
            real.append(VALUES[word])
        else:
            made = _cli_file(word, tmp, lang, pairs)
            real.append(str(made) if made is not None else word)
    cmd.argv = real
    if cmd.stdin is not None:
        cmd.stdin = _cli_file(cmd.stdin, tmp, lang, pairs)
    return cmd


def _run_cli(cmd: Command, monkeypatch, capsys) -> tuple[int, str, str]:
    from ruby_metric.cli import main

    if cmd.stdin is not None:
        data = Path(cmd.stdin).read_bytes()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    try:
        status = main(cmd.argv)
    except SystemExit as exc:  # argparse: bad usage
        status = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A tmp folder as the current one, where ``fixtures/`` and ``docs/`` are what the
    README's relative paths name (``docs/`` empty: a rebuild writes there, not in the repo)."""
    (tmp_path / "fixtures").symlink_to(FIXTURES, target_is_directory=True)
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the command lines -----------------------------------------------------------------------


@pytest.mark.parametrize(("where", "text", "env"), _cli_cases())
def test_cli_example(where, text, env, workdir, monkeypatch, capsys):
    cmd = _command(text, env, workdir)
    status, out, err = _run_cli(cmd, monkeypatch, capsys)
    assert status == 0, f"{where}: {text}\n-> {cmd.argv}\nexit {status}\n{err}"
    if cmd.stdout:
        Path(cmd.stdout).write_text(out, encoding="utf-8")
        cmd.outputs.append(cmd.stdout)
    if cmd.outputs:
        for name in cmd.outputs:
            written = workdir / name
            assert written.is_file() and written.stat().st_size > 0, f"{name} not written"
    else:
        assert out.strip(), f"{where}: {text} printed nothing"


@pytest.mark.parametrize("example", _cases("other"))
def test_other_command_lines_are_known(example):
    reason = next((r for p, r in NOT_RUN.items() if p in example.text), None)
    assert reason, f"{example.where}: {example.text!r}: run it here or say why not"
    pytest.skip(f"{example.text}: {reason}")


@pytest.mark.parametrize("example", _cases("shown"))
def test_shown_output(example, workdir, monkeypatch, capsys):
    """A ``$ ruby-metric ...`` block prints the lines it shows, in order."""
    cmd = _command(example.text, example.env, workdir)
    status, out, err = _run_cli(cmd, monkeypatch, capsys)
    assert status == 0, err
    actual = [line.rstrip() for line in out.splitlines()]
    chunks: list[list[str]] = [[]]
    for line in example.shown:
        if line.strip() == "...":
            chunks.append([])
        else:
            chunks[-1].append(line.rstrip())
    at = 0
    for chunk in (c for c in chunks if c):
        starts = [
            s
            for s in range(at, len(actual) - len(chunk) + 1)
            if actual[s : s + len(chunk)] == chunk
        ]
        assert starts, (
            f"{example.where}: shown output not printed:\n"
            + "\n".join(chunk)
            + "\n--- printed:\n"
            + out
        )
        at = starts[0] + len(chunk)


# -- the Python blocks -----------------------------------------------------------------------


def _python_names() -> dict[str, object]:
    """The placeholder names of the README's Python blocks, holding real fixture data."""
    import crystal
    import graphs
    from ruby_metric import RubyScorer

    names: dict[str, object] = {
        "reference": CS_REFS[1],
        "candidate": CS_HYPS[1],
        "references": list(CS_REFS),
        "candidates": list(CS_HYPS),
        "refs": list(CS_REFS),
        "cands": list(CS_HYPS),
        "task_ids": [f"task-{i}" for i in range(len(CS_REFS))],
        "scorer": RubyScorer(language="cs"),
        "ref_tokens": crystal.tokenize(JAVA_REFS[1]),
        "hyp_tokens": crystal.tokenize(JAVA_HYPS[1]),
        "list_of_refs": [[crystal.tokenize(r)] for r in JAVA_REFS],
        "hyps": [crystal.tokenize(h) for h in JAVA_HYPS],
        "other_tree": graphs.normalized_ast(graphs.parse("int f(int b){return b-1;}", "java")),
        # docs/cross_language.md: a Java source and its Python translation
        "java_source": "int add(int a, int b) { return a + b; }",
        "python_candidate": "def add(a, b):\n    return a + b\n",
    }
    try:
        import pandas
    except ImportError:
        return names
    index = range(500, 500 + len(CS_REFS))  # a slice of a larger frame keeps its index
    names["df"] = pandas.DataFrame({"gold": CS_REFS, "pred": CS_HYPS}, index=index)
    return names


def _imported_modules(code: str) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


@pytest.mark.parametrize("example", _cases("python"))
def test_python_example(example, workdir):
    for reason_key, reason in PY_SKIPS.items():
        if reason_key in example.text:
            pytest.skip(reason)
    ours = {
        m
        for m in _imported_modules(example.text)
        if m.split(".")[0] in ("ruby_metric", "crystal", "graphs")
    }
    for module in sorted(ours):  # every module the example imports exists
        importlib.import_module(module)
    if re.search(r"\b(pandas|df)\b", example.text):
        pytest.importorskip("pandas", reason="the block uses pandas, which is not installed")
    for name, content in PY_FILES.items():
        if name in example.text:
            _write(workdir / name, content())
    names = _python_names()
    namespace = {"__name__": "__readme__", **names}
    try:
        exec(compile(example.text, f"{example.doc}:{example.line}", "exec"), namespace)
    finally:
        for value in namespace.values():
            close = getattr(value, "close", None)
            if type(value).__name__ == "RubyScorer" and close:
                close()
    for written in re.findall(r'write_html\("([^"]+)"\)', example.text):
        assert (workdir / written).stat().st_size > 0


# -- the module paths the prose names --------------------------------------------------------

DOTTED = sorted(
    set(
        re.findall(
            r"`((?:ruby_metric|crystal|graphs)(?:\.\w+)+)",
            "\n".join(line for path in DOCS for line in _lines(path)),
        )
    )
)


def _resolve(dotted: str) -> tuple[str, object]:
    """The longest importable module of ``dotted`` and the object the rest names in it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return module_name, obj
    raise ModuleNotFoundError(dotted)


@pytest.mark.parametrize("dotted", DOTTED)
def test_named_paths_exist(dotted):
    _resolve(dotted)


#: Repository paths the docs name in backticks (``ruby_metric/scoring/tiers.py``, ``graphs/``).
REPO_PATHS = sorted(
    {
        found
        for path in DOCS
        for found in re.findall(
            r"`((?:ruby_metric|crystal|graphs|benchmarks|tests|tools|fixtures)/[\w./-]*)`",
            path.read_text(encoding="utf-8"),
        )
    }
)


@pytest.mark.parametrize("path", REPO_PATHS)
def test_named_files_exist(path):
    assert (ROOT / path).exists(), f"a doc names {path}, which is not in the tree"


def test_examples_were_found():
    kinds = {k: sum(e.kind == k for e in EXAMPLES) for k in ("python", "cli", "shown")}
    assert kinds["python"] >= 5 and kinds["cli"] >= 20 and kinds["shown"] >= 1, kinds


def test_readme_is_a_guide_of_at_most_400_lines():
    """The README is a user's guide; detail goes to docs/, history to CHANGELOG.md (#32)."""
    assert len(_lines(README)) <= 400
