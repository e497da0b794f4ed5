// The comparison table webview: how each run ended, a comparability banner, totals and one sortable row per function.
// Everything from the comparison is escaped; the page runs only its own nonce'd script under a strict CSP.
import * as crypto from "node:crypto";
import * as vscode from "vscode";
import { Comparison, CompiledStatus, Counts, FunctionPiece, FunctionRow, KeyDifference, RunStatus } from "../common/cli";
import { TABLE_PANEL } from "../common/constants";
import { compileTimeChange, compileTimeText } from "./compile-time";
import { COUNT_COLUMNS, countOf, rankViewCaptureName, rowLocation, rowName } from "./tree";

export function escapeHtml(value: unknown): string {
  return String(value ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

export function makeNonce(): string {
  return crypto.randomBytes(18).toString("base64").replace(/[^A-Za-z0-9]/g, "");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'none'",
    "font-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function countCell(row: FunctionRow, key: string): string {
  const b = countOf(row.baseline?.counts, key);
  const c = countOf(row.candidate?.counts, key);
  const delta = (c ?? 0) - (b ?? 0);
  const cls = delta > 0 ? "up" : delta < 0 ? "down" : "same";
  const text = `${b ?? "–"} → ${c ?? "–"}${delta ? ` (${signed(delta)})` : ""}`;
  return `<td class="num ${cls}" data-sort="${delta}">${escapeHtml(text)}</td>`;
}

/** Compile time, a measurement: a change within the noise rule is marked "(noise)" and not coloured. */
function compileTimeCell(row: FunctionRow): string {
  const change = compileTimeChange(row.baseline?.counts, row.candidate?.counts);
  const cls = change.noise ? "same" : change.delta > 0 ? "up" : "down";
  return `<td class="num ${cls} time" data-sort="${change.delta}">${escapeHtml(change.text)}</td>`;
}

function totalsRow(title: string, counts: Counts | undefined): string {
  return `<tr><th scope="row">${escapeHtml(title)}</th>${COUNT_COLUMNS.map(
    ({ key }) => `<td class="num">${escapeHtml(countOf(counts, key) ?? "–")}</td>`,
  ).join("")}<td class="num">${escapeHtml(compileTimeText(counts) ?? "–")}</td></tr>`;
}

function describeValue(value: unknown): string {
  return value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);
}

/** The frames a row counts (the function, its resume functions and the library frames Dynamo compiled in its
 * place), with their compile counts on each side. */
function framesItem(row: FunctionRow): string {
  if (!row.pieces || row.pieces.length === 0) {
    return "";
  }
  const frames = row.pieces.map((p) => {
    const resume = /^torch_dynamo_resume_in_.+_at_(\d+)$/.exec(p.name);
    let name = resume ? `resume at ${resume[1]}` : p.name;
    if (p.library_file) {
      const lines = [...new Set([p.baseline?.called_at, p.candidate?.called_at].filter((n): n is number => !!n))];
      const called = lines.length ? `, called at line ${lines.join(" → ")}` : "";
      name = `${name} (${p.library_file}${called})`;
    }
    const count = (side: FunctionPiece["baseline"]) => (side ? String(side.counts.observed_compilation_identities ?? 0) : "–");
    return `${name} ${count(p.baseline)} → ${count(p.candidate)}`;
  });
  return `<li><b>frames</b> ${escapeHtml(`${row.pieces.length} counted: ${frames.join("; ")}`)}</li>`;
}

function runText(run: RunStatus | null | undefined): string {
  if (!run) {
    return "run status not known";
  }
  return run.finished === false ? `DID NOT FINISH: ${run.summary} (counts may be low)` : run.summary;
}

const COMPILED_WORDS: Record<string, string> = { nothing_compiled: "COMPILED NOTHING", no_graph: "COMPILED NO GRAPH" };

/** A side that compiled nothing, before anything else: its counts are all 0, which reads as a perfect run. */
function compiledBanner(c: Comparison): string {
  const sides: [string, CompiledStatus | null | undefined][] =
    c.kind === "rank_view" ? [["the run", c.baseline.compiled]] : [["the baseline", c.baseline.compiled], ["the candidate", c.candidate.compiled]];
  const said = sides
    .filter(([, s]) => s && s.state !== "compiled")
    .map(([name, s]) => `${name} ${COMPILED_WORDS[s!.state] ?? s!.state}: ${s!.summary}`);
  return said.length ? `<div class="banner unfinished" id="compiled" role="alert">${escapeHtml(said.join(" · "))}</div>` : "";
}

/** How each run ended, first: a run that did not finish compiled less, which looks like an improvement. */
function runBanner(c: Comparison): string {
  const sides = c.kind === "rank_view" ? [c.baseline] : [c.baseline, c.candidate];
  const unfinished = sides.some((s) => s.run?.finished === false);
  const text =
    c.kind === "rank_view"
      ? `Run: ${runText(c.baseline.run)}`
      : `Runs: baseline ${runText(c.baseline.run)} · candidate ${runText(c.candidate.run)}`;
  return `<div class="banner ${unfinished ? "unfinished" : "finished"}" id="runs" role="status">${escapeHtml(text)}</div>`;
}

/** The whole page. `cspSource` is the webview's, `nonce` guards the one inline script and style. */
export function renderTable(comparison: Comparison, cspSource: string, nonce: string): string {
  const c = comparison;
  const verdict = c.comparability.verdict;
  const title =
    c.kind === "rank_view" && c.ranks
      ? `Ranks of ${rankViewCaptureName(c)} (reference rank ${c.ranks.reference_rank})`
      : `${c.baseline.label ?? c.baseline.id.slice(0, 12)} → ${c.candidate.label ?? c.candidate.id.slice(0, 12)}`;
  // What comes with a difference (a torch version's own defaults, what torch derives from dynamic=) is counted under
  // it and listed on hover: it confounds nothing by itself.
  const explained = c.comparability.explained ?? [];
  const comesWith = (key: string): string => {
    const items = explained.filter((e) => e.follows_from === key);
    if (!items.length) return "";
    const keys = items.map((e) => `${e.key}: ${e.why ?? ""}`).join("\n");
    return `, <span class="comes-with" title="${escapeHtml(keys)}">and ${items.length} difference${
      items.length === 1 ? " that comes" : "s that come"
    } with it</span>`;
  };
  const difference = (d: KeyDifference, prefix = ""): string =>
    `<li>${prefix}<code>${escapeHtml(d.key)}</code>${d.source ? ` (${escapeHtml(d.source)})` : ""}: ${
      d.key === "command" && d.why
        ? escapeHtml(d.why)
        : `${escapeHtml(describeValue(d.baseline))} → ${escapeHtml(describeValue(d.candidate))}`
    }${comesWith(d.key)}${d.affects && d.affects.length ? ` <i>can change ${escapeHtml(d.affects.join(", "))}</i>` : ""}</li>`;
  const differences =
    (c.comparability.differences ?? []).map((d) => difference(d)).join("") +
    (c.comparability.intended ?? []).map((d) => difference(d, "the change under test: ")).join("") +
    explained
      .filter((e) => !e.follows_from)
      .map((e) => `<li>not confounding: <code>${escapeHtml(e.key)}</code>: ${escapeHtml(e.why ?? "")}</li>`)
      .join("");
  const missingKeys = c.comparability.missing ?? [];
  const missing = missingKeys.length
    ? `<p>Not checked: ${missingKeys.map((m) => `<code>${escapeHtml(m)}</code>`).join(", ")}</p>`
    : "";
  const runs = compiledBanner(c) + runBanner(c);
  const bannerText =
    verdict === "comparable"
      ? "Comparable: no declared or observed setting differs."
      : verdict === "confounded"
        ? "Confounded: these settings differ, so the deltas may come from them rather than from your change."
        : "Comparability unknown: some settings could not be checked.";
  const rows = (c.functions ?? [])
    .map((row, index) => {
      // Compile-phase times differ on every row (timing noise); they stay in the tree, not in the table.
      const shown = (row.changes ?? []).filter((ch) => ch.kind !== "phase_time");
      const changes =
        shown.map((ch) => `<li><b>${escapeHtml(ch.kind)}</b> ${escapeHtml(ch.summary)}</li>`).join("") + framesItem(row);
      const open = (side: "baseline" | "candidate"): string =>
        row[side]
          ? `<button type="button" class="link" data-row="${index}" data-side="${side}" title="Open the captured source">${escapeHtml(
              rowLocation(row[side]) || side,
            )}</button>`
          : "—";
      return (
        `<tr data-index="${index}">` +
        `<td data-sort="${escapeHtml(rowName(row).toLowerCase())}"><code>${escapeHtml(rowName(row))}</code></td>` +
        `<td data-sort="${escapeHtml(row.status)}"><span class="status ${escapeHtml(row.status)}">${escapeHtml(row.status)}</span></td>` +
        `<td data-sort="${escapeHtml(row.method)}" title="${escapeHtml(row.reason ?? "")}">${escapeHtml(row.method)}</td>` +
        `<td data-sort="${escapeHtml(rowLocation(row.baseline))}">${open("baseline")}</td>` +
        `<td data-sort="${escapeHtml(rowLocation(row.candidate))}">${open("candidate")}</td>` +
        COUNT_COLUMNS.map(({ key }) => countCell(row, key)).join("") +
        compileTimeCell(row) +
        `<td data-sort="${shown.length}"><ul class="changes">${changes}</ul></td>` +
        `</tr>`
      );
    })
    .join("\n");
  const countHeads = COUNT_COLUMNS.map(
    ({ title: t }, i) => `<th scope="col" data-col="${5 + i}" data-type="num" aria-sort="none">${escapeHtml(t)}</th>`,
  ).join("") +
    `<th scope="col" data-col="${5 + COUNT_COLUMNS.length}" data-type="num" aria-sort="none" title="Dynamo's whole-frame compile time, summed; a change under 25% or 0.1 s is noise">compile time</th>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dynamo Diff: ${escapeHtml(title)}</title>
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em 2em; }
  .banner { padding: .6em 1em; border-left: 4px solid; margin: 1em 0; }
  .banner.comparable { border-color: var(--vscode-testing-iconPassed, green); }
  .banner.confounded { border-color: var(--vscode-editorWarning-foreground, orange); }
  .banner.unknown { border-color: var(--vscode-descriptionForeground, gray); }
  .banner.unfinished { border-color: var(--vscode-editorError-foreground, #c00); }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid var(--vscode-panel-border, #8884); padding: .3em .5em; text-align: left; vertical-align: top; }
  #rows thead th { cursor: pointer; user-select: none; white-space: nowrap; }
  #rows thead th[aria-sort="ascending"]::after { content: " ▲"; }
  #rows thead th[aria-sort="descending"]::after { content: " ▼"; }
  td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
  td.up { color: var(--vscode-editorError-foreground, #c00); }
  td.down { color: var(--vscode-testing-iconPassed, #080); }
  ul.changes { margin: 0; padding-left: 1.1em; min-width: 24em; }
  button.link { background: none; border: none; padding: 0; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; text-align: left; }
  .totals { width: auto; margin-bottom: 1em; }
</style>
</head>
<body>
<h2>${escapeHtml(title)}</h2>
${runs}
<div class="banner ${escapeHtml(verdict)}" id="comparability" role="status"><b>${escapeHtml(bannerText)}</b>
${differences ? `<ul>${differences}</ul>` : ""}${missing}</div>
<table class="totals" id="totals"><thead><tr><th></th>${COUNT_COLUMNS.map(({ title: t }) => `<th scope="col">${escapeHtml(t)}</th>`).join("")}<th scope="col">compile time</th></tr></thead>
<tbody>${totalsRow(`baseline (${c.baseline.label ?? c.baseline.id.slice(0, 12)})`, c.totals.baseline)}${totalsRow(
    `candidate (${c.candidate.label ?? c.candidate.id.slice(0, 12)})`,
    c.totals.candidate,
  )}</tbody></table>
<table id="rows">
<thead><tr>
<th scope="col" data-col="0" aria-sort="none">function</th><th scope="col" data-col="1" aria-sort="none">status</th>
<th scope="col" data-col="2" aria-sort="none">method</th><th scope="col" data-col="3" aria-sort="none">baseline</th>
<th scope="col" data-col="4" aria-sort="none">candidate</th>${countHeads}
<th scope="col" data-col="${6 + COUNT_COLUMNS.length}" data-type="num" aria-sort="none">changes</th>
</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<script nonce="${nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const table = document.getElementById("rows");
  const body = table.tBodies[0];
  table.tHead.addEventListener("click", function (event) {
    const th = event.target.closest("th");
    if (!th) return;
    const col = Number(th.dataset.col);
    const numeric = th.dataset.type === "num";
    const dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    for (const other of table.tHead.querySelectorAll("th")) other.setAttribute("aria-sort", "none");
    th.setAttribute("aria-sort", dir);
    const rows = Array.from(body.rows);
    rows.sort(function (a, b) {
      const x = a.cells[col].dataset.sort || "";
      const y = b.cells[col].dataset.sort || "";
      const r = numeric ? Number(x) - Number(y) : x.localeCompare(y);
      return dir === "ascending" ? r : -r;
    });
    for (const row of rows) body.appendChild(row);
  });
  body.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-row]");
    if (!button) return;
    vscode.postMessage({ type: "openSource", row: Number(button.dataset.row), side: button.dataset.side });
  });
})();
</script>
</body>
</html>`;
}

/** A message from the page, checked before anything acts on it. */
export function readTableMessage(
  message: unknown,
  rowCount: number,
): { type: "openSource"; row: number; side: "baseline" | "candidate" } | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (m.type !== "openSource") return undefined;
  if (typeof m.row !== "number" || !Number.isInteger(m.row) || m.row < 0 || m.row >= rowCount) return undefined;
  if (m.side !== "baseline" && m.side !== "candidate") return undefined;
  return { type: "openSource", row: m.row, side: m.side };
}

