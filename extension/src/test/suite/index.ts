// The extension-host test entry (`extensionTestsPath`): runs the mocha suites next to this file.
import * as fs from "node:fs";
import * as path from "node:path";
import Mocha from "mocha";

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 120000, color: false, reporter: "spec" });
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith(".test.js")).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
