"""The language-neutral vocabulary, as data: plain dicts and tuples, no code.

Everything the neutral PDG and AST (:mod:`graphs.neutral`) know about a language is in
this module. The neutral language reads like a small Python: ``and``/``or``/``not``,
``none``/``true``/``false``, ``self``, ``len(x)``, ``print(x)``, ``for x in xs``,
``for i in range(a, b)``, ``c ? a : b``, identifiers in lower snake case.

Tables
------
``KEYWORDS[language]``
    token -> neutral token, applied to every token of a label after identifier folding
    (so keys are lower case: ``NULL`` and ``null`` are one key). ``""`` deletes the token.
``DROPPED_AFTER_CALLS``
    tokens deleted once the call table has run (``new``: constructing is a call; the call
    table first turns the constructors it knows, ``new ArrayList<>()``, into their neutral
    form).
``TYPES[language]``
    type name -> neutral type (``int``, ``float``, ``bool``, ``str``, ``list``, ``dict``,
    ``set``): casts ``(double) x`` become ``float(x)``; declarations drop their types.
``DEFAULT_VALUES[language]``
    type -> the value a declaration without initializer holds (C++ only: ``string s;`` is
    ``s = ""``, ``vector<int> v;`` is ``v = []``). A declaration without an initializer of
    any other type declares nothing a translation must keep, and is not a node.
``CALLS``
    the library call table: one row per kind of call, ``{"kind", "neutral", "patterns"}``
    with ``patterns`` a dict language -> tuple of patterns in that language's own
    spelling. ``$0``, ``$1``, ... stand for one operand (a receiver, an argument),
    ``$*`` for the rest of an argument list (possibly empty). ``neutral`` is written with
    the same placeholders. Patterns and neutral forms go through the same folding as
    labels, so ``Console.WriteLine($*)`` matches ``console.write_line(...)``. Extend it
    with :meth:`graphs.neutral.CallTable.with_entries`, not by editing this module at
    run time (it is read once, into an immutable table).
``IO``
    the I/O model (:mod:`graphs.neutral.io`): the standard streams per language, the
    neutral form of each kind of read (``read_int()``, ``read_float()``,
    ``read_token()``, ``input()``, ``read_tokens()``, ``read_lines()``), what a reader's
    and a writer's methods do, the stream set-up that is plumbing, the conversions that
    type a token, ``scanf``'s conversions and the declared types ``cin >>`` reads.
``AST_KINDS[language]``
    tree-sitter node type -> shared kind for the tree tier (``loop``, ``branch``,
    ``call``, ``assignment``, ``return``, ...). Types that only carry a static type
    (``type_identifier``, ``generic_type``, ``modifiers``...) are in ``AST_DROPPED``:
    the neutral AST has no types, as Python and JavaScript have none.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

__all__ = [
    "ACCESSORS",
    "AST_DROPPED",
    "AST_KINDS",
    "CALLS",
    "DEFAULT_VALUES",
    "DROPPED_AFTER_CALLS",
    "IO",
    "KEYWORDS",
    "LANGUAGES",
    "PURE_CALLS",
    "TYPES",
    "VERSION",
]

#: Version of the vocabulary's fixed tables (keywords, types, statement forms, AST kinds):
#: part of a cross-language score's signature, with the call table's digest.
#: 5: integer division `//` and true division `/` are two operators (Python's `//` no
#: longer reads as `/`; the C family's `/` by the operands' types: graphs.neutral.division);
#: the I/O model reads lists of tokens (``read_list(int)``), tells a token stream read again
#: at the same position (``token_again()``) from a fresh read, and drops Python's run-time
#: set-up: the labels of programs that divide or read input changed.
VERSION = 5

#: The languages the vocabulary covers (the names of :func:`graphs.known_languages`).
LANGUAGES = ("c", "cpp", "csharp", "java", "javascript", "python")

# ---------------------------------------------------------------- keywords and operators

_C_FAMILY = {
    "&&": "and", "||": "or", "!": "not",
    "true": "true", "false": "false",
    "->": ".", "::": ".",
    "foreach": "for", "elif": "if",
}
_NULLS = {"null": "none", "nullptr": "none", "undefined": "none", "none": "none",
          "nil": "none"}

KEYWORDS: dict[str, dict[str, str]] = {
    # Java's lambda arrow is JavaScript's and C#'s (C++'s `->` is a member access)
    "java": {**_C_FAMILY, **_NULLS, "this": "self", "throw": "raise", "final": "",
             "->": "=>"},
    "csharp": {**_C_FAMILY, **_NULLS, "this": "self", "throw": "raise", "readonly": "",
               "ref": "", "out": "", "base": "super", "is": "instanceof",
               "lock": "synchronized"},
    "cpp": {**_C_FAMILY, **_NULLS, "this": "self", "throw": "raise", "std": "std",
            "and": "and", "or": "or", "not": "not"},
    "c": {**_C_FAMILY, **_NULLS},
    "javascript": {**_C_FAMILY, **_NULLS, "this": "self", "throw": "raise", "===": "==",
                   "!==": "!="},
    # Python is the neutral language's model: its `//` is the neutral integer division and
    # its `/` the true one (as it writes them: graphs.neutral.division reads the C family's
    # `/` by type), `is None` their `== null`; an `elif` is the `if` of an `else if`
    # (the PDG hangs it on the false branch, as the other languages' nested `if`)
    "python": {**_NULLS, "elif": "if", "is": "=="},
}

DROPPED_AFTER_CALLS = frozenset({"new"})

# -------------------------------------------------------------------------------- types

_NUMERIC_JAVA = {"int": "int", "long": "int", "short": "int", "byte": "int",
                 "integer": "int", "float": "float", "double": "float",
                 "boolean": "bool", "char": "str", "character": "str", "string": "str",
                 "object": "object"}

TYPES: dict[str, dict[str, str]] = {
    "java": {**_NUMERIC_JAVA, "list": "list", "array_list": "list", "map": "dict",
             "hash_map": "dict", "set": "set", "hash_set": "set",
             "string_builder": "str"},
    "csharp": {**_NUMERIC_JAVA, "bool": "bool", "uint": "int", "ulong": "int",
               "int32": "int", "int64": "int", "decimal": "float", "var": "",
               "list": "list", "dictionary": "dict", "hash_set": "set",
               "string_builder": "str"},
    "cpp": {"int": "int", "long": "int", "short": "int", "unsigned": "int", "signed": "int",
            "size_t": "int", "float": "float", "double": "float", "bool": "bool",
            "char": "str", "string": "str", "auto": "", "vector": "list", "map": "dict",
            "unordered_map": "dict", "set": "set", "unordered_set": "set"},
    "c": {"int": "int", "long": "int", "short": "int", "unsigned": "int", "signed": "int",
          "size_t": "int", "float": "float", "double": "float", "bool": "bool",
          "char": "str"},
    "javascript": {"number": "float", "string": "str", "boolean": "bool", "let": "",
                   "const": "", "var": ""},
    "python": {"int": "int", "float": "float", "bool": "bool", "str": "str",
               "list": "list", "dict": "dict", "set": "set"},
}

DEFAULT_VALUES: dict[str, dict[str, str]] = {
    "cpp": {"string": '""', "vector": "[]", "list": "[]", "deque": "[]", "map": "{}",
            "unordered_map": "{}", "set": "set()", "unordered_set": "set()"},
}

# ------------------------------------------------------------------------ library calls


def _row(kind: str, neutral: str, **patterns: Any) -> dict[str, Any]:
    # (a literal constructor: keeps each row on a few lines; no logic)
    return {"kind": kind, "neutral": neutral,
            "patterns": {lang: tuple(p) if isinstance(p, (tuple, list)) else (p,)
                         for lang, p in patterns.items()}}


CALLS: tuple[dict[str, Any], ...] = (
    # printing: with a newline (print) and without (write); a formatted print is a print
    _row("print", "print($*)",
         python="print($*)",
         java=("System.out.println($*)", "System.out.printf($*)"),
         csharp="Console.WriteLine($*)",
         cpp=("cout << $* << endl", "cout << $* << \"\\n\"", "printf($*)", "puts($*)"),
         c=("printf($*)", "puts($*)"),
         javascript="console.log($*)"),
    _row("write", "write($*)",
         python=("print($*, end = \"\")", "sys.stdout.write($*)"),
         java="System.out.print($*)",
         csharp="Console.Write($*)",
         cpp="cout << $*",
         javascript="process.stdout.write($*)"),
    # reading standard input (reads through a reader object: graphs.neutral.io)
    _row("read line", "input()",
         python=("input()", "sys.stdin.readline()"),
         java=("$0.nextLine()", "$0.readLine()"),
         csharp=("Console.ReadLine()", "Console.In.ReadLine()"),
         cpp="getline(cin, $*)",
         c=("gets($*)", "fgets($*)"),
         javascript=("prompt()", "readline()")),
    _row("read all tokens", "read_tokens()",
         python=("sys.stdin.read().split()", "sys.stdin.buffer.read().split()",
                 "open(0).read().split()")),
    _row("read all lines", "read_lines()",
         python=("sys.stdin.readlines()", "sys.stdin.read().splitlines()",
                 "open(0).readlines()", "open(0).read().splitlines()",
                 "sys.stdin.read().split(\"\\n\")")),
    _row("read all", "read_all()",
         python=("sys.stdin.read()", "open(0).read()", "sys.stdin.buffer.read()"),
         csharp="Console.In.ReadToEnd()",
         javascript=("$0.readFileSync(0)", "$0.readFileSync(0, $*)",
                     "$0.readFileSync(\"/dev/stdin\")",
                     "$0.readFileSync(\"/dev/stdin\", $*)", "readFileSync(0, $*)",
                     "readFileSync(\"/dev/stdin\", $*)")),
    # length and size
    _row("length", "len($0)",
         python="len($0)",
         java=("$0.length()", "$0.size()", "$0.length"),
         csharp=("$0.Length", "$0.Count()", "$0.Count"),
         cpp=("$0.size()", "$0.length()", "strlen($0)"),
         c="strlen($0)",
         javascript=("$0.length", "$0.size")),
    _row("is empty", "len($0) == 0",
         java="$0.isEmpty()",
         csharp="string.IsNullOrEmpty($0)",
         cpp="$0.empty()"),
    # lists
    _row("append", "$0.append($1)",
         python="$0.append($1)",
         java="$0.add($1)",
         csharp="$0.Add($1)",
         cpp=("$0.push_back($1)", "$0.emplace_back($1)"),
         javascript="$0.push($1)"),
    _row("element", "$0[$1]",
         java=("$0.get($1)", "$0.charAt($1)"),
         csharp="$0.ElementAt($1)",
         cpp="$0.at($1)",
         javascript=("$0.at($1)", "$0.charAt($1)")),
    _row("set element", "$0[$1] = $2",
         java=("$0.set($1, $2)", "$0.put($1, $2)")),
    _row("contains", "$1 in $0",
         java=("$0.contains($1)", "$0.containsKey($1)"),
         csharp=("$0.Contains($1)", "$0.ContainsKey($1)"),
         javascript=("$0.includes($1)", "$0.has($1)")),
    _row("contains by index", "$1 in $0",
         java="$0.indexOf($1) != -1",
         csharp="$0.IndexOf($1) != -1",
         cpp=("find($0.begin(), $0.end(), $1) != $0.end()", "$0.find($1) != $0.npos",
              "$0.find($1) != string::npos"),
         javascript="$0.indexOf($1) != -1"),
    _row("not contained", "not $1 in $0",
         java="$0.indexOf($1) == -1",
         csharp="$0.IndexOf($1) == -1",
         cpp=("find($0.begin(), $0.end(), $1) == $0.end()", "$0.find($1) == $0.npos",
              "$0.find($1) == string::npos"),
         javascript="$0.indexOf($1) == -1"),
    _row("index of", "$0.find($1)",
         python=("$0.find($1)", "$0.index($1)"),
         java="$0.indexOf($1)",
         csharp="$0.IndexOf($1)",
         cpp="$0.find($1)",
         javascript="$0.indexOf($1)"),
    _row("new list", "[]",
         java=("new ArrayList()", "new LinkedList()"),
         csharp="new List()",
         cpp="{ }",
         javascript="new Array()"),
    _row("list of", "[$*]",
         java=("Arrays.asList($*)", "List.of($*)", "new ArrayList(Arrays.asList($*))"),
         csharp="new List { $* }",
         cpp="{ $* }"),
    _row("copy of list", "list($0)",
         python="list($0)",
         java="new ArrayList($0)",
         csharp="new List($0)",
         javascript="Array.from($0)"),
    _row("new map", "{}",
         java=("new HashMap()", "new TreeMap()"),
         csharp="new Dictionary()",
         javascript="new Map()"),
    _row("new set", "set()",
         python="set()",
         java=("new HashSet()", "new TreeSet()"),
         csharp="new HashSet()",
         javascript="new Set()"),
    _row("set of", "set($0)",
         python="set($0)",
         java="new HashSet($0)",
         csharp="new HashSet($0)",
         javascript="new Set($0)"),
    # a checked assumption, with or without its message
    _row("assert with message", "assert $0 : $1",
         python="assert $0, $1",
         java="assert $0 : $1",
         csharp="Debug.Assert($0, $1)",
         javascript="console.assert($0, $1)"),
    _row("assert", "assert $0",
         python="assert $0",
         java="assert $0",
         csharp="Debug.Assert($0)",
         cpp="assert($0)",
         javascript="console.assert($0)"),
    # the standard exceptions of one meaning (what a port throws in place of the source's)
    _row("invalid argument error", "value_error($*)",
         python="ValueError($*)",
         java="new IllegalArgumentException($*)",
         csharp="new ArgumentException($*)",
         cpp=("invalid_argument($*)", "std::invalid_argument($*)")),
    _row("unsupported operation error", "not_implemented_error($*)",
         python="NotImplementedError($*)",
         java="new UnsupportedOperationException($*)",
         csharp=("new NotSupportedException($*)", "new NotImplementedException($*)")),
    _row("invalid state error", "invalid_state_error($*)",
         java="new IllegalStateException($*)",
         csharp="new InvalidOperationException($*)"),
    _row("index error", "index_error($*)",
         python="IndexError($*)",
         java=("new IndexOutOfBoundsException($*)", "new ArrayIndexOutOfBoundsException($*)"),
         csharp=("new IndexOutOfRangeException($*)", "new ArgumentOutOfRangeException($*)"),
         cpp=("out_of_range($*)", "std::out_of_range($*)")),
    _row("null error", "null_error($*)",
         java="new NullPointerException($*)",
         csharp=("new NullReferenceException($*)", "new ArgumentNullException($*)")),
    # Java's Optional is how a port writes a value that may be absent (Python's None,
    # a null reference elsewhere): the value itself, or none
    _row("optional empty", "none",
         java="Optional.empty()"),
    _row("optional of", "$0",
         java=("Optional.of($0)", "Optional.ofNullable($0)")),
    _row("optional present", "$0 != none",
         java="$0.isPresent()"),
    # streams and LINQ: a pipeline over a collection is the collection's own filter/map
    _row("stream", "$0",
         java=("$0.stream()", "Arrays.stream($0)", "$0.collect(Collectors.toList())",
               "$0.toList()", "$0.boxed()"),
         csharp=("$0.ToList()", "$0.ToArray()", "$0.AsEnumerable()")),
    _row("filter", "$0.filter($1)",
         python="filter($1, $0)",
         csharp="$0.Where($1)",
         javascript="$0.filter($1)",
         java="$0.filter($1)"),
    _row("map", "$0.map($1)",
         python="map($1, $0)",
         csharp="$0.Select($1)",
         javascript="$0.map($1)",
         java=("$0.map($1)", "$0.mapToInt($1)", "$0.mapToObj($1)")),
    _row("pop last", "$0.pop()",
         python="$0.pop()",
         java="$0.remove($0.size() - 1)",
         csharp="$0.RemoveAt($0.Count - 1)",
         cpp="$0.pop_back()",
         javascript="$0.pop()"),
    _row("split", "$0.split($1)",
         python="$0.split($1)",
         java="$0.split($1)",
         csharp="$0.Split($1)",
         javascript="$0.split($1)"),
    _row("replace", "$0.replace($1, $2)",
         python="$0.replace($1, $2)",
         java=("$0.replace($1, $2)", "$0.replaceAll($1, $2)"),
         csharp="$0.Replace($1, $2)",
         javascript=("$0.replaceAll($1, $2)", "$0.replace($1, $2)")),
    _row("sort", "$0.sort()",
         python="$0.sort()",
         java=("Collections.sort($0)", "Arrays.sort($0)"),
         csharp=("$0.Sort()", "Array.Sort($0)"),
         cpp="sort($0.begin(), $0.end())",
         javascript="$0.sort()"),
    _row("reverse", "$0.reverse()",
         python="$0.reverse()",
         java="Collections.reverse($0)",
         csharp=("$0.Reverse()", "Array.Reverse($0)"),
         cpp="reverse($0.begin(), $0.end())",
         javascript="$0.reverse()"),
    # strings
    _row("reversed string", "$0[::-1]",
         python="$0[::-1]",
         java="new StringBuilder($0).reverse().toString()",
         cpp="string($0.rbegin(), $0.rend())",
         javascript="$0.split(\"\").reverse().join(\"\")"),
    _row("characters", "$0",
         java="$0.toCharArray()",
         csharp="$0.ToCharArray()",
         javascript="$0.split(\"\")"),
    _row("substring", "$0[$1:$2]",
         python="$0[$1:$2]",
         java=("$0.substring($1, $2)", "$0.subList($1, $2)"),
         javascript=("$0.substring($1, $2)", "$0.slice($1, $2)")),
    _row("substring from", "$0[$1:]",
         python="$0[$1:]",
         java="$0.substring($1)",
         csharp="$0.Substring($1)",
         cpp="$0.substr($1)",
         javascript=("$0.substring($1)", "$0.slice($1)")),
    _row("substring by length", "$0[$1:$1 + $2]",
         csharp="$0.Substring($1, $2)",
         cpp="$0.substr($1, $2)"),
    # (a function form: JavaScript's `xs.join(sep)` has the shape of Python's `sep.join(xs)`)
    _row("join", "join($0, $1)",
         python="$1.join($0)",
         java="String.join($1, $0)",
         csharp="string.Join($1, $0)",
         javascript="$0.join($1)"),
    _row("upper case", "$0.upper()",
         python="$0.upper()",
         java=("$0.toUpperCase()", "Character.toUpperCase($0)"),
         csharp=("$0.ToUpper()", "char.ToUpper($0)"),
         cpp="toupper($0)",
         c="toupper($0)",
         javascript="$0.toUpperCase()"),
    _row("lower case", "$0.lower()",
         python="$0.lower()",
         java=("$0.toLowerCase()", "Character.toLowerCase($0)"),
         csharp=("$0.ToLower()", "char.ToLower($0)"),
         cpp="tolower($0)",
         c="tolower($0)",
         javascript="$0.toLowerCase()"),
    _row("strip", "$0.strip()",
         python="$0.strip()",
         java="$0.trim()",
         csharp="$0.Trim()",
         javascript="$0.trim()"),
    _row("starts with", "$0.startswith($1)",
         python="$0.startswith($1)",
         java="$0.startsWith($1)",
         csharp="$0.StartsWith($1)",
         javascript="$0.startsWith($1)"),
    _row("ends with", "$0.endswith($1)",
         python="$0.endswith($1)",
         java="$0.endsWith($1)",
         csharp="$0.EndsWith($1)",
         javascript="$0.endsWith($1)"),
    _row("equals", "$0 == $1",
         java="$0.equals($1)",
         csharp="$0.Equals($1)",
         cpp="strcmp($0, $1) == 0",
         c="strcmp($0, $1) == 0"),
    _row("is digit", "$0.isdigit()",
         python="$0.isdigit()",
         java="Character.isDigit($0)",
         csharp="char.IsDigit($0)",
         cpp="isdigit($0)",
         c="isdigit($0)"),
    _row("is letter", "$0.isalpha()",
         python="$0.isalpha()",
         java="Character.isLetter($0)",
         csharp="char.IsLetter($0)",
         cpp="isalpha($0)",
         c="isalpha($0)"),
    _row("is upper", "$0.isupper()",
         python="$0.isupper()",
         java="Character.isUpperCase($0)",
         csharp="char.IsUpper($0)",
         cpp="isupper($0)",
         c="isupper($0)"),
    _row("is lower", "$0.islower()",
         python="$0.islower()",
         java="Character.isLowerCase($0)",
         csharp="char.IsLower($0)",
         cpp="islower($0)",
         c="islower($0)"),
    _row("character code", "ord($0[$1])",
         java="(int) $0.charAt($1)",
         javascript="$0.charCodeAt($1)"),
    _row("code of a character", "ord($0)",
         python="ord($0)",
         javascript="$0.charCodeAt()"),
    _row("character of code", "chr($0)",
         python="chr($0)",
         java="(char) $0",
         javascript="String.fromCharCode($0)"),
    _row("C string", "$0",
         cpp="$0.c_str()"),
    # conversions
    _row("new string", '""',
         python="str()",
         java=("new StringBuilder()", "new StringBuffer()", "new String()"),
         csharp=("new StringBuilder()", "string.Empty", "String.Empty")),
    _row("to string", "str($0)",
         python="str($0)",
         java=("String.valueOf($0)", "Integer.toString($0)", "Double.toString($0)",
               "Character.toString($0)", "$0.toString()"),
         csharp=("$0.ToString()", "Convert.ToString($0)"),
         cpp="to_string($0)",
         javascript=("String($0)", "$0.toString()")),
    _row("parse integer", "int($0)",
         python="int($0)",
         java=("Integer.parseInt($0)", "Integer.valueOf($0)", "Long.parseLong($0)"),
         csharp=("int.Parse($0)", "Int32.Parse($0)", "long.Parse($0)",
                 "Convert.ToInt32($0)"),
         cpp=("stoi($0)", "stol($0)", "stoll($0)", "atoi($0)"),
         c=("atoi($0)", "atol($0)"),
         javascript="parseInt($0)"),
    _row("parse number", "float($0)",
         python="float($0)",
         java=("Double.parseDouble($0)", "Float.parseFloat($0)", "Double.valueOf($0)"),
         csharp=("double.Parse($0)", "float.Parse($0)", "Convert.ToDouble($0)"),
         cpp=("stod($0)", "stof($0)", "atof($0)"),
         c="atof($0)",
         javascript=("parseFloat($0)", "Number($0)")),
    # arithmetic
    _row("absolute value", "abs($0)",
         python="abs($0)",
         java="Math.abs($0)",
         csharp="Math.Abs($0)",
         cpp=("abs($0)", "fabs($0)"),
         c=("abs($0)", "fabs($0)"),
         javascript="Math.abs($0)"),
    _row("maximum", "max($*)",
         python="max($*)",
         java="Math.max($*)",
         csharp="Math.Max($*)",
         cpp=("max($*)", "fmax($*)"),
         c="fmax($*)",
         javascript="Math.max($*)"),
    _row("maximum of a list", "max($0)",
         javascript="Math.max(...$0)"),
    _row("minimum", "min($*)",
         python="min($*)",
         java="Math.min($*)",
         csharp="Math.Min($*)",
         cpp=("min($*)", "fmin($*)"),
         c="fmin($*)",
         javascript="Math.min($*)"),
    _row("minimum of a list", "min($0)",
         javascript="Math.min(...$0)"),
    _row("power", "pow($0, $1)",
         python=("$0 ** $1", "math.pow($0, $1)", "pow($0, $1)"),
         java="Math.pow($0, $1)",
         csharp="Math.Pow($0, $1)",
         cpp="pow($0, $1)",
         c="pow($0, $1)",
         javascript=("Math.pow($0, $1)", "$0 ** $1")),
    _row("square root", "sqrt($0)",
         python="math.sqrt($0)",
         java="Math.sqrt($0)",
         csharp="Math.Sqrt($0)",
         cpp="sqrt($0)",
         c="sqrt($0)",
         javascript="Math.sqrt($0)"),
    _row("floor", "floor($0)",
         python="math.floor($0)",
         java="Math.floor($0)",
         csharp="Math.Floor($0)",
         cpp="floor($0)",
         c="floor($0)",
         javascript="Math.floor($0)"),
    # the floor of a quotient is the language's spelling of integer division: JavaScript has
    # no integer type, so `Math.floor(a / b)` is what Java's `a / b` on ints and Python's
    # `a // b` write; the map reads all of them as the neutral integer division `//`
    # (Python's own spelling; the C family's `/` by the operands' types, see
    # graphs.neutral.division), not as a floor call the other languages never make
    _row("integer division", "$0 // $1",
         python=("math.floor($0 / $1)", "int($0 / $1)"),
         javascript=("Math.floor($0 / $1)", "Math.trunc($0 / $1)", "parseInt($0 / $1)",
                     "($0 / $1) | 0", "~~($0 / $1)")),
    _row("ceiling", "ceil($0)",
         python="math.ceil($0)",
         java="Math.ceil($0)",
         csharp="Math.Ceiling($0)",
         cpp="ceil($0)",
         c="ceil($0)",
         javascript="Math.ceil($0)"),
    _row("round", "round($0)",
         python="round($0)",
         java="Math.round($0)",
         csharp="Math.Round($0)",
         cpp="round($0)",
         c="round($0)",
         javascript="Math.round($0)"),
    _row("largest integer", "inf",
         python=("float(\"inf\")", "math.inf", "sys.maxsize"),
         java=("Integer.MAX_VALUE", "Long.MAX_VALUE", "Double.MAX_VALUE"),
         csharp=("int.MaxValue", "long.MaxValue", "double.MaxValue"),
         cpp=("INT_MAX", "LONG_MAX"),
         c=("INT_MAX", "LONG_MAX"),
         javascript=("Infinity", "Number.MAX_SAFE_INTEGER", "Number.MAX_VALUE")),
    _row("smallest integer", "-inf",
         python=("float(\"-inf\")", "-math.inf", "-sys.maxsize"),
         java=("Integer.MIN_VALUE", "Long.MIN_VALUE"),
         csharp=("int.MinValue", "long.MinValue"),
         cpp=("INT_MIN", "LONG_MIN"),
         c=("INT_MIN", "LONG_MIN"),
         javascript=("-Infinity", "Number.MIN_SAFE_INTEGER")),
)

#: The I/O model (:mod:`graphs.neutral.io`): standard input as a stream of tokens and
#: lines, standard output as prints with and without a newline. Everything here is
#: neutral-token text (identifiers folded, as labels have them).
#:
#: ``stdin``/``stdout``: per language, the expressions that are the standard streams; an
#: object constructed over one (``new Scanner(System.in)``, ``new BufferedReader(new
#: InputStreamReader(System.in))``, ``new PrintWriter(System.out)``) is a reader or writer,
#: whatever its class. ``reads``: the neutral form of each kind of read. ``reader
#: methods``: what a method of a reader over standard input (or of a tokenizer over a
#: line it read) returns, by the words of its name. ``writer methods``: a writer's
#: prints. ``plumbing methods``: a reader's or writer's calls with no statement (close,
#: flush). ``plumbing``: per language, whole statements with no statement in the model
#: (the standard streams' set-up), as folded token prefixes of the language's own label.
#: ``int list``/``float list``/``token list`` are reads of a list of tokens (a line's
#: tokens mapped by a conversion, a counted loop storing one token read per element).
#: ``again``: a token stream read at a position it already read (``data[i]`` twice with
#: no step of ``i`` between): the token read before, not a fresh read. ``run-time
#: set-up``: per language, statements that set up the run time (recursion limit, thread
#: stack size, digit limit), plumbing too: they change no value the program computes.
#: ``converters``: what a conversion applied to a token makes of it (the words of
#: ``int``, ``Integer.parseInt``, ``int.Parse``, ``Number``, ...). ``scanf``: the type a
#: ``scanf`` conversion reads. ``declared``: the type words of a declaration that decide
#: what ``cin >> x`` reads.
IO: dict[str, Any] = {
    "stdin": {"java": ("system.in",), "csharp": ("console.in", "console.open_standard_input()"),
              "python": ("sys.stdin",), "c": ("stdin",), "cpp": ("stdin", "cin"),
              "javascript": ("process.stdin",)},
    "stdout": {"java": ("system.out",),
               "csharp": ("console.out", "console.open_standard_output()"),
               "python": ("sys.stdout",), "c": ("stdout",), "cpp": ("stdout", "cout"),
               "javascript": ("process.stdout",)},
    "reads": {"int": "read_int()", "float": "read_float()", "token": "read_token()",
              "line": "input()", "tokens": "read_tokens()", "lines": "read_lines()",
              "int list": "read_list(int)", "float list": "read_list(float)",
              "token list": "read_list(str)"},
    "again": {"int": "int(token_again())", "float": "float(token_again())",
              "token": "token_again()"},
    "reader methods": {
        "next_int": "int", "next_long": "int", "next_short": "int", "next_byte": "int",
        "next_big_integer": "int", "next_double": "float", "next_float": "float",
        "next_big_decimal": "float", "next": "token", "next_token": "token",
        "next_line": "line", "read_line": "line"},
    "writer methods": {"println": "print", "printf": "print", "format": "print",
                       "print": "write", "write": "write", "append": "write",
                       "write_line": "print"},
    "plumbing methods": ("close", "flush"),
    "plumbing": {
        "cpp": ("sync_with_stdio (", "ios . sync_with_stdio (",
                "ios_base . sync_with_stdio (", "std . ios . sync_with_stdio (",
                "std . ios_base . sync_with_stdio (", "cin . tie (", "cout . tie (",
                "std . cin . tie (", "std . cout . tie (", "fflush (", "cout . flush (",
                "std . cout . flush ("),
        "c": ("fflush (", "setvbuf ("),
        "java": ("system . out . flush (",),
        "csharp": ("console . out . flush (",),
        "python": ("sys . stdout . flush (", "import sys", "from sys import"),
        "javascript": (),
    },
    "run-time set-up": {
        "python": ("sys . setrecursionlimit (", "sys . set_int_max_str_digits (",
                   "threading . stack_size (", "import threading"),
    },
    "converters": {
        "int": ("int", "long", "integer", "parse_int", "parse_long", "to_int32", "to_int64",
                "atoi", "atol", "stoi", "stol", "stoll", "big_int", "big_integer"),
        "float": ("float", "double", "number", "parse_float", "parse_double", "to_double",
                  "decimal", "atof", "stod", "stof"),
        "token": ("str", "string", "strip", "trim"),
    },
    "scanf": {"d": "int", "i": "int", "u": "int", "o": "int", "x": "int", "f": "float",
              "e": "float", "g": "float", "a": "float", "s": "token", "c": "token"},
    "declared": {"int": "int", "long": "int", "short": "int", "unsigned": "int",
                 "size_t": "int", "int64_t": "int", "int32_t": "int", "double": "float",
                 "float": "float", "string": "token", "char": "token"},
}

#: Accessor conventions: ``getFoo()`` reads and ``setFoo(v)`` (a whole statement) writes
#: the property ``foo``, as C# writes it (``Foo``, ``Foo = v``) and JavaScript and Python
#: properties are read and written. Per language, the prefixes of a getter and a setter.
ACCESSORS: dict[str, dict[str, str]] = {
    "java": {"get": "getter", "set": "setter"},
    "csharp": {"get": "getter", "set": "setter"},
}

#: Neutral calls known to have no effect: a node whose calls are all of these (or that
#: calls nothing) is not ordered with the calls of unknown effect, whatever its language's
#: PDG knew (Java orders ``"aeiou".indexOf(c)``, Python's ``c in "aeiou"`` is no call).
PURE_CALLS = frozenset({
    "len", "abs", "max", "min", "pow", "sqrt", "floor", "ceil", "round", "str", "int",
    "float", "bool", "ord", "chr", "range", "set", "list", "dict", "tuple", "join", "find",
    "upper", "lower", "strip", "startswith", "endswith", "isdigit", "isalpha", "isupper",
    "islower", "split", "replace", "filter", "map", "sorted", "sum", "any", "all",
    "enumerate", "zip", "reversed", "get", "keys", "values", "items", "count", "index",
    "contains", "equals", "substring", "format", "is_empty", "to_string", "hash_code",
    "compare_to", "value_of", "size", "length", "char_at", "to_char_array", "includes",
    "slice", "char_code_at", "is_array", "parse_int", "parse_float", "number",
})

# ---------------------------------------------------------------------- AST shared kinds

_LOOPS = ("for_statement", "enhanced_for_statement", "for_in_statement", "foreach_statement",
          "for_range_loop", "while_statement", "do_statement", "for_of_statement")
_COMMON_KINDS = {
    **dict.fromkeys(_LOOPS, "loop"),
    "if_statement": "branch", "else_clause": "else", "elif_clause": "branch",
    "conditional_expression": "conditional", "ternary_expression": "conditional",
    "switch_statement": "switch", "switch_expression": "switch",
    "match_statement": "switch", "switch_block": "block", "switch_section": "case",
    "switch_case": "case", "switch_default": "case", "case_statement": "case",
    "switch_block_statement_group": "case", "switch_label": "case", "case_clause": "case",
    "return_statement": "return", "break_statement": "break",
    "continue_statement": "continue", "throw_statement": "raise",
    "raise_statement": "raise", "try_statement": "try", "catch_clause": "except",
    "except_clause": "except", "finally_clause": "finally",
    "block": "block", "compound_statement": "block", "statement_block": "block",
    "expression_statement": "statement", "local_variable_declaration": "assignment",
    "variable_declaration": "assignment", "lexical_declaration": "assignment",
    "declaration": "assignment", "local_declaration_statement": "assignment",
    "assignment": "assignment", "assignment_expression": "assignment",
    "augmented_assignment": "compound assignment",
    "compound_assignment_expr": "compound assignment",
    "augmented_assignment_expression": "compound assignment",
    "variable_declarator": "declarator", "init_declarator": "declarator",
    "update_expression": "update", "prefix_unary_expression": "unary",
    "postfix_unary_expression": "update",
    "method_invocation": "call", "call_expression": "call", "call": "call",
    "invocation_expression": "call", "object_creation_expression": "call",
    "new_expression": "call",
    "argument_list": "arguments", "arguments": "arguments",
    "binary_expression": "binary", "binary_operator": "binary",
    "boolean_operator": "binary", "comparison_operator": "binary",
    "unary_expression": "unary", "unary_operator": "unary", "not_operator": "unary",
    "parenthesized_expression": "parentheses",
    "field_access": "member", "member_access_expression": "member",
    "member_expression": "member", "field_expression": "member", "attribute": "member",
    "array_access": "index", "element_access_expression": "index",
    "subscript_expression": "index", "subscript": "index",
    "cast_expression": "conversion",
    "lambda_expression": "lambda", "lambda": "lambda", "arrow_function": "lambda",
    "method_declaration": "function", "function_definition": "function",
    "function_declaration": "function", "local_function_statement": "function",
    "constructor_declaration": "function",
    "formal_parameters": "parameters", "parameters": "parameters",
    "parameter_list": "parameters", "formal_parameter": "parameter",
    "parameter_declaration": "parameter", "parameter": "parameter",
    "typed_parameter": "parameter", "default_parameter": "parameter",
    "typed_default_parameter": "parameter", "required_parameter": "parameter",
    "array_creation_expression": "list", "array_initializer": "list", "list": "list",
    "array": "list", "initializer_list": "list",
    "implicit_array_creation_expression": "list",
    "list_comprehension": "comprehension", "generator_expression": "comprehension",
    "string_literal": "string", "string": "string", "character_literal": "string",
    "char_literal": "string", "template_string": "string",
    "verbatim_string_literal": "string", "raw_string_literal": "string",
    "interpolated_string_expression": "string",
    "decimal_integer_literal": "number", "integer_literal": "number", "integer": "number",
    "number_literal": "number", "number": "number", "real_literal": "number",
    "decimal_floating_point_literal": "number", "float": "number",
    "hex_integer_literal": "number",
    "true": "true", "false": "false", "null_literal": "none", "null": "none",
    "none": "none", "nullptr": "none", "undefined": "none", "boolean_literal": "boolean",
    "identifier": "name", "field_identifier": "name", "property_identifier": "name",
    "shorthand_property_identifier": "name", "this": "self",
    "expression_list": "expressions", "pattern_list": "expressions",
    "tuple": "tuple", "tuple_expression": "tuple",
    "slice": "slice", "keyword_argument": "argument", "argument": "argument",
    "pair": "pair", "dictionary": "dict", "object": "dict",
    "in_operator": "binary", "instanceof_expression": "binary",
    "class_declaration": "class", "class_definition": "class", "class_body": "block",
    "declaration_list": "block", "field_declaration_list": "block",
}

AST_KINDS: dict[str, dict[str, str]] = {lang: dict(_COMMON_KINDS) for lang in LANGUAGES}

#: Node types of static types, modifiers and scaffolding: no node in the neutral AST
#: (their subtree goes with them).
AST_DROPPED = frozenset({
    "type_identifier", "generic_type", "integral_type", "floating_point_type",
    "boolean_type", "void_type", "array_type", "primitive_type", "predefined_type",
    "sized_type_specifier", "qualified_type_identifier", "scoped_type_identifier",
    "type_arguments", "template_argument_list", "template_type", "type",
    "type_annotation", "modifiers", "modifier", "storage_class_specifier",
    "type_qualifier", "import_declaration", "import_statement", "import_from_statement",
    "using_directive", "preproc_include", "package_declaration", "dimensions",
    "nullable_type", "pointer_declarator_type", "auto", "placeholder_type_specifier",
    "implicit_type", "future_import_statement", "line_comment", "block_comment",
    "comment", "decorator", "marker_annotation", "annotation", "type_parameters",
    "throws", "abstract_pointer_declarator", "reference_declarator_type",
})

# frozen views: the module's tables are read, never written
KEYWORDS = MappingProxyType({k: MappingProxyType(v) for k, v in KEYWORDS.items()})  # type: ignore[assignment]
TYPES = MappingProxyType({k: MappingProxyType(v) for k, v in TYPES.items()})  # type: ignore[assignment]
ACCESSORS = MappingProxyType(  # type: ignore[assignment]
    {k: MappingProxyType(v) for k, v in ACCESSORS.items()})
DEFAULT_VALUES = MappingProxyType(  # type: ignore[assignment]
    {k: MappingProxyType(v) for k, v in DEFAULT_VALUES.items()})
AST_KINDS = MappingProxyType({k: MappingProxyType(v) for k, v in AST_KINDS.items()})  # type: ignore[assignment]
