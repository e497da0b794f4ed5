// Failures as the CLI's errors, shown to the user: in the output channel and a notification (with the install
// command when the CLI is missing, the wrong version or prints another schema); the last one is kept for the
// extension-host tests.
import * as vscode from "vscode";
import { CliError, installCommand } from "./cli";
import { CONFIG_SECTION } from "./constants";
import { Log } from "./log";

export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof vscode.CancellationError) return new CliError("cancelled", "cancelled");
  return new CliError("internal", err instanceof Error ? err.message : String(err));
}

export class ErrorReporter {
  private error: CliError | undefined;

  constructor(private readonly log: Log) {}

  last(): CliError | undefined {
    return this.error;
  }

  /** After a command succeeded in what the last error was about (a new comparison). */
  clear(): void {
    this.error = undefined;
  }

  /** Shows a failure with the CLI's error code; the install command is offered for a version mismatch. */
  report(err: unknown): void {
    const e = toCliError(err);
    this.error = e;
    this.log.line(`error: ${e.display()}`);
    if (e.code === "cancelled") {
      void vscode.window.showInformationMessage(`Dynamo Diff: ${e.message}`);
      return;
    }
    // A CLI that is missing, the wrong version or prints documents of another schema: the pinned one fixes it.
    if (e.code === "cli_version" || e.code === "cli_not_found" || e.code === "unsupported_schema") {
      const command = installCommand();
      void vscode.window.showErrorMessage(`Dynamo Diff: ${e.display()}`, "Copy Install Command", "Open Settings").then((choice) => {
        if (choice === "Copy Install Command") void vscode.env.clipboard.writeText(command);
        if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", CONFIG_SECTION);
      });
      return;
    }
    void vscode.window.showErrorMessage(`Dynamo Diff: ${e.display()}`);
  }
}
