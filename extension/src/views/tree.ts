// The Dynamo Diff tree: the comparison's function rows and the imported captures, down to compilations and the
// evidence records behind them. `childrenOf` and `describe` are plain functions over plain data (unit-tested);
// `DynamoDiffTree` only adapts them to VS Code.
import * as vscode from "vscode";
import {
  Analysis,
  CaptureRow,
  Change,
  Comparison,
  Compilation,
  Counts,
  EvidenceItem,
  FunctionRow,
  RowSide,
  sourceFunctionArg,
} from "../common/cli";
import { Command } from "../common/constants";

export type Side = "baseline" | "candidate";

export type Node =
  | { kind: "message"; text: string; detail?: string }
  | { kind: "comparison"; comparison: Comparison }
  | { kind: "divergences"; comparison: Comparison }
  | { kind: "captures"; captures: CaptureRow[] }
  | { kind: "capture"; capture: CaptureRow }
  | { kind: "row"; comparison: Comparison; row: FunctionRow; index: number }
  | { kind: "source"; captureId: string; captureLabel: string; side?: Side; fn: string; file: string | null; line: number | null }
  | { kind: "change"; comparison: Comparison; change: Change }
  | { kind: "compilations"; captureId: string; side: Side; rowSide: RowSide }
  | { kind: "compilation"; captureId: string; compilation: Compilation; side?: Side }
  | { kind: "evidence"; captureId: string; evidenceId: string; side?: Side; item?: EvidenceItem };

/** What the tree needs from the rest of the extension. */
export interface TreeSource {
  captures(): CaptureRow[];
  comparison(): Comparison | undefined;
  /** A problem to show instead of the captures (e.g. the CLI was not found). */
  problem(): string | undefined;
  analysis(captureId: string): Promise<Analysis>;
  evidenceIndex(captureId: string): Promise<Map<string, EvidenceItem>>;
}

export interface Described {
  label: string;
  description?: string;
  tooltip?: string;
  expandable: boolean;
  expanded?: boolean;
  icon?: string;
  command?: { command: string; title: string; arguments: unknown[] };
  contextValue: string;
}

export const COUNT_COLUMNS: { key: string; title: string }[] = [
  { key: "observed_compilation_identities", title: "compilations" },
  { key: "confirmed_recompilation_identities", title: "recompiles" },
  { key: "graph_break_records", title: "graph breaks" },
  { key: "failed", title: "failed" },
];

export function countOf(counts: Counts | undefined, key: string): number | undefined {
  const value = (counts as Record<string, unknown> | undefined)?.[key];
  return typeof value === "number" ? value : undefined;
}

/** `2→1` for a count on both sides, `–→1` when one side is missing. */
export function arrow(baseline: number | undefined, candidate: number | undefined): string {
  return `${baseline ?? "–"}→${candidate ?? "–"}`;
}

export function rowName(row: FunctionRow): string {
  return row.candidate?.qualified_name ?? row.baseline?.qualified_name ?? "(unnamed function)";
}

export function rowLocation(side: RowSide | null | undefined): string {
  if (!side) return "";
  // Generated code (a compiled-autograd graph) is named for what it is; its made-up file name is no location.
  const where = side.generated ? "" : side.file ? `${side.file}${side.line ? `:${side.line}` : ""}` : "";
  return side.rank !== null && side.rank !== undefined ? `rank ${side.rank} ${where}`.trim() : where;
}

/** The counts that changed, e.g. `compilations 2→1, recompiles 1→0`; "no count changes" otherwise. */
export function rowDeltaText(row: FunctionRow): string {
  const parts: string[] = [];
  for (const { key, title } of COUNT_COLUMNS) {
    const b = countOf(row.baseline?.counts, key);
    const c = countOf(row.candidate?.counts, key);
    if ((b ?? 0) !== (c ?? 0)) parts.push(`${title} ${arrow(b, c)}`);
  }
  return parts.length ? parts.join(", ") : "no count changes";
}

