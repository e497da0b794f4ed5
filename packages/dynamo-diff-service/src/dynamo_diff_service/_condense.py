"""A trace record shown short: its stacks reduced to the user's frames, its embedded configuration left out.

Most of a graph-break, guard or symbol record is stack: torch writes every frame from the user's call down
through torch/_dynamo and torch/fx to the line that logged it (a `stack`, `user_stack` or `frames` list of
`{"line", "name", "filename", "loc"}` objects, the filename an index into the file's intern table), and a
graph-break reason carries whole Python tracebacks. Those are kept for the user's frames; each run of two or more
library frames (torch, the standard library, installed packages: dynamo_diff_schema.code_paths) becomes one
line, `... 14 frames in torch/_dynamo, torch/fx ...`. In a JSON record the user's frames stay objects with their
filename resolved to its path, and the run becomes that string in the list. The configuration a record embeds
(`compilation_metrics`' serialized `dynamo_config`, `inductor_config`, ...) is replaced by
`<N characters of configuration>`. Everything else of the record is kept as written. The record whole is
`dynamo-diff evidence ... --full`; grep always searches the record whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dynamo_diff_schema.code_paths import library_path

_MIN_RUN = 2  # a single library frame between user frames is kept
_CONFIG_MIN = 200  # an embedded configuration shorter than this is kept
_CONFIG_KEY = re.compile(r"^[A-Za-z_]*_config$")
_FILE_LINE = re.compile(r'^(?P<indent>\s*)File "(?P<path>[^"]+)", line \d+, in .*$')
_LINE_FRAME = re.compile(r"^Line: \d+, Name: .*, Filename: (?P<path>.+)$")  # compilation_metrics' stack_trace
_ENVELOPE = re.compile(r"^(?P<head>[A-Z]\d{4} [^\]]*\] )(?P<body>\{.*\})\s*$")


@dataclass(frozen=True)
class Condensed:
    text: str
    collapsed_frames: int  # library frames replaced by their runs' lines
    config_chars: int  # characters of embedded configuration left out
    compact: str | None = None  # what showing the payload compact left out (_compact), None: as written


def _is_frame(item: Any) -> bool:
    return isinstance(item, dict) and "line" in item and "name" in item and "filename" in item


def _library(path: str | None) -> str | None:
    """The short library path of a frame's file ('torch/_dynamo/utils.py'), or None for the user's code and for
    a file the table does not name (kept: we cannot tell)."""
    if path is None:
        return None
    if path.startswith("<") and not path.startswith("<frozen "):
        return path  # made-up names: <string>, <eval_with_key>.0
    return library_path(path)


def _area(short: str) -> str:
    """Where a library frame lies, for the run's line: torch's subpackage, else the top package or module."""
    parts = short.split("/")
    if parts[0] == "torch" and len(parts) > 2:
        return "/".join(parts[:2])
    if len(parts) > 1:
        return parts[0]
    return short


def run_line(areas: list[str]) -> str:
    named = list(dict.fromkeys(areas))
    where = ", ".join(named[:3]) + (
        f" and {len(named) - 3} other place{'s' if len(named) > 4 else ''}" if len(named) > 3 else ""
    )
    return f"... {len(areas)} frames in {where} ..."


class _Condenser:
    def __init__(self, strings: Mapping[int, str]) -> None:
        self.strings = strings
        self.frames = 0
        self.config = 0

    # -- JSON stacks -----------------------------------------------------------------------------------

    def _path(self, filename: Any) -> str | None:
        if isinstance(filename, int) and not isinstance(filename, bool):
            return self.strings.get(filename)
        return filename if isinstance(filename, str) else None

    def stack(self, frames: list[Any]) -> list[Any]:
        out: list[Any] = []
        run: list[tuple[dict[str, Any], str]] = []

        def flush() -> None:
            if len(run) >= _MIN_RUN:
                out.append(run_line([_area(short) for _, short in run]))
                self.frames += len(run)
            else:
                out.extend(self.frame(f) for f, _ in run)
            run.clear()

        for item in frames:
            short = _library(self._path(item.get("filename"))) if _is_frame(item) else None
            if short is not None:
                run.append((item, short))
                continue
            flush()
            out.append(self.frame(item) if _is_frame(item) else item)
        flush()
        return out

    def frame(self, item: dict[str, Any]) -> dict[str, Any]:
        path = self._path(item.get("filename"))
        return {**item, "filename": path} if path is not None and path != item.get("filename") else item

    def value(self, obj: Any, key: str | None = None) -> Any:
        if isinstance(obj, dict):
            return {k: self.value(v, k) for k, v in obj.items()}
        if isinstance(obj, list):
            if obj and all(_is_frame(i) for i in obj):
                return self.stack(obj)
            if obj and all(isinstance(i, str) and _LINE_FRAME.match(i) for i in obj):
                return self.line_frames(obj)
            return [self.value(v) for v in obj]
        if isinstance(obj, str):
            if key is not None and _CONFIG_KEY.match(key) and len(obj) >= _CONFIG_MIN:
                self.config += len(obj)
                return f"<{len(obj)} characters of configuration>"
            if "\n" in obj and 'File "' in obj:  # a traceback kept as a string (exception_stack_trace)
                return "\n".join(self.lines(obj.split("\n")))
        return obj

    def line_frames(self, frames: list[str]) -> list[str]:
        """A stack written as `Line: 39, Name: <module>, Filename: PATH` strings, its library runs collapsed."""
        out: list[str] = []
        run: list[tuple[str, str]] = []

        def flush() -> None:
            if len(run) >= _MIN_RUN:
                out.append(run_line([_area(short) for _, short in run]))
                self.frames += len(run)
            else:
                out.extend(text for text, _ in run)
            run.clear()

        for text in frames:
            m = _LINE_FRAME.match(text)
            short = _library(m["path"]) if m is not None else None
            if short is None:
                flush()
                out.append(text)
            else:
                run.append((text, short))
        flush()
        return out

    def json_text(self, text: str) -> str | None:
        """The JSON text condensed, or None when it is not JSON or nothing in it changed."""
        try:
            obj = json.loads(text)
        except ValueError:
            return None
        before = (self.frames, self.config)
        new = self.value(obj)
        if (self.frames, self.config) == before and new == obj:
            return None
        return json.dumps(new)

    # -- Python tracebacks -----------------------------------------------------------------------------

    def lines(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        run: list[str] = []  # areas of the library frames in the current run
        held: list[str] = []  # their lines, kept when the run is too short
        indent = ""
        at = 0
        while at < len(lines):
            line = lines[at]
            m = _FILE_LINE.match(line.lstrip("\t")) if "File " in line else None
            if m is None:
                if run:
                    self._flush(out, run, held, indent)
                out.append(self.line(line))
                at += 1
                continue
            # The frame: its File line and the lines indented deeper under it (the code, the carets).
            depth = len(m["indent"])
            end = at + 1
            while end < len(lines):
                rest = lines[end].lstrip("\t")
                if rest.strip() == "" or len(rest) - len(rest.lstrip()) <= depth:
                    break
                end += 1
            short = _library(m["path"])
            if short is None:
                if run:
                    self._flush(out, run, held, indent)
                out.extend(lines[at:end])
            else:
                if not run:
                    indent = line[: len(line) - len(line.lstrip("\t")) + depth]
                run.append(_area(short))
                held.extend(lines[at:end])
            at = end
        if run:
            self._flush(out, run, held, indent)
        return out

    def _flush(self, out: list[str], run: list[str], held: list[str], indent: str) -> None:
        if len(run) >= _MIN_RUN:
            out.append(indent + run_line(run))
            self.frames += len(run)
        else:
            out.extend(held)
        run.clear()
        held.clear()

    def line(self, line: str) -> str:
        """One line that is not a traceback frame: an envelope `V... ] {...}` or a JSON payload line condensed."""
        if (m := _ENVELOPE.match(line)) is not None:
            body = self.json_text(m["body"])
            return line if body is None else m["head"] + body
        stripped = line.lstrip("\t")
        if stripped[:1] in ("{", "[") and len(stripped) > 80:
            body = self.json_text(stripped)
            return line if body is None else line[: len(line) - len(stripped)] + body
        return line


def condense(text: str, strings: Mapping[int, str]) -> Condensed:
    """The record's text with its library stack frames collapsed and its embedded configuration left out (see
    the module's docstring); `strings`: the intern table of the record's file."""
    from dynamo_diff_service._compact import compact_envelope, compact_payload, record_kind

    condenser = _Condenser(strings)
    ending = "\n" if text.endswith("\n") else ""
    raw = text.split("\n") if not ending else text[:-1].split("\n")
    kind = record_kind(raw[0]) if raw else None
    compact = compact_payload(kind, raw[1:]) if len(raw) > 1 else None
    if compact is not None:
        head = compact_envelope(condenser.line(raw[0]), kind)
        return Condensed("\n".join([head, *compact[0]]) + ending, 0, 0, compact[1])
    lines = condenser.lines(raw)
    return Condensed("\n".join(lines) + ending, condenser.frames, condenser.config)


def needs_strings(text: str) -> bool:
    """Whether the record names files by intern index (a `"filename": 3` in a stack)."""
    return re.search(r'"filename": \d', text) is not None
