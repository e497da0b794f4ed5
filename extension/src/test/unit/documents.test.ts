import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSource } from "../../cli";
import { evidenceUri, parseEvidenceUri, parseSourceUri, renderEvidence, renderSource, sourceUri } from "../../documents";
import { evidenceItem } from "./samples";

describe("virtual documents", () => {
  it("puts captured lines at their captured line numbers and says what is shown", () => {
    const snap = parseSource("21 | def gate(x):\n22 |     return x\n", "/tmp/e/model.py:21 (captured as model.py, lines 21-22)");
    const lines = renderSource(snap, "v1").split("\n");
    assert.equal(lines[0], "# dynamo-diff · capture v1 · /tmp/e/model.py:21 (captured as model.py, lines 21-22) · only lines 21-22 are shown");
    assert.equal(lines[20], "def gate(x):");
    assert.equal(lines[21], "    return x");
    assert.ok(lines.slice(1, 20).every((l) => l === ""), "nothing else is filled in");
  });

  it("adds no header when the function starts on line 1", () => {
    const snap = parseSource("1 | def f():\n2 |     pass\n", "");
    assert.equal(renderSource(snap, "v1"), "def f():\n    pass\n");
  });

  it("renders an evidence page with its place in the record", () => {
    const text = renderEvidence({ evidence: evidenceItem("u1-e10", "recompile_reasons", "0/1"), offset: 0, next_offset: 300, total_chars: 449, text: "V1130 ...{json}" });
    const lines = text.split("\n");
    assert.equal(lines[0], "# evidence u1-e10 · recompile_reasons · compile 0/1 · rank -");
    assert.match(lines[2], /^# characters 0-15 of 449 · more: “Dynamo Diff: Next Evidence Page” \(from 300\)$/);
    assert.equal(lines[4], "V1130 ...{json}");
  });

  it("round-trips document addresses", () => {
    const s = sourceUri({ capture: "abc", fn: "model.py:21", line: 21 }, "v1", "model.py");
    assert.equal(s.scheme, "dynamo-diff-source");
    assert.equal(s.path, "/v1/model.py");
    assert.deepEqual(parseSourceUri(s), { capture: "abc", fn: "model.py:21", line: 21 });
    const e = evidenceUri({ capture: "abc", evidence: "u1-e10", offset: 300 }, "a/b?c");
    assert.equal(e.path, "/a_b_c/u1-e10@300.log");
    assert.deepEqual(parseEvidenceUri(e), { capture: "abc", evidence: "u1-e10", offset: 300 });
  });
});
