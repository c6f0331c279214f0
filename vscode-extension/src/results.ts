/**
 * Turning the answers of the server's commands into text to show, and the
 * names of the read-only documents that show them.
 *
 * Pure, like discovery and settings: tested without VS Code.
 */

/** The URI scheme of the read-only result documents. */
export const RESULT_SCHEME = 'formscript';

/** The server-side commands (workspace/executeCommand) the extension calls. */
export const SERVER_COMMANDS = {
  dryRun: 'formscript.dryRun',
  simulate: 'formscript.simulate',
  ruleDoc: 'formscript.ruleDoc',
} as const;

/** The VS Code commands the extension contributes. */
export const EXTENSION_COMMANDS = {
  dryRun: 'formscript.dryRun',
  simulate: 'formscript.simulate',
  showRuleDocumentation: 'formscript.showRuleDocumentation',
  restartServer: 'formscript.restartServer',
  showLogs: 'formscript.showLogs',
} as const;

/**
 * VS Code commands the extension registers without listing them in the
 * command palette: `formscript.ruleDoc` with `[code]` (as in a server's
 * `command:` link) shows the documentation instead of discarding it.
 */
export const HIDDEN_COMMANDS = {
  ruleDoc: 'formscript.ruleDoc',
} as const;

/**
 * Server commands that the language client may register as VS Code commands
 * itself: all but those the extension registers under the same name (a
 * duplicate registration throws, and the extension's versions show the answer).
 */
export function commandsLeftToClient(serverCommands: readonly string[]): string[] {
  const owned = new Set<string>([...Object.values(EXTENSION_COMMANDS), ...Object.values(HIDDEN_COMMANDS)]);
  return serverCommands.filter((command) => !owned.has(command));
}

/**
 * The document URI (as a string) in a command argument that is not a
 * `vscode.Uri`: the server's code lenses pass the URI as a string; an object
 * with a string `uri` is accepted too. Undefined otherwise.
 */
export function uriArgument(argument: unknown): string | undefined {
  if (typeof argument === 'string') {
    return /^[a-zA-Z][\w+.-]*:/.test(argument) ? argument : undefined;
  }
  if (typeof argument === 'object' && argument !== null && 'uri' in argument) {
    const uri = (argument as { uri: unknown }).uri;
    return typeof uri === 'string' ? uriArgument(uri) : undefined;
  }
  return undefined;
}

/**
 * The text of a command's answer. The server answers with a string; a
 * `MarkupContent` (`{kind, value}`), an object with a `text`/`markdown`/`output`
 * string, or a list of lines are accepted too. Anything else is shown as JSON.
 * No answer (null/undefined) gives undefined.
 */
export function resultText(result: unknown): string | undefined {
  if (result === undefined || result === null) {
    return undefined;
  }
  if (typeof result === 'string') {
    return result;
  }
  if (Array.isArray(result) && result.every((line) => typeof line === 'string')) {
    return result.join('\n');
  }
  if (typeof result === 'object' && !Array.isArray(result)) {
    const record = result as Record<string, unknown>;
    for (const key of ['value', 'text', 'markdown', 'output', 'content']) {
      const candidate = record[key];
      if (typeof candidate === 'string') {
        return candidate;
      }
    }
  }
  return JSON.stringify(result, null, 2);
}

/**
 * The rule code of a diagnostic's `code` (a string, a number, or
 * `{ value, target }`), or undefined.
 */
export function diagnosticCode(code: unknown): string | undefined {
  if (typeof code === 'string') {
    return code.trim() === '' ? undefined : code.trim();
  }
  if (typeof code === 'number') {
    return String(code);
  }
  if (typeof code === 'object' && code !== null && 'value' in code) {
    return diagnosticCode((code as { value: unknown }).value);
  }
  return undefined;
}

/** A rule code as typed by the user: trimmed, one word; undefined when unusable. */
export function normalizeRuleCode(input: string | undefined): string | undefined {
  const code = input?.trim() ?? '';
  return code === '' || /\s/.test(code) ? undefined : code;
}

/** What a result document shows. */
export type ResultKind = 'dry-run' | 'simulate' | 'rule';

/**
 * The path of a result document, e.g. `/dry-run/spec.form.yaml.txt` or
 * `/rule/FS101.md`. The name is the file's base name (or the rule code), so
 * one document per file is reused across runs.
 */
export function resultPath(kind: ResultKind, name: string): string {
  const safe = name.replace(/[\\/:*?"<>|#]/g, '_') || 'untitled';
  return kind === 'rule' ? `/rule/${safe}.md` : `/${kind}/${safe}.txt`;
}
