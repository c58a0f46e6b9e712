"""Deprecated path of :mod:`ruby_metric.pages.plots`; goes away in 0.6."""

from .deprecations import warn_moved
from .pages.plots import *  # noqa: F403

warn_moved("ruby_metric.svg_plots", "ruby_metric.pages.plots")
