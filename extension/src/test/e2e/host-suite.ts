// The extension-host mocha suite (out/test/suite) inside code-server's VS Code, through the standard
// extensionDevelopmentPath / extensionTestsPath route, driven by Debian's Chromium. Exits with the suite's code.
import * as fs from "node:fs";
import * as path from "node:path";
import { format } from "node:util";
import { EXTENSION_DIR, e2eEnv, editorEnv, fail, freePort, launchBrowser, layWorkspace, start, tail, tempDir, waitForHttp, writeJson } from "./common";

async function main(): Promise<void> {
  const env = e2eEnv();
  const root = tempDir("dd-host-suite-");
  const ws = path.join(root, "workspace");
  const store = path.join(root, "store");
  writeJson(path.join(ws, ".vscode", "settings.json"), { "dynamoDiff.cliPath": env.cli, "dynamoDiff.storePath": store });
  layWorkspace(ws, env.fixtures);
  const port = await freePort();
  const log = path.join(env.artifacts, "host-suite-server.log");
  const server = start(
    path.join(env.node24, "bin", "node"),
    [
      path.join(env.codeServer, "lib", "vscode", "out", "server-main.js"),
      "--host", "127.0.0.1",
      "--port", String(port),
      "--without-connection-token",
      "--accept-server-license-terms",
      "--enable-smoke-test-driver",
      "--disable-telemetry",
      "--disable-workspace-trust",
      "--server-data-dir", path.join(root, "server-data"),
      "--user-data-dir", path.join(root, "user-data"),
      "--extensions-dir", path.join(root, "extensions"),
    ],
    editorEnv(env, path.join(root, "home")),
    log,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/`, 60000, server.child, log);
  const remote = (p: string): string => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ["extensionDevelopmentPath", remote(EXTENSION_DIR)],
    ["extensionTestsPath", remote(path.join(EXTENSION_DIR, "out", "test", "suite", "index"))],
    ["skipWelcome", "true"],
  ];
  const url = `${base}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const browser = await launchBrowser(env.chromium, path.join(root, "chromium"));
  const page = await browser.newPage();
  const code = await new Promise<number>((resolve) => {
    const timer = setTimeout(() => {
      console.error("FAIL: the extension-host suite did not finish within 240 s");
      resolve(1);
    }, 240000);
    // Everything the workbench logs goes to a file; the suite's own lines (mocha's spec reporter) to stdout.
    const consoleLog = fs.openSync(path.join(env.artifacts, "host-suite-console.log"), "w");
    void page.exposeFunction("codeAutomationLog", (type: string, args: unknown[]) => {
      const text = format(...(Array.isArray(args) ? args : [args]));
      fs.writeSync(consoleLog, `[${type}] ${text}\n`);
      // mocha's spec reporter indents everything it prints; the workbench's own messages start at column 0.
      if (type !== "error" && (text === "" || /^\s/.test(text)) && !/^\s+at /.test(text)) console.log(text);
    });
    void page.exposeFunction("codeAutomationExit", (exitCode: number) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
    void page.goto(url);
  });
  await page.screenshot({ path: path.join(env.artifacts, "host-suite.png") }).catch(() => undefined);
  await browser.close();
  server.stop();
  if (code !== 0) fail(`extension-host suite exited with ${code}; server log ${log}:\n${tail(log, 20)}`);
  fs.rmSync(root, { recursive: true, force: true });
  console.log("extension-host suite passed");
}

main().catch((err) => fail(err instanceof Error ? err.stack ?? err.message : String(err)));
