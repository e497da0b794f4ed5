// The names VS Code and package.json know the extension by: command ids, the view, the settings, the document
// schemes and the webview panel types. package.json's "contributes" says the same (a unit test checks).
// Nothing here imports `vscode`.

export const OUTPUT_CHANNEL = "Dynamo Diff";

/** The settings section: `dynamoDiff.<key>` for each key of `Setting`. */
export const CONFIG_SECTION = "dynamoDiff";

export const Setting = {
  cliPath: "cliPath",
  pythonPath: "pythonPath",
  storePath: "storePath",
  evidencePageChars: "evidencePageChars",
  diagnosticsFollowComparison: "diagnosticsFollowComparison",
  codeLens: "codeLens",
} as const;

export const Command = {
  importCapture: "dynamoDiff.importCapture",
  compareCaptures: "dynamoDiff.compareCaptures",
  compareRanks: "dynamoDiff.compareRanks",
  showTable: "dynamoDiff.showTable",
  openHtmlReport: "dynamoDiff.openHtmlReport",
  refresh: "dynamoDiff.refresh",
  openSource: "dynamoDiff.openSource",
  openEvidence: "dynamoDiff.openEvidence",
  evidenceNextPage: "dynamoDiff.evidenceNextPage",
  evidencePreviousPage: "dynamoDiff.evidencePreviousPage",
  showCaptureDiagnostics: "dynamoDiff.showCaptureDiagnostics",
  clearDiagnostics: "dynamoDiff.clearDiagnostics",
} as const;

/** The tree in the Explorer. */
export const CAPTURES_VIEW = "dynamoDiff.captures";

/** The read-only documents: a captured source snapshot, an evidence record. */
export const SOURCE_SCHEME = "dynamo-diff-source";
export const EVIDENCE_SCHEME = "dynamo-diff-evidence";

/** Webview panel types. */
export const TABLE_PANEL = "dynamoDiff.table";
export const REPORT_PANEL = "dynamoDiff.report";
