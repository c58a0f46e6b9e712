"""Which tree-sitter node types (and operator tokens, type names) play which role, as the
union over the registered grammars: blocks, declarations, calls, literals, loops... The
vocabulary the mutation operators (:mod:`.sites`, :mod:`.variants`, :mod:`.mutants`) match
nodes with. What the language registry's node roles already say (loops, calls, member and
element accesses) is read from there (``graphs.get_roles``); the rest is the benchmark's own.
"""

from __future__ import annotations

from graphs import get_roles, known_languages
from graphs.lang.roles import Role

_ROLES = tuple(get_roles(language) for language in known_languages())

BLOCKS = {
    "block",
    "compound_statement",
    "statement_block",
    "program",
    "module",
    "translation_unit",
}
DECL_STMTS = {
    "local_variable_declaration",
    "local_declaration_statement",
    "declaration",
    "lexical_declaration",
    "variable_declaration",
}
BINARY = {"binary_expression", "binary_operator", "comparison_operator", "boolean_operator"}
TERNARY = {"ternary_expression", "conditional_expression"}
ASSIGN = {
    "assignment_expression",
    "assignment",
    "augmented_assignment",
    "augmented_assignment_expression",
}
UPDATE = {"update_expression", "postfix_unary_expression", "prefix_unary_expression"}
CALLS = {t for r in _ROLES for t in r.calls} | {
    "object_creation_expression",
    "new_expression",
    "await_expression",
    "yield",
    "yield_expression",
    "explicit_constructor_invocation",
    "delete_expression",
}
FUNCTIONS = {
    "method_declaration",
    "constructor_declaration",
    "function_definition",
    "function_declaration",
    "arrow_function",
    "lambda_expression",
    "lambda",
    "local_function_statement",
    "function_expression",
    "function",
    "method_definition",
    "generator_function_declaration",
    "anonymous_method_expression",
}
STRINGS = {
    "string_literal",
    "string",
    "template_string",
    "character_literal",
    "char_literal",
    "verbatim_string_literal",
    "raw_string_literal",
    "interpolated_string_expression",
    "concatenated_string",
    "text_block",
}
INT_LITERALS = {
    "decimal_integer_literal",
    "integer_literal",
    "number_literal",
    "integer",
    "number",
}
LITERALS = INT_LITERALS | STRINGS | {
    "true",
    "false",
    "null_literal",
    "null",
    "none",
    "boolean_literal",
    "decimal_floating_point_literal",
    "real_literal",
    "float",
    "nullptr",
}
# a Java call names its object as a member access does (``a.f()``)
MEMBER = {t for r in _ROLES for t in r.members} | {"method_invocation"}
SUBSCRIPT = {t for r in _ROLES for t in r.subscripts}
ATOMIC = LITERALS | CALLS | MEMBER | SUBSCRIPT | {"identifier", "parenthesized_expression"}
NEVER_VAR_PARENTS = {
    "scoped_identifier",
    "qualified_name",
    "dotted_name",
    "import_statement",
    "import_from_statement",
    "aliased_import",
    "labeled_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
    "using_directive",
    "namespace_declaration",
    "name_colon",
    "generic_name",
    "generic_type",
    "type_arguments",
    "type_argument_list",
    "type_parameter",
    "type_parameters",
    "array_type",
    "nullable_type",
    "pointer_type",
    "type",
    "template_argument_list",
    "template_type",
    "catch_type",
    "qualified_identifier",
    "annotation",
    "marker_annotation",
    "decorator",
    "global_statement",
    "nonlocal_statement",
    "method_reference",  # Integer::sum names a method, whatever the locals are called
}
NAMED_DEFS = {
    "method_declaration",
    "constructor_declaration",
    "class_declaration",
    "interface_declaration",
    "function_declaration",
    "function_definition",
    "local_function_statement",
    "enum_declaration",
    "struct_declaration",
    "record_declaration",
    "class_definition",
    "class",
    "function_expression",
    "generator_function_declaration",
    "method_definition",
    "namespace_definition",
}
LOOPS = {t for r in _ROLES for t, role in r.statements.items()
         if role in (Role.FOR, Role.WHILE, Role.DO, Role.FOREACH)}
COMPOUND = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "//=", "**="}
UNKNOWN_TYPES = {"var", "auto", "let", "const", "dynamic", "val"}

