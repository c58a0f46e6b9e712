"""Per-language tables that tell the PDG builder what each grammar node type *means*.

The control-flow builder (:mod:`graphs.pdg.cfg`) and the def/use extractor
(:mod:`graphs.pdg.dataflow`) never name a language: they look node types up in the
:class:`LanguageRoles` of the snippet's language, which its entry in the language registry
carries (``get_language(name).roles``, :mod:`graphs.lang.languages`). Supporting a new grammar
means giving its registry entry one :class:`LanguageRoles`; the built-in ones are here.

Statement roles
---------------
Every node type that can stand where a statement stands maps to a :class:`Role`. Types a
table does not list are built as plain statements (never an error) and reported in
``build_pdg(...).graph["fallback_types"]``, so coverage gaps stay visible.

Walk contexts
-------------
:class:`Ctx` says how an identifier is used where it occurs: read (``USE``), written
(``DEF``), read and written (``DEFUSE``: ``x += 1``, ``i++``), partly written (``WEAK``: the
base of ``a[i] = v``), declared (``DECL``), bound by a lambda or comprehension (``BIND``:
renamed in labels, no data flow), or not a variable at all (``TYPE``, ``NAME``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Any

__all__ = ["BUILT_IN_ROLES", "Ctx", "LanguageRoles", "Role"]


class Role(str, Enum):
    """What a statement-level node type does to control flow."""

    STATEMENT = "statement"  # plain: one node, falls through
    DECLARATION = "declaration"  # plain, declares variables
    BLOCK = "block"  # a sequence of statements, no node of its own
    EMPTY = "empty"  # no node (``;``, ``pass``)
    IF = "if"
    SWITCH = "switch"
    WHILE = "while"
    DO = "do"
    FOR = "for"  # classic three-part for
    FOREACH = "foreach"  # enhanced-for, foreach, for-in/of, range-for, Python for
    BREAK = "break"
    CONTINUE = "continue"
    RETURN = "return"
    THROW = "throw"
    TRY = "try"
    LABELED = "labeled"
    GOTO = "goto"
    WITH = "with"  # header node then its body: with, using, lock, synchronized, fixed, ...
    YIELD = "yield"
    FUNCTION = "function"  # nested function: a node in the enclosing flow and its own unit
    CLASS = "class"  # nested class: one node, header only


class Ctx(IntEnum):
    """How identifiers below a syntax node are used (see module docstring)."""

    USE = 0
    DEF = 1
    DEFUSE = 2
    WEAK = 3
    DECL = 4
    BIND = 5
    TYPE = 6
    NAME = 7


@dataclass(frozen=True)
class LanguageRoles:
    """The tables of one language. All fields are node types of its tree-sitter grammar.

    Attributes
    ----------
    language : str
        Canonical language name.
    statements : Mapping[str, Role]
        Statement-level node types and their roles.
    functions : Mapping[str, str]
        Function-like definitions (own CFG) and the field holding their body.
    containers : Mapping[str, str | None]
        Nodes searched for functions (classes, namespaces) and the field of their member
        list (``None``: all named children).
    preamble : frozenset of str
        Top-level nodes ignored when the snippet has functions (imports, includes).
    comments : frozenset of str
        Comment node types (skipped everywhere).
    blocks : frozenset of str
        Statement lists (also the bodies of functions).
    switch_groups : frozenset of str
        Children of a switch body that hold case labels and statements.
    switch_labels : frozenset of str
        Case-label nodes (Java's ``switch_label``); other grammars use ``case ... :`` runs.
    no_fallthrough_groups : frozenset of str
        Groups whose end leaves the switch (Java's ``case X ->`` rules, Python's cases).
    fallthrough : bool
        Whether the end of a case group falls into the next one (not in C#).
    catch_clauses, finally_clauses, else_clauses, elif_clauses : frozenset of str
        Clauses of ``try`` and ``if`` statements.
    for_fields : tuple of str
        Field names of a classic for's initializer, condition and update.
    goto_labels : bool
        Labelled statements are ``goto`` targets (C, C++, C#): they get a node.
    identifiers : frozenset of str
        Node types that name variables.
    this_types : frozenset of str
        Receivers meaning "this object" (``this``); ``self_names`` are identifiers meaning
        the same (Python's ``self``).
    members : Mapping[str, tuple[str, str]]
        Member accesses: type -> (object field, member field).
    subscripts : Mapping[str, str]
        Element accesses: type -> base field.
    calls : Mapping[str, str]
        Calls: type -> callee field.
    callee_is_use : bool
        A bare callee identifier reads a variable (Python, JS, C, C++: functions are values);
        in Java and C# a method name is not a variable.
    assignments : Mapping[str, bool]
        Assignment types -> whether they are always compound (``+=``). Otherwise the
        ``operator`` field decides (``=`` defines, anything else defines and uses).
    updates : frozenset of str
        Nodes that define and use their operand when their operator is ``++`` or ``--``.
    address_of : frozenset of str
        C pointer expressions: ``&x`` may write ``x`` (weak definition), ``*p = v`` too.
    declarations : Mapping[str, str]
        Declarator-like types -> the field naming the declared variable(s). Other children
        are read (``type`` fields are types).
    patterns : frozenset of str
        Types that pass a definition context on to their children (tuples, destructuring,
        parenthesized targets, C declarators).
    argument_modifiers : frozenset of str
        Argument nodes whose ``out`` / ``ref`` keyword makes the argument a definition (C#).
    nested : frozenset of str
        Expressions opening a nested scope (lambdas, anonymous classes, comprehensions):
        declarations inside are bindings, writes inside are weak definitions.
    field_ctx : Mapping[tuple[str, str], Ctx]
        ``(parent type, field name) -> Ctx``; parent ``"*"`` matches any parent.
    type_nodes : frozenset of str
        Node types that are always types (generic arguments, annotations).
    qualified : frozenset of str
        Qualified type names reduced to their last component in labels.
    literals : Mapping[str, str]
        Literal types (one label token each) -> the token used with ``abstract_literals``.
    interpolations : frozenset of str
        Children that make a string literal an expression (f-strings, templates).
    assignment_declares : bool
        A plain assignment declares a local (Python).
    docstrings : bool
        A leading string-literal statement of a function is documentation (Python).
    name_statements : frozenset of str
        Statements whose identifiers are not variables (``global``, imports).
    explicit_fields : bool
        A field is only ever reached through ``self.``/``this.`` (Python, JavaScript): a
        bare name is never the field, so labels keep the receiver and ``self.x`` and ``x``
        are different variables.
    """

    language: str
    statements: Mapping[str, Role]
    functions: Mapping[str, str]
    containers: Mapping[str, str | None]
    preamble: frozenset[str]
    comments: frozenset[str]
    blocks: frozenset[str]
    switch_groups: frozenset[str]
    catch_clauses: frozenset[str]
    finally_clauses: frozenset[str]
    for_fields: tuple[str, str, str]
    identifiers: frozenset[str]
    members: Mapping[str, tuple[str, str]]
    subscripts: Mapping[str, str]
    calls: Mapping[str, str]
    assignments: Mapping[str, bool]
    declarations: Mapping[str, str]
    patterns: frozenset[str]
    literals: Mapping[str, str]
    switch_labels: frozenset[str] = frozenset()
    no_fallthrough_groups: frozenset[str] = frozenset()
    fallthrough: bool = True
    else_clauses: frozenset[str] = frozenset({"else_clause"})
    elif_clauses: frozenset[str] = frozenset()
    goto_labels: bool = False
    this_types: frozenset[str] = frozenset({"this"})
    self_names: frozenset[str] = frozenset()
    callee_is_use: bool = True
    updates: frozenset[str] = frozenset({"update_expression"})
    address_of: frozenset[str] = frozenset()
    argument_modifiers: frozenset[str] = frozenset()
    nested: frozenset[str] = frozenset()
    field_ctx: Mapping[tuple[str, str], Ctx] = field(default_factory=dict)
    type_nodes: frozenset[str] = frozenset()
    qualified: frozenset[str] = frozenset()
    interpolations: frozenset[str] = frozenset()
    assignment_declares: bool = False
    docstrings: bool = False
    name_statements: frozenset[str] = frozenset()
    explicit_fields: bool = False

    def role(self, node_type: str) -> Role | None:
        """Role of a statement-level node type, ``None`` if the table does not know it."""
        return self.statements.get(node_type)


# Field contexts shared by every grammar: a ``type`` field is a type wherever it occurs.
_COMMON_FIELDS: dict[tuple[str, str], Ctx] = {
    ("*", "type"): Ctx.TYPE,
    ("*", "returns"): Ctx.TYPE,
    ("*", "type_arguments"): Ctx.TYPE,
    ("*", "type_parameters"): Ctx.TYPE,
    ("*", "label"): Ctx.NAME,
}

_S, _D = Role.STATEMENT, Role.DECLARATION

# The C family (Java, C#, C, C++, JavaScript): statement types and tables that every one of
# these grammars names alike. Each language's table is this base plus its own entries.
_C_FAMILY_STATEMENTS: dict[str, Role] = {
    "expression_statement": _S,
    "if_statement": Role.IF, "while_statement": Role.WHILE, "do_statement": Role.DO,
    "for_statement": Role.FOR, "switch_statement": Role.SWITCH,
    "break_statement": Role.BREAK, "continue_statement": Role.CONTINUE,
    "return_statement": Role.RETURN, "labeled_statement": Role.LABELED,
}

#: Tables most C-family grammars share; a language that differs passes its own.
_C_FAMILY_TABLES: dict[str, Any] = {
    "comments": frozenset({"comment"}),
    "catch_clauses": frozenset({"catch_clause"}),
    "finally_clauses": frozenset({"finally_clause"}),
    "for_fields": ("initializer", "condition", "update"),
    "identifiers": frozenset({"identifier"}),
    "assignments": {"assignment_expression": False},
}


def _c_family(language: str, statements: Mapping[str, Role], **tables: Any) -> LanguageRoles:
    """A C-family language: the shared statement types plus ``statements`` (which may
    override them), and :data:`_C_FAMILY_TABLES` except where ``tables`` says otherwise."""
    return LanguageRoles(language=language, statements={**_C_FAMILY_STATEMENTS, **statements},
                         **{**_C_FAMILY_TABLES, **tables})


_JAVA = _c_family(
    "java",
    statements={
        "block": Role.BLOCK, "constructor_body": Role.BLOCK,
        "assert_statement": _S, "explicit_constructor_invocation": _S,
        "local_variable_declaration": _D,
        "enhanced_for_statement": Role.FOREACH, "switch_expression": Role.SWITCH,
        "throw_statement": Role.THROW,
        "try_statement": Role.TRY, "try_with_resources_statement": Role.TRY,
        "synchronized_statement": Role.WITH,
        "yield_statement": Role.YIELD,
        "class_declaration": Role.CLASS, "interface_declaration": Role.CLASS,
        "enum_declaration": Role.CLASS, "record_declaration": Role.CLASS,
        "local_class_declaration": Role.CLASS,
    },
    functions={"method_declaration": "body", "constructor_declaration": "body",
               "compact_constructor_declaration": "body"},
    containers={"class_declaration": "body", "interface_declaration": "body",
                "enum_declaration": "body", "record_declaration": "body",
                "class_body": None, "interface_body": None, "enum_body": None,
                "enum_body_declarations": None},
    preamble=frozenset({"import_declaration", "package_declaration", "module_declaration"}),
    comments=_C_FAMILY_TABLES["comments"] | {"line_comment", "block_comment"},
    blocks=frozenset({"block", "constructor_body"}),
    switch_groups=frozenset({"switch_block_statement_group", "switch_rule"}),
    switch_labels=frozenset({"switch_label"}),
    no_fallthrough_groups=frozenset({"switch_rule"}),
    for_fields=("init", "condition", "update"),
    members={"field_access": ("object", "field")},
    subscripts={"array_access": "array"},
    calls={"method_invocation": "name"},
    callee_is_use=False,
    declarations={"variable_declarator": "name", "formal_parameter": "name",
                  "catch_formal_parameter": "name", "resource": "name",
                  "receiver_parameter": "name"},
    patterns=frozenset({"parenthesized_expression", "inferred_parameters", "formal_parameters",
                        "spread_parameter"}),
    nested=frozenset({"lambda_expression", "class_body"}),
    field_ctx={
        **_COMMON_FIELDS,
        ("local_variable_declaration", "declarator"): Ctx.DECL,
        ("enhanced_for_statement", "name"): Ctx.DECL,
        ("instanceof_expression", "name"): Ctx.DECL,
        ("instanceof_expression", "right"): Ctx.TYPE,
        ("lambda_expression", "parameters"): Ctx.BIND,
        ("method_reference", "*"): Ctx.NAME,
        ("marker_annotation", "name"): Ctx.NAME,
        ("annotation", "name"): Ctx.NAME,
    },
    type_nodes=frozenset({"type_arguments", "type_parameters", "marker_annotation",
                          "annotation", "generic_type", "scoped_type_identifier",
                          "array_type", "integral_type", "floating_point_type",
                          "boolean_type", "void_type", "type_identifier", "catch_type"}),
    qualified=frozenset({"scoped_type_identifier"}),
    literals={
        "decimal_integer_literal": "NUM", "hex_integer_literal": "NUM",
        "octal_integer_literal": "NUM", "binary_integer_literal": "NUM",
        "decimal_floating_point_literal": "NUM", "hex_floating_point_literal": "NUM",
        "string_literal": "STR", "text_block": "STR", "character_literal": "CHAR",
    },
    interpolations=frozenset({"string_interpolation"}),
)

_CSHARP = _c_family(
    "csharp",
    statements={
        "block": Role.BLOCK,
        "local_declaration_statement": _D,
        "foreach_statement": Role.FOREACH,
        "throw_statement": Role.THROW,
        "try_statement": Role.TRY,
        "goto_statement": Role.GOTO,
        "using_statement": Role.WITH, "lock_statement": Role.WITH,
        "fixed_statement": Role.WITH, "checked_statement": Role.WITH,
        "unsafe_statement": Role.WITH,
        "yield_statement": Role.YIELD, "empty_statement": Role.EMPTY,
        "local_function_statement": Role.FUNCTION,
        "class_declaration": Role.CLASS, "struct_declaration": Role.CLASS,
        "record_declaration": Role.CLASS, "interface_declaration": Role.CLASS,
        "enum_declaration": Role.CLASS,
    },
    functions={"method_declaration": "body", "constructor_declaration": "body",
               "destructor_declaration": "body", "operator_declaration": "body",
               "conversion_operator_declaration": "body", "accessor_declaration": "body",
               "local_function_statement": "body"},
    containers={"class_declaration": "body", "struct_declaration": "body",
                "record_declaration": "body", "interface_declaration": "body",
                "namespace_declaration": "body", "file_scoped_namespace_declaration": None,
                "declaration_list": None, "property_declaration": "accessors",
                "indexer_declaration": "accessors", "accessor_list": None},
    preamble=frozenset({"using_directive", "extern_alias_directive"}),
    blocks=frozenset({"block"}),
    switch_groups=frozenset({"switch_section"}),
    fallthrough=False,
    goto_labels=True,
    identifiers=_C_FAMILY_TABLES["identifiers"] | {"implicit_parameter"},
    this_types=frozenset({"this", "this_expression"}),
    members={"member_access_expression": ("expression", "name")},
    subscripts={"element_access_expression": "expression"},
    calls={"invocation_expression": "function"},
    callee_is_use=False,
    updates=frozenset({"prefix_unary_expression", "postfix_unary_expression"}),
    argument_modifiers=frozenset({"argument"}),
    declarations={"variable_declarator": "name", "parameter": "name",
                  "catch_declaration": "name", "declaration_expression": "name",
                  "declaration_pattern": "name"},
    patterns=frozenset({"parenthesized_expression", "tuple_expression", "argument",
                        "tuple_pattern", "parenthesized_variable_designation",
                        "parameter_list"}),
    nested=frozenset({"lambda_expression", "anonymous_method_expression",
                      "query_expression"}),
    field_ctx={
        **_COMMON_FIELDS,
        ("foreach_statement", "left"): Ctx.DECL,
        ("lambda_expression", "parameters"): Ctx.BIND,
        ("from_clause", "name"): Ctx.BIND,
        ("let_clause", "name"): Ctx.BIND,
        ("join_clause", "name"): Ctx.BIND,
        ("member_binding_expression", "name"): Ctx.NAME,
        ("attribute", "name"): Ctx.NAME,
        ("name_colon", "name"): Ctx.NAME,
        ("argument", "name"): Ctx.NAME,
        ("array_rank_specifier", "*"): Ctx.USE,  # new int[n]: n is read, inside a type
        ("typeof_expression", "type"): Ctx.TYPE,
        ("is_expression", "right"): Ctx.TYPE,
        ("as_expression", "right"): Ctx.TYPE,
    },
    type_nodes=frozenset({"type_argument_list", "type_parameter_list", "attribute_list",
                          "predefined_type", "qualified_name", "generic_name",
                          "nullable_type", "array_type", "implicit_type", "pointer_type",
                          "name_colon"}),
    qualified=frozenset({"qualified_name", "alias_qualified_name"}),
    literals={
        "integer_literal": "NUM", "real_literal": "NUM", "string_literal": "STR",
        "verbatim_string_literal": "STR", "raw_string_literal": "STR",
        "character_literal": "CHAR",
    },
    interpolations=frozenset({"interpolation"}),
)

_PYTHON = LanguageRoles(
    language="python",
    statements={
        "block": Role.BLOCK,
        "expression_statement": _S, "assert_statement": _S, "delete_statement": _S,
        "global_statement": _S, "nonlocal_statement": _S, "import_statement": _S,
        "import_from_statement": _S, "future_import_statement": _S, "print_statement": _S,
        "exec_statement": _S, "type_alias_statement": _S,
        "if_statement": Role.IF, "while_statement": Role.WHILE,
        "for_statement": Role.FOREACH, "match_statement": Role.SWITCH,
        "break_statement": Role.BREAK, "continue_statement": Role.CONTINUE,
        "return_statement": Role.RETURN, "raise_statement": Role.THROW,
        "try_statement": Role.TRY, "with_statement": Role.WITH,
        "pass_statement": Role.EMPTY,
        "function_definition": Role.FUNCTION, "decorated_definition": Role.FUNCTION,
        "class_definition": Role.CLASS,
    },
    functions={"function_definition": "body"},
    containers={"class_definition": "body", "block": None, "decorated_definition": None},
    preamble=frozenset({"import_statement", "import_from_statement",
                        "future_import_statement"}),
    comments=frozenset({"comment"}),
    blocks=frozenset({"block"}),
    switch_groups=frozenset({"case_clause"}),
    no_fallthrough_groups=frozenset({"case_clause"}),
    fallthrough=False,
    catch_clauses=frozenset({"except_clause", "except_group_clause"}),
    finally_clauses=frozenset({"finally_clause"}),
    elif_clauses=frozenset({"elif_clause"}),
    for_fields=("", "", ""),
    identifiers=frozenset({"identifier"}),
    this_types=frozenset(),
    self_names=frozenset({"self"}),
    explicit_fields=True,
    members={"attribute": ("object", "attribute")},
    subscripts={"subscript": "value"},
    calls={"call": "function"},
    assignments={"assignment": False, "augmented_assignment": True},
    updates=frozenset(),
    declarations={"default_parameter": "name", "typed_default_parameter": "name"},
    patterns=frozenset({"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern",
                        "dictionary_splat_pattern", "parenthesized_expression", "tuple",
                        "list", "expression_list", "as_pattern_target", "typed_parameter",
                        "splat_pattern", "lambda_parameters", "parameters"}),
    nested=frozenset({"lambda", "list_comprehension", "set_comprehension",
                      "dictionary_comprehension", "generator_expression"}),
    field_ctx={
        **_COMMON_FIELDS,
        ("for_statement", "left"): Ctx.DECL,
        ("for_in_clause", "left"): Ctx.BIND,
        ("as_pattern", "alias"): Ctx.DECL,
        ("named_expression", "name"): Ctx.DECL,
        ("lambda", "parameters"): Ctx.BIND,
        ("keyword_argument", "name"): Ctx.NAME,
        ("decorator", "*"): Ctx.NAME,
    },
    type_nodes=frozenset({"type"}),
    literals={"integer": "NUM", "float": "NUM", "string": "STR",
              "concatenated_string": "STR"},
    interpolations=frozenset({"interpolation"}),
    assignment_declares=True,
    docstrings=True,
    name_statements=frozenset({"global_statement", "nonlocal_statement", "import_statement",
                               "import_from_statement", "future_import_statement"}),
)

# C's statements beyond the family's (C++ has them all too).
_C_STATEMENTS: dict[str, Role] = {
    "compound_statement": Role.BLOCK,
    "declaration": _D, "type_definition": _D,
    "attributed_statement": _S,
    "goto_statement": Role.GOTO,
    "seh_try_statement": Role.TRY, "seh_leave_statement": _S,
    "preproc_include": _S, "preproc_def": _S, "preproc_function_def": _S,
    "preproc_call": _S, "preproc_if": _S, "preproc_ifdef": _S,
    "struct_specifier": _D, "enum_specifier": _D, "union_specifier": _D,
}

_C_FIELDS: dict[tuple[str, str], Ctx] = {
    **_COMMON_FIELDS,
    ("declaration", "declarator"): Ctx.DECL,
    ("for_range_loop", "declarator"): Ctx.DECL,
    ("field_expression", "field"): Ctx.NAME,
    ("sizeof_expression", "type"): Ctx.TYPE,
    ("goto_statement", "label"): Ctx.NAME,
}

_C_DECLARATIONS = {"init_declarator": "declarator", "parameter_declaration": "declarator"}
_C_PATTERNS = frozenset({"pointer_declarator", "array_declarator", "parenthesized_declarator",
                         "parenthesized_expression", "function_declarator"})
_C_LITERALS = {"number_literal": "NUM", "string_literal": "STR", "char_literal": "CHAR",
               "concatenated_string": "STR", "system_lib_string": "STR"}

_C = _c_family(
    "c",
    statements=_C_STATEMENTS,
    functions={"function_definition": "body"},
    containers={"linkage_specification": "body", "declaration_list": None},
    preamble=frozenset({"preproc_include", "preproc_def", "preproc_function_def",
                        "preproc_call", "type_definition", "declaration", "struct_specifier",
                        "enum_specifier", "union_specifier"}),
    blocks=frozenset({"compound_statement"}),
    switch_groups=frozenset({"case_statement"}),
    catch_clauses=frozenset({"seh_except_clause"}),
    finally_clauses=frozenset({"seh_finally_clause"}),
    goto_labels=True,
    this_types=frozenset(),
    members={"field_expression": ("argument", "field")},
    subscripts={"subscript_expression": "argument"},
    calls={"call_expression": "function"},
    address_of=frozenset({"pointer_expression"}),
    declarations=_C_DECLARATIONS,
    patterns=_C_PATTERNS,
    field_ctx=_C_FIELDS,
    type_nodes=frozenset({"type_descriptor", "primitive_type", "type_identifier",
                          "sized_type_specifier", "struct_specifier"}),
    literals=_C_LITERALS,
)

_CPP = _c_family(
    "cpp",
    statements={
        **_C_STATEMENTS,
        "for_range_loop": Role.FOREACH, "try_statement": Role.TRY,
        "throw_statement": Role.THROW, "co_return_statement": Role.RETURN,
        "co_yield_statement": Role.YIELD,
        "alias_declaration": _D, "using_declaration": _S,
        "namespace_alias_definition": _S, "static_assert_declaration": _S,
        "class_specifier": Role.CLASS,
    },
    functions={"function_definition": "body"},
    containers={"namespace_definition": "body", "template_declaration": None,
                "linkage_specification": "body", "declaration_list": None,
                "class_specifier": "body", "struct_specifier": "body",
                "field_declaration_list": None},
    preamble=frozenset({"preproc_include", "preproc_def", "preproc_function_def",
                        "preproc_call", "using_declaration", "alias_declaration",
                        "namespace_alias_definition", "type_definition", "declaration",
                        "static_assert_declaration", "field_declaration", "access_specifier",
                        "enum_specifier", "union_specifier"}),
    blocks=frozenset({"compound_statement"}),
    switch_groups=frozenset({"case_statement"}),
    catch_clauses=_C_FAMILY_TABLES["catch_clauses"] | {"seh_except_clause"},
    finally_clauses=frozenset({"seh_finally_clause"}),
    goto_labels=True,
    members={"field_expression": ("argument", "field")},
    subscripts={"subscript_expression": "argument"},
    calls={"call_expression": "function"},
    address_of=frozenset({"pointer_expression"}),
    declarations={**_C_DECLARATIONS, "optional_parameter_declaration": "declarator",
                  "variadic_parameter_declaration": "declarator"},
    patterns=_C_PATTERNS | {"reference_declarator", "structured_binding_declarator",
                            "variadic_declarator", "parameter_list",
                            "abstract_function_declarator"},
    nested=frozenset({"lambda_expression"}),
    field_ctx={**_C_FIELDS, ("lambda_expression", "declarator"): Ctx.BIND,
               ("qualified_identifier", "scope"): Ctx.TYPE},
    type_nodes=frozenset({"type_descriptor", "primitive_type", "type_identifier",
                          "sized_type_specifier", "template_argument_list",
                          "placeholder_type_specifier", "template_type", "struct_specifier",
                          "namespace_identifier"}),
    qualified=frozenset({"qualified_identifier"}),
    literals={**_C_LITERALS, "raw_string_literal": "STR", "user_defined_literal": "NUM"},
)

_JAVASCRIPT = _c_family(
    "javascript",
    statements={
        "statement_block": Role.BLOCK,
        "debugger_statement": _S, "import_statement": _S, "export_statement": _S,
        "lexical_declaration": _D, "variable_declaration": _D, "using_declaration": _D,
        "for_in_statement": Role.FOREACH,
        "throw_statement": Role.THROW,
        "try_statement": Role.TRY,
        "with_statement": Role.WITH, "empty_statement": Role.EMPTY,
        "function_declaration": Role.FUNCTION, "generator_function_declaration": Role.FUNCTION,
        "class_declaration": Role.CLASS,
    },
    functions={"function_declaration": "body", "generator_function_declaration": "body",
               "method_definition": "body", "function_expression": "body",
               "arrow_function": "body", "generator_function": "body"},
    containers={"class_declaration": "body", "class_body": None, "export_statement": None,
                "class": "body"},
    preamble=frozenset({"import_statement"}),
    comments=_C_FAMILY_TABLES["comments"] | {"html_comment"},
    blocks=frozenset({"statement_block"}),
    switch_groups=frozenset({"switch_case", "switch_default"}),
    for_fields=("initializer", "condition", "increment"),
    identifiers=_C_FAMILY_TABLES["identifiers"] | {"shorthand_property_identifier",
                                                    "shorthand_property_identifier_pattern"},
    members={"member_expression": ("object", "property")},
    explicit_fields=True,
    subscripts={"subscript_expression": "object"},
    calls={"call_expression": "function"},
    assignments={**_C_FAMILY_TABLES["assignments"], "augmented_assignment_expression": True},
    declarations={"variable_declarator": "name"},
    patterns=frozenset({"array_pattern", "object_pattern", "pair_pattern",
                        "assignment_pattern", "rest_pattern", "parenthesized_expression",
                        "formal_parameters"}),
    nested=frozenset({"arrow_function", "function_expression", "function", "class",
                      "generator_function", "class_body"}),
    field_ctx={
        **_COMMON_FIELDS,
        ("for_in_statement", "left"): Ctx.DECL,
        ("arrow_function", "parameters"): Ctx.BIND,
        ("arrow_function", "parameter"): Ctx.BIND,
        ("function_expression", "parameters"): Ctx.BIND,
        ("function", "parameters"): Ctx.BIND,
        ("generator_function", "parameters"): Ctx.BIND,
        ("pair_pattern", "key"): Ctx.NAME,
        ("pair", "key"): Ctx.NAME,
        ("assignment_pattern", "right"): Ctx.USE,
        ("catch_clause", "parameter"): Ctx.DECL,
        ("method_definition", "name"): Ctx.NAME,
    },
    literals={"number": "NUM", "string": "STR", "regex": "STR"},
    interpolations=frozenset({"template_substitution"}),
)

#: The role tables of the built-in languages, by canonical name. The language registry
#: (:mod:`graphs.lang.languages`) puts each in its language's entry; read them from there
#: (``get_language(name).roles`` or :func:`graphs.lang.languages.get_roles`).
BUILT_IN_ROLES: Mapping[str, LanguageRoles] = MappingProxyType(
    {t.language: t for t in (_JAVA, _CSHARP, _PYTHON, _C, _CPP, _JAVASCRIPT)})
