// Graph breaks and failures as diagnostics in the workspace's own files, and CodeLens on function definitions,
// in a real extension host against the real CLI. The driver (test/e2e/host-suite.ts) lays fixture workloads into
// the workspace (layWorkspace); the expected lines are read from those workload files, not from our analyzer.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { CaptureRow } from "../../common/cli";
import type { DynamoDiffApi } from "../../extension";
import type { FindingsState } from "../../views/workspace-findings";

const fixtures = process.env.DYNAMO_DIFF_FIXTURES ?? "";

async function api(): Promise<DynamoDiffApi> {
  const ext = vscode.extensions.all.find((e) => e.packageJSON.name === "dynamo-diff" && e.packageJSON.publisher === "dynamo-diff");
  assert.ok(ext, "the extension is installed");
  return (await ext.activate()) as DynamoDiffApi;
}

function wsFile(...parts: string[]): vscode.Uri {
  const root = vscode.workspace.workspaceFolders![0].uri;
  return vscode.Uri.joinPath(root, ...parts);
}

/** The 1-based line of the first line of `file` that contains `needle` (read from the workload itself). */
function lineOf(uri: vscode.Uri, needle: string): number {
  const lines = fs.readFileSync(uri.fsPath, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes(needle));
  assert.ok(at >= 0, `${needle} is in ${uri.fsPath}`);
  return at + 1;
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "dynamo-diff");
}

