// Dynamo Diff in VS Code: activation wires the pieces together. The settings, the output channel, running the
// CLI and the session's state are in common/; the commands in commands/; the tree, the table, the read-only
// documents and the source editor in views/. All of it is backed by the dynamo-diff CLI.
import * as vscode from "vscode";
import { CaptureRow, CliError, Comparison } from "./common/cli";
import { CAPTURES_VIEW, CONFIG_SECTION, EVIDENCE_SCHEME, SOURCE_SCHEME } from "./common/constants";
import { ErrorReporter } from "./common/errors";
import { Log } from "./common/log";
import { CliRunner } from "./common/runner";
import { Session } from "./common/session";
import { pinnedVersion } from "./common/settings";
import { CaptureCommands } from "./commands/captures";
import { ComparisonCommands } from "./commands/comparison";
import { EvidenceCommands } from "./commands/evidence";
import { FindingsCommands } from "./commands/findings";
import { SourceCommands } from "./commands/source";
import { DocumentContent } from "./views/document-content";
import { DynamoDiffDocuments } from "./views/documents";
import { SourceEditors } from "./views/source-editor";
import { ComparisonTable } from "./views/table";
import { DynamoDiffTree } from "./views/tree";
import { FindingsState, WorkspaceFindings } from "./views/workspace-findings";

/** What `activate` returns; the extension-host tests read the state through it. */
export interface DynamoDiffApi {
  captures(): CaptureRow[];
  comparison(): Comparison | undefined;
  lastError(): CliError | undefined;
  cliPath(): Promise<string>;
  /** The capture whose graph breaks and failures are shown in the workspace files, and where. */
  findings(): FindingsState | undefined;
}

export function activate(context: vscode.ExtensionContext): DynamoDiffApi {
  const pinned = pinnedVersion(context);
  const log = new Log();
  const cli = new CliRunner(log, pinned);
  const errors = new ErrorReporter(log);
  const session = new Session(cli, log);

  const sourceEditors = new SourceEditors();
  const content = new DocumentContent(cli, session, sourceEditors);
  const documents = new DynamoDiffDocuments(content);
  const tree = new DynamoDiffTree(session);
  const source = new SourceCommands(session, errors, log, content, sourceEditors);
  const table = new ComparisonTable((comparison, row, side) => source.openRow(comparison, row, side));

  const captures = new CaptureCommands(cli, session, errors);
  const comparisons = new ComparisonCommands(cli, session, errors, table, context.globalStorageUri);
  const evidence = new EvidenceCommands(session, errors, content);
  const findings = new WorkspaceFindings(session, log);
  const findingsCommands = new FindingsCommands(session, errors, log, findings);

  context.subscriptions.push(
    vscode.window.createTreeView(CAPTURES_VIEW, { treeDataProvider: tree, showCollapseAll: true }),
    session.onDidChange(() => tree.refresh()),
    ...captures.register(),
    ...comparisons.register(),
    ...source.register(),
    ...evidence.register(),
    ...findingsCommands.register(),
    findings,
    vscode.languages.registerCodeLensProvider({ language: "python", scheme: "file" }, findings),
    log,
    table,
    sourceEditors,
    session,
    vscode.workspace.registerTextDocumentContentProvider(SOURCE_SCHEME, documents),
    vscode.workspace.registerTextDocumentContentProvider(EVIDENCE_SCHEME, documents),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(CONFIG_SECTION) || e.affectsConfiguration("python")) void captures.refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void captures.refresh()),
  );
  if (vscode.workspace.isTrusted) void session.startup();
  return {
    captures: () => session.captures(),
    comparison: () => session.comparison(),
    lastError: () => errors.last(),
    cliPath: () => cli.resolve(),
    findings: () => findings.state(),
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions; running CLI calls end with their tokens.
}
