// The editor side of a captured source document: which view each open document holds, and showing it —
// the function's lines selected, revealed and highlighted, with the description in a hover and a short label
// after the function's first line and in the status bar (decorations add no lines, so the line numbers stay
// the captured ones).
import * as vscode from "vscode";
import { SourceView, sourceHeader, sourceLabel } from "./source-view";

export class SourceEditors implements vscode.Disposable {
  private readonly views = new Map<string, SourceView>();
  private readonly functionLines = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.rangeHighlightForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private readonly label = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor("editorCodeLens.foreground"), fontStyle: "italic", margin: "0 0 0 3em" },
  });
  private status: vscode.Disposable | undefined;
  private readonly subscription = vscode.window.onDidChangeVisibleTextEditors((editors) => {
    for (const editor of editors) this.decorate(editor);
  });

  /** Called by the document provider each time it renders `uri`. */
  remember(uri: vscode.Uri, view: SourceView): void {
    this.views.set(uri.toString(), view);
  }

  viewOf(uri: vscode.Uri): SourceView | undefined {
    return this.views.get(uri.toString());
  }

  /** The function's lines, from the start of the first to the end of the last; the cursor on the first. */
  selection(doc: vscode.TextDocument, view: SourceView): vscode.Selection {
    const start = new vscode.Position(view.startLine, 0);
    const end = doc.lineAt(Math.min(view.endLine, doc.lineCount - 1)).range.end;
    return new vscode.Selection(end, start);
  }

  /** Selects, reveals and highlights the function in `editor` (a source document this class rendered). */
  reveal(editor: vscode.TextEditor): SourceView | undefined {
    const view = this.viewOf(editor.document.uri);
    if (!view) return undefined;
    const selection = this.selection(editor.document, view);
    editor.selection = selection;
    editor.revealRange(new vscode.Range(selection.start, selection.end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.decorate(editor);
    this.status?.dispose();
    this.status = vscode.window.setStatusBarMessage(`Dynamo Diff: ${view.fn} ${sourceLabel(view)}`, 15000);
    return view;
  }

  private decorate(editor: vscode.TextEditor): void {
    const view = this.viewOf(editor.document.uri);
    if (!view) return;
    const range = new vscode.Range(view.startLine, 0, view.endLine, 0);
    const hover = new vscode.MarkdownString().appendCodeblock(sourceHeader(view), "text");
    editor.setDecorations(this.functionLines, [{ range, hoverMessage: hover }]);
    const first = editor.document.lineAt(view.startLine).range.end;
    editor.setDecorations(this.label, [
      { range: new vscode.Range(first, first), hoverMessage: hover, renderOptions: { after: { contentText: sourceLabel(view) } } },
    ]);
  }

  dispose(): void {
    this.subscription.dispose();
    this.status?.dispose();
    this.functionLines.dispose();
    this.label.dispose();
    this.views.clear();
  }
}
