// Read-only virtual documents: a function's whole captured source snapshot (never the working-tree file; see
// source-view.ts) and one evidence record, a page at a time. The text comes from the CLI; these documents
// cannot be edited or saved.
import * as vscode from "vscode";
import { EvidenceExcerpt } from "../common/cli";
import { EVIDENCE_SCHEME, SOURCE_SCHEME } from "../common/constants";

export interface SourceRef {
  capture: string;
  fn: string;
  line?: number;
}

export interface EvidenceRef {
  capture: string;
  evidence: string;
  offset: number;
}

function segment(text: string): string {
  return text.replace(/[\\/?#%]/g, "_");
}

/** `dynamo-diff-source:/<capture>/<file>?...`; the path ends with the file name so the language is detected. */
export function sourceUri(ref: SourceRef, captureName: string, fileName?: string): vscode.Uri {
  const query = new URLSearchParams({ capture: ref.capture, function: ref.fn });
  if (ref.line) query.set("line", String(ref.line));
  const name = fileName || `${ref.fn.replace(/:\d+$/, "")}.py`;
  return vscode.Uri.from({ scheme: SOURCE_SCHEME, path: `/${segment(captureName)}/${segment(name)}`, query: query.toString() });
}

export function evidenceUri(ref: EvidenceRef, captureName: string): vscode.Uri {
  const query = new URLSearchParams({ capture: ref.capture, evidence: ref.evidence, offset: String(ref.offset) });
  const page = ref.offset ? `@${ref.offset}` : "";
  return vscode.Uri.from({
    scheme: EVIDENCE_SCHEME,
    path: `/${segment(captureName)}/${segment(ref.evidence)}${page}.log`,
    query: query.toString(),
  });
}

export function parseSourceUri(uri: vscode.Uri): SourceRef {
  const q = new URLSearchParams(uri.query);
  const capture = q.get("capture");
  const fn = q.get("function");
  if (!capture || !fn) throw new Error(`not a Dynamo Diff source address: ${uri.toString()}`);
  const line = Number(q.get("line"));
  return { capture, fn, line: Number.isInteger(line) && line > 0 ? line : undefined };
}

export function parseEvidenceUri(uri: vscode.Uri): EvidenceRef {
  const q = new URLSearchParams(uri.query);
  const capture = q.get("capture");
  const evidence = q.get("evidence");
  if (!capture || !evidence) throw new Error(`not a Dynamo Diff evidence address: ${uri.toString()}`);
  const offset = Number(q.get("offset") ?? "0");
  return { capture, evidence, offset: Number.isInteger(offset) && offset >= 0 ? offset : 0 };
}

export const EVIDENCE_HEADER_LINES = 4;

/** A header (what the record is, which characters this page holds) then the excerpt text exactly as stored. */
export function renderEvidence(excerpt: EvidenceExcerpt): string {
  const e = excerpt.evidence;
  const end = excerpt.offset + excerpt.text.length;
  const more =
    excerpt.next_offset !== null && excerpt.next_offset !== undefined
      ? ` · more: “Dynamo Diff: Next Evidence Page” (from ${excerpt.next_offset})`
      : excerpt.offset > 0
        ? " · last page"
        : "";
  return [
    `# evidence ${e.id} · ${e.kind} · compile ${e.compile_id ?? "-"} · rank ${e.rank ?? "-"}`,
    `# ${e.file}:${e.line} · sha256 ${e.sha256} (checked when read)`,
    `# characters ${excerpt.offset}-${end} of ${excerpt.total_chars}${more}`,
    "",
    excerpt.text,
  ].join("\n");
}

export interface DocumentBackend {
  /** The text of the source document at `uri` (which `ref` was read from). */
  source(ref: SourceRef, token: vscode.CancellationToken, uri: vscode.Uri): Promise<string>;
  evidence(ref: EvidenceRef, token: vscode.CancellationToken): Promise<string>;
}

export class DynamoDiffDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly backend: DocumentBackend) {}

  provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    if (uri.scheme === SOURCE_SCHEME) return this.backend.source(parseSourceUri(uri), token, uri);
    return this.backend.evidence(parseEvidenceUri(uri), token);
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }
}
