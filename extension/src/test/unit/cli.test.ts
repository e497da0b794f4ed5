import assert from "node:assert/strict";
import { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  CliError,
  args,
  checkVersion,
  discoverCli,
  globalArgs,
  parseCaptureList,
  parseCliError,
  parseComparison,
  parseRanks,
  parseSource,
  parseVersion,
  runCli,
  SourceLocation,
  sourceFunctionArg,
} from "../../common/cli";
import { SNAPSHOT, sourceResult } from "./samples";

function discovery(overrides: Partial<Parameters<typeof discoverCli>[0]>, executables: string[]) {
  return discoverCli({
    cliPath: "",
    pythonPath: undefined,
    envPath: "/usr/local/bin:/usr/bin",
    platform: "linux",
    baseDir: "/ws",
    isExecutable: (p) => executables.includes(p),
    ...overrides,
  });
}

describe("CLI discovery: setting, then the interpreter's environment, then PATH", () => {
  const all = ["/opt/dd/bin/dynamo-diff", "/ws/.venv/bin/dynamo-diff", "/usr/bin/dynamo-diff"];

  it("uses the setting first", () => {
    const found = discovery({ cliPath: "/opt/dd/bin/dynamo-diff", pythonPath: "/ws/.venv/bin/python" }, all);
    assert.deepEqual(found, { path: "/opt/dd/bin/dynamo-diff", source: "setting" });
  });

  it("resolves a relative setting against the workspace folder", () => {
    const found = discovery({ cliPath: ".venv/bin/dynamo-diff" }, all);
    assert.deepEqual(found, { path: "/ws/.venv/bin/dynamo-diff", source: "setting" });
  });

  it("fails on a setting that points at nothing instead of running something else", () => {
    assert.throws(
      () => discovery({ cliPath: "/nowhere/dynamo-diff" }, all),
      (e: unknown) => e instanceof CliError && e.code === "cli_not_found" && e.message.includes("/nowhere/dynamo-diff"),
    );
  });

  it("then looks next to the selected interpreter", () => {
    const found = discovery({ pythonPath: "/ws/.venv/bin/python" }, all);
    assert.deepEqual(found, { path: "/ws/.venv/bin/dynamo-diff", source: "interpreter" });
  });

  it("then searches PATH in order", () => {
    const found = discovery({ pythonPath: "/other/bin/python" }, all);
    assert.deepEqual(found, { path: "/usr/bin/dynamo-diff", source: "PATH" });
  });

  it("uses Scripts/ and .exe on Windows", () => {
    const found = discovery(
      { platform: "win32", pythonPath: "C:\\env\\python.exe", envPath: "" },
      ["C:\\env\\Scripts\\dynamo-diff.exe"],
    );
    assert.equal(found.source, "interpreter");
  });

  it("says where it looked and how to install when nothing is found", () => {
    assert.throws(
      () => discovery({ pythonPath: "/ws/.venv/bin/python" }, []),
      (e: unknown) =>
        e instanceof CliError &&
        e.code === "cli_not_found" &&
        e.message.includes("/ws/.venv/bin/dynamo-diff") &&
        e.message.includes("uv tool install ./packages/dynamo-diff-cli"),
    );
  });
});

describe("version pin", () => {
  it("reads `dynamo-diff X.Y.Z`", () => {
    assert.equal(parseVersion("dynamo-diff 0.2.0\n"), "0.2.0");
    assert.equal(parseVersion("something else"), undefined);
  });

  it("accepts the pinned version", () => {
    assert.equal(checkVersion("dynamo-diff 0.2.0\n", "0.2.0", "/x/dynamo-diff"), "0.2.0");
  });

  it("rejects another version with the exact install command", () => {
    assert.throws(
      () => checkVersion("dynamo-diff 0.1.0\n", "0.2.0", "/x/dynamo-diff"),
      (e: unknown) =>
        e instanceof CliError &&
        e.code === "cli_version" &&
        e.message.includes("is version 0.1.0") &&
        e.message.includes("a clone of dynamo-diff 0.2.0") &&
        e.message.includes("uv tool install ./packages/dynamo-diff-cli"),
    );
  });

  it("pins the same version as package.json's dynamoDiff.cliVersion", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8"));
    assert.equal(pkg.dynamoDiff.cliVersion, pkg.version);
  });
});

