"""How a user names a capture, the same in the CLI and the MCP server.

A reference written as a path (it contains a slash or backslash, starts with '.' or '~', or ends in .log, .txt or
.json) is a path: it is imported (an existing capture of the same bytes is found, not duplicated); only when no
such file exists is it looked up as a label. Any other word is a capture of the store (full id, unique prefix or
label); when none has that name and a file or folder of that name exists, it is imported. A word that is both
names the capture, and a note says to write ./NAME for the path. The MCP server reads only paths inside its
allowed roots: a path written outside them is refused (`unsafe_path`).
"""

from __future__ import annotations

_PATH_SUFFIXES = (".log", ".txt", ".json")


def looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.startswith((".", "~")) or ref.endswith(_PATH_SUFFIXES)
