import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EDITOR_HINTS, phraseHint, withHint } from "../../common/hints";

describe("hints: the next step in the editor's words", () => {
  it("fills a hint's arguments, then what the caller knows, else names the placeholder", () => {
    const hint = { action: "evidence_of_kind", args: { kind: "dynamo_cpp_guards_str" } };
    assert.equal(
      phraseHint(hint),
      "`dynamo-diff evidence CAPTURE --kind dynamo_cpp_guards_str` in a terminal lists the kept records of a kind",
    );
    assert.match(phraseHint(hint, { capture: "3f2a9c01b7de" }), /evidence 3f2a9c01b7de --kind/);
  });

  it("joins a message and its hint as the CLI and the MCP server do, and leaves a message without one alone", () => {
    assert.equal(withHint("the store is empty", { action: "import_first" }), "the store is empty (import a run first with 'Dynamo Diff: Import Capture')");
    assert.equal(withHint("nothing to do", null), "nothing to do");
  });

  it("shows an action it does not know by its code and arguments", () => {
    assert.equal(phraseHint({ action: "later_step", args: { b: "2", a: "1" } }), "later_step a=1 b=2");
  });

  it("names no placeholder it cannot fill from an action's documented arguments", () => {
    for (const [action, template] of Object.entries(EDITOR_HINTS)) {
      for (const [, name] of template.matchAll(/\{([a-z_]+)\}/g)) {
        assert.ok(["capture", "kind", "key", "label"].includes(name), `${action}: {${name}}`);
      }
    }
  });
});
