"""grep inside one trace record: the record's own text first, the configuration it embeds only when asked.

A record such as `compilation_metrics` is one long JSON line that carries torch's whole configuration as
serialized strings (`dynamo_config`, `inductor_config`, `functorch_config`, `compiler_config`: about 35,000 of its
38,000 characters). A pattern that names a compile fact would mostly match there, so those values are searched
only with `in_config`; the matches they hold are still counted. Matches are counted per line for a short line and
per occurrence in a long one; the first `max_matches` are shown, and what they show never repeats: context lines
or windows that overlap are merged into one block.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from dynamo_diff_schema import GrepMatch

LINE_CHARS = 300  # a line up to this long is shown whole, with context lines; a longer one as windows
WINDOW = 120  # characters shown each side of a match inside a long line
# A key of a record's payload whose value is an embedded configuration: `"dynamo_config": "{...}"`.
_CONFIG_KEY = re.compile(r'(?<!\\)"([A-Za-z_]*_config)":\s*')
_DECODER = json.JSONDecoder()


@dataclass
class Found:
    """What a grep found: the blocks shown, the matches in what was searched, those in the configuration."""

    matches: list[GrepMatch] = field(default_factory=list)
    total: int = 0  # matches in the text searched
    shown: int = 0  # of them, the ones the blocks show
    config_matches: int = 0  # matches inside the embedded configuration (counted whether searched or not)


def config_spans(line: str) -> list[tuple[int, int]]:
    """The character ranges of the embedded configuration values in one line: each `"..._config":` key's whole
    JSON value (a serialized string or an object), found by decoding it where it starts."""
    spans = []
    at = 0
    while (m := _CONFIG_KEY.search(line, at)) is not None:
        try:
            _, end = _DECODER.raw_decode(line, m.end())
        except ValueError:
            at = m.end()
            continue
        if end - m.end() > 2:  # "" or {} says nothing
            spans.append((m.end(), end))
        at = end
    return spans


def _inside(spans: list[tuple[int, int]], start: int) -> bool:
    return any(a <= start < b for a, b in spans)


def grep_text(text: str, regex: re.Pattern[str], *, context: int, max_matches: int, in_config: bool) -> Found:
    found = Found()
    lines = text.splitlines()
    # (first line shown, last line shown, matching lines); a long matching line is shown as its windows (`shown`),
    # in the same block as the short lines around it, so that no line is shown twice.
    blocks: list[tuple[int, int, list[int]]] = []
    shown: dict[int, str] = {}
    for n, line in enumerate(lines):
        hits = list(regex.finditer(line))
        if not hits:
            continue
        if len(line) > LINE_CHARS:
            spans = config_spans(line)
            kept = []
            for m in hits:
                if _inside(spans, m.start()):
                    found.config_matches += 1
                    if in_config:
                        kept.append(m)
                else:
                    kept.append(m)
            if not kept:
                continue
            found.total += len(kept)
            if found.shown >= max_matches:
                continue
            kept = kept[: max_matches - found.shown]
            found.shown += len(kept)
            shown[n] = _windows(line, kept)
            near = 0  # a long line's own windows are its context
        else:
            found.total += 1
            if found.shown >= max_matches:
                continue
            found.shown += 1
            near = context
        first, last = max(n - near, 0), min(n + near, len(lines) - 1)
        if blocks and first <= blocks[-1][1] + 1:  # overlaps or touches the block before: one block
            blocks[-1] = (blocks[-1][0], max(last, blocks[-1][1]), [*blocks[-1][2], n])
        else:
            blocks.append((first, last, [n]))
    for first, last, matched in blocks:
        found.matches.append(
            GrepMatch(
                line=matched[0] + 1,
                first_line=first + 1,
                matched_lines=[m + 1 for m in matched] if len(matched) > 1 else [],
                lines=[shown.get(i, lines[i][:LINE_CHARS]) for i in range(first, last + 1)],
            )
        )
    return found


def _windows(line: str, hits: list[re.Match[str]]) -> str:
    """A long line shown as the text around its matches (WINDOW characters each side), overlapping windows merged,
    each gap and cut end marked `…`."""
    windows: list[list[int]] = []
    for m in hits:
        start, end = max(m.start() - WINDOW, 0), min(m.end() + WINDOW, len(line))
        if windows and start <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], end)
        else:
            windows.append([start, end])
    parts = [line[a:b] for a, b in windows]
    return ("…" if windows[0][0] else "") + "…".join(parts) + ("…" if windows[-1][1] < len(line) else "")
