// Loaded with `node --require` before the unit tests: `require("vscode")` gets the small stub next to this file.
import Module = require("node:module");
import * as path from "node:path";

const stub = path.join(__dirname, "vscode-stub.js");
const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const original = mod._resolveFilename;
mod._resolveFilename = function (request: string, ...rest: unknown[]): string {
  if (request === "vscode") return stub;
  return original.call(this, request, ...rest);
};
