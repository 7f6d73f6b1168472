"""Where the assistant keeps its files: the user's config and state directories (platformdirs)."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "tableassist"


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME))


def state_dir() -> Path:
    return Path(platformdirs.user_state_dir(APP_NAME))


def default_config_file() -> Path:
    return config_dir() / "config.toml"


def default_db_file() -> Path:
    return state_dir() / "tableassist.sqlite3"
