// Records what the real CLI prints for every command the extension runs, with the extension's own argument
// lists (`args` in src/common/cli.ts), on the retained fixture captures, into the *.json samples next to this
// file (src/test/cli-output/). The unit tests parse these samples with the extension's readers; with
// DYNAMO_DIFF_CLI set (as CI sets it) they also record again and fail when a sample differs, so a change in the
// CLI's output cannot pass unnoticed.
//
//   npm run record:cli-output             write the samples (DYNAMO_DIFF_CLI, else ../.venv/bin/dynamo-diff)
//   npm run record:cli-output -- --check  exit 1 when a committed sample differs from what the CLI prints now
//
// Two things are rewritten so that a sample is the same on every machine and every day: each `imported_at`
// becomes IMPORTED_AT, and the temporary folder the store and the folder of runs live in becomes TMP (`<record-tmp>`).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { args, globalArgs, runCli } from "../../common/cli";

/** out/test/cli-output -> the repository root (the CLI runs there, so an import's `input` is repository-relative). */
export const REPO = path.resolve(__dirname, "..", "..", "..", "..");
/** Where the committed samples are: the source folder, not out/. */
export const SAMPLE_DIR = path.join(REPO, "extension", "src", "test", "cli-output");
export const IMPORTED_AT = "2026-01-01T00:00:00+00:00";
export const TMP = "<record-tmp>";

/** Each sample: its file, the entry of `args` whose argument list made it, and what it is of. */
export const SAMPLES = [
  { file: "version.txt", command: "version", what: "dynamo-diff --version" },
  { file: "import.json", command: "importCapture", what: "import fixtures/captures/edit_v1 --label v1 (a new capture)" },
  { file: "import_folder.json", command: "importCapture", what: "import of a folder of runs: two bare traces, scalar/ and shape/" },
  { file: "list.json", command: "list", what: "list: v1, v2, two_ranks, gb, nothing, killed, scalar, shape" },
  { file: "analyze.json", command: "analyze", what: "analyze v1" },
  { file: "run_report.json", command: "runReport", what: "analyze gb --by-function (graph_break)" },
  { file: "compare.json", command: "compare", what: "compare v1 v2" },
  { file: "compare_ranks.json", command: "compareRanks", what: "compare two_ranks --ranks" },
  { file: "evidence_index.json", command: "evidenceIndex", what: "evidence v1, the whole index" },
  { file: "evidence_excerpt.json", command: "evidenceExcerpt", what: "evidence v1 <its recompile_reasons record>" },
  { file: "source.json", command: "source", what: "source v1 model.py:21 (gate, as a tree row asks for it)" },
  { file: "error.json", command: "source", what: "source v1 nope: the error document on stderr" },
] as const satisfies readonly { file: string; command: keyof typeof args; what: string }[];

/** The commands in `args` that print no JSON document: the HTML report (a file the editor opens). */
export const NOT_RECORDED: readonly (keyof typeof args)[] = ["htmlReport"];

export function normalize(text: string, tmp: string): string {
  const realTmp = fs.realpathSync(tmp);
  let out = text.replace(/("imported_at":\s*)"[^"]*"/g, `$1"${IMPORTED_AT}"`);
  for (const dir of new Set([realTmp, tmp])) out = out.split(JSON.stringify(dir).slice(1, -1)).join(TMP).split(dir).join(TMP);
  return out;
}

/** Waits for the next second: `list` orders by import time (to the second), then id, so imports a second apart
 * list in the order they were made, on any machine. */
async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
}

function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

