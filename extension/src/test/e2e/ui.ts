/// <reference lib="dom" />
// The UI test in a real VS Code (code-server) with the packaged .vsix installed, driven like a user would:
// command palette, the file dialog, quick picks, the Explorer tree, the table webview and read-only documents.
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Frame, Page } from "playwright-core";
import { parseEvidenceIndex } from "../../common/cli";
import { EXTENSION_DIR, e2eEnv, editorEnv, fail, freePort, launchBrowser, start, tail, tempDir, waitForHttp, writeJson } from "./common";

const STEP_MS = 30000;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** F1, the command's title, Enter. Retries while the workbench is still registering the extension's commands. */
async function runCommand(page: Page, title: string): Promise<void> {
  const until = Date.now() + STEP_MS * 2;
  for (;;) {
    await page.keyboard.press("Escape");
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ state: "visible", timeout: STEP_MS });
    await input.fill(`>${title}`);
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
    try {
      await row.waitFor({ state: "visible", timeout: 3000 });
      await page.keyboard.press("Enter");
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
    }
  }
}

/** Waits for the quick pick or input box titled `title`, types `text` and accepts. */
async function answer(page: Page, title: string, text: string, expectRow?: string): Promise<void> {
  const input = page.locator(".quick-input-widget input");
  await page.locator(".quick-input-widget .quick-input-title", { hasText: title }).waitFor({ state: "visible", timeout: STEP_MS });
  await input.fill(text);
  if (expectRow) {
    await page.locator(".quick-input-list .monaco-list-row", { hasText: expectRow }).first().waitFor({ state: "visible", timeout: STEP_MS });
  }
  await page.keyboard.press("Enter");
}

async function notification(page: Page, text: string): Promise<void> {
  await page.locator(".notification-toast", { hasText: text }).first().waitFor({ state: "visible", timeout: STEP_MS });
}

async function importCapture(page: Page, folder: string, label: string): Promise<void> {
  await runCommand(page, "Dynamo Diff: Import Capture");
  // The web workbench's own file dialog: a quick input that fills in the current folder once it has read it.
  await page.waitForFunction(
    () => {
      const el = document.querySelector<HTMLInputElement>(".quick-input-widget input");
      const title = document.querySelector(".quick-input-widget .quick-input-title");
      return !!el && el.value.endsWith("/") && /Import a capture/.test(title?.textContent ?? "");
    },
    undefined,
    { timeout: STEP_MS },
  );
  // Typing the folder with a trailing "/" makes the dialog list its contents; its OK button then takes that folder.
  // The dialog may still be filling in its own start folder when we type, so this retries until the label
  // prompt shows the folder's name.
  const input = page.locator(".quick-input-widget input");
  const labelPrompt = async (timeout: number): Promise<boolean> =>
    page
      .waitForFunction(
        (name) => {
          const el = document.querySelector<HTMLInputElement>(".quick-input-widget input");
          const title = document.querySelector(".quick-input-widget .quick-input-title");
          return !!el && el.value === name && /Label for this capture/.test(title?.textContent ?? "");
        },
        path.basename(folder),
        { timeout },
      )
      .then(() => true)
      .catch(() => false);
  // If the dialog finishes filling in its start folder after we typed, the two run together
  // ("<start>//<folder>/") and the folder is never listed: type it again.
  for (let attempt = 1; ; attempt++) {
    const wait = attempt < 3 ? 5000 : STEP_MS;
    await input.fill(`${folder}/`);
    const listed = await page
      .locator(".quick-input-list .monaco-list-row", { hasText: "manifest.json" })
      .first()
      .waitFor({ state: "visible", timeout: wait })
      .then(() => true)
      .catch(() => false);
    if (listed && (await input.inputValue()) === `${folder}/`) {
      await page.locator(".quick-input-widget .monaco-button", { hasText: "Import" }).first().click();
      if (await labelPrompt(wait)) break;
    }
    if (attempt >= 3) throw new Error(`the file dialog did not take ${folder}`);
  }
  await input.fill(label);
  await page.keyboard.press("Enter");
  await notification(page, `Dynamo Diff: imported ${label}`);
}

