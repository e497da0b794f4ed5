// How the extension words a hint: the next step an error or a notice points to (a HintAction with its arguments,
// in the CLI's JSON), as what to do in the editor. The CLI and the MCP server keep their own tables
// (dynamo_diff_cli/hints.py, dynamo_diff_mcp/hints.py); a test checks all three know every action.
// Nothing here imports `vscode`.
import type { Hint, HintAction } from "../generated/error";

/** Every HintAction -> a clause with `{arg}` placeholders; a step the editor has no command for names the CLI's. */
export const EDITOR_HINTS: Record<HintAction, string> = {
  list_captures: "the Dynamo Diff view lists the captures in the store",
  import_first: "import a run first with 'Dynamo Diff: Import Capture'",
  analyze_capture: "open capture {capture} in the Dynamo Diff view",
  evidence_of_kind: "`dynamo-diff evidence {capture} --kind {kind}` in a terminal lists the kept records of a kind",
  compare_ranks: "'Dynamo Diff: Compare Ranks' on {capture} groups its ranks by behaviour and shows where groups first differ",
  record_with_capture: "record runs with `dynamo-diff capture -- COMMAND` in a terminal to keep their sources",
  record_run:
    "record it with `dynamo-diff capture -- COMMAND` in a terminal, which imports a run that compiled nothing as a capture of 0 compilations",
  import_with_label: "import it again with 'Dynamo Diff: Import Capture' and give it a label",
  move_label: "choose another label",
  pair_with_source_map: "`dynamo-diff compare BASELINE CANDIDATE --source-map MAP` in a terminal pairs them explicitly",
  name_the_change: "`dynamo-diff compare BASELINE CANDIDATE --change {key}` in a terminal, when it is the change under test",
  whole_document: "the comparison table holds them all",
};

/** The clause for `hint`, its placeholders filled from its args, then `context`, else named in capitals. */
export function phraseHint(hint: Hint, context: Record<string, string> = {}): string {
  const template = (EDITOR_HINTS as Record<string, string | undefined>)[hint.action];
  const args: Record<string, string> = { ...context, ...(hint.args ?? {}) };
  if (template === undefined) {
    // An action a later CLI writes that this extension does not know yet: its code and arguments.
    return [hint.action, ...Object.keys(args).sort().map((k) => `${k}=${args[k]}`)].join(" ");
  }
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => args[name] ?? name.toUpperCase());
}

/** A message with its hint after it, in brackets (as the CLI and the MCP server join them). */
export function withHint(message: string, hint: Hint | null | undefined, context: Record<string, string> = {}): string {
  return hint ? `${message} (${phraseHint(hint, context)})` : message;
}
