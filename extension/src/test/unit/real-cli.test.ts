// The parsers and the tree against the real CLI's output on the retained fixtures. Needs DYNAMO_DIFF_CLI (the
// path of a dynamo-diff executable) and DYNAMO_DIFF_FIXTURES (fixtures/captures); .ci/extension.sh sets both.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  args,
  checkVersion,
  globalArgs,
  parseAnalysis,
  parseCaptureList,
  parseComparison,
  parseEvidenceExcerpt,
  parseEvidenceIndex,
  parseImport,
  parseSource,
  runCli,
} from "../../common/cli";
import { renderSource, sourceView } from "../../views/source-view";
import { childrenOf, describe as describeNode } from "../../views/tree";

const cli = process.env.DYNAMO_DIFF_CLI;
const fixtures = process.env.DYNAMO_DIFF_FIXTURES;

describe("against the real CLI", { skip: !cli || !fixtures ? "DYNAMO_DIFF_CLI / DYNAMO_DIFF_FIXTURES not set" : false }, () => {
  it("imports, lists, compares, reads evidence and source, and builds the tree", async () => {
    const store = fs.mkdtempSync(path.join(os.tmpdir(), "dd-unit-store-"));
    const run = async (argv: string[]) => (await runCli(cli!, [...globalArgs(store), ...argv])).stdout;
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8"));
    checkVersion(await run(args.version()), pkg.dynamoDiff.cliVersion, cli!);
    const v1 = parseImport(await run(args.importCapture(path.join(fixtures!, "edit_v1"), "v1"))).captures[0];
    const v2 = parseImport(await run(args.importCapture(path.join(fixtures!, "edit_v2"), "v2"))).captures[0];
    assert.deepEqual([v1.label, v1.created, v2.label, v2.created], ["v1", true, "v2", true]);
    const list = parseCaptureList(await run(args.list()));
    assert.deepEqual(list.map((c) => [c.label, c.run_state, c.compiled_state, c.rank_count]).sort(), [
      ["v1", "completed", "compiled", 1],
      ["v2", "completed", "compiled", 1],
    ]);
    const cmp = parseComparison(await run(args.compare(v1.id, v2.id)));
    assert.deepEqual((cmp.functions ?? []).map((f) => f.candidate?.qualified_name ?? f.baseline?.qualified_name).sort(), ["encoder", "gate", "postprocess"]);
    const src = {
      captures: () => list,
      comparison: () => cmp,
      problem: () => undefined,
      analysis: async (id: string) => parseAnalysis(await run(args.analyze(id))),
      evidenceIndex: async (id: string) => new Map((parseEvidenceIndex(await run(args.evidenceIndex(id, 0, 1000))).items ?? []).map((i) => [i.id, i])),
    };
    const [root] = await childrenOf(undefined, src);
    const rows = await childrenOf(root, src);
    const gate = rows.find((r) => describeNode(r).label === "gate")!;
    assert.match(describeNode(gate).description!, /compilations 2→1, recompiles 1→0/);
    const kids = await childrenOf(gate, src);
    const change = kids.find((k) => k.kind === "change" && k.change.kind === "recompile_reason")!;
    const [ev] = await childrenOf(change, src);
    assert.match(describeNode(ev).description!, /^recompile_reasons · 0\/1 · raw\//);
    assert.equal(ev.kind, "evidence");
    const evidenceId = ev.kind === "evidence" ? ev.evidenceId : "";
    const excerpt = parseEvidenceExcerpt(await run(args.evidenceExcerpt(v1.id, evidenceId, 0, 4000)));
    assert.match(excerpt.text, /recompile_reasons/);
    const found = parseSource(await run(args.source(v1.id, "gate")));
    const view = sourceView(found, "v1", 21);
    assert.equal(view.location.snapshot, "model.py");
    assert.deepEqual([view.location.first_line, view.location.last_line, view.startLine, view.endLine], [21, 25, 20, 24]);
    const text = renderSource(view.location).split("\n");
    assert.equal(text[0], '"""edit fixture model (version 1).', "the document starts with the snapshot's first line");
    assert.equal(text[20], "def gate(x, flag: bool):");
    fs.rmSync(store, { recursive: true, force: true });
  });
});
