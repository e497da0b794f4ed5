"""The `dynamo_snapshot` marker: where a test's committed compile snapshot is, writing it (`--dynamo-diff-update`)
and judging a run against it.

A test's snapshot is `<the test file's folder>/__dynamo_snapshots__/<the test file's stem>/<test name>.json`, the
test name being its node id after the file (`test_f`, `Unit::test_f`, `test_f[2-cuda]`) made file-safe: `::`
becomes `.`, any character other than a letter, digit, `.`, `_`, `-`, `[` or `]` becomes `_`, and when one did, the
first 8 hex digits of the name's sha256 are appended so that two ids never share a file. The file is
`dynamo_diff_compare.snapshot_json` of the run (byte-stable: the same behaviour writes the same bytes)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from dynamo_diff_schema import CompileSnapshot, SnapshotVerdict

FOLDER = "__dynamo_snapshots__"


def snapshot_name(nodeid: str) -> str:
    """The file name of a test's snapshot, from its node id ('tests/test_m.py::Unit::test_f[1]')."""
    name = ".".join(nodeid.split("::")[1:]) or nodeid
    safe = re.sub(r"[^A-Za-z0-9._\[\]-]", "_", name)
    if safe != name:
        safe = f"{safe}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
    return f"{safe}.json"


def snapshot_path(test_file: Path, nodeid: str) -> Path:
    return test_file.parent / FOLDER / test_file.stem / snapshot_name(nodeid)


@dataclass(frozen=True)
class Written:
    """What `--dynamo-diff-update` did to one snapshot file: 'new', 'refreshed' or 'unchanged'."""

    what: str


def write(path: Path, snapshot: CompileSnapshot) -> Written:
    from dynamo_diff_compare import snapshot_json

    text = snapshot_json(snapshot)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return Written("unchanged")
    what = "refreshed" if path.exists() else "new"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    return Written(what)


class SnapshotFileError(ValueError):
    """The committed snapshot cannot be read as a compile_snapshot."""


def read(path: Path) -> CompileSnapshot:
    try:
        return CompileSnapshot.model_validate_json(path.read_bytes())
    except (OSError, ValueError) as err:  # a model's ValidationError is a ValueError
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise SnapshotFileError(f"{path} is not a compile_snapshot ({first})") from None


def verdict(old: CompileSnapshot, new: CompileSnapshot) -> SnapshotVerdict:
    from dynamo_diff_compare import snapshot_verdict

    return snapshot_verdict(old, new)
