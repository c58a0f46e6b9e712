"""Mutation operators on real code, for the validity benchmark (:mod:`validity.benchmark`).

Each operator takes ``(code, language, rng)`` and returns a new code string, or ``None``
when it does not apply to ``code`` (no site for it, or the result would not parse cleanly).
An operator edits the *source text* at positions found in the tree-sitter parse
(:func:`graphs.parse`, snippets welcome), so the rest of the text, comments and layout
included, is kept byte for byte. When an operator has several sites, ``rng`` picks one.

Two families (see :data:`OPERATORS`):

* **Semantics-preserving variants** (``preserving=True``): the rewrites of SPEC section 3
  (``i++`` / ``++i`` / ``i += 1`` / ``i = i + 1`` as statements, ``x op= e`` /
  ``x = x op (e)``, redundant parentheses, ``for`` to ``while``, conditional expression to
  ``if``/``else`` and back), consistent renaming of a local variable to a fresh name,
  swapping two adjacent *independent* statements (a conservative read/write-set test over
  identifiers: no call, no shared written variable or object), and extracting a temporary for
  a returned expression.
* **Semantics-changing mutants** (``preserving=False``), the classic mutation-testing
  operators: relational and arithmetic operator replacement, off-by-one integer constants,
  negated ``if``/``while`` condition, swapped then/else bodies, a deleted statement, swapped
  dependent statements or order-sensitive calls, a wrong variable, a wrong returned value.

Why the mutants change meaning (the argument for references that cannot be executed): each
operator alters a computed value or the order of effects at a site that is reached and
observable by construction. A relational or arithmetic operator is replaced by one that
gives a different result on some inputs (``x + 0`` / ``x * 1`` style sites, where
``+``/``-`` or ``*``/``/`` agree, are skipped, and so are string operands); an integer
constant is changed where it is a value (not an array size or constructor argument such as
a capacity, which are often unobservable); a condition is negated or the two differing
branches of an ``if`` are exchanged; a deleted statement is a call or an assignment whose
target is read later or escapes (a field, an element, a non-local); swapped statements
have a definite flow or anti dependence through the same variable or element, or are two
calls to an order-sensitive method (write/print/append/add/push/...) on the same receiver;
a wrong variable or returned value reads another variable of the same declared type, or a
different constant. As in mutation testing, a few mutants can still be equivalent on every
input (two variables that always hold the same value, say); :mod:`.validity` removes them
where tests can be run (HumanEval-X Python and JavaScript) and relies on this argument
elsewhere.

Every result is checked to parse cleanly, and a result equal to the input after whitespace
normalization is discarded (``None``).

The idioms a translator changes (SPEC section 8) are in :mod:`.idioms`: variants
``indexed_to_foreach`` (an indexed loop that only reads ``xs[i]`` to the loop over the
elements), ``negate_swap`` (``if (c) A else B`` to ``if (!c) B else A``),
``inferred_type`` (an explicit local type to ``var``/``auto`` where the initializer shows it,
JavaScript ``const``/``let``/``var``) and ``converse_comparison`` (``a < b`` to ``b > a``
between operands free of effects), and the mutant ``field_initializer`` (a class field's
initializer changed).

Layout: :mod:`.node_types` (the node type vocabulary of the six grammars), :mod:`.sites`
(the parsed snippet, site finding and edit application every operator shares),
:mod:`.variants` and :mod:`.mutants` (the two families); this package holds
:class:`Operator` and the :data:`OPERATORS` tables and re-exports the operators.

>>> import random
>>> increment_style("i++;", "java", random.Random(0)) in ("++i;", "i += 1;", "i = i + 1;")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .idioms import (
    converse_comparison,
    field_initializer,
    indexed_to_foreach,
    inferred_type,
    negate_swap,
)
from .mutants import (
    arithmetic_op,
    delete_statement,
    negate_condition,
    off_by_one,
    relational_op,
    swap_branches,
    swap_dependent,
    wrong_return,
    wrong_variable,
)
from .sites import Edit as Edit
from .sites import Node as Node
from .sites import normalize_whitespace
from .variants import (
    compound_assignment,
    conditional_to_if,
    extract_temp,
    for_to_while,
    increment_style,
    redundant_parens,
    rename_local,
    swap_independent,
)

__all__ = [
    "Operator",
    "OPERATORS",
    "PRESERVING",
    "CHANGING",
    "normalize_whitespace",
    "increment_style",
    "compound_assignment",
    "redundant_parens",
    "for_to_while",
    "conditional_to_if",
    "rename_local",
    "swap_independent",
    "extract_temp",
    "indexed_to_foreach",
    "negate_swap",
    "inferred_type",
    "converse_comparison",
    "relational_op",
    "arithmetic_op",
    "off_by_one",
    "negate_condition",
    "swap_branches",
    "delete_statement",
    "swap_dependent",
    "wrong_variable",
    "wrong_return",
    "field_initializer",
]


@dataclass(frozen=True)
class Operator:
    """A named mutation operator.

    Attributes
    ----------
    name : short name used in reports.
    preserving : True for a semantics-preserving variant, False for a mutant.
    apply : ``(code, language, rng) -> str | None``.
    """

    name: str
    preserving: bool
    apply: Callable[[str, str, random.Random], str | None]


PRESERVING: tuple[Operator, ...] = tuple(
    Operator(f.__name__, True, f)
    for f in (
        increment_style,
        compound_assignment,
        redundant_parens,
        for_to_while,
        conditional_to_if,
        rename_local,
        swap_independent,
        extract_temp,
        indexed_to_foreach,
        negate_swap,
        inferred_type,
        converse_comparison,
    )
)
CHANGING: tuple[Operator, ...] = tuple(
    Operator(f.__name__, False, f)
    for f in (
        relational_op,
        arithmetic_op,
        off_by_one,
        negate_condition,
        swap_branches,
        delete_statement,
        swap_dependent,
        wrong_variable,
        wrong_return,
        field_initializer,
    )
)
#: Every operator, variants first.
OPERATORS: tuple[Operator, ...] = PRESERVING + CHANGING
