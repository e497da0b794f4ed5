// The HTML report the CLI wrote, shown in a webview panel as it is.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { REPORT_PANEL } from "../common/constants";

export function showHtmlReport(file: string): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(REPORT_PANEL, `Report: ${path.basename(file)}`, vscode.ViewColumn.Active, {
    enableScripts: false,
    localResourceRoots: [],
  });
  // The report carries its own strict Content-Security-Policy and runs no scripts.
  panel.webview.html = fs.readFileSync(file, "utf8");
  return panel;
}