async function tableFrame(page: Page): Promise<Frame> {
  const until = Date.now() + STEP_MS;
  while (Date.now() < until) {
    for (const frame of page.frames()) {
      try {
        if (await frame.locator("table#rows").count()) return frame;
      } catch {
        // frame went away while looking
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error("the comparison table webview did not appear");
}

async function readRows(frame: Frame): Promise<string[][]> {
  return frame.locator("table#rows tbody tr").evaluateAll((rows) =>
    rows.map((r) => Array.from((r as HTMLTableRowElement).cells).map((c) => c.innerText.replace(/\s*\n\s*/g, "; ").replace(/\s+/g, " ").trim())),
  );
}

async function editorText(page: Page): Promise<string> {
  const lines = page.locator(".editor-instance .monaco-editor .view-lines").first();
  await lines.waitFor({ state: "visible", timeout: STEP_MS });
  return (await lines.innerText()).replace(/\u00a0/g, " ");
}

interface ShownLine {
  number: number;
  text: string;
  selected: boolean;
  /** Text an editor decoration draws after the line's content (CSS ::after), if any. */
  after: string;
}

/** The lines the text editor draws: the line number in the gutter, the text, and whether it is selected. */
async function shownLines(page: Page): Promise<ShownLine[]> {
  return page.evaluate(() => {
    const editor = document.querySelector(".editor-instance .monaco-editor");
    if (!editor) return [];
    // Gutter, text and overlays each draw one absolutely placed row per line: rows at the same top are one line.
    const top = (el: Element | null): string => (el as HTMLElement | null)?.style.top ?? "";
    const numbers = new Map<string, number>();
    for (const n of Array.from(editor.querySelectorAll(".margin-view-overlays .line-numbers"))) numbers.set(top(n.parentElement), Number(n.textContent));
    const selected = new Set(Array.from(editor.querySelectorAll(".view-overlays .selected-text")).map((el) => top(el.parentElement)));
    return Array.from(editor.querySelectorAll(".view-lines .view-line"))
      .map((line) => ({
        number: numbers.get(top(line)) ?? 0,
        text: (line as HTMLElement).innerText.replace(/\u00a0/g, " "),
        selected: selected.has(top(line)),
        after: Array.from(line.querySelectorAll("span"))
          .map((span) => getComputedStyle(span, "::after").content)
          .filter((c) => c && c !== "none" && c !== "normal")
          .join(" "),
      }))
      .sort((a, b) => a.number - b.number);
  });
}

/** The id of edit_v1's recompile_reasons record, asked of the CLI (ids are positions in the trace's index). */
function recompileEvidenceId(env: ReturnType<typeof e2eEnv>): string {
  const store = tempDir("dd-ev-");
  const options = { env: { ...process.env, DYNAMO_DIFF_STORE: store }, encoding: "utf8" as const };
  execFileSync(env.cli, ["import", path.join(env.fixtures, "edit_v1"), "--label", "v1"], options);
  const page = parseEvidenceIndex(execFileSync(env.cli, ["evidence", "v1", "--kind", "recompile_reasons", "--format", "json"], options));
  const first = page.items?.[0];
  if (!first) throw new Error("edit_v1 has no recompile_reasons record");
  return first.id;
}

/** The line numbers (in the gutter) of the lines the editor draws a warning squiggle on. */
async function squiggleLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const editor = document.querySelector(".editor-instance .monaco-editor");
    if (!editor) return [];
    const top = (el: Element | null): string => (el as HTMLElement | null)?.style.top ?? "";
    const numbers = new Map<string, number>();
    for (const n of Array.from(editor.querySelectorAll(".margin-view-overlays .line-numbers"))) numbers.set(top(n.parentElement), Number(n.textContent));
    const lines = Array.from(editor.querySelectorAll(".view-overlays .squiggly-warning")).map((el) => numbers.get(top(el.parentElement)) ?? 0);
    return [...new Set(lines)].sort((a, b) => a - b);
  });
}

