"""ruby_metric: RUBY and CrystalBLEU code similarity, tiered and explained."""

__version__ = "0.1.0"
