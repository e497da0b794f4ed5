"""Where output goes: results to stdout (rich for people, plain JSON for tools), diagnostics to stderr."""

from __future__ import annotations

import functools
import json
import os
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

import typer

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import Progress

# Inputs smaller than this import too fast for a progress bar to help.
PROGRESS_MIN_BYTES = 4 * 1024 * 1024


class Document(Protocol):
    """A schema model (every document of dynamo_diff_schema)."""

    def model_dump(self, *, mode: str = ..., exclude: Any = ...) -> dict[str, Any]: ...


class Format(StrEnum):
    TEXT = "text"
    MARKDOWN = "markdown"
    JSON = "json"


# The width of piped output (CI logs, `| less`): lines a person reads, not a table squeezed or stretched.
PIPED_WIDTH = 100


def width(stream: object) -> int | None:
    """Columns to render for: None (rich asks the terminal, or reads COLUMNS when set), else PIPED_WIDTH."""
    if os.environ.get("COLUMNS"):
        return None
    return None if getattr(stream, "isatty", lambda: False)() else PIPED_WIDTH


@functools.cache
def _whole_lines() -> type[Console]:
    from rich.console import Console

    class WholeLines(Console):
        """A rich console that never crops: a line the renderers keep whole (a guard's text, a path, a word longer
        than the terminal) is printed whole and left to the terminal to wrap, never cut at the width (rich crops
        by default, which silently dropped the end of such a line)."""

        def print(self, *objects: Any, **kwargs: Any) -> None:
            kwargs.setdefault("crop", False)
            super().print(*objects, **kwargs)

    return WholeLines


def _console(**options: Any) -> Console:
    return _whole_lines()(highlight=False, markup=False, **options)


def stdout() -> Console:
    return _console(soft_wrap=False, width=width(sys.stdout))


def stderr() -> Console:
    return _console(stderr=True, width=width(sys.stderr))


def print_text(text: str) -> None:
    """Plain lines (a check verdict, a run report) on stdout, each wrapped under itself at the terminal's width."""
    from dynamo_diff_compare import terminal_text

    stdout().print(terminal_text(text))


def file_console() -> Console:
    """A console that renders text for a file (`--output`): the piped width."""
    import io

    return _console(record=True, width=PIPED_WIDTH, file=io.StringIO())


def write_file(path: Path, text: str, what: str = "--output") -> None:
    """Write a result the user sent to a file: a name the file system cannot hold is `name_too_long`, any other
    failure `io_error`, never a traceback."""
    from dynamo_diff_schema import DynamoDiffError, ErrorCode
    from dynamo_diff_service import check_name_fits

    check_name_fits(path, what)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise DynamoDiffError(
            ErrorCode.IO_ERROR, f"{what}: cannot write {path}: {err.strerror or err}", path=str(path)
        ) from err


def print_json(document: Any) -> None:
    typer.echo(json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False))


def json_document(model: Document, *, exclude: Any = None) -> dict[str, Any]:
    """A schema model as the JSON document the CLI prints, validated against the committed schema its `kind`
    names (`<kind>.schema.json`): every `--format json` output is one."""
    from dynamo_diff_schema import validate

    document: dict[str, Any] = model.model_dump(mode="json", exclude=exclude)
    if "outline" in document and document["outline"] is None:  # MCP's (an outline); the CLI's documents are whole
        del document["outline"]
    validate(document, document["kind"])
    return document


def print_document(model: Document, *, exclude: Any = None) -> None:
    print_json(json_document(model, exclude=exclude))


class ImportProgress:
    """A rich progress display on stderr for large inputs, only when stderr is a terminal: bytes copied, then the
    ranks being read and classified: for one rank, the bytes its reading has got through; for several, the ranks
    done. Each line with the time spent and the time left."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.bar: Progress | None = None
        self.task: Any = None
        self.reading: Any = None  # one rank: its bytes read ("read")
        self.analysis: Any = None  # several ranks: the ranks done ("analyse")

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            if phase != "copy" or total < PROGRESS_MIN_BYTES:
                return
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[detail]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=stderr(),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("copying trace", total=total, detail="")
        from rich.filesize import decimal

        if phase == "copy":
            self.bar.update(self.task, completed=done, detail=f"{decimal(done)}/{decimal(total)}")
        elif phase == "read":
            if self.reading is None:
                self.reading = self.bar.add_task("analysing", total=total, detail="")
            self.bar.update(self.reading, completed=done, detail=f"{decimal(done)}/{decimal(total)}")
        elif self.analysis is None:
            self.bar.update(self.task, completed=self.bar.tasks[0].total)
            if total <= 1:
                return  # one rank: its bytes ("read") say how far it is
            self.analysis = self.bar.add_task("analysing", total=total or None, detail=f"{done}/{total} rank(s)")
        else:
            self.bar.update(self.analysis, completed=done, detail=f"{done}/{total} rank(s)")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
