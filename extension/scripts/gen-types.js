#!/usr/bin/env node
// Generates the extension's TypeScript types from the committed JSON Schemas of the CLI's documents
// (packages/dynamo-diff-schema/src/dynamo_diff_schema/schemas/*.schema.json) into src/generated/, so the types
// the extension reads the CLI's JSON with cannot drift from what the CLI writes.
//
//   npm run gen:types                 write src/generated/*.ts
//   npm run gen:types -- --check      exit 1 when a generated file differs from what the schemas give now
//   ... -- --schemas DIR              read the schemas from DIR instead
//
// A unit test (src/test/unit/generated.test.ts, run by `npm test`) does the same check.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { compile } = require("json-schema-to-typescript");

const EXTENSION_DIR = path.resolve(__dirname, "..");
const SCHEMA_DIR = path.resolve(EXTENSION_DIR, "..", "packages", "dynamo-diff-schema", "src", "dynamo_diff_schema", "schemas");
const OUT_DIR = path.join(EXTENSION_DIR, "src", "generated");
const SUFFIX = ".schema.json";

const BANNER = (schemaFile) =>
  [
    `// Generated from ${schemaFile} by scripts/gen-types.js (npm run gen:types): do not edit.`,
    "// The schema is written by `uv run python tools/write_schemas.py` from the dynamo-diff-schema models.",
    "/* eslint-disable */",
  ].join("\n");

/**
 * A property's `title` ("Compile Time S") would become a named type alias of its own; only the document and its
 * $defs keep their titles (the interface names), everything else keeps its description as a doc comment.
 */
function dropPropertyTitles(node, keep) {
  if (Array.isArray(node)) return node.map((item) => dropPropertyTitles(item, false));
  if (typeof node !== "object" || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "title" && !keep) continue;
    if (key === "$defs" && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, def]) => [name, dropPropertyTitles(def, true)]));
    } else if (key === "properties" && typeof value === "object" && value !== null) {
      // Property names are data, not schema keywords: a property called "title" stays.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, prop]) => [name, dropPropertyTitles(prop, false)]));
    } else {
      out[key] = dropPropertyTitles(value, false);
    }
  }
  return out;
}

const SHAPE_KEYWORDS = ["type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "properties", "items", "additionalProperties", "tsType"];

/** A schema that allows any value (`{}`, maybe with a default or description) is `unknown`, not an object type. */
function anyAsUnknown(node) {
  if (Array.isArray(node)) return node.map(anyAsUnknown);
  if (typeof node !== "object" || node === null) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "properties" || key === "$defs") && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [
          name,
          typeof sub === "object" && sub !== null && !SHAPE_KEYWORDS.some((k) => k in sub) ? { ...sub, tsType: "unknown" } : anyAsUnknown(sub),
        ]),
      );
    } else {
      out[key] = anyAsUnknown(value);
    }
  }
  return out;
}

/** The generated file name for a schema file: run_report.schema.json -> run_report.ts. */
function outputName(schemaFile) {
  return `${schemaFile.slice(0, -SUFFIX.length)}.ts`;
}

/** Every schema in `schemaDir`, compiled: a map from the generated file's name to its text. */
async function generate(schemaDir = SCHEMA_DIR) {
  const files = fs.readdirSync(schemaDir).filter((f) => f.endsWith(SUFFIX)).sort();
  if (!files.length) throw new Error(`no *${SUFFIX} files in ${schemaDir}`);
  const out = new Map();
  for (const file of files) {
    const schema = anyAsUnknown(dropPropertyTitles(JSON.parse(fs.readFileSync(path.join(schemaDir, file), "utf8")), true));
    const text = await compile(schema, schema.title ?? file, {
      bannerComment: BANNER(file),
      additionalProperties: false,
      unreachableDefinitions: true,
      unknownAny: true,
      strictIndexSignatures: false,
      format: true,
      style: { printWidth: 120, singleQuote: false, trailingComma: "all" },
      cwd: schemaDir,
    });
    out.set(outputName(file), text);
  }
  return out;
}

/** The generated files that differ from `expected` (missing, changed or left over), by name. */
function differences(expected, outDir = OUT_DIR) {
  const found = fs.existsSync(outDir) ? fs.readdirSync(outDir).filter((f) => f.endsWith(".ts")) : [];
  const names = new Set([...expected.keys(), ...found]);
  const out = [];
  for (const name of [...names].sort()) {
    const want = expected.get(name);
    const file = path.join(outDir, name);
    const have = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
    if (want === undefined) out.push(`${name}: no schema gives this file any more`);
    else if (have === undefined) out.push(`${name}: missing`);
    else if (have !== want) out.push(`${name}: differs from what its schema gives now`);
  }
  return out;
}

async function main(argv) {
  const check = argv.includes("--check");
  const at = argv.indexOf("--schemas");
  const schemaDir = at >= 0 ? path.resolve(argv[at + 1]) : SCHEMA_DIR;
  const generated = await generate(schemaDir);
  if (check) {
    const diffs = differences(generated);
    if (diffs.length) {
      console.error(`src/generated is out of date with ${schemaDir}:\n  ${diffs.join("\n  ")}\nRun: npm run gen:types`);
      process.exit(1);
    }
    console.log(`src/generated matches the ${generated.size} schemas`);
    return;
  }
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const f of fs.readdirSync(OUT_DIR).filter((f) => f.endsWith(".ts") && !generated.has(f))) fs.rmSync(path.join(OUT_DIR, f));
  for (const [name, text] of generated) fs.writeFileSync(path.join(OUT_DIR, name), text);
  console.log(`wrote ${[...generated.keys()].map((n) => `src/generated/${n}`).join(", ")}`);
}

module.exports = { generate, differences, SCHEMA_DIR, OUT_DIR };

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err instanceof Error ? err.stack : String(err));
    process.exit(1);
  });
}
