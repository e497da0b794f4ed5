// Runs inside a real VS Code extension host against the real CLI and the retained fixtures.
// The driver (test/e2e/host-suite.ts) sets dynamoDiff.cliPath / storePath in the workspace settings and
// DYNAMO_DIFF_FIXTURES in the environment.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { CaptureRow, Comparison } from "../../common/cli";
import type { DynamoDiffApi } from "../../extension";

const fixtures = process.env.DYNAMO_DIFF_FIXTURES ?? "";

async function api(): Promise<DynamoDiffApi> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON.name === "dynamo-diff" && e.packageJSON.publisher === "dynamo-diff");
  assert.ok(ext, "the extension is installed");
  return (await ext.activate()) as DynamoDiffApi;
}

function lines(editor: vscode.TextEditor | undefined): string[] {
  assert.ok(editor, "an editor opened");
  return editor.document.getText().split("\n");
}

/** The snapshot a fixture capture holds of model.py (what the source document must show, exactly). */
function snapshot(fixture: string): string {
  return fs.readFileSync(path.join(fixtures, fixture, "sources", "model.py"), "utf8");
}

/** The selection covers 0-based lines first..last, with the cursor on the first. */
function assertShows(editor: vscode.TextEditor, first: number, last: number): void {
  const s = editor.selection;
  assert.deepEqual([s.start.line, s.start.character, s.end.line, s.active.line], [first, 0, last, first], "the function's lines are selected");
}