describe("argument lists", () => {
  it("puts --store before the command", () => {
    assert.deepEqual([...globalArgs("/s"), ...args.list()], ["--store", "/s", "list", "--format", "json"]);
    assert.deepEqual(globalArgs(undefined), []);
  });

  it("keeps paths with spaces and shell characters as single arguments", () => {
    assert.deepEqual(args.importCapture("/tmp/a b; rm -rf ~", "my label"), [
      "import",
      "/tmp/a b; rm -rf ~",
      "--label",
      "my label",
      "--format",
      "json",
    ]);
    assert.deepEqual(args.importCapture("/t"), ["import", "/t", "--format", "json"]);
  });

  it("builds compare, ranks, report, evidence and source calls", () => {
    assert.deepEqual(args.compare("v1", "v2"), ["compare", "v1", "v2", "--format", "json"]);
    assert.deepEqual(args.compareRanks("tr", [0, 1]), ["compare", "tr", "--ranks", "0", "1", "--format", "json"]);
    assert.deepEqual(args.compareRanks("tr"), ["compare", "tr", "--ranks", "--format", "json"]);
    assert.deepEqual(args.htmlReport(["v1", "v2"], false, "/o.html"), ["compare", "v1", "v2", "--format", "html", "-o", "/o.html"]);
    assert.deepEqual(args.htmlReport(["tr", "0"], true, "/o.html"), ["compare", "tr", "0", "--ranks", "--format", "html", "-o", "/o.html"]);
    assert.deepEqual(args.evidenceExcerpt("v1", "u1-e10", 200, 100), [
      "evidence", "v1", "u1-e10", "--offset", "200", "--max-chars", "100", "--format", "json",
    ]);
    assert.deepEqual(args.evidenceIndex("v1", 0, 1000), ["evidence", "v1", "--offset", "0", "--limit", "1000", "--format", "json"]);
    assert.deepEqual(args.source("v1", "model.py:21"), ["source", "v1", "model.py:21", "--format", "json"]);
  });

  it("names a function for `source` by file:line, else by name", () => {
    assert.equal(sourceFunctionArg("pkg/model.py", 21, "gate"), "model.py:21");
    assert.equal(sourceFunctionArg(null, null, "gate"), "gate");
    assert.equal(sourceFunctionArg(null, null, null), undefined);
  });

  it("parses typed ranks", () => {
    assert.deepEqual(parseRanks(""), []);
    assert.deepEqual(parseRanks("0 1, 3"), [0, 1, 3]);
    assert.throws(() => parseRanks("0 x"), /not a rank number/);
  });
});

