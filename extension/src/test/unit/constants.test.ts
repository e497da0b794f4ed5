import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { CAPTURES_VIEW, CONFIG_SECTION, Command, EVIDENCE_SCHEME, Setting } from "../../common/constants";

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "..", "package.json"), "utf8"));

describe("constants and package.json's contributes", () => {
  it("registers exactly the contributed commands", () => {
    const contributed = (pkg.contributes.commands as { command: string }[]).map((c) => c.command).sort();
    assert.deepEqual(Object.values(Command).sort(), contributed);
  });

  it("names the contributed view and settings", () => {
    assert.deepEqual(
      (pkg.contributes.views.explorer as { id: string }[]).map((v) => v.id),
      [CAPTURES_VIEW],
    );
    assert.deepEqual(
      Object.values(Setting)
        .map((key) => `${CONFIG_SECTION}.${key}`)
        .sort(),
      Object.keys(pkg.contributes.configuration.properties).sort(),
    );
  });

  it("uses the evidence scheme the evidence page menus are shown for", () => {
    const menus = [...pkg.contributes.menus.commandPalette, ...pkg.contributes.menus["editor/title"]] as { command: string; when?: string }[];
    for (const id of [Command.evidenceNextPage, Command.evidencePreviousPage]) {
      const whens = menus.filter((m) => m.command === id).map((m) => m.when);
      assert.ok(whens.length > 0, id);
      for (const when of whens) assert.equal(when, `resourceScheme == ${EVIDENCE_SCHEME}`);
    }
  });
});
