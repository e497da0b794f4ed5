// Opening a function's captured source: from the tree (the openSource command) and from a row of the table.
import * as path from "node:path";
import * as vscode from "vscode";
import { Comparison, sourceFunctionArg } from "../common/cli";
import { Command } from "../common/constants";
import { ErrorReporter } from "../common/errors";
import { Log } from "../common/log";
import { requireTrust } from "../common/runner";
import { Session } from "../common/session";
import { DocumentContent } from "../views/document-content";
import { SourceRef, sourceUri } from "../views/documents";
import { SourceEditors } from "../views/source-editor";
import { matchNote } from "../views/source-view";

export class SourceCommands {
  constructor(
    private readonly session: Session,
    private readonly errors: ErrorReporter,
    private readonly log: Log,
    private readonly content: DocumentContent,
    private readonly sourceEditors: SourceEditors,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(Command.openSource, (capture: string, fn: string, line?: number, fileName?: string) =>
        this.openSource(capture, fn, line, fileName),
      ),
    ];
  }

  /** The table asked for one side of a row. */
  openRow(comparison: Comparison, row: number, side: "baseline" | "candidate"): void {
    const r = comparison.functions?.[row];
    const rs = r?.[side];
    if (!rs || rs.generated) return; // generated code (a compiled-autograd graph) has no source
    const fn = sourceFunctionArg(rs.file ?? null, rs.line ?? null, rs.qualified_name ?? null);
    const capture = side === "baseline" ? comparison.baseline.id : comparison.candidate.id;
    if (fn) void this.openSource(capture, fn, rs.line ?? undefined, rs.file ? path.basename(rs.file) : undefined);
  }

  /**
   * Opens the whole captured snapshot (document line N is captured line N) with the function's lines selected
   * and highlighted; when the name matched several functions, says how many and which one is shown.
   */
  async openSource(capture: string, fn: string, line?: number, fileName?: string): Promise<vscode.TextEditor | undefined> {
    try {
      requireTrust();
      const ref: SourceRef = { capture, fn, line };
      const uri = sourceUri(ref, this.session.nameOf(capture), fileName);
      // Read first, here, so a failure keeps the CLI's error code (the document provider's errors lose it).
      await this.content.loadSource(ref, uri);
      const doc = await vscode.workspace.openTextDocument(uri);
      const view = this.sourceEditors.viewOf(doc.uri);
      if (!view) {
        // Not rendered by this extension instance (cannot normally happen): fall back to the asked-for line.
        const at = new vscode.Position(Math.max(0, Math.min((line ?? 1) - 1, doc.lineCount - 1)), 0);
        return await vscode.window.showTextDocument(doc, { preview: true, selection: new vscode.Range(at, at) });
      }
      const editor = await vscode.window.showTextDocument(doc, { preview: true, selection: this.sourceEditors.selection(doc, view) });
      this.sourceEditors.reveal(editor);
      const note = matchNote(view);
      if (note) {
        this.log.line(note);
        void vscode.window.showInformationMessage(`Dynamo Diff: ${note}`);
      }
      return editor;
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }
}
