"""get_evidence's excerpt is condensed as the CLI's: the user's frame of a graph break kept, torch's frames one
line per run, and its text says what was left out and how to read it all (grep, or the CLI's --full). The frames
are counted in the trace file itself, never through our reader."""

from __future__ import annotations

import re

from dynamo_diff_schema import short_id

from .conftest import CAPTURES, Session, text_of

_TORCH_FILE = re.compile(r'File "[^"]*/site-packages/torch/[^"]*", line \d+')


def test_a_graph_break_excerpt_keeps_the_user_frame_and_collapses_torch(session: Session) -> None:
    cid = session.call("import_trace", path="captures/graph_break").structured_content["captures"][0]["capture"]["id"]  # type: ignore[index]
    index = session.call("get_evidence", capture=cid, kind="dynamo_graph_break_reason", full=True).structured_content
    entry = index["items"][1]  # type: ignore[index]  # the Tensor.item() break in with_item
    (log,) = (CAPTURES / "graph_break" / "raw").glob("*.log")
    raw = log.read_bytes()[entry["offset"] : entry["offset"] + entry["length"]].decode()
    lines = (CAPTURES.parent / "workloads" / "graph_break.py").read_text().splitlines()
    item_line = next(i for i, line in enumerate(lines, 1) if "s.item() > 0" in line)
    result = session.call("get_evidence", capture=cid, evidence_id=entry["id"], full=True)
    text = text_of(result)
    assert f'graph_break.py", line {item_line}, in with_item' in text
    runs = sum(int(n) for n in re.findall(r"\.\.\. (\d+) frames in torch/_dynamo", text))
    assert runs > 0 and runs + len(_TORCH_FILE.findall(text)) == len(_TORCH_FILE.findall(raw))
    assert result.structured_content["collapsed_frames"] == runs  # type: ignore[index]
    assert f"evidence {short_id(cid)} {entry['id']} --full" in text and "grep=" in text
