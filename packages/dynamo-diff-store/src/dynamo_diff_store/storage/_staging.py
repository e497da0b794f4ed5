"""Copy an input into a staging directory (hashing every byte once) and plan the per-rank analyses.

Analysis runs on the staged copy, so every evidence offset points at bytes the store keeps.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dynamo_diff_schema.errors import DynamoDiffError, ErrorCode
from dynamo_diff_schema.evidence import Notice, NoticeCode, Severity
from dynamo_diff_schema.manifest import SourceFile

from dynamo_diff_store.analysis import RankJob
from dynamo_diff_store.limits import Limits
from dynamo_diff_store.reading import (
    PACK_INDEX_SUFFIX,
    PACK_SUFFIX,
    BesideFile,
    InputLayout,
    NamedFiles,
    TraceFile,
    confine,
    find_beside,
    open_regular,
    read_regular,
)
from dynamo_diff_store.storage._staged_copy import StagedCopy

MANIFEST_NAME = "manifest.json"
_CHUNK = 1 << 20
_PAYLOAD_NAME = re.compile(rb'"payload_filename"\s*:\s*("(?:[^"\\]|\\.)*")')
# Where the files found beside a bare log are kept inside a capture (as a bundle keeps its snapshots).
BESIDE_PREFIX = "sources/"


@dataclass
class Beside:
    """The folder a bare log was imported from, to look in for the scripts its trace names (reading._beside), and
    what was found there (set by `copy_input`)."""

    folder: Path
    found: list[BesideFile] = field(default_factory=list)

    def entries(self, files: dict[str, str]) -> list[SourceFile]:
        """The capture's record of them: one per name the trace gives (a file two names end with is kept once)."""
        return [
            SourceFile(
                path=f.rel,
                captured_path=f.captured_path,
                snapshot=BESIDE_PREFIX + f.rel,
                sha256=files[BESIDE_PREFIX + f.rel],
            )
            for f in self.found
        ]


def beside_folder(layout: InputLayout, given: Path, sources_from: Path | None) -> Beside | None:
    """Where to look for the scripts beside a bare log: `sources_from` (a run's own folder holding the log's
    folder), else the folder given; None for a log given as a file, a tlparse export or a bundle (it has its own
    snapshots), or when the log's folder is not inside `sources_from`."""
    if layout.kind != "raw_directory":
        return None
    folder = Path(os.path.realpath(sources_from if sources_from is not None else given))
    if not layout.root.is_relative_to(folder):
        return None
    return Beside(folder)


class _Copier:
    def __init__(
        self,
        dest: Path,
        limits: Limits,
        progress: Callable[[str, int, int], None] | None,
        total: int,
        staged: StagedCopy | None = None,
    ) -> None:
        self.dest = dest
        self.staged = staged
        self.limits = limits
        self.progress = progress
        self.total = total
        self.done = 0
        self.files: dict[str, str] = {}
        self.made: set[Path] = set()

    def pack(self, trace: TraceFile, quoted_names: list[bytes]) -> None:
        """Copy the payload files a tlparse raw.jsonl names into one pack file beside it (see PackedPayloads).
        Each payload still counts in the capture id under its own name and hash."""
        export_root = trace.path.parent
        prefix = trace.rel.rsplit("/", 1)[0] + "/" if "/" in trace.rel else ""
        plain = _plain_files(export_root)
        root_text = str(export_root)
        index: dict[str, list[int]] = {}
        offset = 0
        with (self.dest / (trace.rel + PACK_SUFFIX)).open("xb") as out:
            for quoted in quoted_names:
                name = _json_string(quoted)
                if name is None or name in index:
                    continue  # the reader reports the bad record
                # A regular file reached without links needs no resolving; anything else is confined.
                source = f"{root_text}/{name}" if name in plain else confine(export_root, name)
                if source is None:
                    continue  # missing payloads are reported by the reader
                data = read_regular(source, prefix + name, self.limits.max_record_bytes)
                if len(data) > self.limits.max_record_bytes:
                    raise self.limits.exceeded("max_record_bytes", len(data), file=prefix + name)
                index[name] = [offset, len(data)]
                offset += len(data)
                out.write(data)
                self.account(prefix + name, hashlib.sha256(data).hexdigest(), len(data))
        (self.dest / (trace.rel + PACK_INDEX_SUFFIX)).write_text(json.dumps(index), encoding="utf-8")

    def account(self, rel: str, sha256: str, size: int) -> None:
        """Register one input file (its bytes already read): bounds, progress, and its hash for the id."""
        if len(self.files) >= self.limits.max_files:
            raise self.limits.exceeded("max_files", len(self.files) + 1)
        self.advance(size, rel)
        self.files[rel] = sha256

    def advance(self, size: int, rel: str) -> None:
        self.done += size
        if self.done > self.limits.max_total_bytes:
            raise self.limits.exceeded("max_total_bytes", self.done, file=rel)
        if self.progress is not None:
            self.progress("copy", self.done, self.total)

    def copy(self, source: Path, rel: str, *, on_chunk: Callable[[bytes], None] | None = None) -> None:
        if rel in self.files:
            return
        if len(self.files) >= self.limits.max_files:
            raise self.limits.exceeded("max_files", len(self.files) + 1)
        target = self.dest / rel
        if target.parent not in self.made:
            target.parent.mkdir(parents=True, exist_ok=True)
            self.made.add(target.parent)
        digest = hashlib.sha256()
        staged = self.staged
        written = 0
        with open_regular(source, rel) as src, target.open("xb") as out:
            if staged is not None:
                staged.begin(rel, os.fstat(src.fileno()).st_size)
            while chunk := src.read(_CHUNK):
                digest.update(chunk)
                out.write(chunk)
                if staged is not None:
                    out.flush()  # readers in other processes read what the OS has
                    written += len(chunk)
                    staged.wrote(rel, written)
                if on_chunk is not None:
                    on_chunk(chunk)
                self.advance(len(chunk), rel)
        self.files[rel] = digest.hexdigest()
        if staged is not None:
            staged.complete(rel)


