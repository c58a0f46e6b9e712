"""Which tree-sitter node types (and operator tokens, type names) play which role, as the
union over the six grammars: blocks, declarations, calls, literals, loops... The vocabulary
the mutation operators (:mod:`.sites`, :mod:`.variants`, :mod:`.mutants`) match nodes with.
"""

from __future__ import annotations

_BLOCKS = {
    "block",
    "compound_statement",
    "statement_block",
    "program",
    "module",
    "translation_unit",
}
_DECL_STMTS = {
    "local_variable_declaration",
    "local_declaration_statement",
    "declaration",
    "lexical_declaration",
    "variable_declaration",
}
_BINARY = {"binary_expression", "binary_operator", "comparison_operator", "boolean_operator"}
_TERNARY = {"ternary_expression", "conditional_expression"}
_ASSIGN = {
    "assignment_expression",
    "assignment",
    "augmented_assignment",
    "augmented_assignment_expression",
}
_UPDATE = {"update_expression", "postfix_unary_expression", "prefix_unary_expression"}
_CALLS = {
    "method_invocation",
    "invocation_expression",
    "call_expression",
    "call",
    "object_creation_expression",
    "new_expression",
    "await_expression",
    "yield",
    "yield_expression",
    "explicit_constructor_invocation",
    "delete_expression",
}
_FUNCTIONS = {
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
_STRINGS = {
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
_INT_LITERALS = {
    "decimal_integer_literal",
    "integer_literal",
    "number_literal",
    "integer",
    "number",
}
_LITERALS = _INT_LITERALS | _STRINGS | {
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
_MEMBER = {
    "field_access",
    "member_access_expression",
    "attribute",
    "member_expression",
    "field_expression",
    "method_invocation",
}
_SUBSCRIPT = {"array_access", "element_access_expression", "subscript", "subscript_expression"}
_ATOMIC = _LITERALS | _CALLS | _MEMBER | _SUBSCRIPT | {"identifier", "parenthesized_expression"}
_NEVER_VAR_PARENTS = {
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
_NAMED_DEFS = {
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
_LOOPS = {
    "for_statement",
    "while_statement",
    "do_statement",
    "enhanced_for_statement",
    "foreach_statement",
    "for_range_loop",
    "for_in_statement",
}
_COMPOUND = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "//=", "**="}
_UNKNOWN_TYPES = {"var", "auto", "let", "const", "dynamic", "val"}


# Public names of the tables newer operator modules use.
BLOCKS = _BLOCKS
FUNCTIONS = _FUNCTIONS
INT_LITERALS = _INT_LITERALS
