"""Corpus-level reports: the one-page corpus report and the system A vs B comparison, built
from scored results (the pages that render them are in :mod:`ruby_metric.pages`)."""
