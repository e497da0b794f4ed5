"""Names the file system can hold. A path the user names (a bundle, an output file, an export directory) is
checked before anything is created or run, so that a name too long is one clear error (`name_too_long`) instead
of an OSError half-way through, with directories already made."""

from __future__ import annotations

import os
from pathlib import Path

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode

# When the file system does not say (no pathconf): what Linux, macOS and Windows file systems allow, in bytes.
DEFAULT_NAME_MAX = 255
DEFAULT_PATH_MAX = 4096
# How much of a refused name the message quotes.
_SHOWN_CHARS = 40


def _nearest_folder(path: Path) -> Path:
    for candidate in (path, *path.parents):
        try:
            if candidate.is_dir():
                return candidate
        except OSError:  # the name itself is too long to look up
            continue
    return Path(path.anchor or os.sep)


def _pathconf(folder: Path, name: str, default: int) -> int:
    try:
        value = os.pathconf(folder, name)
    except (AttributeError, OSError, ValueError):  # no pathconf (Windows), or the file system does not say
        return default
    return value if value > 0 else default


def name_limits(path: Path) -> tuple[int, int]:
    """(the longest file or folder name, the longest path), in bytes, on the file system that holds `path` or,
    when it does not exist yet, its nearest existing folder."""
    folder = _nearest_folder(path.absolute())
    return _pathconf(folder, "PC_NAME_MAX", DEFAULT_NAME_MAX), _pathconf(folder, "PC_PATH_MAX", DEFAULT_PATH_MAX)


def _shown(name: str) -> str:
    return repr(name) if len(name) <= _SHOWN_CHARS else repr(name[:_SHOWN_CHARS]) + "…"


def check_name_fits(path: Path, what: str, hint: str = "choose a shorter one; nothing was written") -> None:
    """Raise `name_too_long` when a file or folder name in `path`, or the whole path, is longer than the file system
    allows. `what` says where the path came from (`--out`, `--label`) and `hint` what to do, for the message."""
    absolute = path.absolute()
    name_max, path_max = name_limits(absolute)
    for part in absolute.parts:
        size = len(os.fsencode(part))
        if size > name_max:
            raise DynamoDiffError(
                ErrorCode.NAME_TOO_LONG,
                f"{what}: the name {_shown(part)} is {size} bytes long and this file system allows at most {name_max} "
                f"bytes in a file or folder name; {hint}",
                name=part,
                bytes=size,
                limit=name_max,
            )
    size = len(os.fsencode(str(absolute)))
    if size >= path_max:  # the limit counts the terminating NUL
        raise DynamoDiffError(
            ErrorCode.NAME_TOO_LONG,
            f"{what}: the path is {size} bytes long and this file system allows paths of at most {path_max - 1} "
            f"bytes; {hint}",
            bytes=size,
            limit=path_max - 1,
        )


def fit_name(name: str, room: int) -> str:
    """`name` cut to at most `room` bytes (whole characters)."""
    return os.fsencode(name)[: max(room, 1)].decode(errors="ignore") or "run"