/** The CodeLens texts the editor shows above the lines. */
async function codeLensTexts(page: Page): Promise<string[]> {
  return page.locator(".editor-instance .monaco-editor .codelens-decoration").evaluateAll((els) =>
    els.map((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, " ").trim()).filter(Boolean),
  );
}

/**
 * A fixture workload laid into the workspace as the user's own file: the capture's graph breaks show as warnings at
 * its lines, in the Problems panel, in a hover and as CodeLens on the function definitions.
 */
async function diagnosticsInWorkspaceFile(page: Page, env: ReturnType<typeof e2eEnv>, ws: string, shot: (name: string) => Promise<unknown>): Promise<void> {
  const file = path.join(ws, "fixtures", "workloads", "graph_break.py");
  const source = fs.readFileSync(file, "utf8").split("\n");
  // Expected lines read from the workload itself: its print() call is the graph break, with_print its function.
  const breakLine = source.findIndex((l) => l.includes('print("dynamo-diff fixture')) + 1;
  const defLine = source.findIndex((l) => l.startsWith("def with_print(")) + 1;
  check(breakLine > 0 && defLine > 0, "the workload has its print() break and with_print");

  await importCapture(page, path.join(env.fixtures, "graph_break"), "graph_break");
  console.log("imported graph_break");
  // Open the workspace file the way a user does: Go to File.
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: STEP_MS });
  await input.fill("fixtures/workloads/graph_break.py");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "graph_break.py" }).first().waitFor({ state: "visible", timeout: STEP_MS });
  await page.keyboard.press("Enter");
  await page.locator(".tab", { hasText: "graph_break.py" }).first().waitFor({ state: "visible", timeout: STEP_MS });

  await runCommand(page, "Dynamo Diff: Show Capture Diagnostics in Workspace Files");
  await answer(page, "Capture whose graph breaks and failures", "graph_break", "graph_break");
  await notification(page, "Dynamo Diff: graph_break: 2 graph break(s) and failure(s) in 1 workspace file(s)");
  await page.waitForFunction(() => document.querySelectorAll(".editor-instance .view-overlays .squiggly-warning").length > 0, undefined, { timeout: STEP_MS });
  const squiggles = await squiggleLines(page);
  check(squiggles.includes(breakLine), `a warning squiggle on line ${breakLine} (the print() break): ${squiggles}`);
  console.log(`warning squiggles on lines ${squiggles.join(", ")}; the workload's print() is line ${breakLine}`);

  // The Problems panel lists it with the graph-break id and the line.
  await page.keyboard.press("Control+Shift+M");
  const problem = page.locator(".markers-panel .monaco-list-row", { hasText: "graph break" }).first();
  await problem.waitFor({ state: "visible", timeout: STEP_MS });
  const problems = await page.locator(".markers-panel .monaco-list-row").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, " ").trim()));
  console.log(`Problems panel:\n  ${problems.join("\n  ")}`);
  check(
    problems.some((p) => p.includes("dynamo-diff") && p.includes("gb0059") && p.includes(`[Ln ${breakLine},`)),
    `the Problems panel lists the print() break as gb0059 at line ${breakLine}: ${problems.join(" | ")}`,
  );

  // CodeLens on the function definitions, read back from the editor.
  await page.waitForFunction(() => document.querySelectorAll(".editor-instance .codelens-decoration").length >= 2, undefined, { timeout: STEP_MS });
  const lenses = await codeLensTexts(page);
  console.log(`CodeLens: ${lenses.join(" | ")}`);
  check(lenses.some((t) => /^dynamo-diff: \d+ compiles, 0 recompiles, 1 graph break · \d+\.\d\d s$/.test(t)), `CodeLens with the counts: ${lenses.join(" | ")}`);
  await shot("codelens.png");

  // Hover the break's line: the message names the evidence and the recorded path it was mapped from.
  const lines = await shownLines(page);
  check(lines.some((l) => l.number === breakLine), `line ${breakLine} is in view`);
  const lineBox = await page.evaluate((n) => {
    const editor = document.querySelector(".editor-instance .monaco-editor")!;
    const top = (el: Element | null): string => (el as HTMLElement | null)?.style.top ?? "";
    const gutter = Array.from(editor.querySelectorAll(".margin-view-overlays .line-numbers")).find((x) => Number(x.textContent) === n);
    const line = Array.from(editor.querySelectorAll(".view-lines .view-line")).find((x) => top(x) === top(gutter?.parentElement ?? null));
    const span = line?.querySelector("span span");
    const r = (span ?? line)?.getBoundingClientRect();
    return r ? { x: r.left + Math.min(60, r.width / 2), y: r.top + r.height / 2 } : undefined;
  }, breakLine);
  check(lineBox, `the text of line ${breakLine} is drawn`);
  // Put the cursor on the break's line, then "Show or Focus Hover" (what the mouse shows after a pause).
  await page.mouse.click(lineBox.x, lineBox.y);
  // Home: to the first character after the indentation (where the diagnostic starts), then into the call.
  await page.keyboard.press("Home");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await page.locator(".statusbar", { hasText: `Ln ${breakLine}, Col 8` }).first().waitFor({ state: "visible", timeout: STEP_MS });
  await runCommand(page, "Show or Focus Hover");
  const hover = page.locator(".monaco-hover", { hasText: "graph break" }).first();
  await hover.waitFor({ state: "visible", timeout: STEP_MS });
  const hoverText = (await hover.innerText()).replace(/\s+/g, " ");
  console.log(`hover: ${hoverText.slice(0, 400)}`);
  check(/recorded at \S*graph_break\.py:\d+ in capture graph_break; mapped onto this file by 3 trailing path components/.test(hoverText), `the hover says which recorded path it maps: ${hoverText}`);
  check(/evidence u\d+-e\d+/.test(hoverText), `the hover names the evidence: ${hoverText}`);
  await page.waitForTimeout(500); // the command palette fades out
  await shot("diagnostics.png");
}

