// Shared pieces of the two real-editor drivers: the environment they need, child processes, the browser.
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Browser, chromium } from "playwright-core";

export const EXTENSION_DIR = path.resolve(__dirname, "..", "..", "..");

/** A required environment variable; a missing one fails the run with the reason. */
export function need(name: string, what: string): string {
  const value = process.env[name];
  if (!value) fail(`${name} is not set (${what})`);
  return value;
}

export function fail(message: string): never {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

export interface E2eEnv {
  codeServer: string; // the code-server package folder (holds out/node/entry.js and lib/vscode)
  node24: string; // a Node.js 24 folder (bin/node)
  cli: string;
  fixtures: string;
  chromium: string;
  artifacts: string;
}

export function e2eEnv(): E2eEnv {
  const env: E2eEnv = {
    codeServer: need("E2E_CODE_SERVER", "the code-server package folder"),
    node24: need("E2E_NODE24", "a Node.js 24 folder"),
    cli: need("DYNAMO_DIFF_CLI", "the dynamo-diff executable"),
    fixtures: need("DYNAMO_DIFF_FIXTURES", "fixtures/captures"),
    chromium: process.env.CHROMIUM ?? "/usr/bin/chromium",
    artifacts: process.env.E2E_ARTIFACTS ?? path.join(EXTENSION_DIR, "test-artifacts"),
  };
  for (const [what, p] of [
    ["code-server's VS Code server", path.join(env.codeServer, "lib", "vscode", "out", "server-main.js")],
    ["Node.js 24", path.join(env.node24, "bin", "node")],
    ["the dynamo-diff CLI", env.cli],
    ["the edit_v1 fixture", path.join(env.fixtures, "edit_v1")],
    ["Chromium", env.chromium],
  ]) {
    if (!fs.existsSync(p)) fail(`${what} is missing: ${p}`);
  }
  fs.mkdirSync(env.artifacts, { recursive: true });
  return env;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a process in its own group, its output to a log file; `stop` ends the whole group. */
export function start(command: string, argv: string[], env: NodeJS.ProcessEnv, log: string): { child: ChildProcess; stop(): void } {
  const out = fs.openSync(log, "w");
  const child = spawn(command, argv, { env, stdio: ["ignore", out, out], detached: true });
  const stop = (): void => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  };
  process.on("exit", stop);
  return { child, stop };
}

export async function waitForHttp(url: string, timeoutMs: number, child: ChildProcess, log: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) fail(`the editor server exited with ${child.exitCode}; log ${log}:\n${tail(log)}`);
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get(url, (res) => {
        res.resume();
        resolve((res.statusCode ?? 500) < 500);
      });
      req.on("error", () => resolve(false));
      req.setTimeout(2000, () => req.destroy());
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  fail(`the editor did not answer at ${url} within ${timeoutMs} ms; log ${log}:\n${tail(log)}`);
}

export function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

export function launchBrowser(executablePath: string, profile: string): Promise<Browser> {
  // Without the background-networking flags Chromium tries the network and stalls on these machines.
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      `--user-data-dir=${profile}`,
    ].filter((a) => !a.startsWith("--user-data-dir")),
  });
}

/** Environment for the editor: Node 24 first, config and data in temp folders, nothing in the home folder. */
export function editorEnv(env: E2eEnv, home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${path.join(env.node24, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    DYNAMO_DIFF_FIXTURES: env.fixtures,
    ...extra,
  };
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/**
 * The user's own files in the test workspace: fixture workloads laid out as the traces' path suffixes need
 * (fixtures/workloads/graph_break.py was recorded at <somewhere>/fixtures/workloads/graph_break.py, break_fix's model
 * at <somewhere>/break_fix/model.py), plus a namesake elsewhere that shares only the file name.
 */
export function layWorkspace(ws: string, fixtures: string): void {
  const workloads = path.join(fixtures, "..", "workloads");
  const copy = (from: string, to: string): void => {
    fs.mkdirSync(path.dirname(path.join(ws, to)), { recursive: true });
    fs.copyFileSync(path.join(workloads, from), path.join(ws, to));
  };
  copy("graph_break.py", path.join("fixtures", "workloads", "graph_break.py"));
  copy("recompile_limit.py", path.join("fixtures", "workloads", "recompile_limit.py"));
  copy("graph_break.py", path.join("scratch", "graph_break.py"));
  copy(path.join("break_fix_v1", "model.py"), path.join("break_fix", "model.py"));
}
