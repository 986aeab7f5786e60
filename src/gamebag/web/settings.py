"""Web server settings that the command line needs without importing the server's libraries."""

from __future__ import annotations

DEFAULT_DB_URL = "sqlite:///gamebag-web.db"
SYNC_MODES = ("normal", "full")
