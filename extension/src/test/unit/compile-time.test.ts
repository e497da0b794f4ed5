import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { COMPILE_TIME_FLOOR_S, COMPILE_TIME_NOISE, compileTimeChange, compileTimeText } from "../../views/compile-time";
import { renderTable } from "../../views/table";
import { comparison, counts } from "./samples";

const COMPILE_TIME_PY = path.join(__dirname, "..", "..", "..", "..", "packages", "dynamo-diff-compare", "src", "dynamo_diff_compare", "compile_time.py");

describe("compile time", () => {
  it("uses the noise rule of dynamo_diff_compare.compile_time", () => {
    const py = fs.readFileSync(COMPILE_TIME_PY, "utf8");
    const constant = (name: string) => Number(new RegExp(`^${name}\\s*=\\s*([0-9.]+)`, "m").exec(py)?.[1]);
    assert.equal(COMPILE_TIME_NOISE, constant("COMPILE_TIME_NOISE"));
    assert.equal(COMPILE_TIME_FLOOR_S, constant("COMPILE_TIME_FLOOR_S"));
  });

  it("shows a change beyond the noise with its percentage, and a small one as noise", () => {
    const t = (s: number, extra: Record<string, number> = {}) => ({ ...counts(extra), compile_time_s: s });
    const halved = compileTimeChange(t(0.42), t(0.21));
    assert.equal(halved.text, "0.42 s → 0.21 s (−50%)");
    assert.equal(halved.noise, false);
    assert.ok(Math.abs(halved.delta + 0.21) < 1e-9);
    assert.equal(compileTimeChange(t(1.0), t(1.2)).text, "1.00 s → 1.20 s (noise)", "20% is noise");
    assert.equal(compileTimeChange(t(0.17), t(0.23)).text, "0.17 s → 0.23 s (noise)", "+35% but 0.06 s is noise");
    assert.equal(compileTimeChange(t(2.0), t(3.0)).text, "2.00 s → 3.00 s (+50%)");
    assert.equal(compileTimeChange(t(0.5), t(0.5)).text, "0.50 s");
    assert.equal(compileTimeChange(undefined, t(0.5)).text, "– → 0.50 s");
    assert.equal(compileTimeText(t(0.28, { unknown_outcomes: 1 })), "0.28 s+?", "a compilation that never finished has no time in the sum");
  });

  it("is a column of the comparison table and of its totals", () => {
    const c = comparison();
    c.functions[0].baseline!.counts.compile_time_s = 0.4;
    c.functions[0].candidate!.counts.compile_time_s = 0.1;
    c.totals.baseline.compile_time_s = 0.9;
    c.totals.candidate.compile_time_s = 0.3;
    const html = renderTable(c, "csp", "n");
    assert.match(html, /<th scope="col" data-col="9" data-type="num" aria-sort="none" title="[^"]*">compile time<\/th>/);
    assert.match(html, /<td class="num down time" data-sort="-0.3[0-9]*">0.40 s → 0.10 s \(−75%\)<\/td>/);
    assert.match(html, /<td class="num">0.90 s<\/td><\/tr>.*<td class="num">0.30 s<\/td><\/tr>/s);
    assert.match(html, /data-col="10" data-type="num" aria-sort="none">changes<\/th>/);
  });
});
