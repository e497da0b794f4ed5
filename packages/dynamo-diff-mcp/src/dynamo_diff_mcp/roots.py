"""The directories an agent may point the server at, and the check every path it sends goes through.

A path is allowed only when it resolves (after `..` and every symbolic link) to an allowed root or below one.
Paths outside are refused before anything looks at them, so a refusal says nothing about what exists there.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from dynamo_diff_schema import DynamoDiffError, ErrorCode


class AllowedRoots:
    """Directories given with `--allow-root`; each must exist and be a directory when the server starts."""

    def __init__(self, roots: Sequence[Path | str]) -> None:
        if not roots:
            raise DynamoDiffError(
                ErrorCode.INVALID_ARGUMENT,
                "no allowed root: give at least one --allow-root DIR (the server reads traces only below these)",
            )
        resolved: list[Path] = []
        for root in roots:
            path = Path(root).expanduser()
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):
                raise DynamoDiffError(
                    ErrorCode.PATH_NOT_ALLOWED, f"allowed root {root} does not exist", path=str(root)
                ) from None
            if not real.is_dir():
                raise DynamoDiffError(
                    ErrorCode.PATH_NOT_ALLOWED, f"allowed root {root} is not a directory", path=str(root)
                )
            if real not in resolved:
                resolved.append(real)
        self.roots: tuple[Path, ...] = tuple(resolved)

    def confine(self, given: str, *, what: str = "path") -> Path:
        """The resolved path, if it lies in an allowed root; a relative path is taken from the first root."""
        if "\x00" in given:
            raise DynamoDiffError(ErrorCode.PATH_NOT_ALLOWED, f"{what} {given!r} is not a usable path", path=given)
        try:
            path = Path(given).expanduser()
            if not path.is_absolute():
                path = self.roots[0] / path
            # Not strict: a path outside the roots is refused whether or not it exists.
            real = Path(os.path.realpath(path))
        except (OSError, RuntimeError, ValueError):
            raise DynamoDiffError(
                ErrorCode.PATH_NOT_ALLOWED, f"{what} {given!r} cannot be resolved", path=given
            ) from None
        if not any(real == root or real.is_relative_to(root) for root in self.roots):
            raise DynamoDiffError(
                ErrorCode.PATH_NOT_ALLOWED,
                f"{what} {given!r} is outside the allowed roots ({', '.join(str(r) for r in self.roots)})",
                path=given,
            )
        return real
