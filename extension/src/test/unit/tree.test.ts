import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CaptureRow } from "../../common/cli";
import { DynamoDiffTree, Node, TreeSource, childrenOf, describe as describeNode, rowDeltaText } from "../../views/tree";
import { BASE, CAND, analysis, comparison, evidenceItem } from "./samples";

function source(overrides: Partial<TreeSource> = {}): TreeSource {
  const captures: CaptureRow[] = [
    { id: BASE, label: "v1", imported_at: "2026-11-30T05:39:19+00:00", input_kind: "bundle", torch_version: "2.13.0+cpu", artifact_structure: "complete", rank_count: 1, run_state: "completed", compiled_state: "compiled", counts: {} },
  ];
  return {
    captures: () => captures,
    comparison: () => comparison(),
    problem: () => undefined,
    analysis: async (id) => analysis(id),
    evidenceIndex: async () => new Map([["u1-e10", evidenceItem("u1-e10", "recompile_reasons", "0/1")], ["u1-e2", evidenceItem("u1-e2", "dynamo_start")]]),
    ...overrides,
  };
}

describe("tree: captures → comparison rows → compilations → evidence", () => {
  it("shows the comparison and the captures at the top", async () => {
    const roots = await childrenOf(undefined, source());
    assert.deepEqual(roots.map((n) => n.kind), ["comparison", "captures"]);
    const d = describeNode(roots[0]);
    assert.equal(d.label, "Comparison: v1 → v2");
    assert.equal(d.description, "comparable · 2 functions");
  });

  it("says first that a capture compiled nothing", () => {
    const c: CaptureRow = {
      id: CAND, label: "empty", imported_at: "2026-12-01T15:40:00+00:00", input_kind: "bundle", torch_version: "2.13.0+cpu",
      artifact_structure: "complete", rank_count: 0, counts: {}, run_state: "completed", compiled_state: "nothing_compiled",
    };
    const d = describeNode({ kind: "capture", capture: c });
    assert.equal(d.description, "completed; NOTHING COMPILED · bundle · torch 2.13.0+cpu · 0 rank(s) · 2026-12-01T15:40:00+00:00");
    assert.match(d.tooltip!, /\nrun: completed\ncompiled: nothing_compiled\n/);
    assert.equal(describeNode({ kind: "capture", capture: { ...c, compiled_state: "compiled" } }).description?.startsWith("completed · bundle"), true);
    assert.equal(describeNode({ kind: "capture", capture: { ...c, run_state: "killed", compiled_state: "compiled" } }).description?.startsWith("killed · bundle"), true);
  });

  it("says what to do when there is nothing, and shows a CLI problem", async () => {
    const empty = await childrenOf(undefined, source({ captures: () => [], comparison: () => undefined }));
    assert.match(describeNode(empty[0]).label, /Import Capture/);
    const broken = await childrenOf(undefined, source({ captures: () => [], comparison: () => undefined, problem: () => "[cli_not_found] nope" }));
    assert.deepEqual(broken.map((n) => describeNode(n).label), ["[cli_not_found] nope"]);
  });

  it("shows each row with its status and count changes", async () => {
    const [cmp] = await childrenOf(undefined, source());
    const rows = await childrenOf(cmp, source());
    assert.deepEqual(rows.map((r) => describeNode(r).label), ["gate", "postprocess"]);
    assert.equal(describeNode(rows[0]).description, "matched (line_diff) · compilations 2→1, recompiles 1→0");
    assert.equal(describeNode(rows[1]).description, "candidate_only (none) · compilations –→1");
  });

  it("gives a row its captured sources, changes and compilations per side", async () => {
    const [cmp] = await childrenOf(undefined, source());
    const [gate] = await childrenOf(cmp, source());
    const kids = await childrenOf(gate, source());
    assert.deepEqual(kids.map((k) => k.kind), ["source", "source", "change", "compilations", "compilations"]);
    const src = describeNode(kids[0]);
    assert.equal(src.label, "Source (baseline): model.py:21");
    assert.deepEqual(src.command?.arguments, [BASE, "model.py:21", 21, "model.py"]);
    assert.equal((describeNode(kids[1]).command?.arguments as unknown[])[0], CAND);

    const evidence = await childrenOf(kids[2], source());
    assert.deepEqual(evidence.map((e) => describeNode(e).label), ["baseline u1-e10"]);
    assert.equal(describeNode(evidence[0]).description, "recompile_reasons · 0/1 · raw/trace.log:12");
    assert.deepEqual(describeNode(evidence[0]).command, { command: "dynamoDiff.openEvidence", title: "Open Evidence", arguments: [BASE, "u1-e10"] });

    const compilations = await childrenOf(kids[3], source());
    assert.deepEqual(compilations.map((c) => describeNode(c).label), ["0/0 gate", "0/1 gate"]);
    const ev = await childrenOf(compilations[0], source());
    assert.deepEqual(ev.map((e) => (e as Extract<Node, { kind: "evidence" }>).evidenceId), ["u1-e2", "u1-e3"]);
    assert.equal(describeNode(ev[1]).description, undefined, "an id missing from the index is still listed");
  });

  it("lists a capture's compilations with their outcomes", async () => {
    const roots = await childrenOf(undefined, source());
    const [capture] = await childrenOf(roots[1], source());
    assert.equal(describeNode(capture).label, `v1 (${BASE.slice(0, 12)})`);
    const comps = await childrenOf(capture, source());
    assert.deepEqual(comps.map((c) => describeNode(c).description), ["completed · model.py:21", "completed · model.py:21", "failed · model.py:10"]);
  });

  it("turns a failure to load into a visible row", async () => {
    const tree = new DynamoDiffTree(source({ analysis: async () => { throw Object.assign(new Error("gone"), { display: () => "[unknown_capture] gone" }); } }));
    const roots = await tree.getChildren();
    const [capture] = await tree.getChildren(roots[1]);
    const kids = await tree.getChildren(capture);
    assert.equal(tree.getTreeItem(kids[0]).label, "Could not load: [unknown_capture] gone");
  });

  it("adapts nodes to tree items", async () => {
    const tree = new DynamoDiffTree(source());
    const roots = await tree.getChildren();
    const item = tree.getTreeItem(roots[0]);
    assert.equal(item.collapsibleState, 2);
    assert.equal((item.iconPath as { id: string }).id, "git-compare");
  });

  it("describes unchanged counts", () => {
    const row = comparison().functions[0];
    row.candidate = row.baseline;
    assert.equal(rowDeltaText(row), "no count changes");
  });
});
