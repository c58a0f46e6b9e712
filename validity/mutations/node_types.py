"""Which tree-sitter node types (and operator tokens, type names) play which role, as the
union over the six grammars: blocks, declarations, calls, literals, loops... The vocabulary
the mutation operators (:mod:`.sites`, :mod:`.variants`, :mod:`.mutants`) match nodes with.
"""

from __future__ import annotations

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
CALLS = {
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
MEMBER = {
    "field_access",
    "member_access_expression",
    "attribute",
    "member_expression",
    "field_expression",
    "method_invocation",
}
SUBSCRIPT = {"array_access", "element_access_expression", "subscript", "subscript_expression"}
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
LOOPS = {
    "for_statement",
    "while_statement",
    "do_statement",
    "enhanced_for_statement",
    "foreach_statement",
    "for_range_loop",
    "for_in_statement",
}
COMPOUND = {"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^=", "//=", "**="}
UNKNOWN_TYPES = {"var", "auto", "let", "const", "dynamic", "val"}

