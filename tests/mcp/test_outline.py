"""A tool result's structured content is, by default, the document's outline: what a program navigates by
(kind, ids, how each run ended, headline counts, offsets, each item's identity and headline counts), not a second
copy of the text; `full=true` gives the whole document. Measured on typical calls
over the retained fixture captures (tests/mcp/typical_calls.py, the calls `tools/mcp_sizes.py` reports).

What the outline holds is checked against the text of the same result, never against our analyser: an agent
whose client shows only the text must not lose a fact the outline has."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema
import pytest
from dynamo_diff_mcp.server import INSTRUCTIONS
from dynamo_diff_schema import COUNT_LABELS
from dynamo_diff_schema.documents import committed_schema_text

from .conftest import Session, text_of
from .typical_calls import TYPICAL, listing_chars, structured_chars, text_chars

CASES = dict(TYPICAL)
NOTE = "full=true gives the whole document"
EVIDENCE_ID = re.compile(r"^[a-z]\d+-e\d+$")
HEX_ID = re.compile(r"^[0-9a-f]{64}$")
SHORT_ID = re.compile(r"^[0-9a-f]{12}$")  # an outline's capture and comparison ids, as the text writes them
ID_KEYS = {"id", "capture", "comparison_id", "baseline", "candidate"}


def _walk(value: Any, key: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(key, value, the object holding it) for every value in a JSON document."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v, value
            yield from _walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield key, v, None
            yield from _walk(v, key)


def facts(outline: dict[str, Any]) -> list[tuple[str, str]]:
    """What the outline says, each as (what, a pattern the text must match)."""
    out: list[tuple[str, str]] = []
    for key, value, holder in _walk(outline):
        if isinstance(value, str) and EVIDENCE_ID.match(value):
            out.append((f"evidence id {value}", rf"\b{re.escape(value)}\b"))
        elif isinstance(value, str) and HEX_ID.match(value) and key != "sha256":
            out.append((f"{key} {value}", re.escape(value[:12])))
        elif isinstance(value, str) and SHORT_ID.match(value) and key in ID_KEYS:
            out.append((f"{key} {value}", rf"\b{value}"))
        elif key in {"compile_id", "qualified_name", "name", "code", "rank_ranges", "key"} and isinstance(value, str):
            out.append((f"{key} {value}", re.escape(value)))
        elif key == "verdict":
            out.append(("verdict", re.escape(str(value).upper())))
        elif key == "exit_code" and value is not None and isinstance(holder, dict):  # or the signal it died of
            said = re.escape(holder["signal"]) if holder.get("signal") else rf"exit(ed with)? code {value}\b"
            out.append(("exit code", said))
        elif key == "line" and isinstance(holder, dict) and holder.get("file") and holder["file"][0] != "<":
            where = f"{PurePosixPath(holder['file']).name}:{value}"
            out.append((f"location {where}", re.escape(where)))
        elif key in {"counts", "baseline", "candidate"} and isinstance(value, dict):
            for count, n in value.items():
                if count in COUNT_LABELS and isinstance(n, int):
                    label = re.escape(COUNT_LABELS[count])
                    out.append((f"{count} {n}", rf"{label} (?:\S+ -> )?{n}\b"))
        elif key.startswith("total") and isinstance(value, int) and (key, value) != ("total", 1):
            out.append((f"{key} {value}", rf"\b{value}\b"))
    return out


def _run(connect: Callable[..., Session], name: str, store: Path | None = None, **extra: Any) -> Any:
    return CASES[name](connect(store=store).call, extra)


def _within(outline: Any, whole: Any, path: str = "") -> None:
    """The outline is the whole document less what it leaves out: each value it writes is the document's (a
    required text written empty is the one exception). A page holds as many items as fit its own response, so the
    outline's page may reach further than the whole document's (its `next_offset`)."""
    if isinstance(outline, dict):
        for key, value in outline.items():
            if key in {"outline", "next_offset", "store", "imported_at"}:  # each run on a store of its own
                continue
            assert isinstance(whole, dict) and key in whole, f"{path}.{key}"
            if value in ("", []) and whole[key]:
                continue  # required prose, written empty
            _within(value, whole[key], f"{path}.{key}")
    elif isinstance(outline, list):
        assert isinstance(whole, list), path
        for i, (mine, theirs) in enumerate(zip(outline, whole, strict=False)):
            _within(mine, theirs, f"{path}[{i}]")
    elif isinstance(outline, str) and SHORT_ID.match(outline) and path.rsplit(".", 1)[-1] in ID_KEYS:
        assert isinstance(whole, str) and HEX_ID.match(whole) and whole.startswith(outline), (path, outline, whole)
    else:
        assert outline == whole, (path, outline, whole)


@pytest.mark.parametrize("name", list(CASES))
def test_an_outline_says_so_validates_and_holds_only_what_its_text_says(
    connect: Callable[..., Session], name: str
) -> None:
    result = _run(connect, name)
    assert not result.is_error, text_of(result)
    outline = result.structured_content
    assert outline["outline"] == NOTE
    jsonschema.Draft202012Validator(json.loads(committed_schema_text(outline["kind"]))).validate(outline)
    text = text_of(result)
    missing = [what for what, pattern in facts(outline) if re.search(pattern, text) is None]
    assert missing == [], (name, missing)
    # Never a second copy of the text: the outline is smaller than the text it goes with.
    assert structured_chars(result) <= text_chars(result), name


@pytest.mark.parametrize("name", list(CASES))
def test_full_true_gives_the_whole_document_the_outline_is_part_of(
    connect: Callable[..., Session], tmp_path: Path, name: str
) -> None:
    outline = _run(connect, name, tmp_path / "outline").structured_content
    whole = _run(connect, name, tmp_path / "whole", full=True).structured_content
    assert "outline" not in whole and whole["kind"] == outline["kind"]
    jsonschema.Draft202012Validator(json.loads(committed_schema_text(whole["kind"]))).validate(whole)
    _within(outline, whole)
    assert len(json.dumps(whole)) > len(json.dumps(outline))


def test_the_outlines_of_the_typical_calls_are_at_most_a_third_of_their_text(connect: Callable[..., Session]) -> None:
    """Over the typical calls an agent makes, the outlines add at most 0.35 of the characters of the texts (1.56
    times as whole documents, 0.42 when outlines kept evidence ids). A small result cannot go as low on its own:
    its kind, ids, run status and the fields its schema requires (an import's capture row: eight, a 64-digit id
    among them; an excerpt's evidence: its sha256) are a few hundred characters, so each call is bounded by 0.65 of
    its text, and most by half."""
    sizes = [(text_chars(r), structured_chars(r)) for r in (_run(connect, name) for name in CASES)]
    assert sum(s for _, s in sizes) * 100 <= 35 * sum(t for t, _ in sizes), sizes
    assert [name for name, (t, s) in zip(CASES, sizes, strict=True) if s * 100 > 65 * t] == [], sizes
    halved = [name for name, (t, s) in zip(CASES, sizes, strict=True) if s * 2 <= t]
    assert len(halved) >= 12, halved


def test_the_tool_listing_and_instructions_are_at_most_4500_characters(session: Session) -> None:
    """tools/list and the server's instructions sit in an agent's context on every turn: names, descriptions and
    input schemas (no output schema: the SDK checks every result against the tool's document model); what every
    tool shares (`full`, paging, how a capture is named) is said once, in the instructions."""
    listing = session.list_tools()
    assert listing_chars(listing, INSTRUCTIONS) <= 4_500, listing_chars(listing, INSTRUCTIONS)
    assert "full=true" in INSTRUCTIONS and "offset=next_offset" in INSTRUCTIONS
    for tool in listing.tools:
        assert "full" in tool.input_schema["properties"], tool.name
        assert tool.output_schema is None, tool.name
        assert all("title" not in prop for prop in tool.input_schema["properties"].values()), tool.name
