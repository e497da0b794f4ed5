// Commands on the store: import a capture, and refresh (find the CLI again, read the captures again).
import * as path from "node:path";
import * as vscode from "vscode";
import { CaptureRow, ImportedCapture, ImportResult, args, parseImport } from "../common/cli";
import { Command } from "../common/constants";
import { ErrorReporter } from "../common/errors";
import { CliRunner, requireTrust, withProgress } from "../common/runner";
import { Session } from "../common/session";
import { workspaceUri } from "../common/settings";
import { captureName } from "../views/tree";

export class CaptureCommands {
  constructor(
    private readonly cli: CliRunner,
    private readonly session: Session,
    private readonly errors: ErrorReporter,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(Command.importCapture, (target?: vscode.Uri | string, label?: string) => this.importCapture(target, label)),
      vscode.commands.registerCommand(Command.refresh, () => this.refresh()),
    ];
  }

  async importCapture(target?: vscode.Uri | string, label?: string): Promise<CaptureRow | undefined> {
    try {
      requireTrust();
      let where = typeof target === "string" ? target : target?.fsPath;
      if (!where) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: true,
          canSelectMany: false,
          openLabel: "Import",
          title: "Import a capture: a TORCH_TRACE directory or log, a tlparse export, or a bundle",
          defaultUri: workspaceUri(),
        });
        if (!picked?.length) return undefined;
        where = picked[0].fsPath;
        label = await vscode.window.showInputBox({
          title: "Label for this capture (optional)",
          prompt: "A name to pick it by later, e.g. before or after",
          value: path.basename(where),
          ignoreFocusOut: true,
        });
        if (label === undefined) return undefined;
      }
      const target_ = where;
      const imported = await withProgress(`importing ${path.basename(target_)}`, async (token) =>
        parseImport((await this.cli.run(args.importCapture(target_, label?.trim() || undefined), token)).stdout),
      );
      const list = await this.session.refreshCaptures();
      void vscode.window.showInformationMessage(`Dynamo Diff: ${importedText(imported)}`);
      // A folder of runs imports each run on its own: the first one's row stands for the import.
      return list.find((c) => c.id === imported.captures[0].id);
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }

  /** Also run when the settings or the workspace trust change. */
  async refresh(): Promise<CaptureRow[] | undefined> {
    this.session.forget();
    this.cli.forget();
    try {
      return await this.session.refreshCaptures();
    } catch (err) {
      this.errors.report(err);
      return undefined;
    }
  }
}

/** `imported v1 (c49b978f9e05)`, `v1 (c49b978f9e05) was already in the store`, or for a folder of runs
 * `imported 3 runs of runs/: a (...), b (...), c (...)`. */
export function importedText(result: ImportResult & { captures: ImportedCapture[] }): string {
  const one = (c: ImportedCapture) => `${captureName(c)}${c.created ? "" : " (already in the store)"}`;
  if (!result.folder_of_runs) {
    const c = result.captures[0];
    return c.created ? `imported ${captureName(c)}` : `${captureName(c)} was already in the store`;
  }
  return `imported ${result.captures.length} run(s) of a folder of runs: ${result.captures.map(one).join(", ")}`;
}
