"""analyze_capture's text: each compilation's guards on its tensor arguments (from its guard tree), once per frame
while they stay the same; the outline has none. Expected texts are the raw trace's guard tree text."""

from __future__ import annotations

import json
import re

from .conftest import CAPTURES, Session, text_of


def test_the_text_says_each_entrys_guards_on_its_inputs(session: Session) -> None:
    raw = "".join(p.read_text(encoding="utf-8") for p in (CAPTURES / "dynamic" / "raw").glob("*.log"))
    assert "size=[4, 3], stride=[3, 1])" in raw and "size=[None, 3], stride=[3, 1])" in raw
    assert "+- LAMBDA_GUARD: 2 <= L['x'].size()[0]  #" in raw
    text = text_of(session.call("analyze_capture", capture="captures/dynamic", full=True))
    lines = [s.strip() for s in text.splitlines() if s.strip().startswith("guards on inputs:")]
    assert all(re.search(r" \(ev u1-e\d+\)$", s) for s in lines)  # the tree each line is read from
    lines = [re.sub(r" \(ev u1-e\d+\)$", "", s) for s in lines]
    assert "guards on inputs: L['x']: torch.float32, size=[4, 3], stride=[3, 1]" in lines
    assert "guards on inputs: L['x']: torch.float32, size=[None, 3], stride=[3, 1]; 2 <= L['x'].size()[0]" in lines
    outline = json.dumps(session.call("analyze_capture", capture="captures/dynamic").structured_content)
    assert "guards_on_inputs" not in outline and "L['x']" not in outline
