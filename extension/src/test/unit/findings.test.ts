import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RunReport } from "../../common/cli";
import { STALE_NOTE, commonSuffix, lensText, mapPath, parseSite, readReport, staleness } from "../../views/findings";

/** A run report in the CLI's shape: one function that broke once, one that recompiled and then failed. */
function report(): RunReport {
  return {
    kind: "run_report",
    schema_version: "2.4",
    capture: "c0ffee",
    label: "gb",
    run: { state: "completed", finished: true, summary: "completed (exit code 0)", source: "capture" },
    counts: {},
    functions: [
      {
        name: "with_print",
        file: "fixtures/workloads/graph_break.py",
        line: 9,
        frames: ["with_print", "torch_dynamo_resume_in_with_print_at_11"],
        counts: { observed_compilation_identities: 2, graph_break_records: 1 },
        compile_time_s: 0.12,
        count_evidence: { graph_break_records: ["u1-e3"] },
        compilations: [
          {
            compile_id: "0/0",
            frame: "with_print",
            outcome: "completed",
            graph_breaks: [{ type: "Failed to trace builtin operator", gb_id: "gb0059", site: "/rec/fixtures/workloads/graph_break.py:11", evidence_id: "u1-e3" }],
            evidence_ids: ["u1-e2"],
          },
        ],
      },
      {
        name: "f",
        file: "model.py",
        line: 20,
        counts: { observed_compilation_identities: 3, confirmed_recompilation_identities: 2, failed: 1 },
        compilations: [
          { compile_id: "0/0", frame: "f", outcome: "completed", evidence_ids: ["u1-e1"] },
          {
            compile_id: "0/1",
            frame: "f",
            outcome: "completed",
            recompile: [{ category: "shape", text: "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3", evidence_id: "u1-e6" }],
          },
          {
            compile_id: "0/2",
            frame: "f",
            outcome: "failed",
            recompile: [{ category: "shape", text: "0/1: later guard", evidence_id: "u1-e11" }],
            failure: { fail_type: "Unsupported", message: "Dynamo recompile limit exceeded", site: null, then: "ran eagerly (recompile limit)", evidence_ids: ["u1-e12"] },
          },
        ],
      },
    ],
  };
}

describe("findings from a run report", () => {
  it("reads sites, including paths with colons", () => {
    assert.deepEqual(parseSite("/a/b.py:11"), { path: "/a/b.py", line: 11 });
    assert.deepEqual(parseSite("C:\\x\\b.py:7"), { path: "C:\\x\\b.py", line: 7 });
    assert.equal(parseSite("no line"), undefined);
    assert.equal(parseSite(null), undefined);
  });

  it("places graph breaks at their site and a failure without one at its function's definition", () => {
    const paths: Record<string, string> = { "model.py": "/rec/model.py", "fixtures/workloads/graph_break.py": "/rec/fixtures/workloads/graph_break.py" };
    const { findings, functions } = readReport(report(), (fn) => paths[fn.file!]);
    assert.deepEqual(
      findings.map((f) => [f.kind, f.capturePath, f.line, f.code, f.evidenceId, f.atDefinition]),
      [
        ["graph_break", "/rec/fixtures/workloads/graph_break.py", 11, "gb0059", "u1-e3", false],
        ["failure", "/rec/model.py", 20, "Unsupported", "u1-e12", true],
      ],
    );
    assert.match(findings[1].message, /Dynamo recompile limit exceeded — then ran eagerly \(recompile limit\)/);
    const f = functions.find((x) => x.fn === "f")!;
    assert.deepEqual([f.capturePath, f.line, f.compiles, f.recompiles, f.failed], ["/rec/model.py", 20, 3, 2, 1]);
    assert.deepEqual(f.firstGuard, { text: "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3", compileId: "0/1", evidenceId: "u1-e6" });
    assert.equal(f.evidenceId, "u1-e6", "the lens opens the first failing guard's record");
    assert.equal(functions.find((x) => x.fn === "with_print")!.evidenceId, "u1-e3", "else the first record behind a count");
  });

  it("says counts and the first failing guard on the lens, and when the file changed", () => {
    const { functions } = readReport(report());
    const f = functions.find((x) => x.fn === "f")!;
    assert.equal(
      lensText(f, false),
      "dynamo-diff: 3 compiles, 2 recompiles, 1 failed · first failing guard: 0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3",
    );
    assert.equal(lensText(functions[0], true), "(file changed since capture) dynamo-diff: 2 compiles, 0 recompiles, 1 graph break · 0.12 s");
    assert.ok(lensText(f, false, 20).endsWith("first failing guard: 0/0: tensor 'x' siz…"));
  });

  it("gives a function its suggestions, one line each, the knob when the change does not name it", () => {
    const r = report();
    const f = r.functions![1];
    f.suggestions = [
      {
        kind: "mark_dynamic",
        cause: "the size of x at dim 0 took 2, 3 (its guard failed at 0/1)",
        change: "mark dim 0 of x dynamic before the call: torch._dynamo.mark_dynamic(x, 0)",
        knob: "torch._dynamo.mark_dynamic(x, 0)",
        cost: "one graph for any size of that dimension",
      },
      { kind: "recompile_limit", cause: "the recompile limit was hit at 0/2", change: "remove what drove it there", knob: "torch._dynamo.config.recompile_limit", cost: "more compilations" },
    ];
    const { functions } = readReport(r);
    assert.deepEqual(functions.find((x) => x.fn === "f")!.suggestions, [
      "suggestion (mark_dynamic): mark dim 0 of x dynamic before the call: torch._dynamo.mark_dynamic(x, 0)",
      "suggestion (recompile_limit): remove what drove it there [torch._dynamo.config.recompile_limit]",
    ]);
    assert.deepEqual(functions.find((x) => x.fn === "with_print")!.suggestions, []);
  });
});

