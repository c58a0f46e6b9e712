"""The CFG builder's extension points are explicit: the canonical-form rewrites mixed into it
(:mod:`graphs.canon.folding`, :mod:`graphs.canon.idioms`) use, of the rest of the builder,
only the public members of :class:`graphs.canon.builder.CFGBuilder`, and the builder has
every one of them."""

from __future__ import annotations

import ast
import inspect
import textwrap

import graphs
from graphs.canon.builder import CFGBuilder
from graphs.canon.folding import ConditionalFolding
from graphs.canon.idioms import IdiomRewrites
from graphs.pdg import cfg

PROTOCOL = set(CFGBuilder.__abstractmethods__) | set(CFGBuilder.__annotations__)


def foreign_members(source: str, name: str) -> set[str]:
    """What class ``name`` in ``source`` reads on ``self`` that it neither defines nor
    assigns (dunders left out)."""
    tree = ast.parse(textwrap.dedent(source))
    cls = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)
    own = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    used = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "self":
            if isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            used.add(node.attr)
    return {u for u in used - own if not (u.startswith("__") and u.endswith("__"))}


def test_the_protocol_names_only_public_members() -> None:
    assert {"parsed", "roles", "new_node", "jump", "named_items", "last_body",
                        "switch_groups", "is_default", "oriented"} == PROTOCOL
    assert not [m for m in PROTOCOL if m.startswith("_")]


def test_the_rewrites_use_only_the_protocol_of_the_builder() -> None:
    for mixin in (ConditionalFolding, IdiomRewrites):
        source = inspect.getsource(inspect.getmodule(mixin))
        foreign = foreign_members(source, mixin.__name__)
        assert foreign <= PROTOCOL, (mixin.__name__, sorted(foreign - PROTOCOL))
    # and each does rely on the builder (a check that found nothing would pass anyway)
    folding = inspect.getsource(inspect.getmodule(ConditionalFolding))
    assert foreign_members(folding, "ConditionalFolding") >= {"new_node", "switch_groups"}


def test_the_builder_is_a_complete_cfg_builder() -> None:
    builder = next(c for c in vars(cfg).values()
                   if isinstance(c, type) and c.__module__ == cfg.__name__
                   and issubclass(c, ConditionalFolding))
    assert CFGBuilder in builder.__mro__ and IdiomRewrites in builder.__mro__
    assert not builder.__abstractmethods__
    # its members come from the builder and its mixins, never the protocol's stubs
    for name in CFGBuilder.__abstractmethods__:
        assert getattr(builder, name) is not getattr(CFGBuilder, name), name
    parsed = graphs.parse("int f(int a) { if (a > 0) { a = 1; } else { a = 2; } return a; }",
                          "java")
    live = builder(parsed, graphs.get_roles("java"), None)
    assert all(hasattr(live, member) for member in PROTOCOL)
    assert live.parsed is parsed and live.roles.language == "java"


def test_the_checker_finds_a_private_reach() -> None:
    source = '''
    class Mixin:
        def hook(self, s):
            self._mine = 1
            n = self._new("x", [], s, s)
            return self.new_node("y", [], s, s), self.helper(), self._mine, self.__dict__

        def helper(self):
            return self.roles
    '''
    assert foreign_members(source, "Mixin") == {"_new", "new_node", "roles"}