export function captureName(c: { id: string; label?: string | null }): string {
  return c.label ? `${c.label} (${c.id.slice(0, 12)})` : c.id.slice(0, 12);
}

function shortLabel(c: { id: string; label?: string | null }): string {
  return c.label ?? c.id.slice(0, 12);
}

/** The capture whose ranks a rank view compares, by its label: the CLI labels the view's sides `LABEL rank N`
 * (N the rank on that side), so the reference side's label without ` rank N` is the capture's. */
export function rankViewCaptureName(c: Comparison): string {
  const label = shortLabel(c.baseline);
  const suffix = ` rank ${c.ranks?.reference_rank}`;
  return c.ranks && label.endsWith(suffix) && label.length > suffix.length ? label.slice(0, -suffix.length) : label;
}

function statusIcon(status: string): string {
  switch (status) {
    case "matched":
      return "pass";
    case "baseline_only":
      return "remove";
    case "candidate_only":
      return "add";
    case "ambiguous":
      return "question";
    default:
      return "circle-outline";
  }
}

function baseName(p: string | null | undefined): string {
  if (!p) return "";
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1];
}

export function describe(node: Node): Described {
  switch (node.kind) {
    case "message":
      return { label: node.text, tooltip: node.detail ?? node.text, expandable: false, icon: "info", contextValue: "message" };
    case "comparison": {
      const c = node.comparison;
      const differences = c.comparability.differences ?? [];
      const title =
        c.kind === "rank_view" && c.ranks
          ? `Ranks of ${rankViewCaptureName(c)}: ${c.ranks.ranks.join(", ")} against rank ${c.ranks.reference_rank}`
          : `${shortLabel(c.baseline)} → ${shortLabel(c.candidate)}`;
      return {
        label: `Comparison: ${title}`,
        description: `${c.comparability.verdict} · ${(c.functions ?? []).length} functions`,
        tooltip: `${c.comparability.verdict}${differences.length ? ` (differs: ${differences.map((d) => d.key).join(", ")})` : ""}`,
        expandable: true,
        expanded: true,
        icon: c.comparability.verdict === "comparable" ? "git-compare" : "warning",
        contextValue: "comparison",
      };
    }
    case "divergences":
      return {
        label: "Rank divergences",
        description: String(node.comparison.ranks?.divergences?.length ?? 0),
        expandable: true,
        expanded: true,
        icon: "split-horizontal",
        contextValue: "divergences",
      };
    case "captures":
      return {
        label: "Captures",
        description: String(node.captures.length),
        expandable: true,
        expanded: true,
        icon: "database",
        contextValue: "captures",
      };
    case "capture": {
      const c = node.capture;
      // How the run ended first, as `dynamo-diff list` says it; a run that compiled nothing says so right after:
      // its counts are all 0, which reads as a perfect run.
      const empty = c.compiled_state === "nothing_compiled" ? "; NOTHING COMPILED" : c.compiled_state === "no_graph" ? "; NO GRAPH COMPILED" : "";
      return {
        label: captureName(c),
        description: `${c.run_state}${empty} · ${c.input_kind} · torch ${c.torch_version ?? "?"} · ${c.rank_count} rank(s) · ${c.imported_at}`,
        tooltip: `${c.id}\nrun: ${c.run_state}\ncompiled: ${c.compiled_state}\nartifact structure: ${c.artifact_structure}`,
        expandable: true,
        icon: "archive",
        contextValue: "capture",
      };
    }
    case "row": {
      const row = node.row;
      return {
        label: rowName(row),
        description: `${row.status} (${row.method}) · ${rowDeltaText(row)}`,
        tooltip: [
          `${row.status} by ${row.method}${row.reason ? `: ${row.reason}` : ""}`,
          `baseline: ${rowLocation(row.baseline) || "—"}`,
          `candidate: ${rowLocation(row.candidate) || "—"}`,
          ...(row.changes ?? []).map((ch) => `${ch.kind}: ${ch.summary}`),
        ].join("\n"),
        expandable: true,
        icon: statusIcon(row.status),
        contextValue: "row",
      };
    }
    case "source":
      return {
        label: `Source${node.side ? ` (${node.side})` : ""}: ${baseName(node.file) || node.fn}${node.line ? `:${node.line}` : ""}`,
        description: `captured snapshot · ${node.captureLabel}`,
        expandable: false,
        icon: "file-code",
        command: {
          command: Command.openSource,
          title: "Open Captured Source",
          arguments: [node.captureId, node.fn, node.line ?? undefined, baseName(node.file) || undefined],
        },
        contextValue: "source",
      };
    case "change":
      return {
        label: node.change.kind,
        description: node.change.summary,
        tooltip: node.change.summary,
        expandable: (node.change.baseline_evidence ?? []).length + (node.change.candidate_evidence ?? []).length > 0,
        icon: "diff-modified",
        contextValue: "change",
      };
    case "compilations":
      return {
        label: `Compilations (${node.side})`,
        description: (node.rowSide.compile_ids ?? []).join(", ") || "none",
        expandable: (node.rowSide.compile_ids ?? []).length > 0,
        icon: "layers",
        contextValue: "compilations",
      };
    case "compilation": {
      const c = node.compilation;
      const code = c.code ?? {};
      const where = code.co_filename ? `${baseName(code.co_filename)}:${code.co_firstlineno ?? "?"}` : "";
      const rank = c.identity.rank !== null && c.identity.rank !== undefined ? `rank ${c.identity.rank} ` : "";
      return {
        label: `${rank}${c.compile_id} ${code.qualified_name ?? code.co_name ?? ""}`.trim(),
        description: `${c.outcome}${where ? ` · ${where}` : ""}`,
        tooltip: c.outcome_reason ?? c.outcome,
        expandable: (c.evidence_ids ?? []).length > 0,
        icon: c.outcome === "completed" ? "check" : c.outcome === "failed" ? "error" : "circle-outline",
        contextValue: "compilation",
      };
    }
    case "evidence": {
      const it = node.item;
      return {
        label: `${node.side ? `${node.side} ` : ""}${node.evidenceId}`,
        description: it ? `${it.kind}${it.compile_id ? ` · ${it.compile_id}` : ""} · ${it.file}:${it.line}` : undefined,
        tooltip: it ? `${it.kind}\n${it.file}:${it.line}\nsha256 ${it.sha256}` : node.evidenceId,
        expandable: false,
        icon: "note",
        command: {
          command: Command.openEvidence,
          title: "Open Evidence",
          arguments: [node.captureId, node.evidenceId],
        },
        contextValue: "evidence",
      };
    }
  }
}

