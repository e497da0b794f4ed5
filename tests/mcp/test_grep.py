"""get_evidence's grep on real records: the record's own text first, the configuration it embeds only when asked
(in_config), overlapping parts shown once, at most max_matches shown and the rest counted. Expected counts come
from the trace file itself, read here with `json`, never from our reader."""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import CAPTURES, Session, text_of


def _metrics_line(name: str) -> tuple[str, dict[str, Any]]:
    """The first compilation_metrics line of a capture's raw trace, and its payload."""
    (log,) = (CAPTURES / name / "raw").glob("*.log")
    line = next(x for x in log.read_text().splitlines() if '{"compilation_metrics"' in x)
    return line, json.loads(line[line.index("{") :])["compilation_metrics"]


def _in_config(metrics: dict[str, Any], pattern: str) -> int:
    """Occurrences inside the serialized configurations (`*_config` string values)."""
    return sum(
        len(re.findall(pattern, v, re.IGNORECASE))
        for k, v in metrics.items()
        if k.endswith("_config") and isinstance(v, str)
    )


def _metrics_evidence(session: Session) -> tuple[str, str]:
    cid = session.call("import_trace", path="captures/shape").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="compilation_metrics", full=True).structured_content
    return cid, index["items"][0]["id"]  # type: ignore[index]


def test_grep_reads_the_records_own_text_and_counts_the_configs(session: Session) -> None:
    line, metrics = _metrics_line("shape")
    config = _in_config(metrics, "suppress_errors")
    own = len(re.findall("suppress_errors", line, re.IGNORECASE)) - config
    assert own >= 1 and config >= 1  # the trace has both: torch's config_suppress_errors key and dynamo_config's
    cid, ev = _metrics_evidence(session)
    result = session.call("get_evidence", capture=cid, evidence_id=ev, grep="suppress_errors")
    page = result.structured_content
    assert page["total_matches"] == own and page["config_matches"] == config  # type: ignore[index]
    assert "dynamo_config" not in json.dumps(page["matches"]).split("suppress_errors")[0]  # type: ignore[index]
    assert f"{config} more in the embedded configuration: get_evidence(..., in_config=true)" in text_of(result)
    asked = session.call("get_evidence", capture=cid, evidence_id=ev, grep="suppress_errors", in_config=True)
    assert asked.structured_content["total_matches"] == own + config  # type: ignore[index]
    assert '\\"suppress_errors\\"' in text_of(asked)  # the dynamo_config entry, as the trace escapes it


def test_overlapping_windows_are_shown_once(session: Session) -> None:
    line, metrics = _metrics_line("shape")
    own = len(re.findall("fail_", line)) - _in_config(metrics, "fail_")
    cid, ev = _metrics_evidence(session)
    result = session.call("get_evidence", capture=cid, evidence_id=ev, grep="fail_")
    page = result.structured_content
    assert page["total_matches"] == own == page["shown_matches"]  # type: ignore[index]
    text = text_of(result)
    for key in ("fail_type", "fail_reason", "fail_user_frame_filename", "fail_user_frame_lineno"):
        assert text.count(f'"{key}"') == 1, key  # adjacent keys: one window, each key once


def test_context_lines_are_merged_into_blocks(session: Session) -> None:
    """A graph record (many short lines): matches whose context overlaps share one block; no line is shown twice."""
    cid = session.call("import_trace", path="captures/shape").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="dynamo_output_graph", full=True).structured_content
    ev = index["items"][0]  # type: ignore[index]
    excerpt = session.call(
        "get_evidence", capture=cid, evidence_id=ev["id"], max_chars=5000, full=True
    ).structured_content
    record = excerpt["text"].splitlines()  # type: ignore[index]
    matching = [n + 1 for n, x in enumerate(record) if "l_x_" in x.lower()]
    assert len(matching) >= 2
    page = session.call("get_evidence", capture=cid, evidence_id=ev["id"], grep="l_x_", max_matches=50, full=True)
    blocks = page.structured_content["matches"]  # type: ignore[index]
    shown: list[int] = []
    for b in blocks:
        first = b.get("first_line", b["line"])
        shown += range(first, first + len(b["lines"]))
    assert len(shown) == len(set(shown))  # no line twice
    found = sorted(n for b in blocks for n in (b.get("matched_lines") or [b["line"]]))
    assert found == matching


def test_max_matches_caps_what_is_shown_and_says_how_many_more(session: Session) -> None:
    line, metrics = _metrics_line("shape")
    own = len(re.findall("e", line, re.IGNORECASE)) - _in_config(metrics, "e")
    cid, ev = _metrics_evidence(session)
    result = session.call("get_evidence", capture=cid, evidence_id=ev, grep="e", max_matches=3)
    page = result.structured_content
    assert page["total_matches"] == own and page["shown_matches"] == 3  # type: ignore[index]
    assert f"... {own - 3} more match(es)" in text_of(result)
