"""The Snowdonia rules engine: actions in, events out (DESIGN.md). Pure Python, no hardware."""
