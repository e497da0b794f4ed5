// Where the read-only documents' text comes from: the CLI's `source` (the view is remembered for the source
// editor) and `evidence --offset` a page at a time (remembering where each page's next one starts).
import * as vscode from "vscode";
import { args, parseEvidenceExcerpt, parseSource } from "../common/cli";
import { CliRunner, Token } from "../common/runner";
import { Session } from "../common/session";
import { pageChars } from "../common/settings";
import { DocumentBackend, EvidenceRef, SourceRef, evidenceUri, renderEvidence } from "./documents";
import { SourceEditors } from "./source-editor";
import { SourceView, renderSource, sourceView } from "./source-view";

export class DocumentContent implements DocumentBackend {
  private readonly pages = new Map<string, { offset: number; next: number | null }>();

  constructor(
    private readonly cli: CliRunner,
    private readonly session: Session,
    private readonly sourceEditors: SourceEditors,
  ) {}

  // Captures are immutable, so a view read by openSource (or earlier) is still the document's text.
  async source(ref: SourceRef, token: Token, uri: vscode.Uri): Promise<string> {
    return renderSource((this.sourceEditors.viewOf(uri) ?? (await this.loadSource(ref, uri, token))).location);
  }

  async evidence(ref: EvidenceRef, token: Token): Promise<string> {
    const excerpt = parseEvidenceExcerpt((await this.cli.run(args.evidenceExcerpt(ref.capture, ref.evidence, ref.offset, pageChars()), token)).stdout);
    this.pages.set(evidenceUri(ref, this.session.nameOf(ref.capture)).toString(), { offset: excerpt.offset, next: excerpt.next_offset ?? null });
    return renderEvidence(excerpt);
  }

  /** Runs `dynamo-diff source ... --format json` and keeps the chosen location for the document at `uri`. */
  async loadSource(ref: SourceRef, uri: vscode.Uri, token?: Token): Promise<SourceView> {
    const found = parseSource((await this.cli.run(args.source(ref.capture, ref.fn), token)).stdout);
    const view = sourceView(found, this.session.nameOf(ref.capture), ref.line);
    this.sourceEditors.remember(uri, view);
    return view;
  }

  /** The evidence page shown at `uri` and where the next one starts (null: it is the last); undefined if not read. */
  evidencePage(uri: vscode.Uri): { offset: number; next: number | null } | undefined {
    return this.pages.get(uri.toString());
  }
}
