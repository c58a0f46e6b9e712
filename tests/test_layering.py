"""Import layering: no import cycle among our modules; ``crystal`` and ``graphs`` stay below;
no module uses another's private names; no module is over :data:`MAX_MODULE_LINES` lines.

The module import graph of ``crystal``, ``graphs`` and ``ruby_metric`` is read from the source
files of this checkout (found with :mod:`pkgutil`, parsed with :mod:`ast`, never imported).
What counts as an edge ``a -> b`` ("running a may import b"):

* Nodes are modules; a package is its ``__init__``, named by the package.
* Every ``import`` and ``from ... import`` counts, those inside functions and methods too: a
  deferred import is still a runtime dependency (deferring an import is how a cycle is usually
  hidden, not removed). Imports under ``if TYPE_CHECKING:`` count too: they never run, but a
  type named upward or in a circle ties the modules as much as a call does (a page that
  types the report calling it cannot be read, or moved, without that report).
* Relative imports are resolved against the importing module's package.
* ``from P import name`` depends on the submodule ``P.name`` if there is one; else, if ``P`` is
  a package whose ``__init__`` re-exports ``name`` from one of our modules, on that module (the
  module the name really comes from, through chains of re-exports); else on ``P`` itself.
* A module's parent packages, which Python initialises before the module, are not edges:
  otherwise every ``__init__`` that re-exports its submodules would sit in a cycle with them,
  a cycle nobody can remove and nobody needs to.
* For the same reason, ``from <own ancestor package> import name`` is no edge when that
  package's ``__init__`` binds ``name`` itself *before* it imports any of our modules (as
  ``ruby_metric/__init__`` does ``__version__``): the ancestor is always already running, with
  the name bound, when the importer runs. Any other name taken from an ancestor is an edge (to
  where the name comes from), since it may not be bound yet.
* Only edges between our own modules are kept.

A cycle is a strongly connected component of more than one module (or a module importing
itself); the failure message names each component and its elementary cycles, with the file
and line of every import along them.

What two modules share is a public name of one of them (or of a small module named for what
it holds, such as ``graphs.lang.syntax``): a name with one leading underscore is its module's
own, and a module with one is its package's own. :class:`PrivateImports` lists the places
that break this, on the same files and the same runtime imports as the graph.
"""

from __future__ import annotations

import ast
import pkgutil
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("crystal", "graphs", "ruby_metric", "validity")
#: Packages that must import neither ``ruby_metric`` nor each other (SPEC section 2).
LOWER = ("crystal", "graphs")
#: Enough to read a report; a component with more elementary cycles than this is listed whole.
MAX_CYCLES = 50
#: The longest a module of ours may be: past it, a module is doing more than one job.
MAX_MODULE_LINES = 800

Graph = Mapping[str, Iterable[str]]


# ----------------------------------------------------------------------------- the graph


