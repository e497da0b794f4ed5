// Running the dynamo-diff CLI from VS Code: found and version-checked once (again after `forget`), only in a
// trusted workspace, with the store setting, each command line written to the output channel, cancellable.
// The CLI itself (discovery, argument lists, running, parsing) is in cli.ts, which does not import `vscode`.
import * as os from "node:os";
import * as vscode from "vscode";
import { CliError, args, checkVersion, discoverCli, globalArgs, isExecutableFile, runCli } from "./cli";
import { Log } from "./log";
import { interpreter } from "./python";
import { cliPathSetting, storePath, workspaceDir } from "./settings";

export type Token = vscode.CancellationToken;

export function requireTrust(): void {
  if (!vscode.workspace.isTrusted) {
    throw new CliError("untrusted_workspace", "Dynamo Diff runs the dynamo-diff CLI only in a trusted workspace");
  }
}

/** A CLI step behind a cancellable progress notification. */
export function withProgress<T>(title: string, work: (token: Token) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Dynamo Diff: ${title}`, cancellable: true },
    (_progress, token) => work(token),
  );
}

export class CliRunner {
  private resolved: Promise<string> | undefined;

  constructor(
    private readonly log: Log,
    private readonly pinnedVersion: string,
  ) {}

  /** The CLI's path, after checking it is the pinned version; a failure is not kept, so the next call tries again. */
  resolve(): Promise<string> {
    if (!this.resolved) {
      this.resolved = (async () => {
        const found = discoverCli({
          cliPath: cliPathSetting(),
          pythonPath: await interpreter(this.log),
          envPath: process.env.PATH,
          platform: process.platform,
          baseDir: workspaceDir(),
          isExecutable: isExecutableFile,
        });
        const { stdout } = await runCli(found.path, args.version(), { cwd: workspaceDir() ?? os.homedir() });
        const version = checkVersion(stdout, this.pinnedVersion, found.path);
        this.log.line(`using ${found.path} (${found.source}), dynamo-diff ${version}`);
        return found.path;
      })();
      this.resolved.catch(() => (this.resolved = undefined));
    }
    return this.resolved;
  }

  /** Finds the CLI again on the next call (the settings or the Python interpreter may have changed). */
  forget(): void {
    this.resolved = undefined;
  }

  /** Runs the CLI with the store option; no shell, argument arrays only. */
  async run(argv: string[], token?: Token): Promise<{ stdout: string; stderr: string }> {
    requireTrust();
    const exe = await this.resolve();
    const full = [...globalArgs(storePath()), ...argv];
    this.log.line(`$ ${[exe, ...full].map((a) => JSON.stringify(a)).join(" ")}`);
    return runCli(exe, full, { cwd: workspaceDir() ?? os.homedir(), token });
  }
}
