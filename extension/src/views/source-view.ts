// What a captured source document shows: the whole snapshot file of the chosen location, the function's
// lines in it, and the words that describe it (kept off the document's lines, so line N stays line N).
// Nothing here imports `vscode`, so all of it is unit-tested with plain Node.
import { SourceFound, SourceLocation } from "../common/cli";

export interface SourceView {
  captureName: string;
  fn: string;
  location: SourceLocation;
  /** Which of the CLI's locations this is (0-based) and how many there were. */
  index: number;
  count: number;
  /** The function's lines as 0-based document lines, inside the document. */
  startLine: number;
  endLine: number;
}

/** The location whose first line is the one the row asked for, else the first one. */
export function pickLocation(result: SourceFound, line?: number): number {
  if (line !== undefined) {
    const at = result.locations.findIndex((l) => l.co_firstlineno === line);
    if (at >= 0) return at;
  }
  return 0;
}

/** How many lines an editor shows for `text` (a final newline starts one more, empty line). */
export function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

/** The document text: the captured file exactly as stored, so document line N is captured line N. */
export function renderSource(location: SourceLocation): string {
  return location.text;
}

export function sourceView(result: SourceFound, captureName: string, line?: number): SourceView {
  const index = pickLocation(result, line);
  const location = result.locations[index];
  const last = lineCount(location.text) - 1;
  const startLine = Math.min(Math.max(location.first_line - 1, 0), last);
  const endLine = Math.min(Math.max(location.last_line - 1, startLine), last);
  return { captureName, fn: result.function, location, index, count: result.locations.length, startLine, endLine };
}

function shortHash(sha256: string): string {
  return sha256.slice(0, 12);
}

/** One line for the end of the function's first line and the status bar. */
export function sourceLabel(view: SourceView): string {
  const l = view.location;
  const which = view.count > 1 ? ` · ${view.index + 1} of ${view.count} matches for “${view.fn}”` : "";
  return `captured in ${view.captureName} · ${l.snapshot} lines ${l.first_line}-${l.last_line}${which}`;
}

/** The whole description, for the hover on the function's lines. */
export function sourceHeader(view: SourceView): string {
  const l = view.location;
  const lines = [
    `Captured source snapshot (not the working-tree file) from capture ${view.captureName}`,
    `${l.co_filename}:${l.co_firstlineno}, captured as ${l.snapshot}`,
    `function ${view.fn}: lines ${l.first_line}-${l.last_line}`,
    `snapshot sha256 ${shortHash(l.sha256)}`,
  ];
  const note = matchNote(view);
  if (note) lines.push(note);
  return lines.join("\n");
}

/** Said when the function name matched more than one place, else undefined. */
export function matchNote(view: SourceView): string | undefined {
  if (view.count < 2) return undefined;
  const l = view.location;
  return `${view.count} functions in ${view.captureName} match “${view.fn}”; showing ${view.index + 1} of ${view.count}: ${l.co_filename}:${l.co_firstlineno}`;
}
