"""Deprecated path of :mod:`ruby_metric.pages.pair_page`; goes away in 0.6."""

from .deprecations import warn_moved
from .pages.pair_page import *  # noqa: F403

warn_moved("ruby_metric.html_report", "ruby_metric.pages.pair_page")
