/**
 * The extension's commands: dry run, simulate, rule documentation, restart.
 * Dry run, simulate and rule documentation ask the server (workspace/executeCommand)
 * and show its answer in a read-only document.
 */
import * as path from 'node:path';

import * as vscode from 'vscode';
import { ExecuteCommandRequest, ResponseError } from 'vscode-languageclient/node';

import { errorText, type ServerController } from './client';
import type { RunOffers } from './menus';
import { notOfferedMessage } from './offers';
import {
  EXTENSION_COMMANDS,
  HIDDEN_COMMANDS,
  RESULT_SCHEME,
  SERVER_COMMANDS,
  diagnosticCode,
  normalizeRuleCode,
  resultPath,
  resultText,
  uriArgument,
  type ResultKind,
} from './results';

/** Read-only documents under the `formscript:` scheme holding the server's answers. */
class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** Stores `text` under a document for `kind`/`name` and returns its URI. */
  set(kind: ResultKind, name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: resultPath(kind, name) });
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}

/** Registers every command; the returned disposables unregister them. */
export function registerCommands(controller: ServerController, offers: RunOffers): vscode.Disposable[] {
  const documents = new ResultDocuments();
  return [
    documents,
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, documents),
    vscode.commands.registerCommand(EXTENSION_COMMANDS.dryRun, (uri?: unknown, line?: unknown) =>
      runOnFile(controller, offers, documents, 'dry-run', uri, line),
    ),
    vscode.commands.registerCommand(EXTENSION_COMMANDS.simulate, (uri?: unknown, line?: unknown) =>
      runOnFile(controller, offers, documents, 'simulate', uri, line),
    ),
    vscode.commands.registerCommand(EXTENSION_COMMANDS.showRuleDocumentation, (code?: unknown) =>
      showRuleDocumentation(controller, documents, code),
    ),
    vscode.commands.registerCommand(HIDDEN_COMMANDS.ruleDoc, (code?: unknown) =>
      showRuleDocumentation(controller, documents, code),
    ),
    vscode.commands.registerCommand(EXTENSION_COMMANDS.restartServer, () => controller.restart()),
    vscode.commands.registerCommand(EXTENSION_COMMANDS.showLogs, () => controller.output.show(true)),
  ];
}

const LABELS: Record<'dry-run' | 'simulate', string> = { 'dry-run': 'Dry run', simulate: 'Simulate' };

/** The file a command runs on: its argument (a Uri, or a URI string from a code lens), else the active editor's. */
function targetOf(argument: unknown): vscode.Uri | undefined {
  if (argument instanceof vscode.Uri) {
    return argument;
  }
  const uri = uriArgument(argument);
  if (uri !== undefined) {
    try {
      return vscode.Uri.parse(uri, true);
    } catch {
      return undefined;
    }
  }
  return vscode.window.activeTextEditor?.document.uri;
}

/**
 * Dry run or simulate on the file from a menu or code lens, else the active
 * editor's; shows the server's answer and returns its text.
 */
async function runOnFile(
  controller: ServerController,
  offers: RunOffers,
  documents: ResultDocuments,
  kind: 'dry-run' | 'simulate',
  argument: unknown,
  lineArgument?: unknown,
): Promise<string | undefined> {
  const label = LABELS[kind];
  // A code lens above a document inside a Python file passes its line (FILE.py:LINE).
  const line =
    typeof lineArgument === 'number' && Number.isInteger(lineArgument) && lineArgument > 0 ? lineArgument : undefined;
  const target = targetOf(argument);
  if (target === undefined) {
    void vscode.window.showWarningMessage(`Formscript: ${label} needs a file: open a form or script file first.`);
    return undefined;
  }
  const command = kind === 'dry-run' ? SERVER_COMMANDS.dryRun : SERVER_COMMANDS.simulate;
  const name = path.basename(target.path) + (line === undefined ? '' : `:${line}`);
  // An open document is asked about first: a dry run of a script (or a simulation of a
  // form) would only report the other kind's keys as unknown.
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === target.toString());
  const offered = open === undefined ? undefined : await offers.offersFor(open);
  if (offered !== undefined && !(kind === 'dry-run' ? offered.dryRun : offered.simulate)) {
    void vscode.window.showInformationMessage(notOfferedMessage(kind, path.basename(target.path), offered));
    return undefined;
  }
  const args: unknown[] = line === undefined ? [target.toString()] : [target.toString(), line];
  const result = await askServer(controller, `${label} of ${name}`, command, args);
  if (result === undefined) {
    return undefined;
  }
  const text = resultText(result.value) ?? `(${label.toLowerCase()} returned no output)`;
  const uri = documents.set(kind, name, text);
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.Beside,
    preview: true,
    preserveFocus: true,
  });
  return text;
}

/**
 * Previews a rule's documentation: the code given as argument, else asked for
 * (prefilled from the diagnostic under the cursor). Returns the Markdown.
 */
async function showRuleDocumentation(
  controller: ServerController,
  documents: ResultDocuments,
  argument: unknown,
): Promise<string | undefined> {
  let code = typeof argument === 'string' ? normalizeRuleCode(argument) : undefined;
  if (code === undefined) {
    const typed = await vscode.window.showInputBox({
      title: 'Formscript: Show rule documentation',
      prompt: 'The rule code (as shown in the diagnostic)',
      value: codeAtCursor() ?? '',
      validateInput: (value) => (normalizeRuleCode(value) === undefined ? 'Enter one rule code.' : undefined),
    });
    code = normalizeRuleCode(typed);
    if (code === undefined) {
      return undefined;
    }
  }
  const result = await askServer(controller, `Documentation of ${code}`, SERVER_COMMANDS.ruleDoc, [code]);
  if (result === undefined) {
    return undefined;
  }
  const text = resultText(result.value);
  if (text === undefined || text.trim() === '') {
    void vscode.window.showInformationMessage(`Formscript: no documentation for rule ${code}.`);
    return undefined;
  }
  const uri = documents.set('rule', code, text);
  try {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
  } catch {
    // The built-in Markdown extension is disabled: show the source instead.
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
  return text;
}

/** Sends workspace/executeCommand; undefined (after telling the user) on failure. */
async function askServer(
  controller: ServerController,
  what: string,
  command: string,
  args: unknown[],
): Promise<{ value: unknown } | undefined> {
  const client = await controller.ensureStarted();
  if (client === undefined) {
    return undefined;
  }
  controller.log(`${what}: workspace/executeCommand ${command} ${JSON.stringify(args)}`);
  try {
    const value: unknown = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Formscript: ${what}…` },
      () => client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    );
    return { value };
  } catch (error) {
    const detail = error instanceof ResponseError ? `${error.message} (code ${error.code})` : errorText(error);
    controller.log(`${what} failed: ${detail}`);
    void vscode.window.showErrorMessage(`Formscript: ${what} failed: ${detail}`);
    return undefined;
  }
}

/** The code of a formscript diagnostic under the active editor's cursor, if any. */
function codeAtCursor(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return undefined;
  }
  const position = editor.selection.active;
  const here = vscode.languages
    .getDiagnostics(editor.document.uri)
    .filter((diagnostic) => diagnostic.range.contains(position));
  const preferred = here.find((diagnostic) => diagnostic.source?.toLowerCase().startsWith('formscript') === true);
  return diagnosticCode((preferred ?? here[0])?.code);
}
