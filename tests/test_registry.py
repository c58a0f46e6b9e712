"""The language registry is the one place a language's knowledge lives: its entry carries
the grammar and the node roles; registration refuses an entry without roles; the PDG builder
and the mutation benchmark read the roles from the entry."""

import dataclasses
import hashlib
import json
from enum import Enum

import pytest

import graphs.lang.languages as languages
from graphs import UnknownLanguageError, build_pdg, get_language, known_languages, parse
from graphs.lang.languages import AS_GIVEN, Language, get_roles, register_language
from graphs.lang.roles import BUILT_IN_ROLES, LanguageRoles, Role

LANGUAGES = ("c", "cpp", "csharp", "java", "javascript", "python")


def _canonical(value):
    """A value of a role table in a form that does not depend on set or dict order."""
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, (set, frozenset)):
        return sorted(_canonical(v) for v in value)
    if hasattr(value, "items"):
        return sorted([_canonical(k), _canonical(v)] for k, v in value.items())
    if isinstance(value, (tuple, list)):
        return [_canonical(v) for v in value]
    return value


def _digest(roles: LanguageRoles) -> str:
    data = {f.name: _canonical(getattr(roles, f.name)) for f in dataclasses.fields(roles)}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# The tables as graphs.roles.get_roles gave them before the registry carried them (main at
# 79a9532, the same serialization): moving them into the entries changed none of them.
ROLES_BEFORE = {
    "c": "c8abac7dcf4c7ac1",
    "cpp": "76ab6e36a095c640",
    "csharp": "287c6cdebdf3b238",
    "java": "924e52fb53e013ee",
    "javascript": "7ce7dd64ce83ac19",
    "python": "1a738eb8f202a1fe",
}


def test_the_six_languages_are_registered():
    assert known_languages() == LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_registry_gives_the_roles_of_before(lang):
    roles = get_roles(lang)
    assert roles is get_language(lang).roles is BUILT_IN_ROLES[lang]
    assert roles.language == lang
    assert _digest(roles) == ROLES_BEFORE[lang]


def test_roles_spot_checks():
    assert get_roles("java").role("enhanced_for_statement") is Role.FOREACH
    assert get_roles("python").role("for_statement") is Role.FOREACH
    assert get_roles("c").role("for_statement") is Role.FOR
    assert get_roles("cpp").role("for_range_loop") is Role.FOREACH
    assert get_roles("javascript").calls == {"call_expression": "function"}
    assert get_roles("csharp").role("using_statement") is Role.WITH


def test_roles_by_alias_and_unknown_names():
    assert get_roles("C#") is get_roles("csharp")
    assert get_roles("js") is get_roles("javascript")
    with pytest.raises(UnknownLanguageError, match="unknown language 'cobol'"):
        get_roles("cobol")


def test_comment_types_are_the_roles_comments():
    # one fact: the normalized AST drops the node types the PDG builder skips
    for lang in LANGUAGES:
        assert get_language(lang).comment_types is get_roles(lang).comments
    # the values the entries listed themselves before
    assert get_language("java").comment_types == {"line_comment", "block_comment", "comment"}
    assert get_language("javascript").comment_types == {"comment", "html_comment"}
    for lang in ("c", "cpp", "csharp", "python"):
        assert get_language(lang).comment_types == {"comment"}


def test_an_entry_cannot_be_made_without_roles():
    with pytest.raises(TypeError, match="roles"):
        Language("go", ("golang",), "tree_sitter_go", "tree-sitter-go")  # type: ignore[call-arg]


def test_registration_refuses_a_language_without_roles():
    entry = Language("go", ("golang",), "tree_sitter_go", "tree-sitter-go",
                     roles=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="language 'go' has no node roles"):
        register_language(entry)
    assert "go" not in known_languages()
    with pytest.raises(UnknownLanguageError):
        get_language("golang")


def test_registration_refuses_another_languages_roles():
    entry = Language("go", (), "tree_sitter_go", "tree-sitter-go", roles=get_roles("java"))
    with pytest.raises(ValueError, match="'go' is given the node roles of 'java'"):
        register_language(entry)
    assert "go" not in known_languages()


def test_a_registered_language_builds_pdgs_from_its_entrys_roles(monkeypatch):
    # the registry is the one truth: a language registered under a new name (Java's grammar,
    # Java's tables renamed) parses and builds the PDG Java does, with no other table told
    monkeypatch.setattr(languages, "_REGISTRY", dict(languages._REGISTRY))
    monkeypatch.setattr(languages, "_ALIASES", dict(languages._ALIASES))
    java = get_language("java")
    roles = dataclasses.replace(java.roles, language="javalike")
    register_language(dataclasses.replace(java, name="javalike", aliases=("jl",),
                                          roles=roles))
    assert get_roles("jl") is roles
    code = "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }"
    mine, theirs = build_pdg(parse(code, "javalike")), build_pdg(parse(code, "java"))
    # the header, the parameter, the two declarations, the loop (its condition, initializer
    # and update) and its body, the return
    assert len(mine) == len(theirs) == 8
    assert ([d["label"] for _, d in sorted(mine.nodes(data=True))]
            == [d["label"] for _, d in sorted(theirs.nodes(data=True))])


def test_a_replaced_entry_is_read_at_once(monkeypatch):
    monkeypatch.setattr(languages, "_REGISTRY", dict(languages._REGISTRY))
    monkeypatch.setattr(languages, "_ALIASES", dict(languages._ALIASES))
    python = get_language("python")
    roles = dataclasses.replace(python.roles, comments=frozenset({"comment", "x"}))
    register_language(dataclasses.replace(python, wrappers=(AS_GIVEN,), roles=roles))
    assert get_roles("py") is roles
    assert get_language("python").comment_types == {"comment", "x"}


def test_mutation_node_types_read_the_registry():
    from validity.mutations import node_types

    # the sets the benchmark listed by hand before, now the union of the entries' roles
    loops, calls = node_types.LOOPS, node_types.CALLS
    members, subscripts = node_types.MEMBER, node_types.SUBSCRIPT
    assert loops == {"for_statement", "while_statement", "do_statement",
                     "enhanced_for_statement", "foreach_statement", "for_range_loop",
                     "for_in_statement"}
    assert subscripts == {"array_access", "element_access_expression", "subscript",
                          "subscript_expression"}
    assert members == {"field_access", "member_access_expression", "attribute",
                       "member_expression", "field_expression", "method_invocation"}
    assert calls == {
        "method_invocation", "invocation_expression", "call_expression", "call",
        "object_creation_expression", "new_expression", "await_expression", "yield",
        "yield_expression", "explicit_constructor_invocation", "delete_expression"}
