import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evidenceUri, parseEvidenceUri, parseSourceUri, renderEvidence, sourceUri } from "../../views/documents";
import { evidenceItem } from "./samples";

describe("virtual documents", () => {
  it("renders an evidence page with its place in the record", () => {
    const text = renderEvidence({ kind: "evidence_excerpt", schema_version: "2.4", capture: "abc", evidence: evidenceItem("u1-e10", "recompile_reasons", "0/1"), offset: 0, next_offset: 300, total_chars: 449, text: "V1130 ...{json}" });
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
