"""Table Assistant: a companion for a real game of Snowdonia."""

__version__ = "0.1.0"