def copy_input(
    layout: InputLayout,
    dest: Path,
    limits: Limits,
    *,
    manifest: Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    staged: StagedCopy | None = None,
    beside: Beside | None = None,
) -> dict[str, str]:
    """Copy the trace files (for tlparse exports: raw.jsonl and a pack of the payload files it names), the
    manifest and source snapshots into `dest`. Returns relative path -> sha256 of every input file read.
    `staged` is told how far each file's copy has got (when the copy runs beside the reading). `beside`: the
    Python files of that folder the trace names are copied too, under sources/ (`beside.found` says which)."""
    dest.mkdir(parents=True)
    copier = _Copier(dest, limits, progress, layout.total_bytes, staged)
    named = NamedFiles() if beside is not None else None
    for trace in layout.files:
        if trace.format == "raw_log":
            copier.copy(trace.path, trace.rel, on_chunk=None if named is None else named.feed)
            if named is not None:
                named.finish()
            continue
        names: list[bytes] = []
        tail = b""

        def collect(chunk: bytes, names: list[bytes] = names) -> None:
            nonlocal tail
            text = tail + chunk
            cut = text.rfind(b"\n") + 1
            names.extend(_payload_names(text, cut))
            tail = text[cut:]

        copier.copy(trace.path, trace.rel, on_chunk=collect)
        names.extend(_payload_names(tail, len(tail)))
        copier.pack(trace, names)
    manifest_path = manifest if manifest is not None else layout.manifest
    if manifest_path is not None:
        copier.copy(Path(os.path.realpath(manifest_path)), MANIFEST_NAME)
    if layout.sources_dir is not None:
        for source, rel in _walk_sources(layout.sources_dir, layout.root):
            copier.copy(source, rel)
    if beside is not None and named is not None:
        beside.found = find_beside(beside.folder, named.names, limits)
        for found in beside.found:
            copier.copy(found.path, BESIDE_PREFIX + found.rel)
    return copier.files


def _json_string(quoted: bytes) -> str | None:
    """The string a quoted JSON string literal stands for (json.loads), None when it is not a JSON string."""
    if b"\\" not in quoted and quoted[:1] == b'"' == quoted[-1:] and len(quoted) > 1 and b'"' not in quoted[1:-1]:
        # No escapes and no quote inside: the text between the quotes, when it is UTF-8 of printable characters.
        try:
            text = quoted[1:-1].decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        if text.isprintable() and text:
            return text
    try:
        name = json.loads(quoted)
    except ValueError:
        return None
    return name if isinstance(name, str) else None


