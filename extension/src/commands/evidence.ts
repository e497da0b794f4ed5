// Opening an evidence record as a read-only document, and paging through a long one.
import * as vscode from "vscode";
import { Command, EVIDENCE_SCHEME } from "../common/constants";
import { ErrorReporter } from "../common/errors";
import { requireTrust } from "../common/runner";
import { Session } from "../common/session";
import { pageChars } from "../common/settings";
import { DocumentContent } from "../views/document-content";
import { EvidenceRef, evidenceUri, parseEvidenceUri } from "../views/documents";

export class EvidenceCommands {
  constructor(
    private readonly session: Session,
    private readonly errors: ErrorReporter,
    private readonly content: DocumentContent,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(Command.openEvidence, (capture: string, evidence: string, offset?: number) =>
        this.openEvidence(capture, evidence, offset),
      ),
      vscode.commands.registerCommand(Command.evidenceNextPage, (uri?: vscode.Uri) => this.evidencePage(1, uri)),
      vscode.commands.registerCommand(Command.evidencePreviousPage, (uri?: vscode.Uri) => this.evidencePage(-1, uri)),
    ];
  }

  async openEvidence(capture: string, evidence: string, offset = 0): Promise<vscode.TextEditor | undefined> {
    try {
      requireTrust();
      const uri = evidenceUri({ capture, evidence, offset }, this.session.nameOf(capture));
      const doc = await vscode.workspace.openTextDocument(uri);
      return await vscode.window.showTextDocument(doc, { preview: true });
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }

  /** The next or previous page of the evidence document at `uri`, else of the active editor's. */
  async evidencePage(direction: 1 | -1, uri?: vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target || target.scheme !== EVIDENCE_SCHEME) {
      void vscode.window.showInformationMessage("Dynamo Diff: open an evidence document first.");
      return undefined;
    }
    const ref: EvidenceRef = parseEvidenceUri(target);
    const page = this.content.evidencePage(target);
    let offset: number;
    if (direction > 0) {
      if (!page || page.next === null) {
        void vscode.window.showInformationMessage("Dynamo Diff: this is the last page of the evidence.");
        return undefined;
      }
      offset = page.next;
    } else {
      if (ref.offset === 0) {
        void vscode.window.showInformationMessage("Dynamo Diff: this is the first page of the evidence.");
        return undefined;
      }
      offset = Math.max(0, ref.offset - pageChars());
    }
    return this.openEvidence(ref.capture, ref.evidence, offset);
  }
}
