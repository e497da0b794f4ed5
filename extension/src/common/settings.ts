// The extension's settings (package.json "configuration"), read afresh each time, the CLI version this build is
// for, and the workspace folder that relative settings resolve against and the CLI runs in.
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { resolveUserPath } from "./cli";
import { CONFIG_SECTION, Setting } from "./constants";

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(CONFIG_SECTION);
}

/** The first workspace folder. */
export function workspaceUri(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

export function workspaceDir(): string | undefined {
  return workspaceUri()?.fsPath;
}

/** `dynamoDiff.cliPath` as written (`discoverCli` trims and resolves it). */
export function cliPathSetting(): string {
  return config().get<string>(Setting.cliPath, "");
}

/** `dynamoDiff.pythonPath`, trimmed; empty when not set. */
export function pythonPathSetting(): string {
  return config().get<string>(Setting.pythonPath, "").trim();
}

/** `dynamoDiff.storePath` resolved against the workspace folder (and `~`); undefined when not set. */
export function storePath(): string | undefined {
  const configured = config().get<string>(Setting.storePath, "").trim();
  return configured ? resolveUserPath(configured, workspaceDir(), os.homedir()) : undefined;
}

/** The store folder the CLI will use (the setting, DYNAMO_DIFF_STORE, else .dynamo-diff in its working folder). */
export function effectiveStore(): string {
  return storePath() ?? process.env.DYNAMO_DIFF_STORE ?? path.join(workspaceDir() ?? os.homedir(), ".dynamo-diff");
}

/** Characters per page of an evidence document. */
export function pageChars(): number {
  return Math.max(100, config().get<number>(Setting.evidencePageChars, 20000));
}

/** Whether each new comparison's candidate feeds the diagnostics and CodeLens. */
export function diagnosticsFollowComparison(): boolean {
  return config().get<boolean>(Setting.diagnosticsFollowComparison, true);
}

/** Whether CodeLens show each function's compile counts on its definition. */
export function codeLensEnabled(): boolean {
  return config().get<boolean>(Setting.codeLens, true);
}

/** The CLI version this build is for: package.json's `dynamoDiff.cliVersion`, else the extension's version. */
export function pinnedVersion(context: vscode.ExtensionContext): string {
  const pkg = context.extension.packageJSON as { dynamoDiff?: { cliVersion?: string }; version: string };
  return pkg.dynamoDiff?.cliVersion ?? pkg.version;
}
