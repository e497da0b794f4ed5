// The types in src/generated/ are what scripts/gen-types.js makes from the committed JSON Schemas, byte for byte:
// a schema change without `npm run gen:types` fails here.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";

interface Generator {
  generate(schemaDir?: string): Promise<Map<string, string>>;
  differences(expected: Map<string, string>, outDir?: string): string[];
  SCHEMA_DIR: string;
  OUT_DIR: string;
}

// out/test/unit -> extension/scripts
// eslint-disable-next-line @typescript-eslint/no-require-imports
const gen = require(path.join(__dirname, "..", "..", "..", "scripts", "gen-types.js")) as Generator;

describe("types generated from the JSON Schemas", () => {
  it("src/generated matches what the committed schemas give now (else run: npm run gen:types)", async () => {
    const generated = await gen.generate();
    const schemas = fs.readdirSync(gen.SCHEMA_DIR).filter((f) => f.endsWith(".schema.json"));
    assert.equal(generated.size, schemas.length, "one generated file per schema");
    assert.deepEqual(gen.differences(generated), []);
  });

  it("notices a schema change the generated files do not have", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dd-schemas-"));
    try {
      for (const f of fs.readdirSync(gen.SCHEMA_DIR)) fs.copyFileSync(path.join(gen.SCHEMA_DIR, f), path.join(dir, f));
      // Generated files as they were before the change, in a folder of their own.
      const out = path.join(dir, "generated");
      fs.mkdirSync(out);
      for (const [name, text] of await gen.generate(dir)) fs.writeFileSync(path.join(out, name), text);
      assert.deepEqual(gen.differences(await gen.generate(dir), out), []);
      const file = path.join(dir, "run_report.schema.json");
      const schema = JSON.parse(fs.readFileSync(file, "utf8"));
      schema.$defs.FunctionReport.properties.added_by_a_test = { type: "integer", description: "a field the types lack" };
      fs.writeFileSync(file, JSON.stringify(schema));
      const generated = await gen.generate(dir);
      assert.match(generated.get("run_report.ts") ?? "", /added_by_a_test\?: number;/);
      assert.deepEqual(gen.differences(generated, out), ["run_report.ts: differs from what its schema gives now"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps titled definitions as interfaces and gives properties no type aliases of their own", () => {
    const text = fs.readFileSync(path.join(gen.OUT_DIR, "run_report.ts"), "utf8");
    assert.match(text, /export interface FunctionReport \{/);
    assert.match(text, /compile_time_s\?: number;/);
    assert.doesNotMatch(text, /export type CompileTimeS\b/);
  });
});
