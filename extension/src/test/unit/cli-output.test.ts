// The extension's readers on what the real CLI printed for every command the extension runs (the samples in
// src/test/cli-output/, recorded by src/test/cli-output/record.ts with the extension's own argument lists). With
// DYNAMO_DIFF_CLI set (CI sets it) the samples are recorded again and must be what the CLI prints now.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  CliError,
  SCHEMA_MAJOR,
  args,
  checkVersion,
  parseAnalysis,
  parseCaptureList,
  parseCliError,
  parseComparison,
  parseEvidenceExcerpt,
  parseEvidenceIndex,
  parseImport,
  parseRankView,
  parseRunReport,
  parseSource,
  schemaMajor,
} from "../../common/cli";
import { importedText } from "../../commands/captures";
import { withHint } from "../../common/hints";
import { readReport } from "../../views/findings";
import { sourceView } from "../../views/source-view";
import { renderEvidence } from "../../views/documents";
import { renderTable } from "../../views/table";
import { childrenOf, describe as describeNode } from "../../views/tree";
import { IMPORTED_AT, NOT_RECORDED, REPO, SAMPLE_DIR, SAMPLES, TMP, differences, record } from "../cli-output/record";

const sample = (file: (typeof SAMPLES)[number]["file"]) => fs.readFileSync(path.join(SAMPLE_DIR, file), "utf8");
const SCHEMA_DIR = path.join(SAMPLE_DIR, "..", "..", "..", "..", "packages", "dynamo-diff-schema", "src", "dynamo_diff_schema", "schemas");
const pkg = JSON.parse(fs.readFileSync(path.join(SAMPLE_DIR, "..", "..", "..", "package.json"), "utf8")) as { dynamoDiff: { cliVersion: string } };

function rejects(run: () => unknown, code: string, message: RegExp): void {
  assert.throws(run, (e: unknown) => e instanceof CliError && e.code === code && message.test(e.message));
}

