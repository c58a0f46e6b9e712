"""The package version (one place; the signature, the CLI and the reports print it)."""

__version__ = "0.9.0"
