import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineCount, matchNote, pickLocation, renderSource, sourceHeader, sourceLabel, sourceView } from "../../views/source-view";
import { SNAPSHOT, sourceResult } from "./samples";

describe("captured source view", () => {
  it("shows the whole snapshot, so document line N is captured line N", () => {
    const view = sourceView(sourceResult(), "v1", 3);
    const text = renderSource(view.location);
    assert.equal(text, SNAPSHOT);
    const lines = text.split("\n");
    assert.equal(lines[3 - 1], "def gate(x):");
    assert.equal(lines[7 - 1], "def gate(x):  # again");
  });

  it("selects the function's lines as 0-based document lines", () => {
    const view = sourceView(sourceResult(), "v1", 3);
    assert.deepEqual([view.startLine, view.endLine], [2, 3]);
    assert.deepEqual([view.index, view.count], [0, 2]);
  });

  it("picks the location the row asked for, else the first", () => {
    const r = sourceResult();
    assert.equal(pickLocation(r, 7), 1);
    assert.equal(pickLocation(r, 3), 0);
    assert.equal(pickLocation(r, 99), 0);
    assert.equal(pickLocation(r), 0);
    const second = sourceView(r, "v1", 7);
    assert.equal(second.location.co_firstlineno, 7);
    assert.deepEqual([second.startLine, second.endLine], [6, 7]);
  });

  it("keeps the selection inside the document", () => {
    const r = sourceResult();
    r.locations = [{ ...r.locations[1], first_line: 8, last_line: 40 }];
    const view = sourceView(r, "v1");
    assert.equal(lineCount(SNAPSHOT), 9);
    assert.deepEqual([view.startLine, view.endLine], [7, 8]);
    r.locations[0] = { ...r.locations[0], text: "x = 1", first_line: 5, last_line: 6 };
    const short = sourceView(r, "v1");
    assert.deepEqual([short.startLine, short.endLine], [0, 0]);
  });

  it("counts lines as an editor does", () => {
    assert.equal(lineCount(""), 1);
    assert.equal(lineCount("a"), 1);
    assert.equal(lineCount("a\n"), 2);
    assert.equal(lineCount("a\r\nb\rc\n"), 4);
  });

  it("describes the snapshot without adding lines to it", () => {
    const view = sourceView(sourceResult(), "v1", 7);
    assert.equal(sourceLabel(view), "captured in v1 · model.py lines 7-8 · 2 of 2 matches for “gate”");
    assert.equal(
      sourceHeader(view),
      [
        "Captured source snapshot (not the working-tree file) from capture v1",
        "/tmp/e/model.py:7, captured as model.py",
        "function gate: lines 7-8",
        "snapshot sha256 3802d8d0e528",
        "2 functions in v1 match “gate”; showing 2 of 2: /tmp/e/model.py:7",
      ].join("\n"),
    );
  });

  it("says how many matched only when there were several", () => {
    const r = sourceResult();
    assert.equal(matchNote(sourceView(r, "v1")), "2 functions in v1 match “gate”; showing 1 of 2: /tmp/e/model.py:3");
    r.locations = r.locations.slice(0, 1);
    const one = sourceView(r, "v1");
    assert.equal(matchNote(one), undefined);
    assert.doesNotMatch(sourceHeader(one), /match/);
    assert.equal(sourceLabel(one), "captured in v1 · model.py lines 3-4");
  });
});