describe("mapping a recorded path onto the workspace", () => {
  it("counts the trailing path components two paths share", () => {
    assert.equal(commonSuffix("/tmp/x/fixtures/workloads/graph_break.py", "/ws/fixtures/workloads/graph_break.py"), 3);
    assert.equal(commonSuffix("model.py", "C:\\ws\\model.py"), 1);
    assert.equal(commonSuffix("/a/model.py", "/a/other.py"), 0);
  });

  it("picks the longest suffix and says when others matched as well", () => {
    const ws = ["/ws/other/graph_break.py", "/ws/fixtures/workloads/graph_break.py", "/ws/old/workloads/graph_break.py"];
    assert.deepEqual(mapPath("/tmp/r/fixtures/workloads/graph_break.py", ws), { file: "/ws/fixtures/workloads/graph_break.py", score: 3, ties: [] });
    assert.deepEqual(mapPath("/elsewhere/graph_break.py", ws), { file: "/ws/fixtures/workloads/graph_break.py", score: 1, ties: ["/ws/old/workloads/graph_break.py", "/ws/other/graph_break.py"] });
    assert.equal(mapPath("/tmp/r/model.py", ws), undefined);
  });

  it("never maps library code onto a workspace file of the same name", () => {
    assert.equal(mapPath("/usr/lib/python3/site-packages/torch/nn/modules/module.py", ["/ws/torch/nn/modules/module.py"]), undefined);
  });
});

describe("is the workspace file the compiled one?", () => {
  it("compares with the capture's snapshot when there is one (line endings aside)", () => {
    assert.equal(staleness({ text: "a\r\nb\r\n", snapshot: "a\nb\n", lines: [2] }).stale, false);
    const changed = staleness({ text: "# new\na\nb\n", snapshot: "a\nb\n", lines: [2], mtimeMs: 0, capturedAtMs: 1 });
    assert.equal(changed.stale, true);
    assert.ok(changed.reason.startsWith(STALE_NOTE));
  });

  it("without a snapshot: stale when a line is gone or the file was modified after the run", () => {
    assert.equal(staleness({ text: "a\nb", lines: [2], mtimeMs: 5, capturedAtMs: 10 }).stale, false);
    assert.match(staleness({ text: "a\nb", lines: [3], mtimeMs: 5, capturedAtMs: 10 }).reason, /line 3 no longer exists/);
    assert.match(staleness({ text: "a\nb", lines: [1], mtimeMs: 11, capturedAtMs: 10 }).reason, /modified after the run was recorded/);
  });
});