function treeRow(page: Page, label: string) {
  return page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Dynamo Diff" }) }).locator(".monaco-list-row", { hasText: label }).first();
}

async function main(): Promise<void> {
  const env = e2eEnv();
  const vsix = process.env.E2E_VSIX ?? path.join(EXTENSION_DIR, "dynamo-diff.vsix");
  if (!fs.existsSync(vsix)) fail(`no .vsix at ${vsix}: run npm run package first`);
  const root = tempDir("dd-ui-");
  const ws = path.join(root, "workspace");
  fs.mkdirSync(path.join(ws, "fixtures", "workloads"), { recursive: true });
  // The user's own file: the graph_break workload, where its trace recorded it (…/fixtures/workloads/graph_break.py).
  fs.copyFileSync(path.join(env.fixtures, "..", "workloads", "graph_break.py"), path.join(ws, "fixtures", "workloads", "graph_break.py"));
  const userData = path.join(root, "user-data");
  const extensions = path.join(root, "extensions");
  const settings = {
    // Machine-scoped settings of a remote window come from the server's Machine settings, so both files hold them.
    "dynamoDiff.cliPath": env.cli,
    "dynamoDiff.storePath": path.join(root, "store"),
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "telemetry.telemetryLevel": "off",
    "files.simpleDialog.enable": true,
    "chat.disableAIFeatures": true,
  };
  writeJson(path.join(userData, "User", "settings.json"), settings);
  writeJson(path.join(userData, "Machine", "settings.json"), settings);
  const editor = editorEnv(env, path.join(root, "home"));
  const entry = path.join(env.codeServer, "out", "node", "entry.js");
  const node = path.join(env.node24, "bin", "node");
  const common = ["--user-data-dir", userData, "--extensions-dir", extensions, "--disable-telemetry", "--disable-update-check"];
  const installed = spawnSync(node, [entry, ...common, "--install-extension", vsix], { env: editor, encoding: "utf8", timeout: 120000 });
  if (installed.status !== 0) fail(`installing ${vsix} failed (${installed.status}):\n${installed.stdout}\n${installed.stderr}`);
  check(fs.readdirSync(extensions).some((d) => d.startsWith("dynamo-diff.dynamo-diff-")), "the .vsix is installed");
  console.log(`installed ${path.basename(vsix)}`);

  const port = await freePort();
  const log = path.join(env.artifacts, "ui-code-server.log");
  const server = start(
    node,
    [entry, ...common, "--bind-addr", `127.0.0.1:${port}`, "--auth", "none", "--disable-workspace-trust", "--disable-getting-started-override", ws],
    editor,
    log,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/healthz`, 60000, server.child, log);
  const browser = await launchBrowser(env.chromium, path.join(root, "chromium"));
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  // The workbench's console (the extension host's messages included) goes to a file next to the screenshots.
  const consoleLog = fs.openSync(path.join(env.artifacts, "ui-console.log"), "w");
  page.on("console", (m) => fs.writeSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
  let passed = false;
  const shot = (name: string) => page.screenshot({ path: path.join(env.artifacts, name) });
  try {
    await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`);
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 60000 });
    await page.locator(".statusbar").waitFor({ state: "visible", timeout: 60000 });

    await importCapture(page, path.join(env.fixtures, "edit_v1"), "v1");
    console.log("imported v1");
    await importCapture(page, path.join(env.fixtures, "edit_v2"), "v2");
    console.log("imported v2");

    await runCommand(page, "Dynamo Diff: Compare Captures");
    await answer(page, "Baseline capture", "v1", "v1");
    await answer(page, "Candidate capture", "v2", "v2");
    const frame = await tableFrame(page);
    await frame.locator("#comparability").waitFor({ state: "visible", timeout: STEP_MS });
    const banner = (await frame.locator("#comparability").innerText()).trim();
    check(/^Comparable/.test(banner), `banner says comparable: ${banner}`);
    const rows = await readRows(frame);
    console.log("table rows:");
    for (const r of rows) console.log(`  ${r.join(" | ")}`);
    const names = rows.map((r) => r[0]).sort();
    check(JSON.stringify(names) === JSON.stringify(["encoder", "gate", "postprocess"]), `rows are the three functions: ${names}`);
    const gate = rows.find((r) => r[0] === "gate")!;
    check(gate[1] === "matched" && gate[2] === "line_diff", `gate is matched by line diff: ${gate}`);
    check(gate[5] === "2 → 1 (−1)" && gate[6] === "1 → 0 (−1)", `gate: compilations 2→1, recompiles 1→0: ${gate}`);
    // Sort by compilations, descending after two clicks: the candidate-only helper (+1) comes first.
    const header = frame.locator("table#rows thead th", { hasText: "compilations" });
    await header.click();
    await header.click();
    const sorted = await readRows(frame);
    check(sorted[0][0] === "postprocess" && sorted[sorted.length - 1][0] === "gate", `sorted by compilations: ${sorted.map((r) => r[0])}`);
    await shot("table.png");

    // The tree in the Explorer.
    await runCommand(page, "View: Show Explorer");
    const paneHeader = page.locator(".pane-header", { hasText: "Dynamo Diff" }).first();
    await paneHeader.waitFor({ state: "visible", timeout: STEP_MS });
    if ((await paneHeader.getAttribute("aria-expanded")) !== "true") await paneHeader.click();
    await treeRow(page, "Comparison: v1 → v2").waitFor({ state: "visible", timeout: STEP_MS });
    const gateRow = treeRow(page, "gate");
    await gateRow.waitFor({ state: "visible", timeout: STEP_MS });
    const gateText = (await gateRow.innerText()).replace(/\s+/g, " ");
    check(gateText.includes("matched (line_diff) · compilations 2→1, recompiles 1→0"), `tree row for gate: ${gateText}`);
    await gateRow.click();
    await page.keyboard.press("ArrowRight");

    // A captured source snapshot, opened from the tree.
    const sourceRow = treeRow(page, "Source (baseline): model.py:21");
    await sourceRow.waitFor({ state: "visible", timeout: STEP_MS });
    await sourceRow.click();
    await page.locator(".tab", { hasText: "model.py" }).first().waitFor({ state: "visible", timeout: STEP_MS });
    await page.waitForFunction(() => /def gate\(x, flag: bool\):/.test((document.querySelector(".editor-instance .view-lines") as HTMLElement | null)?.innerText.replace(/\u00a0/g, " ") ?? ""), undefined, { timeout: STEP_MS });
    const source = await editorText(page);
    check(source.includes("def gate(x, flag: bool):") && source.includes("v1: branches on a python bool"), `source text:\n${source}`);
    // The whole snapshot at its real line numbers, gate's lines 21-25 selected, the capture named after line 21.
    await page.waitForFunction(() => document.querySelectorAll(".editor-instance .monaco-editor .view-overlays .selected-text").length >= 5, undefined, { timeout: STEP_MS });
    const shown = await shownLines(page);
    const line = (n: number) => shown.find((l) => l.number === n);
    const listing = shown.map((l) => `${l.selected ? "*" : " "}${l.number} | ${l.text}${l.after ? `   ${l.after}` : ""}`).join("\n");
    check(line(1)?.text === '"""edit fixture model (version 1).', `line 1 is the snapshot's first line:\n${listing}`);
    check(line(21)?.text === "def gate(x, flag: bool):", `line 21 is gate's def:\n${listing}`);
    const selected = shown.filter((l) => l.selected).map((l) => l.number);
    check(JSON.stringify(selected) === JSON.stringify([21, 22, 23, 24, 25]), `lines 21-25 are selected (${selected}):\n${listing}`);
    check(/captured in v1 · model\.py lines 21-25/.test(line(21)?.after ?? ""), `line 21 says where it was captured:\n${listing}`);
    await page.locator(".statusbar", { hasText: "captured in v1 · model.py lines 21-25" }).first().waitFor({ state: "visible", timeout: STEP_MS });
    console.log(`source document shows the whole v1 snapshot with gate selected at lines 21-25:\n${listing.split("\n").slice(18, 27).join("\n")}`);
    await shot("source.png");

    // The evidence behind the removed recompile, opened from the change row.
    const changeRow = treeRow(page, "recompile_reason");
    await changeRow.click();
    await page.keyboard.press("ArrowRight");
    // The change row can sit at the bottom of the view with its hover tooltip over the row below: move the mouse
    // away and focus the first child, which scrolls it into view.
    await page.mouse.move(5, 5);
    await page.keyboard.press("ArrowDown");
    const evidenceId = recompileEvidenceId(env);
    const evidenceRow = treeRow(page, `baseline ${evidenceId}`);
    await evidenceRow.waitFor({ state: "visible", timeout: STEP_MS });
    await evidenceRow.click();
    await page.locator(".tab", { hasText: evidenceId }).first().waitFor({ state: "visible", timeout: STEP_MS });
    await page.waitForFunction((id) => ((document.querySelector(".editor-instance .view-lines") as HTMLElement | null)?.innerText.replace(/\u00a0/g, " ") ?? "").includes(`# evidence ${id}`), evidenceId, { timeout: STEP_MS });
    const evidence = await editorText(page);
    check(evidence.includes(`# evidence ${evidenceId} · recompile_reasons · compile 0/1`) && evidence.includes('"recompile_reasons"'), `evidence text:\n${evidence}`);
    console.log(`evidence document shows ${evidenceId} (recompile_reasons)`);
    await shot("evidence.png");
    await runCommand(page, "Dynamo Diff: Show Comparison Table");
    await tableFrame(page);
    await page.waitForTimeout(500);
    await shot("screenshot.png");

    await diagnosticsInWorkspaceFile(page, env, ws, shot);
    console.log(`UI test passed; screenshots in ${env.artifacts}`);
    passed = true;
  } catch (err) {
    await shot("failure.png").catch(() => undefined);
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n(screenshot ${path.join(env.artifacts, "failure.png")}; code-server log:\n${tail(log, 15)})`);
  } finally {
    await browser.close();
    server.stop();
    // Kept after a failure, for the logs and the store.
    if (passed) fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
