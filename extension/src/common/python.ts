// Which Python interpreter's environment holds dynamo-diff, for finding the CLI next to it.
import * as vscode from "vscode";
import { Log } from "./log";
import { pythonPathSetting, workspaceUri } from "./settings";

/** `dynamoDiff.pythonPath`, else the Python extension's selected interpreter, else `python.defaultInterpreterPath`. */
export async function interpreter(log: Log): Promise<string | undefined> {
  const own = pythonPathSetting();
  if (own) return own;
  const python = vscode.extensions.getExtension("ms-python.python");
  if (python) {
    try {
      const api = (python.isActive ? python.exports : await python.activate()) as {
        environments?: { getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } };
      };
      const selected = api?.environments?.getActiveEnvironmentPath(workspaceUri());
      if (selected?.path) return selected.path;
    } catch (err) {
      log.line(`could not ask the Python extension for its interpreter: ${String(err)}`);
    }
  }
  const fallback = vscode.workspace.getConfiguration("python").get<string>("defaultInterpreterPath", "").trim();
  return fallback && fallback !== "python" ? fallback : undefined;
}
