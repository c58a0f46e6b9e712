"""Definitions and uses of variables: what the syntax of each PDG node defines and reads.

:class:`Walker` reads the syntax of one PDG node (a statement, or the header of a compound
statement) once, producing both its label tokens and its variable references. Each
reference carries a mode (:class:`graphs.lang.roles.Ctx`):

- ``DECL``: a declaration (local, parameter, loop variable, catch parameter, C# ``out var``,
  Python assignment target); ``DEF``: an assignment; ``DEFUSE``: ``x += 1``, ``x++``, C#
  ``ref x``; ``USE``: a read.
- ``WEAK``: a partial write that does not kill earlier definitions and also reads: the base of
  an element or member store (``a[i] = v`` and ``p.f = v`` weakly define ``a`` and ``p``), C's
  ``&x`` and ``*p = v``, and writes inside lambdas (they may run).
- ``BIND``: names bound by lambdas and comprehensions: renamed in labels like locals, but not
  data-flow definitions of the enclosing function.

Fields: ``this.x`` / ``self.x`` are references to the field ``x``. In Java, C# and C++ a
bare ``x`` is the same variable when the function declares no local called ``x``; in
Python and JavaScript a field is only reached through its receiver, so a bare ``x`` is a
local or a global, never the field (``LanguageRoles.explicit_fields``). Method names in
calls (Java, C#), member names after ``.`` and type names are not variables; in Python, JS,
C and C++ a callee identifier is read, because functions are values there (it only matters
when the callee is a local).

Reaching definitions over the CFG, which turn these references into data dependences, are
in :mod:`graphs.flow.reaching`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import tree_sitter

# Public names of graphs.pdg.dataflow before reaching definitions moved out: still importable here.
from graphs.canon.orientation import (
    CONVERSE,
    Converse,
    Final,
    Variable,
    condition_orientation,
    if_branches,
    pure_operand,
)
from graphs.canon.rewrites import redundant_parentheses
from graphs.flow.labels import (
    COLON_TYPES,
    POSTFIX,
    PREFIX,
    STICKY,
    TIGHT,
    TIGHT_TYPES,
    UNARY_TYPES,
    TokenBuffer,
)
from graphs.flow.reaching import (  # noqa: F401
    data_dependences,
    path_data_dependences,
    reaching_definitions,
    reverse_postorder,
)
from graphs.lang.roles import Ctx, LanguageRoles, Role

__all__ = ["EFFECTS_VAR", "Facts", "Final", "Ref", "Variable", "Walker", "data_dependences",
           "path_data_dependences", "reaching_definitions", "reverse_postorder"]

#: The pseudo-variable that orders calls with unknown effects: each such call reads and
#: (weakly) writes it, so reaching definitions chain them in program order.
EFFECTS_VAR = "<effects>"

# Calls known to have no effect on their receiver or the world, by method or function
# name: reordering them is harmless, so they take no part in the effect order. Everything
# else called through a local is taken to update the local; everything else called
# through a class, module, global or nothing (a free function) has unknown effects.
PURE_CALLS = frozenset({
    # Java / C#
    "get", "size", "length", "charAt", "equals", "hashCode", "toString", "contains",
    "containsKey", "containsValue", "isEmpty", "indexOf", "lastIndexOf", "substring",
    "startsWith", "endsWith", "compareTo", "toUpperCase", "toLowerCase", "trim", "split",
    "valueOf", "parseInt", "parseLong", "parseDouble", "Count", "Length", "ToString",
    "Equals", "Contains", "ContainsKey", "Substring", "StartsWith", "EndsWith", "IndexOf",
    "ToUpper", "ToLower", "Trim", "Split", "GetHashCode", "CompareTo", "Parse", "Max", "Min",
    "Abs", "Sqrt", "Pow", "Floor", "Ceiling", "Round", "max", "min", "abs", "sqrt", "pow",
    "floor", "ceil", "round", "Format", "format", "IsNullOrEmpty",
    # Python builtins and str/dict methods
    "len", "range", "int", "str", "float", "bool", "sum", "sorted", "reversed", "enumerate",
    "zip", "list", "dict", "set", "tuple", "frozenset", "isinstance", "map", "filter", "any",
    "all", "ord", "chr", "repr", "type", "hash", "divmod", "keys", "values", "items",
    "count", "index", "find", "lower", "upper", "strip", "lstrip", "rstrip", "startswith",
    "endswith", "join", "replace", "isdigit", "isalpha", "copy",
    # C, C++, JavaScript
    "strlen", "strcmp", "fabs", "empty", "begin", "end", "at", "c_str", "includes", "slice",
    "charCodeAt", "toFixed", "parseFloat", "isArray", "Number", "String", "Boolean",
})

_USE, _DEF, _DEFUSE, _WEAK, _DECL, _BIND, _TYPE, _NAME = (
    Ctx.USE, Ctx.DEF, Ctx.DEFUSE, Ctx.WEAK, Ctx.DECL, Ctx.BIND, Ctx.TYPE, Ctx.NAME)
_WRITES = frozenset({_DEF, _DEFUSE, _WEAK, _DECL})
# In a pattern under a definition context, these fields are still read (defaults, sizes).
_FINAL = -1  # glue hint of a substituted Final node: not substituted again
_READ_FIELDS = frozenset({"size", "default_value", "right", "arguments", "index"})


# Roles a syntax node type can play in Walker.walk, in the order walk tests them.
(_MEMBER, _SUBSCRIPT, _CALL, _ASSIGN, _UPDATE, _DECLARATION, _ARGUMENT_MODIFIER,
 _ADDRESS_OF) = range(1, 9)
_NO_SPECIAL: dict[int, Ctx] = {}  # never written: walk assigns a fresh dict before filling


class _TypeInfo:
    """Everything :meth:`Walker.walk` asks about one node kind, answered once per language.

    The walk visits ~20 nodes per statement and used to test each type against a dozen
    role tables; one lookup of this record replaces those tests (and Node.type and
    Node.is_named calls: a kind has one type, named or not).
    """

    __slots__ = ("named", "identifier", "literal", "comment", "type_node", "nested",
                 "leaf_hint", "role", "role_arg", "qualified", "interpolation", "pattern",
                 "field_ctx", "any_field_ctx", "plain", "parens", "branches")

    @classmethod
    def of(cls, t: str, named: bool, roles: LanguageRoles) -> _TypeInfo:
        info = cls()
        info.named = named
        info.identifier = t in roles.identifiers
        info.literal = roles.literals.get(t)
        info.comment = t in roles.comments
        info.type_node = t in roles.type_nodes
        info.nested = t in roles.nested
        info.leaf_hint = (PREFIX if t in UNARY_TYPES else TIGHT if t in TIGHT_TYPES
                          else STICKY if t in COLON_TYPES else 0)
        tables = (roles.members, roles.subscripts, roles.calls, roles.assignments,
                  roles.updates, roles.declarations, roles.argument_modifiers,
                  roles.address_of)
        info.role = next((code for code, table in enumerate(tables, 1) if t in table), 0)
        # the role table's entry, for the tables that map: field names, or whether an
        # assignment is compound
        table = tables[info.role - 1] if info.role else None
        info.role_arg = table.get(t) if isinstance(table, Mapping) else None
        info.qualified = t in roles.qualified
        info.interpolation = t in roles.interpolations
        info.pattern = t in roles.patterns
        info.parens = t == "parenthesized_expression"
        info.branches = roles.statements.get(t) is Role.IF
        # field name -> context: (t, field) entries override ("*", field) ones
        fields: dict[str, Ctx] = {}
        for parent in ("*", t):
            fields.update((f, c) for (p, f), c in roles.field_ctx.items()
                          if p == parent and f != "*")
        info.field_ctx = fields
        info.any_field_ctx = roles.field_ctx.get((t, "*"))  # for every named child
        info.plain = not (info.type_node or info.nested or info.leaf_hint or info.role
                          or info.qualified or info.interpolation or info.pattern
                          or info.any_field_ctx is not None)
        return info


# (id(roles), grammar) -> (roles, Node.kind_id -> _TypeInfo or None); the roles object is
# kept so its id stays unique. A list indexed by kind id: cheaper than building Node.type's
# string and hashing it. Filled lazily: a grammar has a few hundred kinds, a snippet meets
# a few dozen.
_KIND_TABLES: dict[tuple[int, tree_sitter.Language],
                   tuple[LanguageRoles, list[_TypeInfo | None]]] = {}


def _kind_table(roles: LanguageRoles, grammar: tree_sitter.Language
                ) -> list[_TypeInfo | None]:
    key = (id(roles), grammar)
    entry = _KIND_TABLES.get(key)
    if entry is None or entry[0] is not roles:
        entry = _KIND_TABLES[key] = (roles, [None] * grammar.node_kind_count)
    return entry[1]


@dataclass(frozen=True)
class Ref:
    """One variable occurrence: its source name, mode and whether it is a field access."""

    name: str
    mode: Ctx
    field: bool = False


_PLAIN_PARTS = (str, Variable)  # label parts without syntax (walked as they are)


@dataclass(slots=True)
class Facts:
    """What one PDG node says: label tokens (see :class:`graphs.flow.labels.TokenBuffer`) and
    variable references (``toks`` ints index ``refs``)."""

    seps: list[str] = field(default_factory=list)
    toks: list[str | int] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    #: Calls with effects, by receiver: ``(name, is_field)`` of the variable a method is
    #: called on (it may update it), or ``None`` for a call with unknown effects (a free
    #: function, a method of a class or module). Which receivers are locals is only known
    #: once the whole function has been read (:func:`graphs.pdg.build.build_pdg` decides).
    calls: list[tuple[str, bool] | None] = field(default_factory=list)


class Walker:
    """Extract label tokens and variable references from syntax nodes of one language.

    Parameters
    ----------
    roles : LanguageRoles
        The language's tables.
    parsed : graphs.parsing.parser.ParsedCode
        The parse the syntax nodes belong to.
    normalize : bool
        Drop ``this.``/``self.`` receivers and reduce qualified type names in labels.
    abstract_literals : bool
        Replace literals by their kind (``NUM``, ``STR``, ``CHAR``).

    Examples
    --------
    >>> from graphs import parse
    >>> from graphs.lang.languages import get_roles
    >>> from graphs.lang.roles import Ctx
    >>> p = parse("x += this.y * a[i];", "java")
    >>> facts = Walker(get_roles("java"), p).walk([(p.nodes[0], Ctx.USE)])
    >>> [(r.name, r.mode.name, r.field) for r in facts.refs]
    [('x', 'DEFUSE', False), ('y', 'USE', True), ('a', 'USE', False), ('i', 'USE', False)]
    """

    def __init__(self, roles: LanguageRoles, parsed, *, normalize: bool = True,
                 abstract_literals: bool = False) -> None:
        self.roles = roles
        self.node_text = parsed.node_text  # original text (literals)
        # The text the tree was parsed from: a node's text is a slice of it, several times
        # cheaper than tree_sitter.Node.text.
        self.source: bytes = parsed.text
        self.normalize = normalize
        self.abstract_literals = abstract_literals
        self._refs: dict[tuple[str, Ctx, bool], Ref] = {}
        self._kinds = _kind_table(roles, parsed.tree.language)

    def _info(self, node: tree_sitter.Node) -> _TypeInfo:
        """The record of ``node``'s kind (made on first sight)."""
        info = self._kinds[node.kind_id]
        if info is None:
            info = self._kinds[node.kind_id] = _TypeInfo.of(node.type, node.is_named,
                                                             self.roles)
        return info

    def _ref(self, name: str, mode: Ctx, is_field: bool) -> Ref:
        """The :class:`Ref` of these values: refs are immutable and repeat a lot (a frozen
        dataclass is slow to construct), so one instance per value is shared."""
        key = (name, mode, is_field)
        ref = self._refs.get(key)
        if ref is None:
            ref = self._refs[key] = Ref(name, mode, is_field)
        return ref

    def _mode(self, ctx: Ctx, nested: bool, is_field: bool) -> Ctx:
        if ctx == _DEF and self.roles.assignment_declares and not is_field:
            ctx = _DECL
        if nested:
            if ctx == _DECL:
                return _BIND
            if ctx in (_DEF, _DEFUSE):
                return _WEAK
        return ctx

    def walk(self, parts: Sequence[tuple[tree_sitter.Node, Ctx]], *,
             prefix: Sequence[str] = (), suffix: Sequence[str] = (),
             sep: str | None = None,
             subst: Mapping[int, tuple[tree_sitter.Node, bool]] | None = None) -> Facts:
        """Walk ``parts`` (syntax nodes with their initial context) in order.

        Parameters
        ----------
        parts : sequence of (tree_sitter.Node, Ctx)
            The syntax the PDG node stands for.
        prefix, suffix : sequence of str
            Extra label tokens before and after (``("for", "(")`` ... ``(")",)``).
        sep : str, optional
            Token put between consecutive parts (``","`` for a for-initializer list).
        subst : mapping, optional
            Syntax node id -> ``(value, parenthesize)``: the value is walked where the node
            stands (a temporary the CFG builder folded into its one reader, see
            :mod:`graphs.canon.folding`; a canonical form of an idiom, see
            :mod:`graphs.canon.idioms`),
            in parentheses when precedence needs them. A value is a syntax node (walked
            as a value, or as a type where a type stood), a :class:`Final` node (not
            substituted again at its top), a ``str`` token, a :class:`Variable`, or a
            :class:`graphs.canon.orientation.Converse` (its comparison written as its converse
            where that is the same meaning, else as it is: decided here).

        Returns
        -------
        Facts
        """
        roles = self.roles
        kinds = self._kinds
        info_of = self._info  # for kinds not in the table yet
        normalize = self.normalize
        abstract_literals = self.abstract_literals
        node_text = self.node_text
        src = self.source
        declares = roles.assignment_declares
        interpolations = roles.interpolations
        ref_of = self._ref

        buf = TokenBuffer()
        word = buf.word
        punct = buf.punct
        variable = buf.variable
        refs: list[Ref] = []
        calls: list[tuple[str, bool] | None] = []
        for tok in prefix:
            punct(tok)
        # stack items: (kind record, node, ctx, nested, glue hint); the record is None for
        # a separator token (a str instead of a node) and for a field access (this.x)
        stack: list[tuple] = []
        for k in range(len(parts) - 1, -1, -1):
            node, ctx = parts[k]
            # a str part is a label token of its own (a statement the CFG builder folded)
            stack.append((None, node, ctx, False, 0) if node.__class__ in _PLAIN_PARTS else
                         (info_of(node), node, ctx, False, 0))
            if sep is not None and k > 0:
                stack.append((None, sep, _USE, False, 0))
        pop = stack.pop
        push = stack.append
        while stack:
            info, node, ctx, nested, hint = pop()
            if info is None:
                if isinstance(node, str):
                    punct(node)
                elif node.__class__ is Variable:
                    refs.append(ref_of(node.name, self._mode(ctx, nested, False), False))
                    variable(len(refs) - 1)
                else:
                    name = src[node.start_byte:node.end_byte].decode()
                    refs.append(ref_of(name, self._mode(ctx, nested, True), True))
                    variable(len(refs) - 1)
                continue
            if subst and hint != _FINAL and node.id in subst:
                value, wrap = subst[node.id]
                vclass = value.__class__
                if vclass is Converse:
                    # b > a read as a < b where that is the same meaning (graphs.canon.orientation)
                    op = value.op
                    turned = CONVERSE.get(subst[op.id][0] if op.id in subst else op.type)
                    if turned is not None and pure_operand(value.left, roles, subst=subst) \
                            and pure_operand(value.right, roles, subst=subst):
                        pass_on = ctx if ctx not in _WRITES else _USE  # (as walked below)
                        push((info_of(value.left), value.left, pass_on, nested, 0))
                        push((None, turned, _USE, False, 0))
                        push((info_of(value.right), value.right, pass_on, nested, 0))
                    else:
                        push((info_of(value.node), value.node, ctx, nested, _FINAL))
                    continue
                if wrap:
                    push((None, ")", _USE, False, 0))
                if vclass is str or vclass is Variable:
                    push((None, value, _USE, nested, 0))
                elif vclass is Final:
                    push((info_of(value.node), value.node, ctx, nested, _FINAL))
                else:
                    push((info_of(value), value, _TYPE if ctx == _TYPE else _USE, nested, 0))
                if wrap:
                    push((None, "(", _USE, False, 0))
                continue
            if info.identifier:
                if ctx in (_TYPE, _NAME):
                    word(src[node.start_byte:node.end_byte].decode(), ctx == _TYPE)
                else:
                    # the common case of _mode() without the call
                    mode = ctx if not nested and (ctx != _DEF or not declares) else \
                        self._mode(ctx, nested, False)
                    refs.append(ref_of(src[node.start_byte:node.end_byte].decode(), mode, False))
                    variable(len(refs) - 1)
                continue
            if info.literal is not None and not (interpolations and self._interpolated(node)):
                word(info.literal if abstract_literals else node_text(node))
                continue
            children = node.children
            if not children:
                if info.comment:
                    continue
                text = src[node.start_byte:node.end_byte].decode()
                in_type = ctx == _TYPE or info.type_node
                if info.named:
                    word(text, in_type)
                else:
                    punct(text, in_type, hint)
                continue
            if info.comment:
                continue
            if info.branches:
                # an if inside a lambda or an anonymous class, part of this label (an if
                # the CFG builds is never walked whole): read as the graph reads an if
                subst = self._oriented_if(node, subst)
            if info.parens and normalize and redundant_parentheses(node, roles.language):
                # equal meaning, equal label: a + (b * c) is a + b * c
                inner = next(c for c in node.named_children if c.type != "comment")
                push((info_of(inner), inner, ctx, nested, 0))
                continue
            if info.plain:  # most inner nodes: the generic rules below, reduced
                pass_on = ctx if ctx not in _WRITES else _USE
                field_ctx = info.field_ctx
                for i in range(len(children) - 1, -1, -1):
                    c = children[i]
                    cinfo = kinds[c.kind_id] or info_of(c)
                    cctx = pass_on
                    if cinfo.named:
                        f = node.field_name_for_child(i)
                        if f is not None:
                            cctx = field_ctx.get(f, pass_on)
                    push((cinfo, c, cctx, nested, 0))
                continue
            if info.type_node:
                ctx = _TYPE
            if info.nested:
                nested = True
            leaf_hint = info.leaf_hint  # PREFIX becomes POSTFIX after the first child
            # Per-child contexts; missing = decided by the generic rule below. Shared empty
            # dict unless a role below fills it (most nodes have no special children).
            special: dict[int, Ctx] = _NO_SPECIAL
            field_ref = -1  # index of a member that is a field access (this.x)
            skip_upto = -1  # children before this index are not emitted (this + ".")
            role = info.role if ctx != _TYPE and ctx != _NAME else 0
            if not role:  # most nodes
                if normalize and info.qualified:
                    # P.A, java.util.List, std::vector: keep the last component only
                    last = node.child_by_field_name("name")
                    if last is None:
                        last = node.named_children[-1]
                    push((info_of(last), last, ctx, nested, 0))
                    continue
                if info.interpolation:
                    ctx = _USE
            elif role == _MEMBER:
                special = {}
                objf, memf = info.role_arg
                obj = node.child_by_field_name(objf)
                mem = node.child_by_field_name(memf)
                if obj is not None and mem is not None:
                    self_names = roles.self_names  # empty but for Python: skip the decode
                    is_this = obj.type in roles.this_types or bool(
                        self_names and obj.type in roles.identifiers
                        and obj.text.decode() in self_names)
                    for i, c in enumerate(children):
                        if c.id == mem.id:
                            if is_this and mem.child_count == 0:
                                field_ref = i
                                if normalize and not roles.explicit_fields:
                                    skip_upto = i
                            else:
                                special[i] = _NAME
                        elif c.id == obj.id:
                            special[i] = _NAME if is_this else (
                                _WEAK if ctx in (_DEF, _DEFUSE, _WEAK) else _USE)
            elif role == _SUBSCRIPT:
                special = {}
                base = node.child_by_field_name(info.role_arg)
                for i, c in enumerate(children):
                    if c.is_named:
                        special[i] = _USE
                        if base is not None and c.id == base.id and ctx in (_DEF, _DEFUSE,
                                                                             _WEAK):
                            special[i] = _WEAK
            elif role == _CALL:
                callee = node.child_by_field_name(info.role_arg)
                if not nested:  # a lambda's calls may never run
                    effect = self._call_effect(node, callee, subst)
                    if effect is not False:
                        calls.append(effect)
                if callee is not None and (not roles.callee_is_use) and (
                        callee.type in roles.identifiers or callee.child_count == 0):
                    special = {}
                    for i, c in enumerate(children):
                        if c.id == callee.id:
                            special[i] = _NAME
                ctx = _USE
            elif role == _ASSIGN:
                left = node.child_by_field_name("left")
                op = node.child_by_field_name("operator")
                compound = info.role_arg or (op is not None and op.type != "=")
                if left is not None:
                    special = {}
                    for i, c in enumerate(children):
                        if c.id == left.id:
                            special[i] = _DEFUSE if compound else _DEF
                ctx = _USE
            elif role == _UPDATE:
                if any((not c.is_named) and c.type in ("++", "--") for c in children):
                    special = {}
                    for i, c in enumerate(children):
                        if c.is_named:
                            special[i] = _DEFUSE
                ctx = _USE
            elif role == _DECLARATION:
                special = {}
                name_field = info.role_arg
                decl = _BIND if ctx == _BIND else _DECL
                for i, c in enumerate(children):
                    if not c.is_named:
                        continue
                    f = node.field_name_for_child(i)
                    if f == name_field:
                        special[i] = decl
                    elif f == "type" or f == "returns":
                        special[i] = _TYPE
                    else:
                        special[i] = _USE
            elif role == _ARGUMENT_MODIFIER:
                first = children[0]
                if not first.is_named and first.type in ("out", "ref"):
                    special = {}
                    mode = _DEF if first.type == "out" else _DEFUSE
                    for i, c in enumerate(children):
                        if c.is_named:
                            special[i] = mode
                elif ctx in _WRITES:
                    pass  # a tuple element being assigned: generic pattern rule
                else:
                    ctx = _USE
            elif role == _ADDRESS_OF:
                op = node.child_by_field_name("operator")
                arg = node.child_by_field_name("argument")
                if op is not None and arg is not None and (
                        op.type == "&" or (op.type == "*" and ctx in (_DEF, _DEFUSE, _WEAK))):
                    special = {}
                    for i, c in enumerate(children):
                        if c.id == arg.id:
                            special[i] = _WEAK
                ctx = _USE

            pass_on = ctx if (ctx not in _WRITES or info.pattern) else _USE
            # a definition context is not passed on to these fields (defaults, sizes)
            read_fields = pass_on in _WRITES and pass_on != _WEAK
            field_ctx = info.field_ctx
            any_field_ctx = info.any_field_ctx
            for i in range(len(children) - 1, -1, -1):
                c = children[i]
                if i <= field_ref:  # (skip_upto <= field_ref: both -1 but for this.x)
                    if i == field_ref:
                        push((None, c, ctx, nested, 0))
                        continue
                    if i < skip_upto:
                        continue
                cinfo = kinds[c.kind_id] or info_of(c)
                named = cinfo.named
                cctx = special.get(i) if special else None
                if cctx is None:
                    cctx = pass_on
                    if named:
                        f = node.field_name_for_child(i)
                        if f is not None:
                            fc = field_ctx.get(f)
                            if fc is not None:
                                cctx = fc
                            elif read_fields and f in _READ_FIELDS:
                                cctx = _USE
                        if any_field_ctx is not None:
                            cctx = any_field_ctx
                if leaf_hint and not named and c.child_count == 0:
                    if leaf_hint == PREFIX:
                        push((cinfo, c, cctx, nested, PREFIX if i == 0 else POSTFIX))
                    elif leaf_hint == TIGHT or c.type == ":":
                        push((cinfo, c, cctx, nested, leaf_hint))
                    else:
                        push((cinfo, c, cctx, nested, 0))
                else:
                    push((cinfo, c, cctx, nested, 0))
        for tok in suffix:
            punct(tok)
        buf.strip_trailing()
        return Facts(buf.seps, buf.toks, refs, calls)

    def _oriented_if(self, node: tree_sitter.Node,
                     subst: Mapping[int, tuple[object, bool]] | None
                     ) -> Mapping[int, tuple[object, bool]] | None:
        """``subst`` and the substitutions that write an ``if`` with an ``else`` in the
        canonical orientation (:mod:`graphs.canon.orientation`): ``if (!c) A else B`` is read
        ``if (c) B else A``, as the CFG builder reads an ``if`` it builds."""
        roles = self.roles
        found = if_branches(node, roles.else_clauses, roles.elif_clauses)
        if found is None:
            return subst
        cond, cons, alt = found
        extra, swap = condition_orientation(cond)
        if swap:
            if cons is None or alt is None:
                return subst
            extra[cons.id] = (Final(alt), False)
            extra[alt.id] = (Final(cons), False)
        if not extra:
            return subst
        return {**subst, **extra} if subst else extra

    def _call_effect(self, call: tree_sitter.Node, callee: tree_sitter.Node | None,
                     subst: Mapping | None = None) -> tuple[str, bool] | None | bool:
        """What a call may update: ``(name, is_field)`` of the variable it is called on,
        ``None`` for unknown effects, ``False`` for a call known to be pure. A receiver
        substituted by a :class:`Variable` (``xs[i]`` read as a loop's element) is it."""
        roles = self.roles
        src = self.source
        if callee is None:
            return None
        receiver = None
        if callee.type in roles.members:
            objf, memf = roles.members[callee.type]
            receiver = callee.child_by_field_name(objf)
            method = callee.child_by_field_name(memf)
        else:
            method = callee
            if callee.type in roles.identifiers or callee.child_count == 0:
                receiver = call.child_by_field_name("object")  # Java: obj.m(...)
        if method is not None and src[method.start_byte:method.end_byte].decode() in PURE_CALLS:
            return False
        if receiver is None:
            return None
        node = receiver
        while True:  # down to the variable the call chain starts from
            if subst and node.id in subst and subst[node.id][0].__class__ is Variable:
                return subst[node.id][0].name, False
            t = node.type
            if t in roles.members:
                objf, memf = roles.members[t]
                inner = node.child_by_field_name(objf)
                mem = node.child_by_field_name(memf)
                if inner is None:
                    return None
                if mem is not None and (inner.type in roles.this_types or (
                        inner.type in roles.identifiers
                        and src[inner.start_byte:inner.end_byte].decode()
                        in roles.self_names)):
                    return src[mem.start_byte:mem.end_byte].decode(), True
                node = inner
            elif t in roles.subscripts:
                inner = node.child_by_field_name(roles.subscripts[t])
                if inner is None:
                    return None
                node = inner
            elif t in roles.identifiers:
                name = src[node.start_byte:node.end_byte].decode()
                return None if name in roles.self_names else (name, False)
            elif t == "parenthesized_expression" and node.named_child_count == 1:
                node = node.named_children[0]
            else:  # this.m(), f().m(), new A().m(): unknown effects
                return None

    def _interpolated(self, node: tree_sitter.Node) -> bool:
        inter = self.roles.interpolations
        if not inter:
            return False
        return any(c.type in inter for c in node.children)
