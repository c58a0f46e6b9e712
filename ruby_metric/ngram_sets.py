"""Deprecated path of :mod:`ruby_metric.io.ngram_sets`; goes away in 0.6."""

from .deprecations import warn_moved
from .io.ngram_sets import *  # noqa: F403

warn_moved("ruby_metric.ngram_sets", "ruby_metric.io.ngram_sets")
