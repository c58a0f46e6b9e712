"""The I/O model of the neutral PDG: standard input as a stream of tokens and lines,
standard output as prints, whatever object or idiom a program reads and writes with.

A translation of a whole program differs from its source most where it reads and writes:
Java reads tokens through a ``Scanner``, a ``StringTokenizer`` over a ``BufferedReader``
or a hand-written fast reader; Python reads lines (``input()``) or tokens (``a, b =
map(int, input().split())``, ``sys.stdin.read().split()`` consumed by index); C reads with
``scanf``, C++ with ``cin >>``. :func:`io_model` rewrites each into one model
(:data:`~graphs.neutral.vocabulary.IO`):

- **reads**: one token (``read_int()``, ``read_float()``, ``read_token()``), a list of
  tokens (``read_list(int)``, ``read_list(float)``, ``read_list(str)``), one line
  (``input()``), all remaining tokens (``read_tokens()``), all lines (``read_lines()``);
- **prints**: ``print(...)`` with a newline, ``write(...)`` without;
- **plumbing**: a reader's or writer's construction, ``close()``, ``flush()``, the set-up
  of the streams and of the run time (``sys.setrecursionlimit(...)``): no statement.

Reads are known by what they do, not by a class name:

- an object constructed over standard input (``new Scanner(System.in)``, ``new
  BufferedReader(new InputStreamReader(System.in))``) is a *reader*; one constructed over
  a line it read (``new StringTokenizer(br.readLine())``) a *tokenizer*; a method of
  either reads what its name says (``nextInt`` an int token, ``next``/``nextToken`` a
  token, ``readLine`` a line: ``reader methods``); the program's own constructor that only
  builds readers makes a reader too (a fast reader class);
- a method of the program whose every ``return`` returns a read (``return
  Integer.parseInt(next())`` where ``next()`` returns a tokenizer's next token) *is* that
  read: its calls are the read, its body is plumbing (the reader class a translation
  rightly drops);
- a local that holds the tokens of a line or of the whole input (``input().split()``,
  ``sys.stdin.read().split()``, ``Console.ReadLine().Split(' ')``, JavaScript's
  ``readFileSync(0, "utf8").split(/\\s+/)``), read only by index (``data[i]``,
  ``data[idx++]``) or through an iterator (``next(it)``), is a token stream: each element
  read is a token read, the list, the iterator and the index counter are plumbing; a list
  of the input's lines read by index is a line stream;
- ``a, b = map(int, input().split())`` (``const [a, b] = ...split(" ").map(Number)``)
  destructured into k names is k token reads, one statement each; so are ``scanf("%d
  %d", &a, &b)`` (types from the format) and ``cin >> a >> b`` (types from the
  declarations);
- ``int(input())`` stays a line read: a translation that reads a line where its source
  read a token differs from it, as it does at run time;
- a list of tokens is one read, ``read_list(int)``, however written (a line's tokens, a
  comprehension over a stream, a loop storing a token read per element); a stream read
  where it already read is the same token again (:mod:`graphs.neutral.io_lists`).

Reads and prints are ordered among themselves: their effect edges are rebuilt as one
chain in program order within each function (carried round a loop that holds them), the
same for every language (each language's PDG orders calls its own way: Java takes
``sc.nextInt()`` to update ``sc``, Python's ``input()`` has unknown effects).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from graphs.neutral import vocabulary
from graphs.neutral.calls import prepare_tokens
from graphs.neutral.io_edges import (
    control_parents,
    edges_without,
    function_bodies,
    io_chain,
    loop_collapsed,
    loop_members,
    read_ahead_edges,
    split_edges,
)
from graphs.neutral.io_lists import (
    LIST_READS,
    comprehension_base,
    comprehension_reads,
    counted_by_list,
    counted_from_zero,
    line_lists,
    list_read_kind,
    list_store,
    read_ahead_site,
    stale_reads,
)
from graphs.neutral.io_tokens import (
    IO_WORDS,
    READS,
    assignment,
    constructed,
    converted,
    counter_step,
    does_io,
    find_sequence,
    function_name,
    indexes_only,
    is_literal,
    is_read,
    is_sequence,
    list_kind,
    only_indexed,
    read_spans,
    scanf_reads,
    split_at,
)
from graphs.neutral.tokens import (
    is_local,
    is_word,
    matching,
    opening,
    operand_end,
    render_tokens,
    split_label,
    top_level,
)

__all__ = ["IoRewrite", "io_model"]

_IO = vocabulary.IO
_LIST_HEADS = frozenset({"read_all", "read_tokens", "read_lines", "input"})
_TOKEN_READS = frozenset({READS[k][0] for k in ("int", "float", "token")})
_COMPREHENSION = "io:list comprehension -> list read"
_AGAIN = {kind: split_label(text) for kind, text in _IO["again"].items()}


@dataclass
class IoRewrite:
    """What :func:`io_model` did to a graph (the caller's node order, labels, kinds and
    edges are updated in place; this holds the rest).

    Attributes
    ----------
    order : the node order, with the nodes a statement was split into after it and the
        plumbing left out.
    edges : the new edge list.
    added : nodes made by splitting a statement -> the statement they came from.
    rules : per node, the I/O rules that rewrote it (``io:int read``, ...).
    idioms : one entry per rewrite, for the report (``split line -> token reads``).
    resolved : words the model gave a meaning (a reader's methods, the program's read
        methods): not unknown to the map.
    """

    order: list[int]
    edges: list[tuple[int, int, dict]]
    added: dict[int, int] = field(default_factory=dict)
    rules: dict[int, tuple[str, ...]] = field(default_factory=dict)
    idioms: list[str] = field(default_factory=list)
    resolved: frozenset[str] = frozenset()


def io_model(order: list[int], labels: dict[int, str | None], kinds: dict[int, str],
             source_labels: dict[int, str], edges: list[tuple[int, int, dict]],
             language: str) -> IoRewrite:
    """Rewrite a neutral PDG's reads, prints and I/O plumbing into the I/O model (see the
    module doc).

    Parameters
    ----------
    order : the nodes, in program order.
    labels : node -> neutral label (updated in place; new nodes added).
    kinds : node -> kind (updated in place for new nodes).
    source_labels : node -> the language's own PDG label (declared types, set-up calls).
    edges : ``(u, v, attrs)`` edges.
    language : the graph's language.

    Returns
    -------
    IoRewrite

    Examples
    --------
    >>> labels = {0: "def main(_)", 1: "v0 = scanner(system.in)", 2: "v1 = v0.next_int()"}
    >>> kinds = {0: "entry", 1: "declaration", 2: "declaration"}
    >>> edges = [(0, 1, {"type": "control", "dep": "control"}),
    ...          (0, 2, {"type": "control", "dep": "control"}),
    ...          (1, 2, {"type": "data", "var": "v0", "dep": "data"})]
    >>> r = io_model([0, 1, 2], labels, kinds, dict(labels), edges, "java")
    >>> r.order, labels[2], r.rules[2]
    ([0, 2], 'v1 = read_int()', ('io:int read',))
    """
    return _Model(order, labels, kinds, source_labels, edges, language).run()


class _Model:
    """One graph's rewrite: the names it found, then the nodes it changed."""

    def __init__(self, order: list[int], labels: dict[int, str | None],
                 kinds: dict[int, str], source_labels: dict[int, str],
                 edges: list[tuple[int, int, dict]], language: str) -> None:
        self.order = list(order)
        self.labels = labels
        self.kinds = kinds
        self.source = source_labels
        self.edges = edges
        self.language = language
        self.toks = {n: split_label(labels[n] or "") for n in order}
        self.stdin = [split_label(t) for t in _IO["stdin"].get(language, ())]
        self.stdout = [split_label(t) for t in _IO["stdout"].get(language, ())]
        self.readers: set[str] = set()
        self.writers: set[str] = set()
        self.line_aliases: set[str] = set()
        self.iterators: dict[str, str] = {}  # name -> element kind
        self.lists: dict[str, str] = {}  # token or line list -> element kind
        self.methods: dict[str, list[str]] = {}  # the program's read methods -> read
        self.constructors: set[str] = set()
        self.dropped: set[int] = set()
        self.rules: dict[int, list[str]] = {}
        self.idioms: list[str] = []
        self.resolved: set[str] = set()
        self.owner, self.functions = function_bodies(order, kinds, self.toks, edges)
        self.program_names = {function_name(self.toks[f]) for f in self.functions}
        self.added: dict[int, int] = {}
        self.counters: set[str] = set()  # indexes of token lists read in place
        self.stale: set[int] = set()  # nodes reading a token stream at a used position
        self.node: int | None = None  # the node being rewritten

    # ------------------------------------------------------------------ driver

    def run(self) -> IoRewrite:
        if not self._has_io():
            return IoRewrite(self.order, self.edges)
        self._find_streams()
        self._find_lists()
        self._find_methods()
        for n in self.order:
            if n not in self.dropped:
                self._rewrite_node(n)
        self._drop_consumed_counters()
        added = self._split_statements()
        self._plumbing_statements()
        kept = [n for n in self.order if n not in self.dropped]
        edges = edges_without(self.edges, self.dropped)
        edges = io_chain(kept, edges, [n for n in kept if does_io(self.toks.get(n, []))],
                         self.kinds, {n: self.owner.get(self.added.get(n, n)) for n in kept})
        return IoRewrite(kept, edges, added,
                         {n: tuple(dict.fromkeys(r)) for n, r in self.rules.items()
                          if n not in self.dropped},
                         self.idioms, frozenset(self.resolved))

    def _has_io(self) -> bool:
        words = {t for toks in self.toks.values() for t in toks}
        seqs = self.stdin + self.stdout
        return bool(words & (IO_WORDS | {"scanf", "cin", "getline"})) or any(
            find_sequence(toks, s) >= 0 for toks in self.toks.values() for s in seqs)

    def _rule(self, n: int, rule: str, idiom: str | None = None) -> None:
        self.rules.setdefault(n, []).append(rule)
        if idiom:
            self.idioms.append(idiom)

    def _set(self, n: int, toks: list[str]) -> None:
        self.toks[n] = toks
        self.labels[n] = render_tokens(toks)

    def _drop(self, n: int, what: str) -> None:
        if n not in self.dropped:
            self.dropped.add(n)
            self.idioms.append(f"{what} -> no statement")

    # ------------------------------------------------------------------ streams

    def _find_streams(self) -> None:
        """Readers, tokenizers and writers: names assigned an object constructed over a
        standard stream, over a reader, or over a line read (a fixed point: a reader
        built over a reader is one)."""
        changed = True
        while changed:
            changed = False
            for n in self.order:
                target, rhs = assignment(self.toks[n])
                if target is None or target in self.readers | self.writers:
                    continue
                if self.kinds[n] in ("function", "entry", "param"):
                    continue
                name = target
                if self.language == "python" and is_sequence(rhs, self.stdin, [".", "readline"]):
                    self.line_aliases.add(name)
                    self._drop(n, "line reader alias")
                    continue
                if rhs[:2] == ["require", "("] and rhs[2:3] in (['"fs"'], ['"readline"']):
                    self._drop(n, "stream module")
                    continue
                if not constructed(rhs):
                    continue
                over_in = any(find_sequence(rhs, s) >= 0 for s in self.stdin) or any(
                    t in self.readers for t in rhs) or rhs[0] in self.constructors
                over_line = rhs[2:5] == READS["line"] and rhs[5:6] in ([")"], [","]) and (
                    rhs[0] not in self.program_names)
                if over_in or over_line:
                    self.readers.add(name)
                    self._drop(n, "reader construction")
                    changed = True
                elif any(find_sequence(rhs, s) >= 0 for s in self.stdout) or any(
                        t in self.writers for t in rhs[2:]):
                    self.writers.add(name)
                    self._drop(n, "writer construction")
                    changed = True
            for f, body in self.functions.items():
                name = function_name(self.toks[f])
                if name and name not in self.constructors and body and all(
                        b in self.dropped for b in body if self.kinds[b] != "param"):
                    self.constructors.add(name)
                    self.dropped.add(f)
                    self.dropped.update(body)
                    changed = True

    # ------------------------------------------------------------------ token lists

    def _drop_consumed_counters(self) -> None:
        """An index that walked a token list read in place (``data[i++]`` where ``data``
        was never a local) and does nothing else is plumbing of the stream."""
        for c in sorted(self.counters):
            nodes = [m for m in self.order if m not in self.dropped and c in self.toks[m]]
            if nodes and all(counter_step(self.toks[m], c) for m in nodes):
                for m in nodes:
                    self._drop(m, "token index")

    def _find_lists(self) -> None:
        """Locals holding a line's or the input's tokens (or lines) read in order: streams."""
        defs: dict[str, list[int]] = {}
        for n in self.order:
            target, _rhs = assignment(self.toks[n])
            if target is not None:
                defs.setdefault(target, []).append(n)
        for name, nodes in defs.items():
            if len(nodes) != 1 or not is_local(name):
                continue
            n = nodes[0]
            rhs = [READS["line"][0] if t in self.line_aliases else t  # an alias reads lines
                   for t in assignment(self.toks[n])[1]]
            iterator = rhs[:2] == ["iter", "("] and matching(rhs, 1) == len(rhs) - 1
            kind = list_kind(rhs[2:-1] if iterator else rhs)
            if kind is None:
                continue
            if iterator:
                self.iterators[name] = kind
                self._drop(n, "token list")
                continue
            uses = [m for m in self.order if m != n and name in self.toks[m]]
            iters = [m for m in uses if assignment(self.toks[m])[1] == ["iter", "(", name, ")"]]
            if all(m in iters or only_indexed(self.toks[m], name) for m in uses) and \
                    self._read_in_order(name, uses):
                self.lists[name] = kind
                self._drop(n, "token list")
                for m in iters:
                    it = assignment(self.toks[m])[0]
                    if it is not None:
                        self.iterators[it] = kind
                        self.dropped.add(m)
                self._drop_counters(name)

    def _read_in_order(self, name: str, uses: list[int]) -> bool:
        """Whether a list is read as a stream: each element once, at a distinct constant
        index (``parts[0]``, ``parts[1]``) or at a counter that only steps (``data[i]``;
        ``i += 1``). A list read at any other index (``a[i]`` in a loop over ``i``) is an
        array the program keeps, not a stream."""
        constants: list[str] = []
        for m in uses:
            toks = self.toks[m]
            for k, t in enumerate(toks[:-1]):
                if t != name or toks[k + 1] != "[" or (k and toks[k - 1] in (".", "?.")):
                    continue
                inner = toks[k + 2:matching(toks, k + 1)]
                if len(inner) == 1 and inner[0].isdigit():
                    constants.append(inner[0])
                    continue
                if self._walking_index(m, inner, name):
                    continue
                counter = inner[0] if inner[1:] in ([], ["++"]) and inner else None
                if counter is None or not is_local(counter) or not self._is_counter(
                        counter, name):
                    return False
        return len(constants) == len(set(constants))

    def _walking_index(self, m: int, inner: list[str], name: str) -> bool:
        """``data[i]``, ``data[1 + i]``, ``data[idx + i]`` (``idx`` a counter) in a
        comprehension over ``i in range(...)``, or as a counted loop's one use of ``data``
        (not in a branch): the next elements of the stream, read in order."""
        base = comprehension_base(self.toks[m], inner)
        if base is None:
            loop = control_parents(self.edges).get(m, [None])[0]
            members = loop_members([loop], self.kinds, self.edges).get(loop, set())
            head = self.toks.get(loop, [])
            if counted_from_zero(head) is None or sum(
                    t == name for x in members for t in self.toks.get(x, ())) != 1:
                return False
            base = comprehension_base(head + self.toks[m], inner)
        return base is not None and (base.isdigit() or self._is_counter(base, name))

    def _is_counter(self, c: str, name: str) -> bool:
        nodes = [m for m in self.order if c in self.toks[m]]
        return all(counter_step(self.toks[m], c) or indexes_only(self.toks[m], c, name)
                   for m in nodes)

    def _drop_counters(self, name: str) -> None:
        """An index that only walks a token list (``i = 0``, ``i += 1``, ``data[i++]``)
        is plumbing of the stream; a read at it with no step since the previous read (a
        forgotten ``idx += 1``) is the same token again."""
        counters = {toks[k + 2] for toks in self.toks.values() for k in range(len(toks) - 2)
                    if toks[k] == name and toks[k + 1] == "[" and is_local(toks[k + 2])}
        loops = loop_members(self.order, self.kinds, self.edges)
        for c in sorted(counters):  # a counter steps; a loop's own index does not
            if any(counter_step(t, c) or c in t and "++" in t for t in self.toks.values()):
                self.stale |= stale_reads(self.order, self.toks, name, c, loops)
            nodes = [m for m in self.order if c in self.toks[m]]
            steps = [m for m in nodes if counter_step(self.toks[m], c)]
            reads = [m for m in nodes if m not in steps]
            if all(indexes_only(self.toks[m], c, name) for m in reads):
                for m in steps:
                    self._drop(m, "token index")

    # ------------------------------------------------------------------ read methods

    def _find_methods(self) -> None:
        """The program's methods whose every ``return`` returns a read (a fixed point: a
        method returning ``parseInt(next())`` is a read once ``next`` is)."""
        for _ in range(4):
            found = False
            for f, body in self.functions.items():
                name = function_name(self.toks[f])
                if not name or name in self.methods or any(
                        self.kinds[b] == "param" for b in body):
                    continue
                read = self._returned_read(body)
                if read is not None:
                    self.methods[name] = read
                    self.resolved.add(name)
                    self.dropped.add(f)
                    self.dropped.update(body)
                    self.idioms.append(f"read method {name} -> {render_tokens(read)}")
                    found = True
            if not found:
                break

    def _returned_read(self, body: list[int]) -> list[str] | None:
        returns = [b for b in body if self.toks[b][:1] == ["return"]]
        if not returns:
            return None
        reads = []
        for r in returns:
            expr = self.toks[r][1:]
            if len(expr) == 1 and is_local(expr[0]):
                values = [assignment(self.toks[b])[1] for b in body
                          if assignment(self.toks[b])[0] == expr[0]]
                values = [v for v in values if not is_literal(v)]
                if len(values) != 1:
                    return None
                expr = values[0]
            read, _rules = self._reads(expr)
            if not is_read(read):
                return None
            reads.append(read)
        return reads[0] if all(r == reads[0] for r in reads) else None

    # ------------------------------------------------------------------ rewriting

    def _rewrite_node(self, n: int) -> None:
        toks = self.toks[n]
        if self.kinds[n] in ("function", "entry", "param"):
            return
        self.node = n
        new, rules = self._reads(toks)
        new, printed = self._prints(new)
        rules += printed
        if new is None:
            return
        if not new:
            self._drop(n, "reader or writer call")
            return
        if new != toks:
            self._set(n, new)
            for rule in rules:
                self._rule(n, rule, rule.removeprefix("io:"))
            if _COMPREHENSION in rules:  # its count is the input's, as a loop's is
                self.edges = [(u, v, d) for u, v, d in self.edges if v != n or d.get(
                    "type") != "data" or d.get("var") in new or d.get("var") == "<effects>"]

    def _reads(self, toks: list[str]) -> tuple[list[str], list[str]]:
        """``toks`` with every read the model knows in its neutral form, and the rules."""
        out: list[str] = []
        rules: list[str] = []
        for k in reversed(range(len(toks) - 2)):  # input = sys.stdin.readline: input()
            if toks[k] in self.line_aliases and toks[k + 1:k + 3] == ["(", ")"] and not (
                    k and toks[k - 1] in (".", "?.")):
                self.resolved.add(toks[k])
                toks = [*toks[:k], *READS["line"], *toks[k + 3:]]
                rules.append("io:line read")
        i = 0
        n = len(toks)
        while i < n:
            t = toks[i]
            after_dot = i > 0 and toks[i - 1] in (".", "?.")
            got = None
            if not after_dot and is_word(t):
                got = self._read_at(toks, i)
            if got is not None:
                end, read, rule = got
                out.extend(read)
                rules.append(rule)
                i = end
                continue
            out.append(t)
            i += 1
        out, lines = line_lists(out)  # after the reads: lines[1].split(" ") is one too
        out, rules = converted(out, rules + ["io:line tokens -> list read"] * lines)
        out, lists = comprehension_reads(out)
        return out, rules + [_COMPREHENSION] * lists

    def _read_at(self, toks: list[str], i: int) -> tuple[int, list[str], str] | None:
        """A read starting at ``i``: (its end, its neutral tokens, the rule's name)."""
        t = toks[i]
        n = len(toks)
        nxt = toks[i + 1] if i + 1 < n else ""
        if nxt == "(" and (t in _LIST_HEADS or t == "str" and toks[i + 2:i + 3] == ["read_all"]):
            for end in operand_end(toks, i):
                if toks[end - 1] != "]":
                    continue
                start = opening(toks, end - 1)
                kind = list_kind(toks[i:start]) if start > i and not top_level(
                    toks[start + 1:end - 1], ":") else None
                if kind is not None:
                    self.counters.update(x for x in toks[start + 1:end - 1] if is_local(x))
                    return end, READS[kind], "io:token list by index"
        if t in self.lists and nxt == "[":
            close = matching(toks, i + 1)
            kind = self.lists[t]
            if self.node in self.stale and kind in _AGAIN and toks[i + 2:close] \
                    and is_local(toks[i + 2]) and toks[i + 3:close] in ([], ["++"]):
                return close + 1, _AGAIN[kind], "io:same token again"
            return close + 1, READS[kind], "io:token list by index"
        if t == "next" and toks[i + 1:i + 4] == ["(", "iter", "("]:
            close = matching(toks, i + 3)
            kind = list_kind(toks[i + 4:close])
            if kind in _AGAIN and toks[close + 1:close + 2] == [")"]:
                # an iterator the PDG folded into its one use: its next token
                self.resolved.add("next")
                return close + 2, READS[kind], "io:token list by next()"
        if t == "next" and nxt == "(" and i + 3 < n and toks[i + 2] in self.iterators \
                and toks[i + 3] == ")":
            self.resolved.add("next")
            return i + 4, READS[self.iterators[toks[i + 2]]], "io:token list by next()"
        if t in self.line_aliases and toks[i + 1:i + 3] == ["(", ")"]:
            self.resolved.add(t)
            return i + 3, READS["line"], "io:line read"
        if t in self.methods and toks[i + 1:i + 3] == ["(", ")"]:
            return i + 3, self.methods[t], "io:read method"
        # a method of a reader: r.next_int(), self.r.next(), in.next_int()
        j = i
        if t == "self" and toks[i + 1:i + 2] == ["."]:
            j = i + 2
        if j + 4 < n + 1 and toks[j] in self.readers and toks[j + 1:j + 2] == ["."] \
                and j + 4 <= n and toks[j + 3:j + 5] == ["(", ")"]:
            method = toks[j + 2]
            if method in self.methods:
                return j + 5, self.methods[method], "io:read method"
            kind = _IO["reader methods"].get(method)
            if kind is not None:
                self.resolved.add(method)
                return j + 5, READS[kind], f"io:{kind} read"
        return None

    def _prints(self, toks: list[str]) -> tuple[list[str] | None, list[str]]:
        """A writer's prints as ``print``/``write``; a whole statement that only closes or
        flushes a reader or writer as ``[]``."""
        streams = self.readers | self.writers
        head = 2 if toks[:2] == ["self", "."] else 0
        if len(toks) == head + 5 and toks[head] in streams \
                and toks[head + 1] == "." and toks[head + 2] in _IO["plumbing methods"] \
                and toks[head + 3:] == ["(", ")"]:
            return [], ["io:plumbing"]
        if toks[head:head + 1] and toks[head] in self.writers and toks[head + 1:head + 2] == ["."] \
                and len(toks) > head + 4 and toks[head + 3] == "(" \
                and matching(toks, head + 3) == len(toks) - 1:
            kind = _IO["writer methods"].get(toks[head + 2])
            if kind is not None:
                self.resolved.add(toks[head + 2])
                return [kind, *toks[head + 3:]], [f"io:{kind}"]
        return toks, []

    # ------------------------------------------------------------------ splitting

    def _split_statements(self) -> dict[int, int]:
        """Statements that read k tokens into k places (a destructured split line,
        ``scanf``, ``cin >>``): k statements, one read each."""
        added: dict[int, int] = {}
        next_id = max(self.kinds, default=0) + 1
        order: list[int] = []
        for n in self.order:
            order.append(n)
            if n in self.dropped or self.kinds[n] in ("function", "entry", "param"):
                continue
            parts = self._parts(n)
            if parts is None:
                continue
            rule, reads = parts
            first = True
            ids = []
            for target, kind in reads:
                label = [*target, "=", *READS[kind]]
                if first:
                    node = n
                    first = False
                else:
                    node = next_id
                    next_id += 1
                    self.kinds[node] = "statement"
                    added[node] = n
                    order.append(node)
                ids.append(node)
                self._set(node, label)
                self.rules[node] = [rule, f"io:{kind} read"]
            self.idioms.append(f"{rule.removeprefix('io:')} -> {len(reads)} reads")
            self.edges = split_edges(self.edges, n, ids, self.toks)
        self.order = order
        self.added = added
        self._list_loops()
        self._read_ahead()
        for node, origin in sorted(added.items()):
            self._reaching(node, origin)
        for node in [n for n in self.order if n in self.rules and n not in added]:
            self._reaching(node, node)
        self._hoist_reads(next_id)
        return self.added

    def _reaching(self, node: int, origin: int) -> None:
        """A split read's definition reaches the statements after it that read its local
        (up to one that assigns it again): ``cin >> a`` is a use of ``a`` in C++'s PDG,
        the read that defines it here."""
        toks = self.toks[node]
        if len(toks) < 3 or toks[1] != "=" or not is_local(toks[0]) or not is_read(toks[2:]):
            return
        var = toks[0]
        if any(u == node and d.get("var") == var for u, _v, d in self.edges):
            return
        owner = self.owner.get(origin)
        start = self.order.index(node)
        for m in self.order[start + 1:]:
            if m in self.dropped or self.owner.get(self.added.get(m, m)) != owner:
                continue
            if var in self.toks[m]:
                self.edges.append((node, m, {"type": "data", "var": var, "dep": "data"}))
            if self.toks[m][:2] == [var, "="]:
                break

    def _hoist_reads(self, next_id: int) -> None:
        """A token read inside a larger statement (``print(read_int() + read_int())``,
        ``s += read_int()``) is a statement of its own, ``t = read_int()``, before it:
        reads are effects in order, and a language's PDG may have folded a temporary that
        holds one (C# folds ``int a = int.Parse(parts[0])`` into its one reader) or not.
        A line read or a list read stays where it is (``sum(read_list(int))``)."""
        next_id = max(next_id, max(self.kinds, default=0) + 1)
        taken = {t for toks in self.toks.values() for t in toks}
        fresh = (name for k in range(1, 200) if (name := f"v0a0_{k}") not in taken)
        order: list[int] = []
        for n in self.order:
            toks = self.toks[n]
            if n in self.dropped or self.kinds[n] not in ("statement", "declaration",
                                                          "return") or (
                    len(toks) > 2 and toks[1] == "=" and is_read(toks[2:])):
                order.append(n)
                continue
            spans = [(a, b) for a, b in read_spans(toks) if toks[a] in _TOKEN_READS]
            if not spans:
                order.append(n)
                continue
            new = list(toks)
            for start, end in reversed(spans):
                name = next(fresh)
                node = next_id
                next_id += 1
                self.kinds[node] = "statement"
                self._set(node, [name, "=", *toks[start:end]])
                self.rules[node] = ["io:read as a statement"]
                self.added[node] = self.added.get(n, n)
                new[start:end] = [name]
                order.append(node)
                self.edges += [(u, node, dict(d)) for u, v, d in self.edges
                               if v == n and d.get("type") == "control"]
                self.edges.append((node, n, {"type": "data", "var": name, "dep": "data"}))
            order[len(order) - len(spans):] = order[len(order) - len(spans):][::-1]
            self._set(n, new)
            self.idioms.append(f"read as a statement x{len(spans)}")
            order.append(n)
        self.order = order

    def _list_loops(self) -> None:
        """A counted loop storing one token read per element (``a[i] = sc.nextInt()``,
        ``list.add(...)``, ``cin >> a[i]``, ``for (auto &x : a) cin >> x``) is one list
        read, ``a = read_list(int)`` (as ``list(map(int, input().split()))``), taking no
        input (the count is the input's); the allocation just before it is plumbing."""
        kept = [n for n in self.order if n not in self.dropped]
        loops = loop_members(kept, self.kinds, self.edges)
        parents = control_parents(self.edges)
        for loop, inside in loops.items():
            body = [m for m in kept if m in inside and m != loop]
            if len(body) != 1 or self.kinds[body[0]] not in ("statement", "declaration"):
                continue
            store = body[0]
            by_ref = self.language == "cpp" and "&" in (self.source.get(loop) or "")
            got = list_store(self.toks[loop], self.toks[store], by_ref)
            if got is None:
                continue
            name, kind, appends = got
            if kind == "token" and self.language == "cpp":
                kind = self._declared([name])
            k = kept.index(loop)
            alloc = kept[k - 1] if k else None
            if alloc is not None and (assignment(self.toks[alloc])[0] != name or does_io(
                    self.toks[alloc]) or parents.get(alloc) != parents.get(loop) or appends
                    and assignment(self.toks[alloc])[1] != ["[", "]"]):
                alloc = None
            if appends and alloc is None:
                continue
            self._set(store, [name, "=", *LIST_READS[kind]])
            self.rules[store] = ["io:read loop -> list read"]
            self.idioms.append("counted read loop -> list read")
            self._drop(loop, "read loop")
            if alloc is not None:
                self._drop(alloc, "list allocation")
            self.edges = loop_collapsed(self.edges, loop, store, alloc)

    def _read_ahead(self) -> None:
        """A counted loop from 0 reading one token per iteration reads its n tokens first:
        ``v = read_list(int)`` before it, ``v[i]`` where it read (:func:`read_ahead_site`)."""
        kept = [n for n in self.order if n not in self.dropped]
        parents = control_parents(self.edges)
        taken = {t for toks in self.toks.values() for t in toks}
        fresh = (name for k in range(1, 200) if (name := f"v0b0_{k}") not in taken)
        for loop, inside in loop_members(kept, self.kinds, self.edges).items():
            body = [m for m in kept if m in inside and m != loop]
            site = read_ahead_site(self.toks[loop], {m: self.toks[m] for m in body},
                                   self.program_names | self.readers)
            if site is None or parents.get(site[0]) != [loop]:
                continue
            m, a, b, kind, var = site
            name, new = next(fresh), max(self.kinds) + 1
            self.kinds[new], self.added[new] = "statement", m
            self._set(new, [name, "=", *LIST_READS[kind]])
            self._set(m, [*self.toks[m][:a], name, "[", var, "]", *self.toks[m][b:]])
            self._rule(new, "io:read loop -> list read first", "read loop -> list read first")
            self.order.insert(self.order.index(loop), new)
            counted = counted_by_list(self.toks[loop], name)  # it runs once per token read
            self.edges = read_ahead_edges(self.edges, (loop, new, m), name, var, counted)
            if counted is not None:
                self._set(loop, counted[0])
                self._rule(loop, "io:loop over the tokens read")

    def _parts(self, n: int) -> tuple[str, list[tuple[list[str], str]]] | None:
        toks = self.toks[n]
        if self.language in ("c", "cpp"):
            src = prepare_tokens(split_label(self.source.get(n) or ""), None)
            while src[:2] == ["std", "."]:
                src = src[2:]
            if src[:2] == ["scanf", "("] and matching(src, 1) == len(src) - 1:
                self.resolved.add("scanf")
                return scanf_reads(src[2:-1])
            if src[:2] == ["cin", ">>"]:
                targets = split_at(src[2:], ">>")
                return "io:cin >>", [(t, self._declared(t)) for t in targets]
            if src[:4] == ["getline", "(", "cin", ","] and matching(src, 1) == len(src) - 1:
                return "io:getline", [(src[4:-1], "line")]
        eq = top_level(toks, "=")
        if len(eq) != 1:
            return None
        lhs, rhs = toks[:eq[0]], toks[eq[0] + 1:]
        if lhs[:1] in (["["], ["("]) and matching(lhs, 0) == len(lhs) - 1:
            lhs = lhs[1:-1]
        targets = split_at(lhs, ",")
        if len(targets) < 2:
            return None
        values = split_at(rhs, ",")
        kinds = [next((k for k in _AGAIN if v == READS[k]), None) for v in values]
        if len(values) == len(targets) and None not in kinds:  # a, b = read_int(), read_int()
            return "io:tuple of reads", [(t, k) for t, k in zip(targets, kinds, strict=True)
                                         if k is not None]
        kind = list_read_kind(rhs) or list_kind(rhs)
        if kind is None or kind == "line":
            return None
        return "io:split line", [(t, kind) for t in targets]

    def _declared(self, target: list[str]) -> str:
        """What ``cin >> target`` reads: the type of the target's declaration."""
        name = next((t for t in target if is_local(t)), None)
        if name is None:
            return "token"
        for m, src in sorted(self.source.items()):
            if self.kinds.get(m) != "declaration" or name not in (src or ""):
                continue
            words = split_label(src)
            for w in words[:words.index(name)] if name in words else ():
                kind = _IO["declared"].get(w)
                if kind is not None:
                    return kind
        return "token"

    # ------------------------------------------------------------------ plumbing

    def _plumbing_statements(self) -> None:
        for key, what in (("plumbing", "stream set-up"), ("run-time set-up", "run-time set-up")):
            prefixes = [p.split() for p in _IO[key].get(self.language, ())]
            for n in self.order if prefixes else ():
                if n in self.dropped or self.kinds[n] in ("function", "entry", "param"):
                    continue
                src = prepare_tokens(split_label(self.source.get(n) or ""), None)
                if any(src[:len(p)] == p for p in prefixes):
                    self._drop(n, what)