async function until<T>(what: string, get: () => T | Promise<T>, ok: (v: T) => boolean, ms = 10000): Promise<T> {
  const end = Date.now() + ms;
  let value = await get();
  while (!ok(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    value = await get();
  }
  assert.ok(ok(value), `${what}: ${JSON.stringify(value, null, 1)?.slice(0, 2000)}`);
  return value;
}

async function lenses(uri: vscode.Uri): Promise<{ line: number; title: string; command?: string; args?: unknown[] }[]> {
  // The command reads the document's model: it must be open (not necessarily shown).
  await vscode.workspace.openTextDocument(uri);
  const found = ((await vscode.commands.executeCommand("vscode.executeCodeLensProvider", uri)) as vscode.CodeLens[]) ?? [];
  return found
    .filter((l) => l.command?.title.includes("dynamo-diff"))
    .map((l) => ({ line: l.range.start.line + 1, title: l.command!.title, command: l.command!.command, args: l.command!.arguments }));
}

async function importFixture(name: string): Promise<CaptureRow> {
  const c = (await vscode.commands.executeCommand("dynamoDiff.importCapture", path.join(fixtures, name), name)) as CaptureRow;
  assert.equal(c?.label, name);
  return c;
}

describe("graph breaks and failures in the workspace's own files", () => {
  const graphBreak = wsFile("fixtures", "workloads", "graph_break.py");
  const namesake = wsFile("scratch", "graph_break.py");
  const recompileLimit = wsFile("fixtures", "workloads", "recompile_limit.py");
  let gb: CaptureRow;

  it("shows a capture's graph breaks at their lines in the workspace file its recorded path maps onto", async () => {
    gb = await importFixture("graph_break");
    const state = (await vscode.commands.executeCommand("dynamoDiff.showCaptureDiagnostics", gb.id)) as FindingsState;
    assert.ok(state, "the command returned what it shows");
    assert.equal(state.label, "graph_break");
    assert.deepEqual(
      state.files.map((f) => [f.file, f.score, f.stale]),
      [[graphBreak.fsPath, 3, false]],
      "mapped by fixtures/workloads/graph_break.py onto the workspace copy, not onto the namesake in scratch/",
    );
    assert.match(state.files[0].recordedAs[0], /[\\/]fixtures[\\/]workloads[\\/]graph_break\.py$/);
    assert.equal((await api()).findings()?.capture, gb.id);

    const printLine = lineOf(graphBreak, 'print("dynamo-diff fixture');
    const itemLine = lineOf(graphBreak, "s.item() > 0");
    const diags = ours(graphBreak).sort((a, b) => a.range.start.line - b.range.start.line);
    assert.deepEqual(diags.map((d) => d.range.start.line + 1), [printLine, itemLine]);
    const print = diags[0];
    assert.equal(print.severity, vscode.DiagnosticSeverity.Warning);
    // The workload declares the print() break as registry id gb0059 (its o.expect graph_break_types).
    assert.equal(print.code, "gb0059");
    assert.match(print.message, /^graph break: .* — with_print, compile \d+\/\d+ · evidence u\d+-e\d+\n/);
    assert.match(print.message, new RegExp(`recorded at \\S*fixtures[\\\\/]workloads[\\\\/]graph_break\\.py:${printLine} in capture graph_break; mapped onto this file by 3 trailing path components`));
    assert.doesNotMatch(print.message, /changed since capture/);
    const evidence = print.relatedInformation?.find((r) => r.location.uri.scheme === "dynamo-diff-evidence");
    assert.ok(evidence, "the evidence record is linked");
    const opened = await vscode.workspace.openTextDocument(evidence.location.uri);
    assert.match(opened.getText(), /^# evidence u\d+-e\d+ · /);
    assert.deepEqual(ours(namesake), [], "nothing in the namesake that shares only the file name");
  });

  it("puts a CodeLens with the compile counts on each function's definition", async () => {
    const found = await until("lenses on graph_break.py", () => lenses(graphBreak), (l) => l.length === 2);
    const withPrint = found.find((l) => l.line === lineOf(graphBreak, "def with_print("));
    const withItem = found.find((l) => l.line === lineOf(graphBreak, "def with_item("));
    assert.ok(withPrint && withItem, JSON.stringify(found));
    assert.match(withPrint.title, /^dynamo-diff: \d+ compiles, 0 recompiles, 1 graph break · \d+\.\d\d s$/);
    assert.equal(withPrint.command, "dynamoDiff.openEvidence");
    assert.equal(withPrint.args?.[0], gb.id);
  });

  it("marks the diagnostics when the file changed since capture, and unmarks them when it is the same again", async () => {
    const doc = await vscode.workspace.openTextDocument(graphBreak);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), "# a line added after the capture\n"));
    const stale = await until("stale diagnostics", () => ours(graphBreak), (d) => d.length === 2 && d.every((x) => x.message.startsWith("[file changed since capture: line may have moved]")));
    assert.match(stale[0].message, /the workspace file differs from the capture's snapshot/);
    const staleLenses = await until("stale lenses", () => lenses(graphBreak), (l) => l.length === 2 && l.every((x) => x.title.startsWith("(file changed since capture)")));
    // The definition moved down a line; the lens follows `def with_print(` in the changed file.
    assert.ok(staleLenses.some((l) => l.line === lineOf(graphBreak, "def with_print(") + 1), JSON.stringify(staleLenses));
    await editor.edit((e) => e.delete(new vscode.Range(0, 0, 1, 0)));
    await until("fresh again", () => ours(graphBreak), (d) => d.length === 2 && d.every((x) => !x.message.includes("changed since capture")));
    await vscode.commands.executeCommand("workbench.action.files.save");
  });

  it("shows a recompiling function's first failing guard on its CodeLens and its failure as an error", async () => {
    const rl = await importFixture("recompile_limit");
    const state = (await vscode.commands.executeCommand("dynamoDiff.showCaptureDiagnostics", rl.id)) as FindingsState;
    assert.deepEqual(state.files.map((f) => f.file), [recompileLimit.fsPath]);
    assert.deepEqual(ours(graphBreak), [], "the other capture's diagnostics are gone");
    const defLine = lineOf(recompileLimit, "def f(");
    const [lens] = await until("a lens on f", () => lenses(recompileLimit), (l) => l.length === 1);
    assert.equal(lens.line, defLine);
    // The workload: sizes 2 and 3 compile, size 4 hits recompile_limit=2; the first guard to fail is the size guard.
    assert.match(lens.title, /^dynamo-diff: 3 compiles, 2 recompiles, 1 failed · \d+\.\d\d s · first failing guard: 0\/0: tensor 'x' size mismatch at index 0\. expected 2, actual 3$/);
    const [failure] = ours(recompileLimit);
    assert.equal(failure.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(failure.range.start.line + 1, defLine, "no line from torch: at the function's definition");
    assert.match(failure.message, /recompile limit/i);
    assert.match(failure.message, /torch gave no line: shown at the function's definition/);
  });

  it("follows the candidate of a new comparison", async () => {
    const v1 = await importFixture("break_fix_v1");
    const v2 = await importFixture("break_fix_v2");
    await vscode.commands.executeCommand("dynamoDiff.compareCaptures", v2.id, v1.id);
    const model = wsFile("break_fix", "model.py");
    const state = await until("diagnostics from the candidate", async () => (await api()).findings(), (s) => s?.capture === v1.id);
    assert.match(state!.why, /^candidate of the comparison break_fix_v2 → break_fix_v1$/);
    assert.deepEqual(state!.files.map((f) => [f.file, f.score, f.stale]), [[model.fsPath, 2, false]]);
    const lines = ours(model).map((d) => d.range.start.line + 1).sort((a, b) => a - b);
    const text = fs.readFileSync(model.fsPath, "utf8").split("\n");
    assert.ok(lines.length >= 1, "the graph breaks the fix removed are shown");
    for (const l of lines) assert.match(text[l - 1], /print\(/, `line ${l} is a print() in the workload`);
  });

  it("clears them", async () => {
    await vscode.commands.executeCommand("dynamoDiff.clearDiagnostics");
    assert.equal((await api()).findings(), undefined);
    assert.deepEqual(ours(wsFile("break_fix", "model.py")), []);
    assert.deepEqual(await lenses(recompileLimit), []);
  });
});