@dataclass(frozen=True)
class Module:
    """One module of ours: its dotted name, source file, and whether it is a package."""

    name: str
    path: Path
    is_package: bool

    @property
    def package(self) -> str:
        """The package its relative imports are resolved against."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass(frozen=True)
class Edge:
    """Where an import makes ``source`` depend on ``target``."""

    source: str
    target: str
    path: Path
    line: int


@dataclass
class _Init:
    """What a package ``__init__`` binds: re-exported names and its own early names."""

    reexports: dict[str, tuple[str, str]] = field(default_factory=dict)
    early: set[str] = field(default_factory=set)


def discover(root: Path, packages: Sequence[str]) -> dict[str, Module]:
    """Every module of ``packages`` (top-level folders under ``root``), by dotted name."""
    modules: dict[str, Module] = {}

    def walk(folder: Path, prefix: str) -> None:
        for info in pkgutil.iter_modules([str(folder)]):
            name = f"{prefix}.{info.name}"
            if info.ispkg:
                modules[name] = Module(name, folder / info.name / "__init__.py", True)
                walk(folder / info.name, name)
            else:
                modules[name] = Module(name, folder / f"{info.name}.py", False)

    for top in packages:
        init = root / top / "__init__.py"
        assert init.is_file(), f"package {top} not found under {root}"
        modules[top] = Module(top, init, True)
        walk(root / top, top)
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(
    tree: ast.AST, type_checking: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement in ``tree`` that can run, at any depth; with ``type_checking``,
    those under ``if TYPE_CHECKING:`` too."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test) and not type_checking:
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def absolute(module: Module, node: ast.ImportFrom) -> str:
    """The absolute module name a ``from`` import reads from."""
    if node.level == 0:
        return node.module or ""
    parts = module.package.split(".")
    if node.level - 1 >= len(parts):
        raise ValueError(f"{module.path}:{node.lineno}: relative import beyond the top package")
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _top_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """Module-level statements in order, TYPE_CHECKING blocks left out."""
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and _is_type_checking(stmt.test):
            yield from stmt.orelse
        else:
            yield stmt


def _bound_names(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    yield node.id


class ImportGraph:
    """The import graph of our modules (see the module docstring for what is an edge).

    ``type_checking=True`` counts the imports under ``if TYPE_CHECKING:`` as well (the
    checks below do; without it, the graph of the imports that run).
    """

    def __init__(self, root: Path, packages: Sequence[str], type_checking: bool = False) -> None:
        self.root = root
        self.modules = discover(root, packages)
        trees = {
            name: ast.parse(module.path.read_text(encoding="utf-8"))
            for name, module in self.modules.items()
        }
        self._inits = {
            name: self._read_init(self.modules[name], tree)
            for name, tree in trees.items()
            if self.modules[name].is_package
        }
        self.edges: list[Edge] = []
        for name, tree in trees.items():
            module = self.modules[name]
            for node in runtime_imports(tree, type_checking):
                for target in self._targets(module, node):
                    self.edges.append(Edge(name, target, module.path, node.lineno))

    def graph(self) -> dict[str, set[str]]:
        """Module -> the modules it imports (every module is a key)."""
        out: dict[str, set[str]] = {name: set() for name in self.modules}
        for edge in self.edges:
            out[edge.source].add(edge.target)
        return out

    def where(self, source: str, target: str) -> list[str]:
        """``path:line`` of each import that makes ``source`` depend on ``target``."""
        return sorted(
            {
                f"{e.path.relative_to(self.root)}:{e.line}"
                for e in self.edges
                if e.source == source and e.target == target
            }
        )

    def _ours(self, dotted: str) -> str | None:
        """The longest prefix of ``dotted`` that is one of our modules."""
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            name = ".".join(parts[:end])
            if name in self.modules:
                return name
        return None

    def _read_init(self, package: Module, tree: ast.Module) -> _Init:
        init = _Init()
        imported_ours = False
        for stmt in _top_level(tree):
            if isinstance(stmt, ast.ImportFrom):
                source = absolute(package, stmt)
                if self._ours(source) is None:
                    continue
                imported_ours = True
                for alias in stmt.names:
                    init.reexports[alias.asname or alias.name] = (source, alias.name)
            elif isinstance(stmt, ast.Import):
                imported_ours = imported_ours or any(self._ours(a.name) for a in stmt.names)
            elif not imported_ours:
                init.early.update(_bound_names(stmt))
        return init

    def _targets(self, module: Module, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = self._ours(alias.name)
                if target is not None:
                    yield target
            return
        source = absolute(module, node)
        if self._ours(source) is None:
            return
        for alias in node.names:
            target = self._from_target(module, source, alias.name)
            if target is not None:
                yield target

    def _from_target(self, module: Module, source: str, name: str) -> str | None:
        """The module ``from source import name`` depends on (None: no edge)."""
        seen: set[tuple[str, str]] = set()
        while True:
            if f"{source}.{name}" in self.modules:
                return f"{source}.{name}"
            init = self._inits.get(source)
            if init is None or name not in init.reexports or (source, name) in seen:
                break
            seen.add((source, name))
            source, name = init.reexports[name]
        init = self._inits.get(source)
        if init is not None and name in init.early and module.name.startswith(source + "."):
            return None
        return self._ours(source)


# ----------------------------------------------------------------------------- cycles


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative), each sorted, in sorted order."""
    nodes = set(graph) | {t for targets in graph.values() for t in targets}
    succ = {n: sorted(graph.get(n, ())) for n in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            if i < len(succ[node]):
                work.append((node, i + 1))
                nxt = succ[node][i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:  # node is done: pass its low link to the node that reached it
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return sorted(components)


def find_cycles(graph: Graph, limit: int = MAX_CYCLES) -> list[list[str]]:
    """Elementary cycles of ``graph``, each starting at its smallest node, in sorted order.

    Only components that hold a cycle are searched, and at most ``limit`` cycles per
    component are listed (the import graphs here are small; a listing is for reading).
    """
    cycles: list[list[str]] = []
    for component in strongly_connected(graph):
        members = set(component)
        found: list[list[str]] = []
        # Each cycle is found once: from its smallest node, through larger nodes only.
        for start in component:
            path = [start]
            branches = [iter(sorted(t for t in graph.get(start, ()) if t in members))]
            while branches and len(found) < limit:
                nxt = next(branches[-1], None)
                if nxt is None:
                    branches.pop()
                    path.pop()
                elif nxt == start:
                    found.append(list(path))
                elif nxt > start and nxt not in path:
                    path.append(nxt)
                    branches.append(iter(sorted(t for t in graph.get(nxt, ()) if t in members)))
        cycles.extend(found)
    return sorted(cycles)


def describe_cycles(graph: ImportGraph, cycles: list[list[str]]) -> str:
    """A report naming every module of every cycle, and the imports that close it."""
    lines = [f"{len(cycles)} import cycle(s) among our modules:"]
    lines += _rings(graph, cycles)
    return "\n".join(lines)


def _rings(graph: ImportGraph, cycles: list[list[str]]) -> list[str]:
    lines = []
    for cycle in cycles:
        ring = cycle + cycle[:1]
        lines.append("  " + " -> ".join(ring))
        for source, target in zip(ring, ring[1:], strict=False):
            lines.append(f"      {source} -> {target}: {', '.join(graph.where(source, target))}")
    return lines


# ----------------------------------------------------------------------------- private names


def _is_private(name: str) -> bool:
    """One leading underscore: private. Dunder names (``__version__``) are not."""
    return name.startswith("_") and not name.startswith("__")


@dataclass(frozen=True)
class PrivateUse:
    """A module using a private name of another module of ours."""

    path: Path
    line: int
    what: str


class PrivateImports:
    """Every place a module of ours uses a private name of another module of ours.

    Three forms are found (imports as :func:`runtime_imports` finds them, at any depth):

    * ``from M import _name``, relative or absolute, re-exports followed: a public name that
      a package ``__init__`` binds to another module's private one is that private one;
    * a private *module* reached from outside its package: ``from P import _mod``,
      ``import P._mod``, ``from P._mod import x`` (its package's own modules may);
    * ``mod._name`` (also ``pkg.mod._name``), where ``mod`` is bound only by ``import M``
      or ``import M as mod`` or by ``from P import mod`` of a submodule. A name the file
      binds in any other way too (an assignment, a parameter, a loop variable) is skipped:
      the attribute may not be the module's there.
    """

    def __init__(self, graph: ImportGraph) -> None:
        self.graph = graph

    def find(self) -> list[PrivateUse]:
        uses: list[PrivateUse] = []
        for module in self.graph.modules.values():
            tree = ast.parse(module.path.read_text(encoding="utf-8"))
            uses += self._in_module(module, tree)
        return sorted(uses, key=lambda u: (str(u.path), u.line, u.what))

    def _in_module(self, module: Module, tree: ast.Module) -> list[PrivateUse]:
        uses: list[PrivateUse] = []
        modules: dict[str, str] = {}  # a name the file binds to one of our modules -> it

        def use(node: ast.stmt | ast.expr, what: str) -> None:
            uses.append(PrivateUse(module.path, node.lineno, what))

        for node in runtime_imports(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if self.graph._ours(alias.name) is None:
                        continue
                    self._private_module(module, node, alias.name, use)
                    if alias.asname:
                        modules[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        modules[top] = top
                continue
            source = absolute(module, node)
            if self.graph._ours(source) is None:
                continue
            self._private_module(module, node, source, use)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                if submodule in self.graph.modules:
                    self._private_module(module, node, submodule, use)
                    modules[alias.asname or alias.name] = submodule
                    continue
                origin = self._origin(source, alias.name)
                if origin is not None:
                    via = "" if origin == (source, alias.name) else f" (= {'.'.join(origin)})"
                    use(node, f"from {source} import {alias.name}{via}")

        rebound = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del))
        } | {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
                continue
            dotted = _dotted(node.value)
            if dotted is None or dotted[0] not in modules or dotted[0] in rebound:
                continue
            target = ".".join([modules[dotted[0]], *dotted[1:]])
            if target in self.graph.modules and target != module.name:
                use(node, f"{'.'.join(dotted)}.{node.attr} (= {target}.{node.attr})")
        return uses

    def _origin(self, source: str, name: str) -> tuple[str, str] | None:
        """The private ``(module, name)`` that ``from source import name`` binds, or None."""
        seen: set[tuple[str, str]] = set()
        while True:
            if _is_private(name):
                return source, name
            init = self.graph._inits.get(source)
            if init is None or name not in init.reexports or (source, name) in seen:
                return None
            seen.add((source, name))
            source, name = init.reexports[name]
            if f"{source}.{name}" in self.graph.modules:
                return None  # a submodule, re-exported under its own name

    def _private_module(
        self, module: Module, node: ast.stmt, dotted: str, use: Callable[..., None]
    ) -> None:
        """Flag ``dotted`` if it goes through a private module of a package ``module`` is not
        in (the first private part decides: what lies below it is that package's too)."""
        parts = dotted.split(".")
        for end in range(1, len(parts)):
            if _is_private(parts[end]):
                package = ".".join(parts[:end])
                if not f"{module.name}.".startswith(f"{package}."):  # the package or below
                    use(node, f"private module {'.'.join(parts[: end + 1])}")
                return


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything but names and attributes."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def _relative(path: Path, root: Path = ROOT) -> str:
    return path.relative_to(root).as_posix()


# ----------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def import_graph() -> ImportGraph:
    return ImportGraph(ROOT, PACKAGES, type_checking=True)


def test_every_module_is_read(import_graph: ImportGraph) -> None:
    # A walk that silently found nothing would pass every check below.
    names = set(import_graph.modules)
    expected = {"crystal.bleu", "graphs.ged", "ruby_metric.api.scorer", "ruby_metric.meta.stacked"}
    assert expected <= names
    edges = {(e.source, e.target) for e in import_graph.edges}
    assert ("ruby_metric.api.scorer", "crystal") in edges


def test_no_import_cycles(import_graph: ImportGraph) -> None:
    cycles = find_cycles(import_graph.graph())
    if cycles:
        pytest.fail(describe_cycles(import_graph, cycles), pytrace=False)


def test_lower_packages_do_not_import_up_or_across(import_graph: ImportGraph) -> None:
    bad = []
    for edge in import_graph.edges:
        source_top, target_top = edge.source.split(".")[0], edge.target.split(".")[0]
        if source_top in LOWER and target_top != source_top:
            where = f"{edge.path.relative_to(ROOT)}:{edge.line}"
            bad.append(f"  {edge.source} -> {edge.target} ({where})")
    message = f"{' and '.join(LOWER)} must import neither ruby_metric nor each other:\n"
    assert not bad, message + "\n".join(sorted(bad))


def test_the_product_never_imports_the_validity_benchmark(import_graph: ImportGraph) -> None:
    """``validity`` (the benchmark, not in the wheel) uses the product; never the reverse."""
    bad = [
        f"  {e.source} -> {e.target} ({e.path.relative_to(ROOT)}:{e.line})"
        for e in import_graph.edges
        if e.target.split(".")[0] == "validity" and e.source.split(".")[0] != "validity"
    ]
    assert not bad, "the product imports the validity benchmark:\n" + "\n".join(sorted(bad))


def test_the_wheel_ships_no_benchmark_code() -> None:
    """pyproject's package list leaves ``validity`` out, and nothing of it is in meta."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    include = found["packages"]["find"]["include"]
    assert not any(pattern.startswith("validity") for pattern in include), include
    meta = ROOT / "ruby_metric" / "meta"
    names = {p.stem for p in meta.glob("*.py")} | {p.name for p in meta.iterdir() if p.is_dir()}
    assert not names & {"mutations", "validity", "judged", "execution", "coverage"}, names


#: The layers of ``ruby_metric``, bottom first (docs/architecture.md): a module may import its
#: own layer and the layers before it, never one after it.
LAYERS = ("scoring", "io", "meta", "pages", "batch", "api", "reports", "cli")
#: Modules directly under ``ruby_metric``: the bottom one any layer may use, the top ones
#: that may use any layer (the package itself re-exports the public API).
BOTTOM = ("ruby_metric.version",)
TOP = ("ruby_metric", "ruby_metric.__main__", "ruby_metric.kernels")


def layer_of(module: str) -> int | None:
    """Rank of ``module``'s layer, ``-1`` for the bottom modules, ``None`` if it has no layer
    (a top module)."""
    if module in BOTTOM:
        return -1
    parts = module.split(".")
    if len(parts) > 2 and parts[0] == "ruby_metric" and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def test_ruby_metric_layers_import_only_downward(import_graph: ImportGraph) -> None:
    bad, unplaced = [], []
    for name in import_graph.modules:
        top_level = name.startswith("ruby_metric.") and layer_of(name) is None
        if top_level and name not in TOP and name.split(".")[1] not in LAYERS:
            unplaced.append(name)
    for edge in import_graph.edges:
        if not edge.source.startswith("ruby_metric") or not edge.target.startswith("ruby_metric"):
            continue
        source, target = layer_of(edge.source), layer_of(edge.target)
        if source is not None and (target is None or target > source):
            where = f"{edge.path.relative_to(ROOT)}:{edge.line}"
            bad.append(f"  {edge.source} -> {edge.target} ({where})")
    assert not unplaced, f"modules in no layer of {LAYERS}: {sorted(unplaced)}"
    assert not bad, "imports pointing up the layers " + " < ".join(LAYERS) + ":\n" + "\n".join(
        sorted(bad)
    )


def test_old_flat_paths_are_gone() -> None:
    """0.6 removed the 0.5 compatibility modules (``ruby_metric.tiers`` and the like)."""
    import importlib.util

    for name in ("ruby_metric.tiers", "ruby_metric.scorer", "ruby_metric.deprecations"):
        assert importlib.util.find_spec(name) is None, name


def test_no_private_cross_module_imports(import_graph: ImportGraph) -> None:
    uses = PrivateImports(import_graph).find()
    bad = [f"  {_relative(u.path)}:{u.line}: {u.what}" for u in uses]
    assert not bad, "modules use another module's private names (share a public name):\n" + (
        "\n".join(bad)
    )


def test_no_module_over_800_lines(import_graph: ImportGraph) -> None:
    bad = []
    for module in import_graph.modules.values():
        lines = len(module.path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            bad.append(f"  {_relative(module.path)}: {lines} lines")
    assert not bad, f"modules over {MAX_MODULE_LINES} lines (split them by job):\n" + (
        "\n".join(sorted(bad))
    )


# ----------------------------------------------------------------------------- graphs' layers

#: The subpackages of ``graphs``, bottom first (docs/architecture.md): a module may import its
#: own subpackage and those before it, never one after it. ``ged`` knows no language and
#: imports nothing else of ``graphs``; ``neutral`` reads what ``pdg`` and ``trees`` build.
GRAPHS_LAYERS = ("ged", "lang", "parsing", "trees", "repair", "flow", "canon", "pdg",
                 "neutral")
#: The most modules ``graphs`` may have at its top, ``__init__`` included: the rest live in the
#: subpackages, whose names say what they hold.
MAX_GRAPHS_TOP_MODULES = 8


def graphs_layer_of(module: str) -> int | None:
    """Rank of the ``graphs`` subpackage ``module`` is in, ``None`` if it is in none (a module
    at the top of ``graphs``, which may use every subpackage and which none may use)."""
    parts = module.split(".")
    if len(parts) > 1 and parts[0] == "graphs" and parts[1] in GRAPHS_LAYERS:
        return GRAPHS_LAYERS.index(parts[1])
    return None


@pytest.fixture(scope="module")
def typed_import_graph() -> ImportGraph:
    # the imports under TYPE_CHECKING too: a type that points up the layers is an upward arrow
    return ImportGraph(ROOT, PACKAGES, type_checking=True)


def test_graphs_layers_import_only_downward(typed_import_graph: ImportGraph) -> None:
    graph = typed_import_graph
    folders = {p.name for p in (ROOT / "graphs").iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(GRAPHS_LAYERS), f"subpackages of graphs not in GRAPHS_LAYERS: {folders}"
    bad = []
    for edge in graph.edges:
        if edge.source.split(".")[0] != "graphs" or edge.target.split(".")[0] != "graphs":
            continue
        source, target = graphs_layer_of(edge.source), graphs_layer_of(edge.target)
        if source is not None and (target is None or target > source):
            bad.append(f"  {edge.source} -> {edge.target} ({_relative(edge.path)}:{edge.line})")
    assert not bad, "imports pointing up graphs' layers " + " < ".join(GRAPHS_LAYERS) + (
        ":\n" + "\n".join(sorted(bad)))


def test_graphs_top_is_small_and_each_subpackage_says_what_it_is(
    import_graph: ImportGraph,
) -> None:
    top = sorted(m.path.name for m in import_graph.modules.values()
                 if m.path.parent == ROOT / "graphs")  # graphs/__init__.py and its siblings
    assert len(top) <= MAX_GRAPHS_TOP_MODULES, f"modules at the top of graphs/: {top}"
    silent = []
    for module in import_graph.modules.values():
        if not (module.is_package and module.name.startswith("graphs.")):
            continue
        doc = ast.get_docstring(ast.parse(module.path.read_text(encoding="utf-8"))) or ""
        summary = doc.split("\n\n")[0].strip()
        # a summary of its own: the reader sees what the folder holds in a line or two
        if not summary or summary.count("\n") > 1:
            silent.append(f"  {_relative(module.path)}: {summary[:60]!r}")
    assert not silent, "subpackages of graphs without a short summary docstring:\n" + (
        "\n".join(silent))


def test_no_public_name_of_graphs_hides_a_subpackage() -> None:
    # ``graphs.parse`` is the parse function: a subpackage of that name would be reachable by
    # import but not as ``graphs.parse.x`` (monkeypatch's dotted paths, a user's attribute)
    # read from the source, not the live module: importing a subpackage rebinds its name on
    # the package, which would hide the clash in any process that imported it already
    tree = ast.parse((ROOT / "graphs" / "__init__.py").read_text(encoding="utf-8"))
    bound = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and not (node.level == 1 and node.module is None):
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            bound |= {alias.asname or alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Assign):
            bound |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    assert "parse" in bound and "tree_edit_distance" in bound  # the reading sees the face
    assert not bound & set(GRAPHS_LAYERS), sorted(bound & set(GRAPHS_LAYERS))


def test_graphs_layer_rule_on_hand_made_names() -> None:
    assert graphs_layer_of("graphs.pdg.build") == GRAPHS_LAYERS.index("pdg")
    assert graphs_layer_of("graphs.ged") == 0
    assert graphs_layer_of("graphs") is None
    assert graphs_layer_of("ruby_metric.pdg.x") is None
    assert GRAPHS_LAYERS.index("canon") < GRAPHS_LAYERS.index("pdg")


# ------------------------------------------------------------------- the finder's own tests


def test_find_cycles_on_a_hand_made_graph() -> None:
    graph = {
        "a": ["b"],
        "b": ["a", "c"],
        "c": ["a", "d"],
        "d": [],
        "e": ["e"],  # a self-import is a cycle too
        "f": ["g"],
        "g": ["d"],
    }
    assert strongly_connected(graph) == [["a", "b", "c"], ["d"], ["e"], ["f"], ["g"]]
    assert find_cycles(graph) == [["a", "b"], ["a", "b", "c"], ["e"]]
    assert find_cycles({"x": ["y"], "y": ["z"], "z": []}) == []
    assert find_cycles({}) == []


def test_find_cycles_agrees_with_networkx() -> None:
    nx = pytest.importorskip("networkx")
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 7)
        nodes = [f"m{i}" for i in range(n)]
        graph = {a: [b for b in nodes if rng.random() < 0.3] for a in nodes}
        expected = []
        for cycle in nx.simple_cycles(nx.DiGraph([(a, b) for a in graph for b in graph[a]])):
            turn = cycle.index(min(cycle))
            expected.append(cycle[turn:] + cycle[:turn])
        assert find_cycles(graph, limit=10**6) == sorted(expected), graph
        components = [sorted(c) for c in nx.strongly_connected_components(nx.DiGraph(graph))]
        components += [[v] for v in nodes if v not in nx.DiGraph(graph)]
        assert strongly_connected(graph) == sorted(components)


def test_edge_rules_on_a_hand_made_package(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": '__version__ = "1"\nfrom .a import A\nLATE = 1\n',
        "pkg/a.py": (
            "from typing import TYPE_CHECKING\n"
            "import os\n"
            "from . import __version__\n"  # bound before pkg imports anything: no edge
            "if TYPE_CHECKING:\n"
            "    from .b import B\n"  # never runs: no edge
            "else:\n"
            "    import pkg.c\n"
            "class A:\n"
            "    def f(self):\n"
            "        from .sub import helper\n"  # re-exported by pkg.sub from pkg.sub.impl
        ),
        "pkg/b.py": "from pkg import A, LATE\n",  # A comes from pkg.a; LATE may not be bound yet
        "pkg/c.py": "",
        "pkg/sub/__init__.py": "from .impl import helper\n",
        "pkg/sub/impl.py": "from .. import c\ndef helper():\n    pass\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = ImportGraph(tmp_path, ["pkg"])
    assert graph.graph() == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.c", "pkg.sub.impl"},
        "pkg.b": {"pkg", "pkg.a"},
        "pkg.c": set(),
        "pkg.sub": {"pkg.sub.impl"},
        "pkg.sub.impl": {"pkg.c"},
    }
    assert graph.where("pkg.a", "pkg.sub.impl") == ["pkg/a.py:10"]
    assert find_cycles(graph.graph()) == []


def test_private_name_rules_on_a_hand_made_package(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "__version__ = '1'\nfrom .a import _hidden as shown\nfrom .a import A\n",
        "pkg/a.py": "A = 1\n_hidden = 2\n_own = 3\nx = _own\n",
        "pkg/_impl.py": "def f():\n    pass\n",
        "pkg/sub/__init__.py": "from .._impl import f\nfrom pkg import _impl\n",  # below: fine
        "pkg/b.py": (
            "from pkg.a import _hidden\n"
            "from . import shown\n"  # a private name under a public alias
            "from pkg.a import A as _A\n"  # a public name under a private alias: fine
            "from pkg import __version__\n"  # dunder: fine
            "from ._impl import f\n"  # a private module of its own package: fine
            "import pkg.a\n"
            "from pkg import a as mod\n"
            "y = pkg.a._own + mod._own\n"
            "def g(other):\n"
            "    from pkg.a import _hidden as h\n"  # inside a function: counts too
            "    return other._x + h\n"  # not a module
        ),
        "top/__init__.py": "",
        "top/c.py": "from pkg._impl import f\nimport pkg._impl\nfrom pkg import _impl\n",
        "top/d.py": "from pkg import a\na = a\nz = a._own\n",  # rebound: may not be the module
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    uses = PrivateImports(ImportGraph(tmp_path, ["pkg", "top"])).find()
    assert [(_relative(u.path, tmp_path), u.line, u.what) for u in uses] == [
        ("pkg/__init__.py", 2, "from pkg.a import _hidden"),
        ("pkg/b.py", 1, "from pkg.a import _hidden"),
        ("pkg/b.py", 2, "from pkg import shown (= pkg.a._hidden)"),
        ("pkg/b.py", 8, "mod._own (= pkg.a._own)"),
        ("pkg/b.py", 8, "pkg.a._own (= pkg.a._own)"),
        ("pkg/b.py", 10, "from pkg.a import _hidden"),
        ("top/c.py", 1, "private module pkg._impl"),
        ("top/c.py", 2, "private module pkg._impl"),
        ("top/c.py", 3, "private module pkg._impl"),
    ]