def _payload_names(text: bytes, stop: int) -> list[bytes]:
    """The quoted payload_filename values in text[:stop], as _PAYLOAD_NAME.finditer finds them: each match begins
    with the key, so the key is found with bytes.find (a few times faster than the regex's own scan of the text)
    and the pattern is matched there."""
    found = []
    pos = 0
    find, match = text.find, _PAYLOAD_NAME.match
    while (at := find(b'"payload_filename"', pos, stop)) >= 0:
        m = match(text, at, stop)
        if m is None:
            pos = at + 1
        else:
            found.append(m.group(1))
            pos = m.end()
    return found


def _plain_files(root: Path) -> set[str]:
    """Relative paths of the regular files under `root` reached through real directories (no links)."""
    found: set[str] = set()
    pending = [("", root)]
    while pending:
        prefix, directory = pending.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append((f"{prefix}{entry.name}/", Path(entry.path)))
                elif entry.is_file(follow_symlinks=False):
                    found.add(prefix + entry.name)
    return found


def source_rels(directory: Path, root: Path) -> set[str]:
    """The names the source snapshots under `directory` are imported under (as `copy_input` names them)."""
    return {rel for _, rel in _walk_sources(directory, root)}


def _walk_sources(directory: Path, root: Path) -> list[tuple[Path, str]]:
    out: list[tuple[Path, str]] = []
    for dirpath, dirnames, filenames in os.walk(directory, followlinks=False):
        dirnames.sort()
        for name in [*sorted(filenames), *[d for d in dirnames if Path(dirpath, d).is_symlink()]]:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            resolved = Path(os.path.realpath(path))
            if not resolved.is_relative_to(root):
                raise DynamoDiffError(
                    ErrorCode.UNSAFE_PATH, f"{rel} is a symbolic link that leaves the bundle.", path=rel
                )
            try:
                mode = resolved.stat().st_mode
            except OSError as err:  # a symlink loop or a dangling link
                raise DynamoDiffError(
                    ErrorCode.UNSAFE_PATH, f"{rel} cannot be followed: {err.strerror}.", path=rel
                ) from None
            if not stat.S_ISREG(mode):
                raise DynamoDiffError(ErrorCode.UNSAFE_PATH, f"{rel} is not a regular file.", path=rel)
            out.append((resolved, rel))
    return out


def plan_jobs(layout: InputLayout, staged: Path, limits: Limits) -> list[RankJob]:
    """One job per rank (files of one rank are read in order); files without a rank are a job each."""
    groups: dict[int, list[tuple[str, str]]] = {}
    jobs: list[RankJob] = []
    unranked = 0
    for trace in layout.files:
        if trace.rank is None:
            unranked += 1
            jobs.append(
                RankJob(
                    root=str(staged), group=f"u{unranked}", rank=None, files=((trace.rel, trace.format),), limits=limits
                )
            )
        else:
            groups.setdefault(trace.rank, []).append((trace.rel, trace.format))
    ranked = [
        RankJob(root=str(staged), group=f"r{rank}", rank=rank, files=tuple(files), limits=limits)
        for rank, files in sorted(groups.items())
    ]
    return ranked + jobs


def layout_notices(layout: InputLayout) -> list[Notice]:
    notices = []
    if layout.kind == "bundle" and layout.primary == "raw" and layout.export_files:
        notices.append(
            Notice(
                code=NoticeCode.RAW_TRACE_PREFERRED,
                severity=Severity.INFO,
                message=(
                    "the bundle has both raw trace logs and a tlparse export: the raw trace was read (primary "
                    "evidence); report/ was not imported"
                ),
            )
        )
    if layout.kind == "bundle" and layout.primary == "tlparse_export":
        notices.append(
            Notice(
                code=NoticeCode.EXPORT_ONLY,
                severity=Severity.INFO,
                message=("the bundle has no raw trace logs: its tlparse export was read"),
            )
        )
    if layout.ignored:
        shown = "; ".join(f"{i.rel} ({i.reason})" for i in layout.ignored[:10])
        notices.append(
            Notice(
                code=NoticeCode.IGNORED_FILES,
                severity=Severity.INFO,
                message=(f"{len(layout.ignored)} file(s) in the input are not traces and were ignored: {shown}"),
                details={"files": [i.rel for i in layout.ignored]},
            )
        )
    return notices
