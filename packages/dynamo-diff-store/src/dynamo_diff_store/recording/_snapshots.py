"""What a recorded trace says about the run that wrote it, and snapshots of the user's source files it names.

The producer versions come from the trace (the `torch_version` artifact, `compilation_metrics`), never from
importing torch here: the workload may have run with another interpreter than this tool.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import shutil
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dynamo_diff_schema.manifest import SourceFile

from dynamo_diff_store.analysis import files_named, parse_torch_version
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import DEFAULT_EXCLUDES, FileReport, rank_from_name, read_raw_log

# A file outside the project root is snapshotted under sources/_external/<tag>/, tag = start of its path's sha256.
_TAG_CHARS = 12


@dataclass
class TraceScan:
    """Facts read from the raw trace files of one run."""

    torch_version: str | None = None
    torch_git: str | None = None
    python_version: str | None = None
    files: dict[str, int] = field(default_factory=dict)  # trace file name -> rank (or -1 without one)
    filenames: set[str] = field(default_factory=set)  # every source path a stack or code location names


def scan_traces(paths: Iterable[Path], limits: Limits) -> TraceScan:
    """Read every raw trace file once and collect producer versions and the source files its records name
    (`files_named`: stacks, code locations, the user frames of graph-break and dynamo_error texts)."""
    scan = TraceScan()
    for path in paths:
        report = FileReport(path.name, rank_from_name=rank_from_name(path.name))
        rank = rank_from_name(path.name)
        scan.files[path.name] = -1 if rank is None else rank
        named: set[int | str] = set()
        for record in read_raw_log(path, path.name, limits, report):
            named.update(files_named(record))
            body = record.body if isinstance(record.body, dict) else {}
            if record.kind in ("compilation_metrics", "bwd_compilation_metrics"):
                if scan.python_version is None and isinstance(body.get("python_version"), str):
                    scan.python_version = body["python_version"]
                if scan.torch_version is None and isinstance(body.get("pytorch_version"), str):
                    scan.torch_version = body["pytorch_version"]
            elif record.artifact_name == "torch_version":
                version, commit = parse_torch_version(record.payload)
                scan.torch_version = version or scan.torch_version
                scan.torch_git = commit or scan.torch_git
        # The intern table is complete only after the whole file was read.
        for name in named:
            resolved = report.strings.get(name) if isinstance(name, int) else name
            if resolved is not None:
                scan.filenames.add(resolved)
    return scan


@dataclass(frozen=True)
class SourcePolicy:
    """Which named files are snapshotted. An `exclude` glob always wins; an `include` glob overrides the
    default skips (torch, site-packages, the standard library)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def decide(self, captured: str, relative: str | None) -> str | None:
        """None when the file is to be kept, else why it is skipped."""
        names = [captured] if relative is None else [captured, relative]

        def hit(globs: Iterable[str]) -> str | None:
            return next((g for g in globs if any(fnmatch.fnmatchcase(n, g) for n in names)), None)

        if (glob := hit(self.exclude)) is not None:
            return f"excluded by --exclude {glob}"
        if hit(self.include) is not None:
            return None
        if (glob := hit(DEFAULT_EXCLUDES)) is not None:
            return f"skipped by default ({glob}); keep it with --include"
        return None


def sha256_of(path: Path) -> str:
    """The sha256 of a file (a snapshot, a raw trace), read in 1 MiB pieces."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def snapshot_sources(
    filenames: Iterable[str], root: Path, bundle: Path, policy: SourcePolicy
) -> tuple[list[SourceFile], list[dict[str, str]]]:
    """Copy each named user file into `bundle/sources/` under its path relative to `root` (files outside the
    root go to `sources/_external/<hash of the path>/<name>`). Returns the manifest entries and the skipped
    files with a reason. Names that are not absolute file paths (`<string>`, `<frozen runpy>`) are skipped."""
    kept: list[SourceFile] = []
    skipped: list[dict[str, str]] = []
    root = Path(os.path.realpath(root))
    for captured in sorted(set(filenames)):
        if not captured.startswith("/") and not re.match(r"^[A-Za-z]:[\\/]", captured):
            skipped.append({"captured_path": captured, "reason": "not a file path"})
            continue
        path = Path(captured)
        relative: str | None = None
        resolved = Path(os.path.realpath(path))
        if resolved.is_relative_to(root):
            relative = resolved.relative_to(root).as_posix()
        why = policy.decide(captured, relative)
        if why is not None:
            skipped.append({"captured_path": captured, "reason": why})
            continue
        try:
            st = resolved.stat()
        except OSError:
            skipped.append({"captured_path": captured, "reason": "no such file on this machine"})
            continue
        if not stat.S_ISREG(st.st_mode):
            skipped.append({"captured_path": captured, "reason": "not a regular file"})
            continue
        if relative is not None:
            snapshot = f"sources/{relative}"
        else:
            tag = hashlib.sha256(captured.encode()).hexdigest()[:_TAG_CHARS]
            snapshot = f"sources/_external/{tag}/{path.name}"
        target = bundle / snapshot
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(resolved, target)
        kept.append(
            SourceFile(
                path=relative if relative is not None else captured,
                captured_path=captured,
                snapshot=snapshot,
                sha256=sha256_of(target),
            )
        )
    return kept, skipped
