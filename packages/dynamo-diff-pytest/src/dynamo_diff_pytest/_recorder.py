"""One test's slice of torch's structured trace, recorded in the test's own process.

torch writes its structured trace (what TORCH_TRACE collects) through the logger `torch.__trace`, and only while
that logger has a handler. A slice is a handler of our own attached to that logger for the length of one test and
writing torch's raw log format to a file of its own. The plugin never imports torch: the logger is a plain
`logging` logger, so a test that never imports torch costs one empty file.

torch interns file names once per process: the first record naming a file is preceded by a `str` record giving
its number, and later records name the number only. A slice therefore starts with every string torch has
interned so far (torch._logging.structured.INTERN_TABLE, when torch is loaded), written as torch writes them. It
ends with torch's `torch_version` artifact (torch writes it once, at the head of a TORCH_TRACE file), so that the
slice says which torch ran it."""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import IO, Any

TRACE_LOGGER = "torch.__trace"


_ENCODER = json.JSONEncoder(default=repr)  # json.dumps(metadata, default=repr), without a new encoder per record
_STAMP: list[Any] = [None, ""]  # the last whole second formatted, and its "MMDD HH:MM:SS"


def _line(metadata: dict[str, Any], payload: str | None, *, created: float, pid: int, where: str) -> str:
    """One record in torch's raw-log format: a glog prefix, the metadata as JSON, the payload lines after a TAB."""
    second = int(created)
    if _STAMP[0] != second:
        _STAMP[0], _STAMP[1] = second, time.strftime("%m%d %H:%M:%S", time.localtime(second))
    micros = int((created % 1) * 1_000_000)
    text = f"V{_STAMP[1]}.{micros:06d} {pid} {where}] {_ENCODER.encode(metadata)}"
    if payload is not None:
        text += "\n\t" + payload.replace("\n", "\n\t")
    return text + "\n"


class _SliceHandler(logging.Handler):
    """Writes each record torch logs to `torch.__trace` (with `metadata` and `payload` attributes) to the slice."""

    def __init__(self, stream: IO[str]) -> None:
        super().__init__(logging.DEBUG)
        self.stream = stream
        self.records = 0  # records other than interned strings: did anything compile?
        self.error: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        metadata = getattr(record, "metadata", None)
        if not isinstance(metadata, dict):
            return
        payload = getattr(record, "payload", None)
        try:
            where = f"{record.pathname.rpartition(os.sep)[2]}:{record.lineno}"
            self.stream.write(
                _line(
                    metadata,
                    payload if isinstance(payload, str) else None,
                    created=record.created,
                    pid=record.process or 0,
                    where=where,
                )
            )
        except (OSError, ValueError) as err:  # a full disk, a closed file: the slice is incomplete, never the test
            self.error = self.error or str(err)
            return
        if "str" not in metadata:
            self.records += 1


def _torch_loaded() -> bool:
    return "torch" in sys.modules


class _Interned:
    """The `str` records of every string torch has interned so far, as the slice's first lines.

    torch numbers a string by the table's length when it first interns it and never removes one, so the table's
    order is its numbering: the lines written for an earlier test are kept and only the strings interned since are
    formatted. A table that shrank, was replaced or is not numbered in its order is read again whole."""

    def __init__(self) -> None:
        self.table: dict[Any, Any] | None = None
        self.lines: list[str] = []  # line i interns the string numbered i

    def text(self) -> str:
        structured = sys.modules.get("torch._logging.structured")
        table = getattr(structured, "INTERN_TABLE", None)
        if not isinstance(table, dict):
            return ""
        if table is not self.table or len(table) < len(self.lines):
            self.table, self.lines = table, []
        if len(table) > len(self.lines):
            created, pid = time.time(), _pid()
            new = list(itertools.islice(table.items(), len(self.lines), None))
            if all(isinstance(s, str) and n == len(self.lines) + i for i, (s, n) in enumerate(new)):
                pairs = new
                self.lines += [_str_line(s, n, created, pid) for s, n in pairs]
            else:  # not torch's numbering: every string, sorted by its number, formatted each time
                self.table, self.lines = None, []
                pairs = sorted(
                    ((s, n) for s, n in list(table.items()) if isinstance(s, str) and isinstance(n, int)),
                    key=lambda p: p[1],
                )
                return "".join(_str_line(s, n, created, pid) for s, n in pairs)
        return "".join(self.lines)


def _str_line(text: str, number: int, created: float, pid: int) -> str:
    return _line({"str": [text, number]}, None, created=created, pid=pid, where="dynamo_diff_pytest:0")


_INTERNED = _Interned()


def _torch_version_record() -> str | None:
    torch = sys.modules.get("torch")
    version = getattr(torch, "__version__", None)
    if version is None:
        return None
    info = {"pytorch_version": str(version), "commit": getattr(getattr(torch, "version", None), "git_version", None)}
    payload = json.dumps(info, indent=0)
    metadata = {
        "artifact": {"name": "torch_version", "encoding": "json"},
        "has_payload": hashlib.md5(payload.encode("utf-8"), usedforsecurity=False).hexdigest(),
    }
    return _line(metadata, payload, created=time.time(), pid=_pid(), where="dynamo_diff_pytest:0")


def _pid() -> int:
    return os.getpid()


def _not_trace(record: logging.LogRecord) -> bool:
    return record.name != TRACE_LOGGER


class Slice:
    """The trace of one test: `start()` attaches the handler, `stop()` detaches it and closes the file.
    `error` says why there is no (complete) slice: the file could not be written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.error: str | None = None
        self._stream: IO[str] | None = None
        self._handler: _SliceHandler | None = None
        self._muted: list[logging.Handler] = []

    def start(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._stream = self.path.open("w", encoding="utf-8")
            interned = _INTERNED.text()
            if interned:
                self._stream.write(interned)
        except OSError as err:
            self.error = f"the trace could not be written to {self.path}: {err.strerror or err}"
            self._close()
            return
        self._handler = _SliceHandler(self._stream)
        logger = logging.getLogger(TRACE_LOGGER)
        # pytest attaches its log capture to every logger that does not propagate, torch's trace logger included:
        # each record of the slice would be printed (an empty "DEBUG torch.__trace" line) under a failing test's
        # "Captured log call". Those handlers skip the trace's records while the slice records them.
        self._muted = [h for h in logger.handlers if type(h).__module__ == "_pytest.logging"]
        for handler in self._muted:
            handler.addFilter(_not_trace)
        logger.addHandler(self._handler)

    def stop(self) -> None:
        if self._handler is not None:
            logging.getLogger(TRACE_LOGGER).removeHandler(self._handler)
            for handler in self._muted:
                handler.removeFilter(_not_trace)
            self._muted = []
            self.error = self.error or (
                f"the trace could not be written to {self.path}: {self._handler.error}" if self._handler.error else None
            )
        if self._stream is not None and self.compiled:
            version = _torch_version_record()
            if version is not None:
                try:
                    self._stream.write(version)
                except OSError as err:
                    self.error = self.error or f"the trace could not be written to {self.path}: {err}"
        self._close()

    @property
    def compiled(self) -> bool:
        """Whether torch wrote anything but interned strings during the test."""
        return self._handler is not None and self._handler.records > 0

    @property
    def torch_loaded(self) -> bool:
        return _torch_loaded()

    def _close(self) -> None:
        if self._stream is not None:
            try:
                self._stream.close()
            except OSError as err:
                self.error = self.error or f"the trace could not be written to {self.path}: {err}"
            self._stream = None
