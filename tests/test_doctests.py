"""Every docstring example in the three packages runs and shows what it claims."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import crystal
import graphs
import ruby_metric


def _modules():
    for package in (crystal, graphs, ruby_metric):
        yield package.__name__
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            # the worker preload module compiles kernels at import; __main__ runs the CLI
            if info.name not in ("ruby_metric.batch.worker", "ruby_metric.__main__") and (
                not _deprecated_path(info)
            ):
                yield info.name


def _deprecated_path(info: pkgutil.ModuleInfo) -> bool:
    """An old module path kept for one version (it warns when imported; nothing to test)."""
    path = Path(info.module_finder.path) / f"{info.name.rpartition('.')[2]}.py"
    return path.is_file() and "\nwarn_moved(" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(_modules()))
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert failures == 0
