"""Canonical names of the locals of a PDG: which occurrences are one variable, and its name.

A variable is named by what it is, never by the identifier the source gave it or by where
its declaration happens to stand: parameters by position (``v0``, ``v1``, ...: their order
is part of the signature), names bound by a lambda or a comprehension by their place in
their statement (``b0``, ``b1``, ...), and any other local after its declaration: a short
digest of that statement's label with the variable itself as ``•`` and every other local as
``_`` (``int x = a * 2`` and ``int y = a * 2`` both name their variable ``v`` + the digest
of ``int • = v0 * 2``). Swapping two independent declarations, or renaming a local,
therefore changes no label, and a change to one declaration renames only the variable it
declares. Locals with equal declarations are told apart by what is done with them, then by
order.

**One identifier, several variables.** A local is a *web*: the definitions and uses of an
identifier that reach one another (def-use chains, joined where they share a definition or
a use). An identifier declared afresh for values that never meet is several variables:
``int t`` declared in both branches of an ``if`` (block scope), a Python name assigned anew
in each branch and read only there, a loop index declared by two loops. Each is named by
its own declaration, so which branch comes first (``if (!c) B else A`` for ``if (c) A else
B``) renames nothing. Webs of one identifier declared alike (equal declaration labels) stay
one variable, as in the source; an occurrence in a web with no declaration of its own (a
read no definition reaches, a plain assignment after a declaration that reaches nothing)
belongs to the identifier's first declared web. Parameters and names bound by lambdas are
never split.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence

from graphs.canon.rewrites import canonical_label
from graphs.flow.labels import local_name, render
from graphs.lang.roles import Ctx
from graphs.pdg.dataflow import Facts

__all__ = ["canonical_names", "digest_name"]

_DECL, _BIND = Ctx.DECL, Ctx.BIND
_DECLARING = (_DECL, _BIND)
_OWN = "\u2022"  # the variable being named, in its declaration's signature


def canonical_names(ids: Sequence[int], nodes: Sequence, facts: Sequence[Facts],
                    chains: Iterable[tuple[int, int, str]] = ()
                    ) -> tuple[dict[str, str], dict[tuple[int, str], str]]:
    """Canonical names of the locals of one scope, independent of declaration order.

    Parameters
    ----------
    ids : the scope's node ids, in source order.
    nodes : the CFG nodes (``kind`` tells parameters).
    facts : each node's label tokens and references.
    chains : the scope's def-use chains ``(definition node, use node, variable key)``
        (other keys and nodes are ignored); they split an identifier into its webs.

    Returns
    -------
    ``(rename, variables)``: ``rename`` maps a variable to its shown name; ``variables``
    maps ``(node, identifier)`` to the variable of that occurrence where the identifier is
    several variables. Any other occurrence's variable is its identifier.
    """
    first: dict[str, int] = {}
    params: list[str] = []
    rename: dict[str, str] = {}
    declared_at: dict[str, list[int]] = {}  # identifier -> nodes declaring it (DECL)
    order: dict[str, tuple[int, int]] = {}  # variable -> (node, place) of its declaration
    for nid in ids:
        bound = 0
        fact = facts[nid]
        for ref in fact.refs:
            if ref.mode in _DECLARING and not ref.field:
                break
        else:
            continue  # declares nothing (most statements): nothing below would be recorded
        # in label order (a folded statement's references are not in source order)
        refs = [*(fact.refs[t] for t in fact.toks if t.__class__ is int), *fact.refs]
        for place, ref in enumerate(refs):
            if ref.field or ref.mode not in _DECLARING:
                continue
            name = ref.name
            if ref.mode is _DECL:
                at = declared_at.setdefault(name, [])
                if not at or at[-1] != nid:
                    at.append(nid)
                    order.setdefault(f"{name}#{nid}", (nid, place))
            if name not in first:
                first[name] = nid
                order[name] = (nid, place)
                if nodes[nid].kind == "param":
                    params.append(name)
                elif ref.mode == _BIND:
                    # a lambda's or comprehension's own name: by its place in the statement
                    # (b0, b1, ...), so that nothing outside the statement renames it
                    rename[name] = f"b{bound}"
                    bound += 1
    rename.update((name, local_name(i)) for i, name in enumerate(params))

    def signature(nid: int, own: str, names: dict[str, str]) -> str:
        fact = facts[nid]
        refs = fact.refs
        return canonical_label(render(fact.seps, fact.toks, lambda i: (
            _OWN if refs[i].name == own and not refs[i].field
            else refs[i].name if refs[i].field or refs[i].name not in first
            else names.get(variables.get((nid, refs[i].name), refs[i].name), "_"))))

    variables: dict[tuple[int, str], str] = {}
    identifier: dict[str, str] = {}  # a split-off variable -> its identifier
    sigs: dict[str, str] = {}
    several = {name for name, at in declared_at.items()
               if len(at) > 1 and name not in rename}
    if several:
        for name, webs in _webs(ids, facts, chains, several).items():
            decl = set(declared_at[name])
            starts = {root: min(n for n in web if n in decl)
                      for root, web in webs.items() if any(n in decl for n in web)}
            if len(starts) < 2:
                continue
            # webs declared alike are one variable; the one declared first keeps the
            # identifier (and takes the webs with no declaration of their own)
            by_sig: dict[str, str] = {}
            for root in sorted(starts, key=starts.__getitem__):
                sig = signature(starts[root], name, rename)
                var = by_sig.get(sig)
                if var is None:
                    var = name if not by_sig else f"{name}#{starts[root]}"
                    by_sig[sig] = var
                    sigs[var] = sig
                    if var != name:
                        identifier[var] = name
                        first[var] = starts[root]
                if var != name:
                    variables.update(((n, name), var) for n in webs[root])
        if identifier:  # in declaration order, as the identifiers are
            first = dict(sorted(first.items(), key=lambda item: order[item[0]]))

    bound_names = {n for n, shown in rename.items() if shown.startswith("b")}
    for var, nid in first.items():
        if var not in rename and var not in sigs:
            sigs[var] = signature(nid, var, rename)
    groups: dict[str, list[str]] = {}
    for var, sig in sigs.items():
        groups.setdefault(sig, []).append(var)
    # Locals declared alike (``int i = 0; int j = 0;``) are told apart by what is done
    # with them: the labels of every statement that mentions them, in a multiset. The
    # first of them in that order keeps the plain name, which a local declared the same
    # way but alone gets in another graph (int total = 0 vs int t = 0 beside int i = 0).
    mentions: dict[str, list[int]] = {}
    for sig, tied in groups.items():
        if len(tied) > 1:
            for nid in ids:
                for ref in facts[nid].refs:
                    if not ref.field:
                        var = variables.get((nid, ref.name), ref.name)
                        if var in tied:
                            mentions.setdefault(var, []).append(nid)
            full = {var: sig + "\n" + "\n".join(sorted(
                {signature(nid, identifier.get(var, var), rename)
                 for nid in mentions.get(var, ())}))
                for var in tied}
            keeps = min(tied, key=full.__getitem__)
            for var in tied:
                if var != keeps:
                    sigs[var] = full[var]
    taken = {shown for name, shown in rename.items() if name not in bound_names}
    for var in first:  # declaration order: only ties left after both rounds depend on it
        if var in rename:
            continue
        rename[var] = digest_name(sigs[var], taken)
    return rename, variables


def digest_name(signature: str, taken: set[str]) -> str:
    """A local's name from what defines it: ``v`` + 3 hex digits of ``signature``'s CRC-32,
    then ``_2``, ``_3``... past a name already ``taken`` (to which the name is added).

    >>> taken = set()
    >>> first, second = digest_name("• = 0", taken), digest_name("• = 0", taken)
    >>> len(first), second == first + "_2", sorted(taken) == [first, second]
    (4, True, True)
    """
    base = f"v{zlib.crc32(signature.encode()) & 0xFFF:03x}"
    shown, k = base, 1
    while shown in taken:
        k += 1
        shown = f"{base}_{k}"
    taken.add(shown)
    return shown


def _webs(ids: Sequence[int], facts: Sequence[Facts], chains: Iterable[tuple[int, int, str]],
          names: set[str]) -> dict[str, dict[int, list[int]]]:
    """The webs of each of ``names``: identifier -> web (its first node) -> its nodes in
    source order. A node's occurrences of one identifier are one occurrence (``x += 1``
    reads and writes one variable); def-use chains join occurrences."""
    parent: dict[tuple[int, str], tuple[int, str]] = {}
    for nid in ids:
        for ref in facts[nid].refs:
            if not ref.field and ref.name in names:
                parent.setdefault((nid, ref.name), (nid, ref.name))

    def root(x: tuple[int, str]) -> tuple[int, str]:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, key in chains:
        if key in names and (a, key) in parent and (b, key) in parent:
            ra, rb = root((a, key)), root((b, key))
            if ra != rb:
                if rb < ra:
                    ra, rb = rb, ra
                parent[rb] = ra
    out: dict[str, dict[int, list[int]]] = {}
    for occ in sorted(parent):
        r = root(occ)
        out.setdefault(occ[1], {}).setdefault(r[0], []).append(occ[0])
    return out