/** Waits until the editor's visible ranges hold lines first..last (the workbench reports them asynchronously). */
async function visible(editor: vscode.TextEditor, first: number, last: number): Promise<void> {
  const holds = () => editor.visibleRanges.some((r) => r.start.line <= first && r.end.line >= last);
  for (let i = 0; i < 50 && !holds(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(holds(), `lines ${first + 1}-${last + 1} are in view: ${JSON.stringify(editor.visibleRanges.map((r) => [r.start.line, r.end.line]))}`);
}

describe("Dynamo Diff in the extension host", () => {
  let v1: CaptureRow;
  let v2: CaptureRow;
  let first: Comparison;

  before(() => {
    assert.ok(fixtures && fs.existsSync(path.join(fixtures, "edit_v1")), `DYNAMO_DIFF_FIXTURES points at the fixtures (${fixtures})`);
  });

  it("finds the configured CLI with the pinned version", async () => {
    const cli = await (await api()).cliPath();
    assert.equal(cli, vscode.workspace.getConfiguration("dynamoDiff").get("cliPath"));
    assert.ok(vscode.workspace.isTrusted);
  });

  it("imports two captures", async () => {
    v1 = (await vscode.commands.executeCommand("dynamoDiff.importCapture", path.join(fixtures, "edit_v1"), "v1")) as CaptureRow;
    v2 = (await vscode.commands.executeCommand("dynamoDiff.importCapture", path.join(fixtures, "edit_v2"), "v2")) as CaptureRow;
    assert.equal(v1?.label, "v1");
    assert.equal(v2?.label, "v2");
    assert.equal(v1.input_kind, "bundle");
    const labels = (await api()).captures().map((c) => c.label);
    assert.ok(labels.includes("v1") && labels.includes("v2"));
  });

  it("compares them per source function", async () => {
    first = (await vscode.commands.executeCommand("dynamoDiff.compareCaptures", v1.id, v2.id)) as Comparison;
    assert.ok(first, "a comparison");
    assert.equal(first.comparability.verdict, "comparable");
    const names = (first.functions ?? []).map((f) => f.candidate?.qualified_name ?? f.baseline?.qualified_name).sort();
    assert.deepEqual(names, ["encoder", "gate", "postprocess"]);
    const gate = (first.functions ?? []).find((f) => f.baseline?.qualified_name === "gate")!;
    assert.equal(gate.deltas?.confirmed_recompilation_identities, -1);
    assert.equal((await api()).comparison()?.id, first.id);
  });

  it("keeps the last good comparison and reports the CLI's error code on failure", async () => {
    const none = await vscode.commands.executeCommand("dynamoDiff.compareCaptures", "no-such-capture", v2.id);
    assert.equal(none, undefined);
    const a = await api();
    assert.equal(a.lastError()?.code, "unknown_capture");
    assert.equal(a.comparison()?.id, first.id);
  });

  it("opens the whole captured snapshot with the function selected at its real line numbers", async () => {
    const gate = (first.functions ?? []).find((f) => f.baseline?.qualified_name === "gate")!;
    assert.equal(gate.baseline!.line, 21);
    const editor = (await vscode.commands.executeCommand(
      "dynamoDiff.openSource",
      v1.id,
      "model.py:21",
      gate.baseline!.line,
      "model.py",
    )) as vscode.TextEditor;
    assert.ok(editor, "an editor opened");
    assert.equal(editor.document.uri.scheme, "dynamo-diff-source");
    assert.equal(editor.document.languageId, "python");
    // The document is the snapshot stored in the capture, byte for byte: no header lines, nothing left out.
    assert.equal(editor.document.getText(), snapshot("edit_v1"));
    const text = lines(editor);
    assert.equal(text[20], "def gate(x, flag: bool):");
    assert.match(text[21], /v1: branches on a python bool/);
    // gate is lines 21-25 of model.py: selected from the start of 21 to the end of 25, cursor on 21, in view.
    assertShows(editor, 20, 24);
    assert.equal(editor.selection.end.character, text[24].length);
    await visible(editor, 20, 24);
    // The candidate's snapshot of the same file is the edited one, whatever is on disk now.
    const cand = (await vscode.commands.executeCommand("dynamoDiff.openSource", v2.id, "model.py:21", 21, "model.py")) as vscode.TextEditor;
    assert.equal(cand.document.getText(), snapshot("edit_v2"));
    assert.equal(lines(cand)[20], "def gate(x, mix):");
    assertShows(cand, 20, 23);
  });

  it("opens a function by name alone at its first captured location", async () => {
    const editor = (await vscode.commands.executeCommand("dynamoDiff.openSource", v2.id, "postprocess")) as vscode.TextEditor;
    assert.equal(editor.document.getText(), snapshot("edit_v2"));
    assert.equal(lines(editor)[26], "def postprocess(y):");
    assertShows(editor, 26, 28);
    await visible(editor, 26, 28);
  });

  it("reports the CLI's error code for an unknown function", async () => {
    const none = await vscode.commands.executeCommand("dynamoDiff.openSource", v1.id, "no_such_function");
    assert.equal(none, undefined);
    assert.equal((await api()).lastError()?.code, "unknown_function");
  });

  it("opens evidence a page at a time", async () => {
    await vscode.workspace.getConfiguration("dynamoDiff").update("evidencePageChars", 200, vscode.ConfigurationTarget.Workspace);
    try {
      const gate = (first.functions ?? []).find((f) => f.baseline?.qualified_name === "gate")!;
      const change = (gate.changes ?? []).find((c) => c.kind === "recompile_reason")!;
      const evidence = (change.baseline_evidence ?? [])[0];
      const page1 = (await vscode.commands.executeCommand("dynamoDiff.openEvidence", v1.id, evidence)) as vscode.TextEditor;
      const text1 = lines(page1);
      assert.equal(page1.document.uri.scheme, "dynamo-diff-evidence");
      assert.match(text1[0], new RegExp(`^# evidence ${evidence} · recompile_reasons · compile 0/1`));
      assert.match(text1[2], /^# characters 0-200 of \d+ · more/);
      assert.match(text1.slice(4).join("\n"), /"name": "recompile_reasons"/);
      const page2 = (await vscode.commands.executeCommand("dynamoDiff.evidenceNextPage")) as vscode.TextEditor;
      assert.match(lines(page2)[2], /^# characters 200-/);
      const back = (await vscode.commands.executeCommand("dynamoDiff.evidencePreviousPage")) as vscode.TextEditor;
      assert.match(lines(back)[2], /^# characters 0-200 /);
    } finally {
      await vscode.workspace.getConfiguration("dynamoDiff").update("evidencePageChars", undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it("shows the table and writes the HTML report", async () => {
    assert.equal(await vscode.commands.executeCommand("dynamoDiff.showTable"), true);
    const file = (await vscode.commands.executeCommand("dynamoDiff.openHtmlReport")) as string;
    assert.ok(file && fs.existsSync(file), "the report file exists");
    assert.match(fs.readFileSync(file, "utf8"), /<html/i);
  });

  it("compares the ranks of one capture", async () => {
    const ranks = (await vscode.commands.executeCommand("dynamoDiff.importCapture", path.join(fixtures, "two_ranks"), "ranks")) as CaptureRow;
    assert.equal(ranks.rank_count, 2);
    assert.equal(ranks.run_state, "completed");
    const cmp = (await vscode.commands.executeCommand("dynamoDiff.compareRanks", ranks.id, "")) as Comparison;
    assert.equal(cmp.kind, "rank_view");
    assert.equal(cmp.ranks?.divergences?.length, 1);
    assert.equal(cmp.ranks?.divergences?.[0].rank, 1);
  });

  it("refreshes the capture list", async () => {
    const list = (await vscode.commands.executeCommand("dynamoDiff.refresh")) as CaptureRow[];
    assert.deepEqual(list.map((c) => c.label).sort(), ["ranks", "v1", "v2"]);
  });
});