describe("the CLI's own output, read by the extension", () => {
  it("has a sample for every command the extension runs that prints a document", () => {
    const recorded = new Set(SAMPLES.map((s) => s.command));
    const commands = Object.keys(args).filter((k) => !(NOT_RECORDED as readonly string[]).includes(k));
    assert.deepEqual(commands.filter((c) => !recorded.has(c as never)), [], "a command in `args` without a sample: add it to record.ts");
    const files = fs.readdirSync(SAMPLE_DIR).filter((f) => !f.endsWith(".ts"));
    assert.deepEqual(files.sort(), SAMPLES.map((s) => s.file).sort());
  });

  it("reads schema major version SCHEMA_MAJOR, the one of every committed schema", () => {
    const schemas = fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".schema.json"));
    assert.ok(schemas.length >= 10, `schemas in ${SCHEMA_DIR}`);
    for (const f of schemas) {
      const schema = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, f), "utf8")) as { properties?: { schema_version?: { default?: string } } };
      const version = schema.properties?.schema_version?.default;
      if (version === undefined) continue; // manifest.json has a version of its own
      assert.equal(schemaMajor(version), SCHEMA_MAJOR, `${f}: schema_version ${version}`);
    }
    for (const s of SAMPLES.filter((s) => s.file.endsWith(".json"))) {
      assert.equal(schemaMajor((JSON.parse(sample(s.file)) as { schema_version?: string }).schema_version), SCHEMA_MAJOR, s.file);
    }
  });

  it("checks the version the CLI prints against the pin", () => {
    assert.equal(checkVersion(sample("version.txt"), pkg.dynamoDiff.cliVersion, "dynamo-diff"), pkg.dynamoDiff.cliVersion);
  });

  it("reads an import: one new capture, and each run of a folder of runs", () => {
    const one = parseImport(sample("import.json"));
    assert.equal(one.folder_of_runs, false);
    assert.deepEqual(one.captures.map((c) => [c.label, c.created, c.input, c.summary.kind]), [["v1", true, "fixtures/captures/edit_v1", "capture"]]);
    assert.match(importedText(one), /^imported v1 \([0-9a-f]{12}\)$/);
    assert.match(importedText({ ...one, captures: [{ ...one.captures[0], created: false }] }), /^v1 \([0-9a-f]{12}\) was already in the store$/);
    const folder = parseImport(sample("import_folder.json"));
    assert.equal(folder.folder_of_runs, true);
    assert.deepEqual(folder.captures.map((c) => [c.label, c.input]), [
      ["scalar", `${TMP}/runs/scalar`],
      ["shape", `${TMP}/runs/shape`],
    ]);
    assert.match(importedText(folder), /^imported 2 run\(s\) of a folder of runs: scalar \([0-9a-f]{12}\), shape \([0-9a-f]{12}\)$/);
  });

  it("reads the capture list and shows each row as the CLI's list does: how the run ended first", () => {
    const rows = parseCaptureList(sample("list.json"));
    const seen = rows.map((r) => [r.label, r.run_state, r.compiled_state, r.rank_count]);
    assert.deepEqual(seen.slice(0, 6), [
      ["v1", "completed", "compiled", 1],
      ["v2", "completed", "compiled", 1],
      ["two_ranks", "completed", "compiled", 2],
      ["gb", "completed", "compiled", 1],
      ["nothing", "completed", "nothing_compiled", 0],
      ["killed", "killed", "compiled", 1],
    ]);
    // The two runs of one folder import in the same second: the CLI orders them by capture id, which moves with
    // the reader's version.
    assert.deepEqual(seen.slice(6).sort(), [
      ["scalar", "unknown", "compiled", 1],
      ["shape", "unknown", "compiled", 1],
    ]);
    const shown = (label: string) => describeNode({ kind: "capture", capture: rows.find((r) => r.label === label)! }).description;
    assert.equal(shown("killed"), `killed · bundle · torch 2.13.0+cpu · 1 rank(s) · ${IMPORTED_AT}`);
    assert.equal(shown("nothing"), `completed; NOTHING COMPILED · bundle · torch 2.13.0+cpu · 0 rank(s) · ${IMPORTED_AT}`);
    assert.equal(shown("shape"), `unknown · raw_directory · torch 2.13.0+cpu · 1 rank(s) · ${IMPORTED_AT}`);
  });

  it("reads a comparison and a rank view, each only as its own kind", async () => {
    const cmp = parseComparison(sample("compare.json"));
    assert.equal(cmp.kind, "comparison");
    assert.deepEqual((cmp.functions ?? []).map((f) => f.candidate?.qualified_name ?? f.baseline?.qualified_name).sort(), ["encoder", "gate", "postprocess"]);
    const ranks = parseRankView(sample("compare_ranks.json"));
    assert.equal(ranks.kind, "rank_view");
    assert.deepEqual([ranks.ranks?.ranks, ranks.ranks?.reference_rank, ranks.ranks?.divergences?.map((d) => d.rank)], [[0, 1], 0, [1]]);
    rejects(() => parseComparison(sample("compare_ranks.json")), "bad_output", /^dynamo-diff compare printed a "rank_view" document where the extension reads "comparison"$/);
    rejects(() => parseRankView(sample("compare.json")), "bad_output", /printed a "comparison" document where the extension reads "rank_view"/);
    const list = parseCaptureList(sample("list.json"));
    const src = {
      captures: () => list,
      comparison: () => ranks,
      problem: () => undefined,
      analysis: async () => parseAnalysis(sample("analyze.json")),
      evidenceIndex: async () => new Map(),
    };
    const [root] = await childrenOf(undefined, src);
    // The CLI labels a rank view's sides "two_ranks rank 0" and "two_ranks rank 1": the capture is two_ranks.
    assert.deepEqual([ranks.baseline.label, ranks.candidate.label], ["two_ranks rank 0", "two_ranks rank 1"]);
    assert.equal(describeNode(root).label, "Comparison: Ranks of two_ranks: 0, 1 against rank 0");
    assert.match(renderTable(ranks, "csp", "n0nce"), /Ranks of two_ranks \(reference rank 0\)/);
    assert.match(renderTable(cmp, "csp", "n0nce"), /Runs: baseline completed/);
  });

  it("reads a capture, a run report, the evidence index, an excerpt and a function's source", () => {
    const capture = parseAnalysis(sample("analyze.json"));
    assert.deepEqual([capture.kind, capture.capture.label, capture.ranks.length], ["capture", "v1", 1]);
    const report = parseRunReport(sample("run_report.json"));
    assert.equal(report.label, "gb");
    const { findings } = readReport(report);
    // The workload's oracle (recorded by torch itself, not by us) says where it broke.
    const oracle = JSON.parse(fs.readFileSync(path.join(REPO, "fixtures", "captures", "graph_break", "oracle.json"), "utf8")) as {
      expect: { graph_break_sites: string[] };
    };
    const breaks = findings.filter((f) => f.kind === "graph_break");
    assert.deepEqual(breaks.map((f) => `${path.posix.basename(f.capturePath)}:${f.line}`).sort(), [...oracle.expect.graph_break_sites].sort());
    assert.deepEqual(breaks.map((f) => f.code).sort(), ["gb0059", "gb0124"], "torch's graph-break registry ids (print, Tensor.item())");
    // Each break's diagnostic carries the CLI's suggestion for that break, one line: torch's own hint for it
    // (print: avoid the call or reorder it; Tensor.item(): capture_scalar_outputs).
    for (const f of breaks) {
      assert.equal(f.suggestions.length, 1, f.code);
      assert.match(f.suggestions[0], /^suggestion \(graph_break\): \S/);
    }
    const hinted = Object.fromEntries(breaks.map((f) => [f.code, f.suggestions[0]]));
    assert.match(hinted["gb0059"], /`print`/);
    assert.match(hinted["gb0124"], /capture_scalar_outputs/);
    const index = parseEvidenceIndex(sample("evidence_index.json"));
    assert.equal(index.total, index.items?.length);
    assert.equal(index.next_offset, null);
    const excerpt = parseEvidenceExcerpt(sample("evidence_excerpt.json"));
    assert.equal(excerpt.evidence.kind, "recompile_reasons");
    assert.ok(index.items?.some((i) => i.id === excerpt.evidence.id));
    assert.match(renderEvidence(excerpt).split("\n")[0], new RegExp(`^# evidence ${excerpt.evidence.id} · recompile_reasons · compile 0/1 · rank -$`));
    const found = parseSource(sample("source.json"));
    const view = sourceView(found, "v1", 21);
    assert.deepEqual([view.location.snapshot, view.location.first_line, view.location.last_line], ["model.py", 21, 25]);
  });

  it("reads the error document the CLI writes to stderr, with its hint", () => {
    const e = parseCliError(sample("error.json"), 2);
    assert.equal(e.code, "unknown_function");
    assert.match(e.message, /^no function 'nope' compiled or defined in the captured files of capture [0-9a-f]{12} \(a name, Class\.method, or FILE:LINE\)$/);
    assert.equal(e.hint?.action, "analyze_capture");
    assert.equal(e.display(), `[unknown_function] ${withHint(e.message, e.hint)}`);
  });

  it("refuses each sample read as another command's document, and a major schema version it does not read", () => {
    rejects(() => parseCaptureList(sample("import.json")), "bad_output", /^dynamo-diff list printed a "import_result" document where the extension reads "capture_list"$/);
    rejects(() => parseImport(sample("list.json")), "bad_output", /printed a "capture_list" document where the extension reads "import_result"/);
    rejects(() => parseAnalysis(sample("run_report.json")), "bad_output", /"run_report" document where the extension reads "capture"/);
    rejects(() => parseRunReport(sample("analyze.json")), "bad_output", /"capture" document where the extension reads "run_report"/);
    rejects(() => parseEvidenceIndex(sample("evidence_excerpt.json")), "bad_output", /"evidence_excerpt" document where the extension reads "evidence_index"/);
    rejects(() => parseEvidenceExcerpt(sample("evidence_index.json")), "bad_output", /"evidence_index" document where the extension reads "evidence_excerpt"/);
    rejects(() => parseSource(sample("error.json")), "bad_output", /"error" document where the extension reads "source"/);
    // The shapes before schema 2.4: a bare array of captures, a document without a kind.
    const old = (JSON.parse(sample("list.json")) as { captures: unknown[] }).captures;
    rejects(() => parseCaptureList(JSON.stringify(old)), "bad_output", /^dynamo-diff list: expected a JSON object$/);
    const { kind: _kind, ...kindless } = JSON.parse(sample("source.json")) as Record<string, unknown>;
    rejects(() => parseSource(JSON.stringify(kindless)), "bad_output", /printed a document without a "kind" where the extension reads "source"/);
    const next = (file: (typeof SAMPLES)[number]["file"], version: unknown) => JSON.stringify({ ...JSON.parse(sample(file)), schema_version: version });
    rejects(() => parseComparison(next("compare.json", `${SCHEMA_MAJOR + 1}.0`)), "unsupported_schema", new RegExp(`schema version "${SCHEMA_MAJOR + 1}\\.0"; this extension reads schema version ${SCHEMA_MAJOR}\\.x`));
    rejects(() => parseSource(next("source.json", undefined)), "unsupported_schema", /schema version null/);
    assert.equal(parseSource(next("source.json", `${SCHEMA_MAJOR}.99`)).kind, "source", "a newer minor version is read");
    // On stderr a line of another kind is not the error: the message falls back to the exit status and text.
    const e = parseCliError(sample("list.json").replace(/\n\s*/g, " "), 2);
    assert.equal(e.code, "cli_failed");
  });
});

const cli = process.env.DYNAMO_DIFF_CLI;

describe("the samples are what the CLI prints now", { skip: cli ? false : "DYNAMO_DIFF_CLI not set" }, () => {
  it("records every sample again with the real CLI and finds each one unchanged (else: npm run record:cli-output)", async () => {
    assert.deepEqual(differences(await record(cli!)), []);
  });
});