describe("parsing", () => {
  it("reads the JSON error the CLI prints with --format json", () => {
    const e = parseCliError('{"kind": "error", "schema_version": "2.4", "code": "unknown_capture", "details": {}, "message": "no capture matches \'nope\'"}\n', 2);
    assert.equal(e.code, "unknown_capture");
    assert.equal(e.display(), "[unknown_capture] no capture matches 'nope'");
  });

  it("words an error's hint as the editor's next step, not a CLI command", () => {
    const e = parseCliError(
      '{"kind": "error", "code": "unknown_capture", "details": {}, "hint": {"action": "list_captures", "args": {}}, ' +
        '"message": "no capture matches \'nope\' in .dynamo-diff"}\n',
      2,
    );
    assert.deepEqual(e.hint, { action: "list_captures", args: {} });
    assert.equal(
      e.display(),
      "[unknown_capture] no capture matches 'nope' in .dynamo-diff (the Dynamo Diff view lists the captures in the store)",
    );
    const fn = parseCliError(
      '{"code": "unknown_function", "hint": {"action": "analyze_capture", "args": {"capture": "3f2a9c01b7de"}}, ' +
        '"message": "no compiled function \'f\' in capture 3f2a9c01b7de"}',
      2,
    );
    assert.match(fn.display(), /\(open capture 3f2a9c01b7de in the Dynamo Diff view\)$/);
  });

  it("reads the plain `error[code]: message` form", () => {
    const e = parseCliError("error[unsafe_path]: ../x escapes the input\n", 2);
    assert.equal(e.code, "unsafe_path");
    assert.equal(e.message, "../x escapes the input");
  });

  it("keeps an unexpected failure's last lines", () => {
    const e = parseCliError("Traceback...\nValueError: boom\n", 1);
    assert.equal(e.code, "cli_failed");
    assert.match(e.message, /code 1: Traceback...\nValueError: boom/);
  });

  it("rejects output that is not the expected JSON", () => {
    assert.throws(() => parseCaptureList("not json"), (e: unknown) => e instanceof CliError && e.code === "bad_output");
    assert.throws(() => parseComparison("{}"), /printed a document without a "kind" where the extension reads "comparison"/);
    assert.throws(() => parseComparison('{"kind": "comparison", "schema_version": "2.4"}'), /missing "baseline"/);
  });

  it("reads a function's source locations with their whole snapshots", () => {
    const printed = JSON.stringify(sourceResult(), null, 2);
    const s = parseSource(printed);
    assert.equal(s.function, "gate");
    assert.equal(s.locations.length, 2);
    assert.deepEqual([s.locations[0].first_line, s.locations[0].last_line, s.locations[0].co_firstlineno], [3, 4, 3]);
    assert.equal(s.locations[1].text, SNAPSHOT, "the text is the whole snapshot, exactly");
  });

  it("rejects source output without usable locations", () => {
    const bad = (what: RegExp, printed: string) =>
      assert.throws(() => parseSource(printed), (e: unknown) => e instanceof CliError && e.code === "bad_output" && what.test(e.message));
    const changed = (change: (r: ReturnType<typeof sourceResult>) => void) => {
      const r = sourceResult();
      change(r);
      return JSON.stringify(r);
    };
    bad(/not JSON/, "21 | def gate(x):\n");
    bad(/expected a JSON object/, "[]");
    bad(/missing "locations"/, JSON.stringify({ kind: "source", schema_version: "2.4", capture: "x", function: "gate" }));
    bad(/no locations/, changed((r) => (r.locations = [])));
    bad(/missing "text"/, changed((r) => delete (r.locations[0] as Partial<SourceLocation>).text));
    bad(/bad line numbers/, changed((r) => (r.locations[1].last_line = 2)));
    bad(/bad line numbers/, changed((r) => ((r.locations[0] as { first_line: unknown }).first_line = "3")));
  });
});

describe("running the CLI", () => {
  const node = process.execPath;

  it("maps a failing exit to the CLI's error code", async () => {
    const script = 'process.stderr.write(JSON.stringify({code: "unknown_capture", message: "no such capture"})); process.exit(2)';
    await assert.rejects(runCli(node, ["-e", script]), (e: unknown) => e instanceof CliError && e.code === "unknown_capture");
  });

  it("returns stdout and stderr, and passes arguments without a shell", async () => {
    const r = await runCli(node, ["-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", "$(echo hi)", "a b"]);
    assert.deepEqual(JSON.parse(r.stdout), ["$(echo hi)", "a b"]);
  });

  it("kills the child when cancelled", async () => {
    let listener: (() => void) | undefined;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested(l: () => void) {
        listener = l;
        return { dispose() {} };
      },
    };
    let child: ChildProcess | undefined;
    const started = Date.now();
    const run = runCli(node, ["-e", "setTimeout(() => {}, 60000)"], { onSpawn: (c) => (child = c), token });
    setTimeout(() => {
      token.isCancellationRequested = true;
      listener?.();
    }, 200);
    await assert.rejects(run, (e: unknown) => e instanceof CliError && e.code === "cancelled");
    assert.ok(Date.now() - started < 10000);
    assert.equal(child?.signalCode, "SIGTERM");
    assert.throws(() => process.kill(child!.pid!, 0), /ESRCH/);
  });

  it("reports a missing executable as cli_not_found", async () => {
    await assert.rejects(runCli(path.join(os.tmpdir(), "no-such-dynamo-diff"), ["--version"]), (e: unknown) => e instanceof CliError && e.code === "cli_not_found");
  });
});
