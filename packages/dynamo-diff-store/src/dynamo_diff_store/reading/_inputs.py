"""Find out what a user-given path holds: one trace log, a TORCH_TRACE directory, a tlparse export or a bundle.

Everything inside the input is confined to its root: no `..`, no symbolic links that leave the root, regular
files only (a FIFO would block a reader, a device never ends). The user-given path itself is trusted as given.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.hints import Hint, HintAction

from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading._filereport import FileReport
from dynamo_diff_store.reading._rawlog import GLOG_PREFIX, open_regular, read_raw_log
from dynamo_diff_store.reading._records import Record
from dynamo_diff_store.reading._tlparse_export import read_tlparse_export

LayoutKind = Literal["raw_log", "raw_directory", "tlparse_export", "bundle"]
TraceFormat = Literal["raw_log", "tlparse_jsonl"]

# torch names per-rank logs dedicated_log_torch_trace_rank_<N>_<random>.log (the suffix is optional).
_RANK_NAME = re.compile(r"dedicated_log_torch_trace_rank_(\d+)(?:_[^/]*)?\.log")
_RANK_DIR = re.compile(r"rank_(\d+)")
# How much of a file's start is read to decide whether it is a trace.
_SNIFF_BYTES = 64 * 1024


@dataclass(frozen=True)
class TraceFile:
    """One file of trace records: a raw log, or a tlparse raw.jsonl (payload files live beside it)."""

    rel: str  # path relative to the layout root, with '/' separators
    path: Path
    rank: int | None  # from the file name (raw) or the rank_<N> directory (tlparse); None when absent
    format: TraceFormat
    size: int


@dataclass(frozen=True)
class IgnoredFile:
    rel: str
    reason: str


@dataclass(frozen=True)
class InputLayout:
    """What `discover` found. `files` are the primary trace files, sorted by rank then name."""

    kind: LayoutKind
    root: Path
    files: tuple[TraceFile, ...]
    # Which form `files` are in: a bundle with both raw/ and report/ reads raw/ ("raw") and keeps the
    # export only as secondary evidence.
    primary: Literal["raw", "tlparse_export"]
    export_dir: Path | None = None
    export_files: tuple[TraceFile, ...] = ()
    manifest: Path | None = None
    sources_dir: Path | None = None
    ignored: tuple[IgnoredFile, ...] = field(default=())

    @property
    def total_bytes(self) -> int:
        return sum(f.size for f in self.files)


def rank_from_name(name: str) -> int | None:
    """The rank in `dedicated_log_torch_trace_rank_<N>[_suffix].log`, else None."""
    m = _RANK_NAME.fullmatch(name)
    return int(m.group(1)) if m else None


def _unsafe(rel: str, why: str) -> DynamoDiffError:
    return DynamoDiffError(ErrorCode.UNSAFE_PATH, f"{rel} {why}.", path=rel)


def _check_entry(root: Path, path: Path, rel: str) -> tuple[Path, os.stat_result]:
    """Resolve a directory entry inside `root`, refusing escapes, loops and special files."""
    try:
        resolved = Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        raise _unsafe(rel, "is a dangling symbolic link") from None
    except (OSError, RuntimeError) as exc:
        raise _unsafe(rel, "cannot be resolved (symbolic link loop?)") from exc
    if not resolved.is_relative_to(root):
        raise _unsafe(rel, "is a symbolic link that leaves the input directory")
    try:
        st = resolved.stat()
    except OSError as exc:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"Cannot inspect {rel}: {exc.strerror}.", path=rel) from exc
    if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
        raise _unsafe(rel, "is not a regular file or directory (FIFO, socket or device)")
    return resolved, st


def _looks_like_trace(path: Path) -> bool:
    """True when the file's first line is a trace metadata line (a glog prefix then '{')."""
    with open_regular(path, path.name) as handle:
        head = handle.read(_SNIFF_BYTES)
    first = head.split(b"\n", 1)[0]
    m = GLOG_PREFIX.match(first)
    return m is not None and first[m.end() : m.end() + 1] == b"{"


def _sort_key(f: TraceFile) -> tuple[bool, int, str]:
    return (f.rank is None, f.rank if f.rank is not None else 0, f.rel)


def _list_dir(directory: Path, rel: str, limits: Limits) -> list[os.DirEntry[str]]:
    """Entries of `directory` sorted by name, at most `max_files` of them."""
    entries: list[os.DirEntry[str]] = []
    try:
        with os.scandir(directory) as iterator:
            for entry in iterator:
                entries.append(entry)
                if len(entries) > limits.max_files:
                    raise limits.exceeded("max_files", len(entries), file=rel or str(directory))
    except OSError as exc:
        raise DynamoDiffError(
            ErrorCode.UNREADABLE_INPUT, f"Cannot list {rel or directory}: {exc.strerror}.", path=str(directory)
        ) from exc
    entries.sort(key=lambda e: e.name)
    return entries


def _scan_raw_dir(
    root: Path, directory: Path, prefix: str, limits: Limits, ignored: list[IgnoredFile]
) -> list[TraceFile]:
    files: list[TraceFile] = []
    for entry in _list_dir(directory, prefix, limits):
        rel = prefix + entry.name
        resolved, st = _check_entry(root, Path(entry.path), rel)
        if stat.S_ISDIR(st.st_mode):
            ignored.append(IgnoredFile(rel, "directory (trace directories are flat)"))
            continue
        if st.st_size == 0:
            ignored.append(IgnoredFile(rel, "empty file"))
            continue
        if not _looks_like_trace(resolved):
            ignored.append(IgnoredFile(rel, "first line is not a trace metadata line"))
            continue
        files.append(TraceFile(rel, resolved, rank_from_name(entry.name), "raw_log", st.st_size))
    return files


def _export_files(root: Path, export_dir: Path, prefix: str, limits: Limits) -> list[TraceFile]:
    """raw.jsonl of a single-rank export, or rank_<N>/raw.jsonl of a multi-rank one (`--all-ranks-html`)."""
    single = export_dir / "raw.jsonl"
    if single.exists() or single.is_symlink():
        resolved, st = _check_entry(root, single, prefix + "raw.jsonl")
        if not stat.S_ISREG(st.st_mode):
            raise _unsafe(prefix + "raw.jsonl", "is not a regular file")
        return [TraceFile(prefix + "raw.jsonl", resolved, None, "tlparse_jsonl", st.st_size)]
    files: list[TraceFile] = []
    for entry in _list_dir(export_dir, prefix, limits):
        m = _RANK_DIR.fullmatch(entry.name)
        if not m:
            continue
        rel = f"{prefix}{entry.name}/raw.jsonl"
        candidate = Path(entry.path) / "raw.jsonl"
        if not (candidate.exists() or candidate.is_symlink()):
            continue
        _check_entry(root, Path(entry.path), prefix + entry.name)
        resolved, st = _check_entry(root, candidate, rel)
        if not stat.S_ISREG(st.st_mode):
            raise _unsafe(rel, "is not a regular file")
        files.append(TraceFile(rel, resolved, int(m.group(1)), "tlparse_jsonl", st.st_size))
    return files


def _check_total(files: list[TraceFile], limits: Limits) -> None:
    if len(files) > limits.max_files:
        raise limits.exceeded("max_files", len(files))
    total = sum(f.size for f in files)
    if total > limits.max_total_bytes:
        raise limits.exceeded("max_total_bytes", total)


def discover(path: Path, limits: Limits) -> InputLayout:
    """Detect the input form at `path` and list its trace files; DynamoDiffError when it is none of them."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise DynamoDiffError(ErrorCode.UNREADABLE_INPUT, f"{path} does not exist.", path=str(path)) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _unsafe(str(path), "is a symbolic link loop") from None
        raise DynamoDiffError(
            ErrorCode.UNREADABLE_INPUT, f"Cannot inspect {path}: {exc.strerror}.", path=str(path)
        ) from exc

    if stat.S_ISREG(st.st_mode):
        root = Path(os.path.realpath(path)).parent
        name = Path(os.path.realpath(path)).name
        if name == "raw.jsonl":
            return _discover_export(root, limits)
        if st.st_size == 0:
            raise DynamoDiffError(ErrorCode.UNSUPPORTED_INPUT, f"{path} is empty.", path=str(path))
        files = [TraceFile(name, root / name, rank_from_name(name), "raw_log", st.st_size)]
        _check_total(files, limits)
        return InputLayout("raw_log", root, tuple(files), "raw")
    if not stat.S_ISDIR(st.st_mode):
        raise DynamoDiffError(ErrorCode.UNSAFE_PATH, f"{path} is not a regular file or directory.", path=str(path))

    root = Path(os.path.realpath(path))
    if (root / "manifest.json").exists() or (root / "manifest.json").is_symlink():
        return _discover_bundle(root, limits)
    entries = _list_dir(root, "", limits)
    if (root / "raw.jsonl").exists() or any(
        _RANK_DIR.fullmatch(e.name) and (Path(e.path) / "raw.jsonl").exists() for e in entries
    ):
        return _discover_export(root, limits)
    ignored: list[IgnoredFile] = []
    files = _scan_raw_dir(root, root, "", limits, ignored)
    if not files and all(i.reason == "empty file" for i in ignored):
        # What TORCH_TRACE holds after a run that compiled no frame (torch writes its file when it starts compiling
        # one), but also after a run that never imported torch or never ran: nothing here says which.
        raise DynamoDiffError(
            ErrorCode.NO_TRACE,
            f"{path} holds no trace file{' (only empty files)' if ignored else ''}: torch writes none for a run that "
            "compiled no frame, but nothing here records the run or whether it called torch.compile",
            hint=Hint(action=HintAction.RECORD_RUN),
            path=str(path),
            ignored=[i.rel for i in ignored],
        )
    if not files:
        raise DynamoDiffError(
            ErrorCode.UNSUPPORTED_INPUT,
            f"{path} holds no trace logs, tlparse raw.jsonl or bundle manifest.",
            path=str(path),
            ignored=[i.rel for i in ignored],
        )
    files.sort(key=_sort_key)
    _check_total(files, limits)
    return InputLayout("raw_directory", root, tuple(files), "raw", ignored=tuple(ignored))


def _discover_export(root: Path, limits: Limits) -> InputLayout:
    files = sorted(_export_files(root, root, "", limits), key=_sort_key)
    if not files:
        raise DynamoDiffError(ErrorCode.UNSUPPORTED_INPUT, f"{root} has no raw.jsonl.", path=str(root))
    _check_total(files, limits)
    return InputLayout(
        "tlparse_export", root, tuple(files), "tlparse_export", export_dir=root, export_files=tuple(files)
    )


def _discover_bundle(root: Path, limits: Limits) -> InputLayout:
    manifest, mst = _check_entry(root, root / "manifest.json", "manifest.json")
    if not stat.S_ISREG(mst.st_mode):
        raise _unsafe("manifest.json", "is not a regular file")
    ignored: list[IgnoredFile] = []
    raw: list[TraceFile] = []
    raw_dir = root / "raw"
    if raw_dir.exists() or raw_dir.is_symlink():
        resolved, st = _check_entry(root, raw_dir, "raw")
        if not stat.S_ISDIR(st.st_mode):
            raise DynamoDiffError(ErrorCode.MALFORMED_INPUT, "The bundle's raw/ is not a directory.", path="raw")
        raw = sorted(_scan_raw_dir(root, resolved, "raw/", limits, ignored), key=_sort_key)
    export_dir: Path | None = None
    exported: list[TraceFile] = []
    report_dir = root / "report"
    if report_dir.exists() or report_dir.is_symlink():
        resolved, st = _check_entry(root, report_dir, "report")
        if stat.S_ISDIR(st.st_mode):
            exported = sorted(_export_files(root, resolved, "report/", limits), key=_sort_key)
            export_dir = resolved if exported else None
    sources: Path | None = None
    if (root / "sources").exists() or (root / "sources").is_symlink():
        resolved, st = _check_entry(root, root / "sources", "sources")
        sources = resolved if stat.S_ISDIR(st.st_mode) else None
    # A bundle without trace files is a run that compiled no frame (torch writes its trace file when it starts
    # compiling one); whether its manifest records such a run is decided when the manifest is read.
    files, primary = (raw, "raw") if raw or not exported else (exported, "tlparse_export")
    _check_total(files, limits)
    return InputLayout(
        "bundle",
        root,
        tuple(files),
        "raw" if primary == "raw" else "tlparse_export",
        export_dir=export_dir,
        export_files=tuple(exported),
        manifest=manifest,
        sources_dir=sources,
        ignored=tuple(ignored),
    )


def read_records(trace: TraceFile, limits: Limits, report: FileReport | None = None) -> Iterator[Record]:
    """The records of one trace file of a layout, through the reader for its format."""
    if report is None:
        report = FileReport(trace.rel, rank_from_name=trace.rank)
    if trace.format == "raw_log":
        return read_raw_log(trace.path, trace.rel, limits, report)
    return read_tlparse_export(trace.path.parent, limits, report)