/** Runs the CLI at `cli` for every sample, in a fresh store; returns file name -> text. */
export async function record(cli: string): Promise<Map<string, string>> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dd-cli-output-"));
  try {
    const store = path.join(tmp, "store");
    const run = async (argv: string[]) => {
      if (argv[0] === "import") await nextSecond();
      return (await runCli(cli, [...globalArgs(store), ...argv], { cwd: REPO })).stdout;
    };
    const fixture = (name: string) => path.posix.join("fixtures", "captures", name);
    const idOf = (printed: string) => (JSON.parse(printed) as { captures: { id: string }[] }).captures[0].id;
    const out = new Map<string, string>();
    const keep = (file: (typeof SAMPLES)[number]["file"], text: string) => out.set(file, normalize(text, tmp));

    keep("version.txt", await run(args.version()));
    const imported = await run(args.importCapture(fixture("edit_v1"), "v1"));
    keep("import.json", imported);
    const v1 = idOf(imported);
    const v2 = idOf(await run(args.importCapture(fixture("edit_v2"), "v2")));
    const ranks = idOf(await run(args.importCapture(fixture("two_ranks"), "two_ranks")));
    const gb = idOf(await run(args.importCapture(fixture("graph_break"), "gb")));
    await run(args.importCapture(fixture("compiled_nothing"), "nothing"));
    await run(args.importCapture(fixture("midrun_kill"), "killed"));
    // A folder whose sub-folders are runs: each is imported on its own, labelled by its folder's name. Bare
    // traces (a bundle's raw/), so the sample stays small.
    const runs = path.join(tmp, "runs");
    for (const name of ["scalar", "shape"]) copyDir(path.join(REPO, fixture(name), "raw"), path.join(runs, name));
    keep("import_folder.json", await run(args.importCapture(runs)));
    keep("list.json", await run(args.list()));
    keep("analyze.json", await run(args.analyze(v1)));
    keep("run_report.json", await run(args.runReport(gb)));
    keep("compare.json", await run(args.compare(v1, v2)));
    keep("compare_ranks.json", await run(args.compareRanks(ranks)));
    const index = await run(args.evidenceIndex(v1, 0, 1000));
    keep("evidence_index.json", index);
    const reason = (JSON.parse(index) as { items: { id: string; kind: string }[] }).items.find((i) => i.kind === "recompile_reasons");
    if (!reason) throw new Error("edit_v1 has no recompile_reasons record in its evidence index");
    keep("evidence_excerpt.json", await run(args.evidenceExcerpt(v1, reason.id, 0, 20000)));
    keep("source.json", await run(args.source(v1, "model.py:21")));
    // runCli turns a failure into a CliError; the sample is what the CLI wrote to stderr, as it wrote it.
    const failed = spawnSync(cli, [...globalArgs(store), ...args.source(v1, "nope")], { cwd: REPO, encoding: "utf8" });
    if (failed.status !== 2) throw new Error(`source v1 nope: exit status ${failed.status}, expected 2: ${failed.stderr}`);
    keep("error.json", failed.stderr);
    return out;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The samples in `dir` that differ from `recorded` (missing, changed or left over), by name. */
export function differences(recorded: Map<string, string>, dir = SAMPLE_DIR): string[] {
  const found = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".json") || f.endsWith(".txt")) : [];
  const out: string[] = [];
  for (const name of [...new Set([...recorded.keys(), ...found])].sort()) {
    const want = recorded.get(name);
    const file = path.join(dir, name);
    const have = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    if (want === undefined) out.push(`${name}: no command records it any more`);
    else if (have === undefined) out.push(`${name}: missing`);
    else if (have !== want) out.push(`${name}: differs from what the CLI prints now`);
  }
  return out;
}

/** DYNAMO_DIFF_CLI, else the repository's .venv. */
export function defaultCli(): string {
  return process.env.DYNAMO_DIFF_CLI || path.join(REPO, ".venv", process.platform === "win32" ? "Scripts" : "bin", "dynamo-diff");
}

async function main(argv: string[]): Promise<void> {
  const cli = defaultCli();
  const recorded = await record(cli);
  if (argv.includes("--check")) {
    const diffs = differences(recorded);
    if (diffs.length) {
      console.error(`src/test/cli-output is out of date with ${cli}:\n  ${diffs.join("\n  ")}\nRun: npm run record:cli-output`);
      process.exit(1);
    }
    console.log(`src/test/cli-output matches what ${cli} prints (${recorded.size} samples)`);
    return;
  }
  fs.mkdirSync(SAMPLE_DIR, { recursive: true });
  for (const f of fs.readdirSync(SAMPLE_DIR).filter((f) => (f.endsWith(".json") || f.endsWith(".txt")) && !recorded.has(f))) fs.rmSync(path.join(SAMPLE_DIR, f));
  for (const [name, text] of recorded) fs.writeFileSync(path.join(SAMPLE_DIR, name), text);
  console.log(`wrote ${[...recorded.keys()].map((n) => `src/test/cli-output/${n}`).join(", ")}`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  });
}