function sideCapture(comparison: Comparison, side: Side): { id: string; label?: string | null } {
  return side === "baseline" ? comparison.baseline : comparison.candidate;
}

async function evidenceNodes(
  source: TreeSource,
  captureId: string,
  ids: string[],
  side?: Side,
): Promise<Node[]> {
  let index: Map<string, EvidenceItem> | undefined;
  try {
    index = await source.evidenceIndex(captureId);
  } catch {
    index = undefined; // labels without kinds are still useful; opening the evidence reports the error
  }
  return ids.map((id) => ({ kind: "evidence", captureId, evidenceId: id, side, item: index?.get(id) }));
}

export async function childrenOf(node: Node | undefined, source: TreeSource): Promise<Node[]> {
  if (!node) {
    const out: Node[] = [];
    const problem = source.problem();
    if (problem) out.push({ kind: "message", text: problem });
    const comparison = source.comparison();
    if (comparison) out.push({ kind: "comparison", comparison });
    const captures = source.captures();
    if (captures.length) out.push({ kind: "captures", captures });
    else if (!problem) out.push({ kind: "message", text: "No captures yet: run “Dynamo Diff: Import Capture”." });
    return out;
  }
  switch (node.kind) {
    case "comparison": {
      const rows: Node[] = (node.comparison.functions ?? []).map((row, index) => ({
        kind: "row",
        comparison: node.comparison,
        row,
        index,
      }));
      if (node.comparison.ranks?.divergences?.length) rows.unshift({ kind: "divergences", comparison: node.comparison });
      return rows;
    }
    case "divergences": {
      const out: Node[] = [];
      for (const d of node.comparison.ranks?.divergences ?? []) {
        out.push({ kind: "message", text: `rank ${d.rank} vs ${d.reference_rank} at ${d.compile_id ?? "?"}`, detail: d.reason });
        out.push(...(await evidenceNodes(source, node.comparison.baseline.id, d.evidence_ids ?? [])));
      }
      return out;
    }
    case "captures":
      return node.captures.map((capture) => ({ kind: "capture", capture }));
    case "capture": {
      const analysis = await source.analysis(node.capture.id);
      return analysis.ranks.flatMap((r) =>
        (r.compilations ?? []).map((compilation): Node => ({ kind: "compilation", captureId: node.capture.id, compilation })),
      );
    }
    case "row": {
      const { comparison, row } = node;
      const out: Node[] = [];
      for (const side of ["baseline", "candidate"] as const) {
        const rs = row[side];
        if (!rs || rs.generated) continue; // generated code has no source to show
        const fn = sourceFunctionArg(rs.file ?? null, rs.line ?? null, rs.qualified_name ?? null);
        const cap = sideCapture(comparison, side);
        if (fn) out.push({ kind: "source", captureId: cap.id, captureLabel: shortLabel(cap), side, fn, file: rs.file ?? null, line: rs.line ?? null });
      }
      for (const change of row.changes ?? []) out.push({ kind: "change", comparison, change });
      for (const side of ["baseline", "candidate"] as const) {
        const rs = row[side];
        if (rs && rs.compile_ids?.length) out.push({ kind: "compilations", captureId: sideCapture(comparison, side).id, side, rowSide: rs });
      }
      return out;
    }
    case "change": {
      const { comparison, change } = node;
      return [
        ...(await evidenceNodes(source, comparison.baseline.id, change.baseline_evidence ?? [], "baseline")),
        ...(await evidenceNodes(source, comparison.candidate.id, change.candidate_evidence ?? [], "candidate")),
      ];
    }
    case "compilations": {
      const analysis = await source.analysis(node.captureId);
      const wanted = new Set(node.rowSide.compile_ids ?? []);
      const rank = node.rowSide.rank;
      const out: Node[] = [];
      for (const r of analysis.ranks) {
        for (const compilation of r.compilations ?? []) {
          const compRank = compilation.identity.rank ?? r.rank ?? null;
          if (!wanted.has(compilation.compile_id)) continue;
          if (rank !== null && rank !== undefined && compRank !== rank) continue;
          out.push({ kind: "compilation", captureId: node.captureId, compilation, side: node.side });
        }
      }
      return out;
    }
    case "compilation":
      return evidenceNodes(source, node.captureId, node.compilation.evidence_ids ?? []);
    default:
      return [];
  }
}

/** Adapts `childrenOf`/`describe` to VS Code's tree view. */
export class DynamoDiffTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly source: TreeSource) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const d = describe(node);
    const state = !d.expandable
      ? vscode.TreeItemCollapsibleState.None
      : d.expanded
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(d.label, state);
    item.description = d.description;
    item.tooltip = d.tooltip;
    item.contextValue = d.contextValue;
    if (d.icon) item.iconPath = new vscode.ThemeIcon(d.icon);
    if (d.command) item.command = d.command;
    return item;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    try {
      return await childrenOf(node, this.source);
    } catch (err) {
      const text = err instanceof Error && "display" in err ? (err as { display(): string }).display() : String(err);
      return [{ kind: "message", text: `Could not load: ${text}` }];
    }
  }
}
