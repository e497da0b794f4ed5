import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contentSecurityPolicy, escapeHtml, readTableMessage, renderTable } from "../../views/table";
import { comparison } from "./samples";

describe("comparison table", () => {
  it("escapes HTML", () => {
    assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    assert.equal(escapeHtml(null), "");
  });

  it("never lets trace text become markup", () => {
    const c = comparison();
    c.functions[0].baseline!.qualified_name = '<img src=x onerror="alert(1)">';
    c.functions[0].candidate!.qualified_name = "</script><script>alert(2)</script>";
    c.functions[0].changes[0].summary = "<b>bold</b>";
    c.comparability = { verdict: "confounded", differences: [{ key: "dynamo.<x>", source: "declared", baseline: "<1>", candidate: "2" }], missing: [] };
    const html = renderTable(c, "vscode-webview://abc", "NONCE123");
    assert.ok(!html.includes("<img"));
    assert.ok(!html.includes("<script>alert"));
    assert.ok(!html.includes("<b>bold</b>"));
    assert.ok(html.includes("&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;"));
    assert.ok(html.includes("<code>dynamo.&lt;x&gt;</code>"));
    assert.equal((html.match(/<script/g) ?? []).length, 1, "only the page's own script");
    assert.ok(html.includes('<script nonce="NONCE123">'));
  });

  it("sets a strict Content-Security-Policy", () => {
    const csp = contentSecurityPolicy("vscode-webview://abc", "N1");
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N1'/);
    assert.ok(!csp.includes("unsafe-inline") && !csp.includes("unsafe-eval"));
    const html = renderTable(comparison(), "vscode-webview://abc", "N1");
    assert.ok(html.includes(`content="default-src &#39;none&#39;; style-src vscode-webview://abc &#39;nonce-N1&#39;`));
  });

  it("shows the comparability banner, totals and one row per function with sortable values", () => {
    const html = renderTable(comparison(), "csp", "n");
    assert.match(html, /id="comparability"[^>]*><b>Comparable: no declared or observed setting differs.<\/b>/);
    const body = html.slice(html.indexOf('<table id="rows">'));
    assert.equal((body.match(/<tr data-index=/g) ?? []).length, 2);
    assert.ok(body.includes('<td class="num down" data-sort="-1">2 → 1 (−1)</td>'));
    assert.ok(body.includes('<td class="num up" data-sort="1">– → 1 (+1)</td>'));
    assert.ok(body.includes('<li><b>recompile_reason</b> value guards failing: 1 -&gt; 0</li>'));
  });

  it("says first how each run ended, loudly when one did not finish", () => {
    const c = comparison();
    c.baseline.run = { state: "completed", finished: true, summary: "completed (exit code 0)", source: "capture" };
    c.candidate.run = { state: "killed", finished: false, summary: "killed by SIGKILL", source: "capture" };
    c.comparability = {
      verdict: "confounded",
      differences: [{ key: "cache_state", source: "observed", baseline: "cold", candidate: "warm", affects: ["cache", "compile_time"] }],
      missing: [],
    };
    const html = renderTable(c, "csp", "n");
    assert.ok(html.indexOf('id="runs"') < html.indexOf('id="comparability"'));
    assert.match(
      html,
      /<div class="banner unfinished" id="runs" role="status">Runs: baseline completed \(exit code 0\) · candidate DID NOT FINISH: killed by SIGKILL \(counts may be low\)<\/div>/,
    );
    assert.ok(html.includes("<i>can change cache, compile_time</i>"));
    delete c.candidate.run;
    assert.ok(renderTable(c, "csp", "n").includes("candidate run status not known"));
  });

  it("counts what comes with a difference under it, and names the change under test", () => {
    // As `dynamo-diff compare llama_213 llama_214 --change torch_version --format json` gives it (two of its 35).
    const c = comparison();
    c.comparability = {
      verdict: "comparable",
      differences: [],
      missing: [],
      intended: [{ key: "torch_version", source: "observed", baseline: "2.13.0+cpu", candidate: "2.14.1+cu130" }],
      explained: [
        { key: "torch_git", source: "observed", baseline: "a", candidate: "b", follows_from: "torch_version", why: "another torch version is another build" },
        {
          key: "dynamo.use_lamba_guard_for_object_aliasing",
          source: "observed",
          baseline: true,
          candidate: false,
          follows_from: "torch_version",
          why: "the default of each version (2.13.0: true; 2.14.1: false)",
        },
        { key: "command", source: "recorded", baseline: "x", candidate: "y", why: "only a launcher's rendezvous options differ (--master-port 1 -> 2)" },
      ],
    };
    const html = renderTable(c, "csp", "n");
    assert.ok(html.includes("<li>the change under test: <code>torch_version</code> (observed): 2.13.0+cpu → 2.14.1+cu130, "));
    assert.ok(html.includes(">and 2 differences that come with it</span>"));
    assert.ok(html.includes("dynamo.use_lamba_guard_for_object_aliasing: the default of each version (2.13.0: true; 2.14.1: false)"));
    assert.ok(html.includes("<li>not confounding: <code>command</code>: only a launcher&#39;s rendezvous options differ"));
  });

  it("says before the runs that a side compiled nothing", () => {
    const c = comparison();
    const summary = "torch.compile was called 2 times (Net at train.py:27) but no frame was compiled";
    c.baseline.compiled = { state: "compiled", summary: "1 compilation(s)", compilations: 1 };
    c.candidate.compiled = { state: "nothing_compiled", summary, compilations: 0, torch_compile_calls: 2 };
    const html = renderTable(c, "csp", "n");
    assert.ok(html.includes(`<div class="banner unfinished" id="compiled" role="alert">the candidate COMPILED NOTHING: ${summary}</div>`));
    assert.ok(html.indexOf('id="compiled"') < html.indexOf('id="runs"'));
    c.candidate.compiled = { state: "compiled", summary: "3 compilation(s)", compilations: 3 };
    assert.ok(!renderTable(c, "csp", "n").includes('id="compiled"'));
  });

  it("lists the frames a row counts when the function broke into several", () => {
    const c = comparison();
    const side = c.functions[0].baseline!;
    c.functions[0].pieces = [
      { name: "gate", status: "matched", method: "line_diff", baseline: side, candidate: side, deltas: {} },
      { name: "torch_dynamo_resume_in_gate_at_23", status: "baseline_only", method: "none", baseline: side, candidate: null, deltas: {} },
    ];
    const body = renderTable(c, "csp", "n").slice(renderTable(c, "csp", "n").indexOf('<table id="rows">'));
    assert.ok(body.includes("<li><b>frames</b> 2 counted: gate 2 → 2; resume at 23 2 → –</li>"));
  });

  it("names a library frame counted in the user's function by its file and the line of the call", () => {
    const c = comparison();
    const side = c.functions[0].baseline!;
    c.functions[0].pieces = [
      {
        name: "inner",
        library_file: "torch/_dynamo/external_utils.py",
        status: "matched",
        method: "same_location",
        baseline: { ...side, called_at: 76 },
        candidate: { ...side, called_at: 80 },
        deltas: {},
      },
    ];
    const body = renderTable(c, "csp", "n").slice(renderTable(c, "csp", "n").indexOf('<table id="rows">'));
    assert.ok(body.includes("<li><b>frames</b> 1 counted: inner (torch/_dynamo/external_utils.py, called at line 76 → 80) 2 → 2</li>"));
  });

  it("keeps compile-phase timings out of the table's changes", () => {
    const c = comparison();
    c.functions[0].changes.push({
      kind: "phase_time",
      summary: "entire_frame_compile_time_s: 0.09 -> 0.08",
      baseline_evidence: [],
      candidate_evidence: [],
    });
    const body = renderTable(c, "csp", "n").slice(renderTable(c, "csp", "n").indexOf('<table id="rows">'));
    assert.ok(!body.includes("phase_time") && !body.includes("entire_frame_compile_time_s"));
    assert.ok(body.includes('<td data-sort="1"><ul class="changes"><li><b>recompile_reason</b>'));
  });

  it("accepts only well-formed messages from the page", () => {
    assert.deepEqual(readTableMessage({ type: "openSource", row: 1, side: "candidate" }, 2), { type: "openSource", row: 1, side: "candidate" });
    assert.equal(readTableMessage({ type: "openSource", row: 2, side: "candidate" }, 2), undefined);
    assert.equal(readTableMessage({ type: "openSource", row: 0, side: "../etc" }, 2), undefined);
    assert.equal(readTableMessage({ type: "run", row: 0, side: "baseline" }, 2), undefined);
    assert.equal(readTableMessage("openSource", 2), undefined);
  });
});
