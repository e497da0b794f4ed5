// The "Dynamo Diff" output channel: which CLI is used, each command line run, and each error shown.
import * as vscode from "vscode";
import { OUTPUT_CHANNEL } from "./constants";

export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL);

  line(text: string): void {
    this.channel.appendLine(text);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