/** One table panel, reused; shows the last good comparison. */
export class ComparisonTable {
  private panel: vscode.WebviewPanel | undefined;
  private comparison: Comparison | undefined;

  constructor(private readonly openSource: (comparison: Comparison, row: number, side: "baseline" | "candidate") => void) {}

  show(comparison: Comparison): void {
    this.comparison = comparison;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(TABLE_PANEL, "Dynamo Diff", vscode.ViewColumn.Active, {
        enableScripts: true,
        localResourceRoots: [],
        retainContextWhenHidden: false,
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((raw) => {
        const current = this.comparison;
        if (!current) return;
        const message = readTableMessage(raw, (current.functions ?? []).length);
        if (message) this.openSource(current, message.row, message.side);
      });
    } else {
      this.panel.reveal();
    }
    const c = comparison;
    this.panel.title = `Dynamo Diff: ${c.kind === "rank_view" ? `${rankViewCaptureName(c)} ranks` : `${c.baseline.label ?? c.baseline.id.slice(0, 12)} → ${c.candidate.label ?? c.candidate.id.slice(0, 12)}`}`;
    this.panel.webview.html = renderTable(comparison, this.panel.webview.cspSource, makeNonce());
  }

  /** Re-renders an open panel (e.g. after a new comparison); does not open one. */
  update(comparison: Comparison): void {
    if (this.panel) this.show(comparison);
    else this.comparison = comparison;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
