/**
 * The status-bar item: whether the language server is starting, running or failed, the
 * formscript version it runs and where that comes from (bundled, the environment, PATH,
 * formscript.path). Clicking it shows the output channel ("formscript: Show logs").
 */
import * as vscode from 'vscode';

/** The command the item runs. */
export const SHOW_LOGS_COMMAND = 'formscript.showLogs';

export class StatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('formscript.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'formscript';
    this.item.command = SHOW_LOGS_COMMAND;
  }

  starting(): void {
    this.show('$(sync~spin) formscript', 'formscript: starting the language server', false);
  }

  running(version: string | undefined, source: string, description: string): void {
    const shown = version !== undefined ? `formscript ${version} (${source})` : `formscript (${source})`;
    this.show(`$(check) ${shown}`, `${shown}: running, from ${description}. Click for the logs.`, false);
  }

  failed(message: string): void {
    this.show('$(error) formscript', `formscript: ${message} Click for the logs.`, true);
  }

  off(message: string): void {
    this.show('$(circle-slash) formscript', `${message}. Click for the logs.`, false);
  }

  private show(text: string, tooltip: string, error: boolean): void {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: tooltip };
    this.item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
