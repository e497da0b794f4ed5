"""One run's source snapshots, and finding an observed function in them."""

from __future__ import annotations

from collections.abc import Mapping

from dynamo_diff_match.identities import CallSite, FunctionRef, SourceFunction, _Piece, index_with_pieces
from dynamo_diff_match.spans import MAX_SOURCE_BYTES


class SnapshotSet:
    """Source text by relative path (`files`) and the relative path of each captured absolute path (`paths`),
    as in a bundle's manifest. Parsed indexes are cached; the texts are never imported or executed."""

    def __init__(self, files: Mapping[str, str], paths: Mapping[str, str]) -> None:
        self.files = dict(files)
        self.paths = dict(paths)
        self._index: dict[str, list[SourceFunction]] = {}
        self._named: dict[str, dict[str, list[SourceFunction]]] = {}
        self._lines: dict[str, list[str]] = {}
        # Keeps the parsed pieces of its files alive, so that another snapshot set sharing them (the other run of a
        # comparison) reuses them instead of parsing them again (`identities._Piece`).
        self._pieces: list[_Piece] = []

    def rel_path(self, file: str) -> str | None:
        """The relative path of an observed `co_filename`, or None when the bundle holds no snapshot of it."""
        rel = self.paths.get(file)
        if rel is None and file in self.files:
            rel = file  # already relative (e.g. a trace recorded with relative paths)
        return rel if rel is not None and rel in self.files else None

    def functions(self, rel_path: str) -> list[SourceFunction]:
        """Every definition in the snapshot, in source order (empty if missing, too large or unparseable)."""
        if rel_path not in self._index:
            text = self.files.get(rel_path)
            self._index[rel_path] = [] if text is None else index_with_pieces(rel_path, text, self._pieces)
        return self._index[rel_path]

    def named(self, rel_path: str, name: str) -> list[SourceFunction]:
        """The definitions of a bare name in the snapshot, in source order."""
        if rel_path not in self._named:
            by_name: dict[str, list[SourceFunction]] = {}
            for f in self.functions(rel_path):
                by_name.setdefault(f.name, []).append(f)
            self._named[rel_path] = by_name
        return self._named[rel_path].get(name, [])

    def lines(self, rel_path: str) -> list[str]:
        if rel_path not in self._lines:
            self._lines[rel_path] = self.files.get(rel_path, "").splitlines()
        return self._lines[rel_path]

    def why_missing(self, ref: FunctionRef) -> str:
        """A short reason why `locate` found nothing for `ref`."""
        rel = self.rel_path(ref.file)
        if rel is None:
            return f"no source snapshot of {ref.file}"
        if len(self.files[rel]) > MAX_SOURCE_BYTES:
            return f"snapshot {rel} is too large to parse"
        if not self.functions(rel):
            return f"snapshot {rel} does not parse or defines no function"
        return f"no {ref.name} at line {ref.first_line} of snapshot {rel} (stale snapshot?)"


def locate(ref: FunctionRef, snapshots: SnapshotSet) -> SourceFunction | None:
    """The definition an observed function comes from. For a Dynamo resume function this is the function it
    resumes: the innermost definition of the parent's name containing the resume line."""
    rel = snapshots.rel_path(ref.file)
    if rel is None:
        return None
    parent = ref.resume_parent
    if parent is not None:
        containing = [
            f
            for f in snapshots.named(rel, parent)
            if f.kind != "class" and f.first_line <= ref.first_line <= f.last_line
        ]
        # Innermost: the latest start wins (definitions nest, so a later start is inside an earlier one).
        return max(containing, key=lambda f: f.first_line, default=None)
    for f in snapshots.named(rel, ref.name):
        # co_firstlineno is the first decorator's line on CPython 3.11+ (the `def` line on older versions).
        if ref.first_line in (f.first_line, f.def_line):
            return f
    return None


def locate_call(site: CallSite, snapshots: SnapshotSet) -> SourceFunction | None:
    """The definition a call was made in: the innermost function of the frame's name containing the call line."""
    rel = snapshots.rel_path(site.file)
    if rel is None:
        return None
    containing = [
        f for f in snapshots.named(rel, site.name) if f.kind != "class" and f.first_line <= site.line <= f.last_line
    ]
    return max(containing, key=lambda f: f.first_line, default=None)
