"""Every docstring example in the three packages and the validity benchmark runs and shows
what it claims."""

import doctest
import importlib
import pkgutil

import pytest

import crystal
import graphs
import ruby_metric
import validity


def _modules():
    for package in (crystal, graphs, ruby_metric, validity):
        yield package.__name__
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            # the worker preload module compiles kernels at import; __main__ runs the CLI
            if info.name not in ("ruby_metric.batch.worker", "ruby_metric.__main__"):
                yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert failures == 0
