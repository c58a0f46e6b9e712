"""Which local of one PDG is which local of another: names paired where matched statements
agree, and a graph with its locals renamed to match.

A PDG names a local after its declaration (:mod:`graphs.pdg.naming`), so one edit to a
declaration (``for i in range(n)`` to ``range(n - 1)``) renames the variable in every
statement that mentions it, and two locals declared alike (``c = 0``, ``i = 0``) are told
apart by what is done with them, which one changed statement can swap. Names are arbitrary:
what a variable *is* shows in the statements that use it. Given the statements a graph edit
distance matched, :func:`align_locals` pairs each candidate local with the reference local
that stands where it stands in the most matched statements (an optimal one-to-one pairing),
:func:`common_names` gives each such pair one name on both sides (the smaller of the two,
so the result does not depend on which side is the reference), and :func:`rename_locals`
applies it: a graph edit distance recomputed on the renamed graphs charges the one changed
declaration, not every use of its variable. A wrong variable (``a[j]`` for ``a[i]``) is
still a difference: each local keeps one name, paired as most of its uses say.

Only the locals named by :func:`graphs.pdg.naming.digest_name` take part (``v`` and three
hex digits, maybe ``_2``...); parameters (named by position) and names bound by lambdas and
comprehensions (named by their place) are already comparable and stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher

import networkx as nx
import numpy as np

from graphs.flow.labels import LOCAL_NAME, NAMED_LOCAL, label_tokens
from graphs.ged.assignment import solve_assignment

__all__ = ["align_locals", "common_names", "is_named_local", "local_names",
           "rename_in_label", "rename_locals"]

_NAMED = re.compile(rf"(?:{NAMED_LOCAL})\Z")
# any local's name (a parameter's v0, a named local's v3fa or v3fa_2, a bound name's b0) as
# a whole word, outside string and character literals (group 1)
_IN_LABEL = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\''
                       rf"|\b({LOCAL_NAME})\b")
_SLOT = "\u2022"  # where a named local stands in a statement's shape
#: Statements longer than this (a generated table of literals) pair their names in order:
#: matching their tokens is quadratic in the worst case (20,000 commas took minutes).
MATCHED_TOKENS = 256


def is_named_local(token: str) -> bool:
    """Whether ``token`` is a local named after its declaration (``v3fa``, ``v3fa_2``).

    >>> is_named_local("v3fa"), is_named_local("v3fa_2"), is_named_local("v0"), is_named_local("b0")
    (True, True, False, False)
    """
    return _NAMED.match(token) is not None


def local_names(label: str) -> list[str]:
    """The names of locals in a PDG label, in order (parameters ``v0``, named locals
    ``v3fa``, bound names ``b0``), not counting what a string or character literal holds.

    >>> local_names('v3fa += v0 + len("v1")')
    ['v3fa', 'v0']
    """
    return [name for name in _IN_LABEL.findall(label) if name]


def rename_in_label(label: str, renaming: Mapping[str, str]) -> str:
    """``label`` with the locals that ``renaming`` names renamed (literals left as they are).

    >>> rename_in_label('v3fa = v0 + len("v3fa")', {"v3fa": "x"})
    'x = v0 + len("v3fa")'
    """
    def swap(match: re.Match) -> str:
        name = match.group(1)
        return renaming.get(name, name) if name else match.group(0)

    return _IN_LABEL.sub(swap, label)


def align_locals(label_pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """The candidate's named locals that are the reference's under another name.

    Parameters
    ----------
    label_pairs : the labels of matched statements, ``(reference label, candidate label)``.

    Returns
    -------
    ``{candidate local: reference local}`` for the locals whose names differ; empty when
    every local already has its counterpart's name (or no statement pairs any). Locals are
    paired where the two statements' shapes agree (the tokens around them match), counted
    over all pairs, and paired one-to-one to make the most of these counts (ties: the
    order of the sorted names); a local that no matched statement pairs keeps its name.

    Examples
    --------
    >>> align_locals([("for v1a2 in v0", "for v9f8 in v0"),
    ...               ("v3b4 += v1a2", "v3b4 += v9f8"), ("return v3b4", "return v3b4")])
    {'v9f8': 'v1a2'}
    """
    counts: dict[tuple[str, str], int] = {}
    for ref_label, cand_label in label_pairs:
        for pair in _paired_names(ref_label, cand_label):
            counts[pair] = counts.get(pair, 0) + 1
    if not counts:
        return {}
    refs = sorted({a for a, _ in counts})
    cands = sorted({b for _, b in counts})
    row = {name: i for i, name in enumerate(refs)}
    col = {name: j for j, name in enumerate(cands)}
    size = max(len(refs), len(cands))
    cost = np.zeros((size, size))
    for (a, b), n in counts.items():
        cost[row[a], col[b]] = -n
    perm = solve_assignment(cost)
    return {cands[j]: a for a, j in zip(refs, perm[:len(refs)].tolist(), strict=True)
            if j < len(cands) and cost[row[a], j] < 0 and cands[j] != a}


def common_names(pairs: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """One name for each paired local on both sides: the smaller of its two names.

    Parameters
    ----------
    pairs : ``{candidate local: reference local}`` (:func:`align_locals`).

    Returns
    -------
    ``(reference renaming, candidate renaming)`` for :func:`rename_locals`; swapping the
    sides swaps the two, so a distance computed on the renamed graphs is the same both ways.

    >>> common_names({"v9f8": "v1a2", "v0a1": "v7b7"})
    ({'v7b7': 'v0a1'}, {'v9f8': 'v1a2'})
    """
    ref: dict[str, str] = {}
    cand: dict[str, str] = {}
    for c, r in pairs.items():
        if c < r:
            ref[r] = c
        else:
            cand[c] = r
    return ref, cand


def rename_locals(graph: nx.MultiDiGraph, renaming: Mapping[str, str]) -> nx.MultiDiGraph:
    """A copy of ``graph`` with its named locals renamed (labels and data edges' ``var``).

    A local that keeps its name but is the target of another's renaming moves out of the
    way (``v3fa`` becomes ``v3fa_0``, a name :func:`graphs.pdg.naming.digest_name` never
    gives), so two variables never share a name.

    >>> g = nx.MultiDiGraph()
    >>> g.add_node(0, label="v1a2 = v3b4 + 1")
    >>> rename_locals(g, {"v1a2": "v3b4"}).nodes[0]["label"]
    'v3b4 = v3b4_0 + 1'
    """
    full = dict(renaming)
    targets = set(renaming.values())
    for _, label in graph.nodes(data="label"):
        if label is None:
            continue
        for token in local_names(str(label)):
            if token in targets and token not in full:
                full[token] = f"{token}_0"
    out = graph.copy()
    for node, label in graph.nodes(data="label"):
        if label is not None:
            out.nodes[node]["label"] = rename_in_label(str(label), full)
    for _, _, data in out.edges(data=True):
        var = data.get("var")
        if var in full:
            data["var"] = full[var]
    if "local_names" in graph.graph:  # the source's identifiers follow their locals
        out.graph["local_names"] = {full.get(name, name): identifier for name, identifier
                                    in graph.graph["local_names"].items()}
    return out


def _paired_names(ref_label: str, cand_label: str) -> list[tuple[str, str]]:
    """``(reference local, candidate local)`` for each place the two labels' shapes agree
    on a named local."""
    ref_toks, ref_names = _shape(ref_label)
    if not ref_names:
        return []
    if cand_label == ref_label:  # most matched pairs: each name is itself
        return [(name, name) for name in ref_names]
    cand_toks, cand_names = _shape(cand_label)
    if not cand_names:
        return []
    if ref_toks == cand_toks:  # the same shape (most matched pairs): name for name
        return list(zip(ref_names, cand_names, strict=True))
    if len(ref_toks) > MATCHED_TOKENS or len(cand_toks) > MATCHED_TOKENS:
        return list(zip(ref_names, cand_names, strict=False))
    ref_at = _slots(ref_toks)
    cand_at = _slots(cand_toks)
    out = []
    matcher = SequenceMatcher(None, ref_toks, cand_toks, autojunk=False)
    for i, j, n in matcher.get_matching_blocks():
        out.extend((ref_names[ref_at[i + k]], cand_names[cand_at[j + k]])
                   for k in range(n) if ref_toks[i + k] == _SLOT)
    return out


def _shape(label: str) -> tuple[list[str], list[str]]:
    """A label's tokens with each named local as a slot, and the locals in order."""
    toks = label_tokens(label)
    names = [t for t in toks if _NAMED.match(t)]
    if names:
        toks = [_SLOT if _NAMED.match(t) else t for t in toks]
    return toks, names


def _slots(toks: list[str]) -> dict[int, int]:
    """Token position of each slot -> its place among the slots."""
    return {pos: k for k, pos in enumerate(p for p, t in enumerate(toks) if t == _SLOT)}
