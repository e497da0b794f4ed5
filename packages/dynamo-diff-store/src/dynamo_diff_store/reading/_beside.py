"""Source files found beside a bare TORCH_TRACE log when it is imported (docs/CAPTURING.md, "Scripts beside a bare
log").

A bare log holds no snapshot of the code that ran. When it is imported from a folder (the folder the user named; for
a folder of runs, each run's own folder), the Python files in that folder whose path is the tail of a file the trace
names are kept with the capture as its source snapshot, marked as found at import (they may differ from what ran).
Only the files the trace names are looked for: each name's candidates are the folder joined with the name's last
one, two, ... components, and the longest that exists is kept (the same longest-suffix rule `Store.source_files`
maps a bundle's snapshots with). Nothing outside the folder is read: a candidate is confined to it (`confine`: no
`..`, no link that leaves it, regular files only), hidden components (`.venv/`, `.git/`) are passed over, and so are
the files torch, site-packages and the standard library ship (the paths `dynamo-diff capture` does not snapshot).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dynamo_diff_schema.errors import DynamoDiffError

from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading._tlparse_export import confine

# Files torch and Python ship are not the user's code. Globs match the absolute path torch wrote.
DEFAULT_EXCLUDES = (
    "*/site-packages/*",
    "*/dist-packages/*",
    "*/torch/*",
    "*/lib/python3*/*",  # the standard library of a CPython installation or venv
)

# The names a raw trace gives files by: its intern table (`{"str": ["/path/x.py", 3]}`, what every stack frame's
# `filename` index points at) and compilation_metrics' `co_filename`.
_KEYS = (b'{"str": ["', b'"co_filename": "')
_STRING = re.compile(rb'((?:[^"\\\n]|\\.)*)"')
# Past this, the unfinished last line of a chunk is not kept whole (a name's record is a short line of its own).
_TAIL = 64 * 1024
# The depth of a name's tail tried: a deeper path than this in a run's folder is not looked for.
_MOST_PARTS = 32


@dataclass
class NamedFiles:
    """The `.py` files a raw trace names, collected from its bytes as they are copied (`feed` each chunk in order,
    then `finish`)."""

    names: set[str] = field(default_factory=set)
    _tail: bytes = b""

    def feed(self, chunk: bytes) -> None:
        text = self._tail + chunk
        cut = text.rfind(b"\n") + 1
        self._scan(text, cut)
        rest = text[cut:]
        self._tail = rest if len(rest) <= _TAIL else b""

    def finish(self) -> None:
        self._scan(self._tail, len(self._tail))
        self._tail = b""

    def _scan(self, text: bytes, stop: int) -> None:
        for key in _KEYS:
            pos = 0
            while (at := text.find(key, pos, stop)) >= 0:
                m = _STRING.match(text, at + len(key), stop)
                pos = at + len(key)
                if m is None:
                    continue
                pos = m.end()
                try:
                    name = json.loads(b'"' + m.group(1) + b'"')
                except ValueError:
                    continue
                if isinstance(name, str) and name.endswith(".py"):
                    self.names.add(name)


@dataclass(frozen=True)
class BesideFile:
    """A file found beside the log: the name the trace gives it, where it is, its path inside the folder."""

    captured_path: str
    path: Path
    rel: str


def library_file(captured: str) -> bool:
    """Whether a path the trace names is one torch, site-packages or the standard library ship."""
    return any(fnmatch.fnmatchcase(captured, glob) for glob in DEFAULT_EXCLUDES)


def find_beside(folder: Path, names: Iterable[str], limits: Limits) -> list[BesideFile]:
    """The files in `folder` whose path is the longest tail of each name (sorted by name). A candidate that cannot
    be read safely (a link out of the folder, a loop, not a regular file, over `max_source_bytes`) is passed over:
    it is not the script, or not one that may be read."""
    root = Path(os.path.realpath(folder))
    found: list[BesideFile] = []
    for captured in sorted(set(names)):
        if not captured.endswith(".py") or library_file(captured):
            continue
        parts = [p for p in captured.replace("\\", "/").split("/") if p]
        if not parts or any(p in (".", "..") or "\x00" in p for p in parts):
            continue
        for k in range(min(len(parts), _MOST_PARTS), 0, -1):
            tail = parts[-k:]
            if any(p.startswith(".") for p in tail):
                continue
            rel = "/".join(tail)
            try:
                path = confine(root, rel)
            except DynamoDiffError:
                continue
            if path is None:
                continue
            try:
                size = path.stat().st_size
            except OSError:
                continue
            if size > limits.max_source_bytes:
                continue
            found.append(BesideFile(captured, path, rel))
            break
    return found
