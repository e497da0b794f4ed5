"""Text for a terminal as lines wrapped to its width at render time: a long line goes on under itself, indented;
nothing breaks a word, and a line marked `keep` (a guard's text) is never broken at all."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.box import SIMPLE_HEAD
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

# How much further than its line a wrapped line's continuation is indented.
HANG = 4


@dataclass(frozen=True)
class Line:
    """One logical line: `indent` spaces before it, continuations `hang` further in; `keep`: never wrapped (printed
    whole on one line even when it is wider than the terminal); `tail`: what ends the line (its evidence ids), kept
    in one piece on the last line or on a line of its own; `style`: a rich style that only adds emphasis."""

    text: str
    indent: int = 0
    hang: int = HANG
    keep: bool = False
    style: str = ""
    tail: str = ""


def as_line(line: Line | str) -> Line:
    """A plain string keeps its leading spaces as the indent."""
    if isinstance(line, Line):
        return line
    stripped = line.lstrip(" ")
    return Line(stripped, indent=len(line) - len(stripped))


def wrap(line: Line | str, width: int) -> list[str]:
    """The line as printed at `width` columns: words never broken; a word wider than the width stands alone."""
    one = as_line(line)
    lead = " " * one.indent
    whole = f"{one.text} {one.tail}" if one.tail else one.text
    if one.keep or one.indent + len(whole) <= width or not whole.strip():
        return [lead + whole]
    width = max(width, one.indent + one.hang + 8)
    under = lead + " " * one.hang

    def fold(text: str, first: str) -> list[str]:
        return textwrap.wrap(
            text,
            width=width,
            initial_indent=first,
            subsequent_indent=under,
            break_long_words=False,
            break_on_hyphens=False,
        )

    out = fold(one.text, lead)
    if one.tail:
        if len(out[-1]) + 1 + len(one.tail) <= width:
            out[-1] += " " + one.tail
        else:
            out += fold(one.tail, under)
    return out


class Lines:
    """A rich renderable of lines, wrapped to the console's width when printed."""

    def __init__(self, lines: Iterable[Line | str]) -> None:
        self.lines = [as_line(line) for line in lines]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines:
            for piece in wrap(line, options.max_width):
                yield Text(piece, style=line.style, no_wrap=True, overflow="ignore", end="\n")


def terminal_text(text: str) -> Lines:
    """Plain text (one line per finding, detail lines indented under it) for a terminal: each line wrapped under
    itself at the console's width."""
    return Lines(text.split("\n"))


class Aligned:
    """A small table of short cells: aligned columns without rules when they fit the console, else a rich table
    (which fits its columns to the width). The first column is left-aligned, the others right-aligned."""

    def __init__(self, title: str, header: Sequence[str], rows: Sequence[Sequence[str]], notes: Sequence[str] = ()):
        self.title, self.header, self.rows, self.notes = title, list(header), [list(r) for r in rows], list(notes)

    def _plain(self) -> list[str]:
        cells = [self.header, *self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.header))]
        out = []
        for row in cells:
            first = row[0].ljust(widths[0])
            rest = "  ".join(cell.rjust(w) for cell, w in zip(row[1:], widths[1:], strict=True))
            out.append(("  " + first + "  " + rest).rstrip())
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        plain = self._plain()
        if max(len(line) for line in plain) <= options.max_width:
            yield Text(self.title, style="bold", end="\n")
            head, *body = plain
            yield Text(head, style="dim", no_wrap=True, end="\n")
            for line in body:
                yield Text(line, no_wrap=True, end="\n")
        else:
            table = Table(title=self.title, title_justify="left", box=SIMPLE_HEAD, show_edge=False)
            for i, name in enumerate(self.header):
                table.add_column(name, justify="left" if i == 0 else "right")
            for row in self.rows:
                table.add_row(*(Text(cell) for cell in row))
            yield table
        yield Lines(Line(note, indent=2) for note in self.notes)
