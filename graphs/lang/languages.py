"""The language registry: which tree-sitter grammar parses which language, and how.

Every language is one :class:`Language` entry in ``_REGISTRY``: its canonical name, the
aliases users type, the grammar wheel to import, the snippet *wrappers* (contexts a method,
a statement list or an expression is placed in so that it parses), the node types the
normalized AST needs (literals, operators), and the node *roles* the PDG builder reads
(:class:`graphs.lang.roles.LanguageRoles`: statements, calls, comments, ...). Adding a language
means adding one entry (or calling :func:`register_language`, which refuses an entry
without roles: such a language would parse but never build a PDG); nothing else in
``graphs`` names languages.

Grammars come from the official per-language wheels (``tree-sitter-java``, ...) used with
``tree-sitter >= 0.25``; nothing is downloaded at run time.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import threading
from dataclasses import dataclass, field
from functools import cache

import tree_sitter

from graphs.lang.roles import BUILT_IN_ROLES, LanguageRoles

__all__ = [
    "Language",
    "UnknownLanguageError",
    "Wrapper",
    "get_language",
    "get_parser",
    "get_roles",
    "get_ts_language",
    "grammar_versions",
    "known_languages",
    "register_language",
]


class UnknownLanguageError(ValueError):
    """A language name (or alias) that the registry does not know."""


@dataclass(frozen=True)
class Wrapper:
    """A context that a code snippet is parsed in.

    The snippet is placed between ``prefix`` and ``suffix`` (every line of it prefixed with
    ``indent``, for indentation-sensitive languages). After parsing, ``path`` leads from the
    root node to the *container*: each step takes the first named child of that type. The
    container's named children that lie in the snippet are the snippet's top-level nodes.

    Attributes
    ----------
    name : str
        ``"none"`` (the text as given), ``"class_body"``, ``"method_body"``,
        ``"function_body"`` or ``"expression"``.
    prefix, suffix : str
        Text placed before and after the snippet. Suffixes start with a newline so that a
        trailing line comment in the snippet cannot swallow them.
    path : tuple of str
        Node types from the root's child down to the container; empty for ``"none"``.
    indent : str
        Prepended to every line of the snippet (Python bodies).
    defer_if : frozenset of str
        If a clean parse in this context has a top-level node of one of these types, later
        contexts are tried first and this parse is used only when none of them is clean
        (C#'s top-level statements turn a bare method into a ``local_function_statement``;
        inside a class it is a ``method_declaration``, which is what a method is).
    prefer_if : str
        A regular expression matched at the start of the snippet, with named groups
        ``type`` and ``name`` (a method header) or ``ctor`` (a constructor's name). When it
        matches and no word of those groups is a keyword of the grammar (other than
        ``prefer_keywords``), this wrapper is tried *first*, and its clean parse is taken at
        once if the first top-level node has a type in ``prefer_types`` and a ``body``
        field. Without it, the ordered search parses such a snippet twice: CodeXGLUE lines
        are methods, which parse as given too but are deferred there. Only a speed-up: the
        pattern and the checks must describe snippets for which every earlier wrapper fails
        or defers, so that the result is the one the ordered search gives
        (``tests/test_parsing.py`` checks it on the CodeXGLUE files and on generated
        headers). Empty: no shortcut.
    prefer_types : frozenset of str
        Node types the first top-level node of a ``prefer_if`` parse must have.
    prefer_keywords : frozenset of str
        Grammar keywords allowed in the ``type`` group (built-in types such as Java's
        ``int``); any other keyword there or in ``name``/``ctor`` turns the shortcut off.
    member_free : bool
        No method or constructor can stand in this context (an expression; a Java
        statement list): read here, a member's header leaves no valid way to go on by the
        time its body starts (a call, a generic type or a tuple may reach that far; ``{``
        or ``=>`` after ``)`` ends any expression or statement that is not a member), so
        tree-sitter's first error here lies no later than the body's start. When the
        snippet matches a ``prefer_if`` pattern (a member's header: a type and a name, no
        keyword, so no ``new T() {`` of an anonymous class or an object initializer) and
        an earlier attempt read it as a member (a ``prefer_types`` or ``defer_if`` node: a
        method, a C# local function) whose first error lies past its body's start, this
        context cannot do better, and the search does not parse it: a parse of
        broken code costs several clean ones, this one the most (``tests/test_parsing.py``
        checks the outcome against the full search on generated broken members and the
        CodeXGLUE files).
    """

    name: str
    prefix: str = ""
    suffix: str = ""
    path: tuple[str, ...] = ()
    indent: str = ""
    defer_if: frozenset[str] = frozenset()
    prefer_if: str = ""
    prefer_types: frozenset[str] = frozenset()
    prefer_keywords: frozenset[str] = frozenset()
    member_free: bool = False


#: Characters of a snippet that ``Wrapper.prefer_if`` is matched against: member headers
#: are short, and nested quantifiers over a long run of modifiers would otherwise take
#: quadratic time. A match there is a match of the whole text (no end anchors).
PREFER_WINDOW = 512

_WORD = re.compile(r"[^\W\d]\w*")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


AS_GIVEN = Wrapper("none")


@dataclass(frozen=True)
class Language:
    """One entry of the registry.

    Attributes
    ----------
    name : str
        Canonical name (``"java"``, ``"csharp"``, ``"python"``, ``"c"``, ``"cpp"``,
        ``"javascript"``).
    aliases : tuple of str
        Other accepted names, matched case-insensitively (``"cs"``, ``"c#"``, ``"js"``, ...).
    module : str
        Import name of the grammar wheel, e.g. ``"tree_sitter_c_sharp"``.
    package : str
        Distribution name of the grammar wheel (for :func:`grammar_versions`).
    function : str
        Name of the module's function returning the grammar pointer (usually ``"language"``).
    wrappers : tuple of Wrapper
        Contexts tried in order until one gives a clean parse; the first is the text as given.
    transparent_types : frozenset of str
        Top-level node types replaced by their named children in ``ParsedCode.nodes``
        (``global_statement``), so statements look the same as inside a method body.
    literal_types : frozenset of str
        Literal node types: collapsed to one leaf labelled with their text (or their type
        with literal abstraction). Fragments of interpolated strings belong here too.
    interpolation_types : frozenset of str
        Children that keep a literal from being collapsed (f-string / template parts).
    operator_types : frozenset of str
        Node types whose anonymous tokens all count as operators even though the grammar
        gives them no ``operator`` field (e.g. Java's ``update_expression``).
    extensions : frozenset of str
        File extensions of the language's source files (lower case, with the dot), used to
        pick its files out of a folder.
    roles : LanguageRoles
        What the grammar's node types mean to the PDG builder (statement roles, calls,
        declarations, comments, ...); keyword-only and required. Its ``language`` is
        ``name``. The normalized AST drops its ``comments`` too (:attr:`comment_types`).
    """

    name: str
    aliases: tuple[str, ...]
    module: str
    package: str
    function: str = "language"
    wrappers: tuple[Wrapper, ...] = (AS_GIVEN,)
    transparent_types: frozenset[str] = frozenset()
    literal_types: frozenset[str] = frozenset()
    interpolation_types: frozenset[str] = frozenset()
    operator_types: frozenset[str] = frozenset()
    extensions: frozenset[str] = frozenset()
    # not hashed: the tables hold dicts (an entry's hash stays its grammar's)
    roles: LanguageRoles = field(kw_only=True, hash=False)

    @property
    def comment_types(self) -> frozenset[str]:
        """Node types dropped from normalized ASTs: the comments of :attr:`roles`."""
        return self.roles.comments

    def wrapper(self, name: str) -> Wrapper:
        """Return the wrapper called ``name``; raise ``ValueError`` listing the known ones."""
        for w in self.wrappers:
            if w.name == name:
                return w
        known = ", ".join(w.name for w in self.wrappers)
        raise ValueError(f"no wrapper {name!r} for {self.name}; known: {known}")

    def preferred_wrapper(self, code: str) -> Wrapper | None:
        """The wrapper whose ``prefer_if`` shortcut applies to ``code``, or None.

        Examples
        --------
        >>> from graphs import get_language
        >>> cs = get_language("cs")
        >>> cs.preferred_wrapper("public int Size() { return n; }").name
        'class_body'
        >>> cs.preferred_wrapper("await Send(x);") is None  # `await` is no return type
        True
        """
        for w, pattern, checks in _prefer_plan(self):
            match = pattern.match(code, 0, PREFER_WINDOW)
            if match is None:
                continue
            # tree-sitter's class body takes any word for a type or a name (`return f(int a)
            # => 1;` parses as a method there and as a return statement as given): keywords
            # there mean a statement, not a member
            groups = match.groupdict()
            for group, banned in checks:
                words = groups.get(group)
                if words and not banned.isdisjoint(_WORD.findall(words)):
                    return None
            return w
        return None


_PreferPlan = tuple[tuple[Wrapper, re.Pattern[str], tuple[tuple[str, frozenset[str]], ...]], ...]

# Per-language data of Language.preferred_wrapper, keyed by name and checked against the
# entry (register_language may replace it): each shortcut wrapper with its compiled pattern
# and, per group, the grammar keywords that turn the shortcut off.
_PREFER_PLANS: dict[str, tuple[Language, _PreferPlan]] = {}


def _prefer_plan(lang: Language) -> _PreferPlan:
    cached = _PREFER_PLANS.get(lang.name)
    if cached is None or cached[0] is not lang:
        plan: list[tuple[Wrapper, re.Pattern[str], tuple[tuple[str, frozenset[str]], ...]]] = []
        for w in lang.wrappers:
            if w.prefer_if:
                keywords = _keywords(lang.name)
                plan.append((w, _compiled(w.prefer_if), (
                    ("type", keywords - w.prefer_keywords), ("name", keywords),
                    ("ctor", keywords))))
        cached = _PREFER_PLANS[lang.name] = (lang, tuple(plan))
    return cached[1]


# Wrappers name their scaffolding "_" (Java methods "__": a lone "_" is a pattern there);
# it never reaches ParsedCode.nodes or the normalized AST.
_JAVA_CLASS = ("class_declaration", "class_body")
_CS_CLASS = ("class_declaration", "declaration_list")

# Member-start patterns for the class-body shortcut (see Wrapper.prefer_if): a method is
# `modifiers* Type Name (`, a constructor `access-modifier+ Name (`, with no grammar keyword
# as Type or Name. A statement cannot start like that *and* go on with a body (`{` or
# `=>`): two adjacent names before `(` read as a local function (deferred) or are an error
# as given, so the class-body parse of such a snippet, when clean and a method or
# constructor with a body, is the ordered search's answer. No `new` among constructor
# modifiers: `new A() {...}` is an object creation.
_NAME = r"[^\W\d]\w*"
_TYPE = (rf"{_NAME}(?:\s*\.\s*{_NAME})*(?:\s*<[\w\s.,<>\[\]?]*>)?(?:\s*\?)?"
         r"(?:\s*\[[\s,]*\])*")
_JAVA_ANNOTATION = rf"@{_NAME}(?:\s*\.\s*{_NAME})*(?:\s*\([^()]*\))?\s*"
_JAVA_MODIFIER = (r"(?:public|protected|private|static|final|abstract|synchronized|native"
                  r"|strictfp|default)\b")
_JAVA_MODIFIERS = rf"(?:{_JAVA_ANNOTATION}|{_JAVA_MODIFIER}\s+)*"
# a modifier is never the type: `public Point(` is a constructor
_JAVA_MEMBER = (rf"\s*{_JAVA_MODIFIERS}(?:(?:<[\w\s.,<>\[\]?&]*>\s*)?(?!{_JAVA_MODIFIER})"
                rf"(?P<type>{_TYPE})\s+(?P<name>{_NAME})|(?:(?:public|protected|private)\s+)"
                rf"{_JAVA_MODIFIERS}(?P<ctor>{_NAME}))\s*\(")
# Java's primitive types are keywords of its grammar (boolean and void are named nodes)
_JAVA_TYPE_KEYWORDS = frozenset({"byte", "char", "double", "float", "int", "long", "short"})
_CS_MODIFIER = (r"(?:public|private|protected|internal|static|virtual|override|abstract"
                r"|sealed|async|extern|unsafe|new|partial|readonly)\b")
_CS_MEMBER = (rf"\s*(?:(?:{_CS_MODIFIER}\s+)*(?!{_CS_MODIFIER})(?P<type>{_TYPE})\s+"
              rf"(?P<name>{_NAME})\s*(?:<[\w\s,]*>\s*)?|(?:(?:public|private|protected"
              rf"|internal)\s+)+(?:static\s+)?(?P<ctor>{_NAME})\s*)\(")
_MEMBER_TYPES = frozenset({"method_declaration", "constructor_declaration"})

_JAVA = Language(
    name="java",
    aliases=(),
    module="tree_sitter_java",
    package="tree-sitter-java",
    wrappers=(
        # tree-sitter-java accepts methods at the top level, but then a neighbouring field
        # reads as a local variable; a method means class-member context
        Wrapper("none", defer_if=frozenset({"method_declaration"})),
        Wrapper("class_body", "class _ {\n", "\n}", _JAVA_CLASS, prefer_if=_JAVA_MEMBER,
                prefer_types=_MEMBER_TYPES, prefer_keywords=_JAVA_TYPE_KEYWORDS),
        Wrapper(
            "method_body",
            "class _ {\nvoid __() {\n",
            "\n}\n}",
            (*_JAVA_CLASS, "method_declaration", "block"),
            member_free=True,  # Java has no local methods
        ),
        Wrapper(
            "expression",
            "class _ {\nObject __() {\nreturn (\n",
            "\n);\n}\n}",
            (*_JAVA_CLASS, "method_declaration", "block", "return_statement",
             "parenthesized_expression"),
            member_free=True,
        ),
    ),
    literal_types=frozenset({
        "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
        "binary_integer_literal", "decimal_floating_point_literal",
        "hex_floating_point_literal", "string_literal", "character_literal", "text_block",
        "true", "false", "null_literal", "string_fragment", "escape_sequence",
    }),
    interpolation_types=frozenset({"string_interpolation"}),
    operator_types=frozenset({"update_expression"}),
    extensions=frozenset({".java"}),
    roles=BUILT_IN_ROLES["java"],
)

_CSHARP = Language(
    name="csharp",
    aliases=("cs", "c#", "c_sharp", "c-sharp"),
    module="tree_sitter_c_sharp",
    package="tree-sitter-c-sharp",
    wrappers=(
        Wrapper("none", defer_if=frozenset({"local_function_statement"})),
        Wrapper("class_body", "class _ {\n", "\n}", _CS_CLASS, prefer_if=_CS_MEMBER,
                prefer_types=_MEMBER_TYPES),
        Wrapper(
            "method_body",
            "class _ {\nvoid __() {\n",
            "\n}\n}",
            (*_CS_CLASS, "method_declaration", "block"),
        ),
        Wrapper(
            "expression",
            "class _ {\nobject __() {\nreturn (\n",
            "\n);\n}\n}",
            (*_CS_CLASS, "method_declaration", "block", "return_statement",
             "parenthesized_expression"),
            member_free=True,  # not the method body: C# has local functions
        ),
    ),
    transparent_types=frozenset({"global_statement"}),
    literal_types=frozenset({
        "integer_literal", "real_literal", "string_literal", "verbatim_string_literal",
        "raw_string_literal", "character_literal", "boolean_literal", "null_literal",
        "interpolated_string_expression", "string_content", "string_literal_content",
        "escape_sequence", "interpolation_start", "interpolation_quote",
    }),
    interpolation_types=frozenset({"interpolation"}),
    operator_types=frozenset({"prefix_unary_expression", "postfix_unary_expression"}),
    extensions=frozenset({".cs"}),
    roles=BUILT_IN_ROLES["csharp"],
)

_PYTHON = Language(
    name="python",
    aliases=("py", "python3"),
    module="tree_sitter_python",
    package="tree-sitter-python",
    wrappers=(
        AS_GIVEN,
        Wrapper("function_body", "def _():\n", "\n", ("function_definition", "block"), "    "),
        Wrapper("class_body", "class _:\n", "\n", ("class_definition", "block"), "    "),
    ),
    literal_types=frozenset({
        "integer", "float", "string", "true", "false", "none", "string_start",
        "string_content", "string_end", "escape_sequence",
    }),
    interpolation_types=frozenset({"interpolation"}),
    extensions=frozenset({".py", ".pyi"}),
    roles=BUILT_IN_ROLES["python"],
)

_C_LITERALS = frozenset({
    "number_literal", "string_literal", "char_literal", "true", "false", "null",
    "system_lib_string", "string_content", "character", "escape_sequence",
})

_C = Language(
    name="c",
    aliases=(),
    module="tree_sitter_c",
    package="tree-sitter-c",
    wrappers=(
        AS_GIVEN,
        Wrapper("function_body", "void _(void) {\n", "\n}", ("function_definition",
                                                             "compound_statement")),
        Wrapper(
            "expression",
            "void _(void) {\nreturn (\n",
            "\n);\n}",
            ("function_definition", "compound_statement", "return_statement",
             "parenthesized_expression"),
        ),
    ),
    literal_types=_C_LITERALS,
    extensions=frozenset({".c", ".h"}),
    roles=BUILT_IN_ROLES["c"],
)

_CPP = Language(
    name="cpp",
    aliases=("c++", "cxx", "cc", "hpp"),
    module="tree_sitter_cpp",
    package="tree-sitter-cpp",
    wrappers=(
        AS_GIVEN,
        Wrapper("class_body", "struct _ {\n", "\n};", ("struct_specifier",
                                                       "field_declaration_list")),
        Wrapper("function_body", "void _() {\n", "\n}", ("function_definition",
                                                        "compound_statement")),
        Wrapper(
            "expression",
            "void _() {\nreturn (\n",
            "\n);\n}",
            ("function_definition", "compound_statement", "return_statement",
             "parenthesized_expression"),
        ),
    ),
    literal_types=_C_LITERALS | {"raw_string_literal", "user_defined_literal",
                                 "raw_string_content"},
    extensions=frozenset({".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h"}),
    roles=BUILT_IN_ROLES["cpp"],
)

_JAVASCRIPT = Language(
    name="javascript",
    aliases=("js", "node", "ecmascript"),
    module="tree_sitter_javascript",
    package="tree-sitter-javascript",
    wrappers=(
        AS_GIVEN,
        Wrapper("class_body", "class _ {\n", "\n}", ("class_declaration", "class_body")),
        Wrapper("function_body", "function _() {\n", "\n}", ("function_declaration",
                                                            "statement_block")),
        Wrapper(
            "expression",
            "(\n",
            "\n);",
            ("expression_statement", "parenthesized_expression"),
        ),
    ),
    literal_types=frozenset({
        "number", "string", "template_string", "regex", "true", "false", "null",
        "undefined", "string_fragment", "escape_sequence", "regex_pattern", "regex_flags",
    }),
    interpolation_types=frozenset({"template_substitution"}),
    extensions=frozenset({".js", ".mjs", ".cjs", ".jsx"}),
    roles=BUILT_IN_ROLES["javascript"],
)

_REGISTRY: dict[str, Language] = {}
_ALIASES: dict[str, str] = {}
_LOCK = threading.Lock()
_GENERATION = 0


def register_language(language: Language) -> None:
    """Add (or replace) a language in the registry.

    Parameters
    ----------
    language : Language
        The entry; its name and aliases become valid for :func:`get_language`. It must
        carry its node roles (a :class:`graphs.lang.roles.LanguageRoles` for the same language
        name): a language without them would parse but never build a PDG.

    Raises
    ------
    ValueError
        If the entry has no roles, or roles of another language.

    Examples
    --------
    A language is its grammar and its roles (``go_roles``: a ``LanguageRoles("go", ...)``
    naming Go's statement, call, declaration... node types, as ``graphs/lang/roles.py`` does for
    the built-in languages):

    >>> from graphs.lang.languages import AS_GIVEN, Language, Wrapper, register_language
    >>> register_language(Language(  # doctest: +SKIP
    ...     "go", ("golang",), "tree_sitter_go", "tree-sitter-go",
    ...     wrappers=(AS_GIVEN, Wrapper("function_body", "package _\\nfunc _() {\\n", "\\n}",
    ...                                 ("function_declaration", "block"))),
    ...     roles=go_roles))

    Without roles it is refused (and nothing is registered):

    >>> register_language(Language("go", ("golang",), "tree_sitter_go", "tree-sitter-go",
    ...                            roles=None))
    Traceback (most recent call last):
    ...
    ValueError: language 'go' has no node roles (graphs.lang.roles.LanguageRoles): it would ...
    """
    roles = language.roles
    if not isinstance(roles, LanguageRoles):
        raise ValueError(f"language {language.name!r} has no node roles "
                         "(graphs.lang.roles.LanguageRoles): it would parse but never build a PDG")
    if roles.language != language.name:
        raise ValueError(f"language {language.name!r} is given the node roles of "
                         f"{roles.language!r}")
    global _GENERATION
    with _LOCK:
        _REGISTRY[language.name] = language
        for key in (language.name, *language.aliases):
            _ALIASES[key.lower()] = language.name
        # Parsers built for a replaced entry are stale in every thread.
        _GENERATION += 1
        _ts_language.cache_clear()
        _keywords.cache_clear()
        _PREFER_PLANS.clear()


def known_languages() -> tuple[str, ...]:
    """Return the canonical names of the registered languages, sorted.

    Examples
    --------
    >>> from graphs import known_languages
    >>> known_languages()
    ('c', 'cpp', 'csharp', 'java', 'javascript', 'python')
    """
    return tuple(sorted(_REGISTRY))


def get_language(name: str) -> Language:
    """Look a language up by canonical name or alias (case-insensitive).

    Parameters
    ----------
    name : str
        ``"java"``, ``"C#"``, ``"cs"``, ``"js"``, ``"c++"``, ...

    Returns
    -------
    Language
        The registry entry.

    Raises
    ------
    UnknownLanguageError
        If the name is not registered; the message lists the known languages.

    Examples
    --------
    >>> from graphs import get_language
    >>> get_language("C#").name
    'csharp'
    """
    key = str(name).strip().lower()
    canonical = _ALIASES.get(key)
    if canonical is None:
        raise UnknownLanguageError(
            f"unknown language {name!r}; known: {', '.join(known_languages())}"
        )
    return _REGISTRY[canonical]


def get_roles(name: str) -> LanguageRoles:
    """Return the node roles of a language: its registry entry's :attr:`Language.roles`.

    Parameters
    ----------
    name : str
        Canonical name or alias.

    Returns
    -------
    LanguageRoles
        The tables the PDG builder reads.

    Raises
    ------
    UnknownLanguageError
        If the name is not registered.

    Examples
    --------
    >>> from graphs.lang.languages import get_roles
    >>> from graphs.lang.roles import Role
    >>> get_roles("java").role("enhanced_for_statement") is Role.FOREACH
    True
    """
    return get_language(name).roles


@cache
def _keywords(canonical: str) -> frozenset[str]:
    """The grammar's keywords: its anonymous tokens that are words."""
    ts = _ts_language(canonical)
    return frozenset(kind for i in range(ts.node_kind_count)
                     if not ts.node_kind_is_named(i) and ts.node_kind_is_visible(i)
                     and (kind := ts.node_kind_for_id(i)) and kind.isidentifier())


@cache
def _ts_language(canonical: str) -> tree_sitter.Language:
    lang = _REGISTRY[canonical]
    try:
        module = importlib.import_module(lang.module)
    except ImportError as exc:  # the wheels are dependencies; say which one is missing
        raise ImportError(
            f"grammar for {lang.name} not installed: pip install {lang.package}"
        ) from exc
    return tree_sitter.Language(getattr(module, lang.function)())


def get_ts_language(name: str) -> tree_sitter.Language:
    """Return the ``tree_sitter.Language`` (the compiled grammar) for a language name.

    Parameters
    ----------
    name : str
        Canonical name or alias.

    Returns
    -------
    tree_sitter.Language
        Cached per process.

    Examples
    --------
    >>> from graphs.lang.languages import get_ts_language
    >>> get_ts_language("java").node_kind_count > 100
    True
    """
    return _ts_language(get_language(name).name)


# Parsers hold mutable state and are not safe to share between threads (the scorer may run
# under a threaded executor), so each thread gets its own; languages are immutable and shared.
_LOCAL = threading.local()


def get_parser(name: str) -> tree_sitter.Parser:
    """Return a ``tree_sitter.Parser`` for a language, cached per process and thread.

    Parameters
    ----------
    name : str
        Canonical name or alias.

    Returns
    -------
    tree_sitter.Parser
        The same object on every call from the same thread. Parsers are never pickled:
        worker processes build their own.

    Raises
    ------
    UnknownLanguageError
        If the name is not registered.

    Examples
    --------
    >>> from graphs import get_parser
    >>> get_parser("java").parse(b"int x = 1;").root_node.type
    'program'
    """
    canonical = get_language(name).name
    parsers = getattr(_LOCAL, "parsers", None)
    if parsers is None or _LOCAL.generation != _GENERATION:
        parsers = _LOCAL.parsers = {}
        _LOCAL.generation = _GENERATION
    parser = parsers.get(canonical)
    if parser is None:
        parser = parsers[canonical] = tree_sitter.Parser(_ts_language(canonical))
    return parser


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def grammar_versions() -> dict[str, str]:
    """Return the installed versions of tree-sitter and of every registered grammar wheel.

    Used in reproducibility signatures: the same code can parse differently under another
    grammar version.

    Returns
    -------
    dict of str to str
        ``{"tree-sitter": "0.26.1", "tree-sitter-java": "0.23.5", ...}``, sorted by name;
        ``"not installed"`` for a missing package.

    Examples
    --------
    >>> from graphs import grammar_versions
    >>> "tree-sitter-java" in grammar_versions()
    True
    """
    packages = {"tree-sitter"} | {lang.package for lang in _REGISTRY.values()}
    return {p: _version(p) for p in sorted(packages)}


for _lang in (_JAVA, _CSHARP, _PYTHON, _C, _CPP, _JAVASCRIPT):
    register_language(_lang)
del _lang
