/**
 * From VS Code settings (`formscript.*`, camelCase) to the server's
 * configuration model (snake_case, the same model as `[tool.formscript]`).
 *
 * Pure: settings are read through a `get(key)` function, so the mapping is
 * unit-tested without VS Code. `WorkspaceConfiguration.get` fits it as is.
 */

/** The configuration section, both in VS Code and in `workspace/configuration`. */
export const SECTION = 'formscript';

/** The four file kinds the server knows. */
export const KINDS = ['form', 'script', 'rules', 'calls'] as const;
export type Kind = (typeof KINDS)[number];

/** The file extensions every kind accepts by default. */
export const DEFAULT_EXTENSIONS = ['yaml', 'yml', 'json'] as const;

/**
 * The server's configuration, as sent in `initializationOptions`, answered to
 * `workspace/configuration` for section "formscript" and pushed with
 * `workspace/didChangeConfiguration`. Keys are those of `[tool.formscript]`
 * (snake_case); values are exactly what the user wrote.
 *
 * The extension does not validate them: the server does (the same checks as
 * for `[tool.formscript]` and `--severity`), and says what is wrong in a
 * message, so every editor gets the same verdict on the same setting.
 *
 * A key is present only when the user set the setting (at any level, even to
 * an empty value). The server merges these over the project's
 * `[tool.formscript]`, where a present key replaces the project's value; so a
 * setting left at its default must be absent, or an untouched
 * `formscript.ignore` would wipe the project's `ignore`.
 */
export interface ServerConfig {
  select?: unknown;
  extend_select?: unknown;
  ignore?: unknown;
  severity?: unknown;
  per_file_ignores?: unknown;
  kinds?: Partial<Record<Kind, unknown>>;
  calls?: unknown;
  expected_outcomes?: unknown;
  exclude?: unknown;
  respect_gitignore?: unknown;
}

/**
 * Reads one setting below `formscript.`, e.g. `get("kinds.form")`; undefined
 * when the user did not set it (see `explicitValue`).
 */
export type SettingGetter = (key: string) => unknown;

/** The settings the server reads: VS Code name below `formscript.` -> server key. */
const PASSED: readonly (readonly [string, Exclude<keyof ServerConfig, 'kinds'>])[] = [
  ['select', 'select'],
  ['extendSelect', 'extend_select'],
  ['ignore', 'ignore'],
  ['severity', 'severity'],
  ['perFileIgnores', 'per_file_ignores'],
  ['calls', 'calls'],
  ['expectedOutcomes', 'expected_outcomes'],
  ['exclude', 'exclude'],
  ['respectGitignore', 'respect_gitignore'],
];

/** Maps the `formscript.*` settings the user set onto the server's keys, values untouched. */
export function toServerConfig(get: SettingGetter): ServerConfig {
  const config: ServerConfig = {};
  for (const [setting, key] of PASSED) {
    const value = get(setting);
    if (value !== undefined) {
      config[key] = value;
    }
  }
  for (const kind of KINDS) {
    const value = get(`kinds.${kind}`);
    if (value !== undefined) {
      config.kinds = { ...config.kinds, [kind]: value };
    }
  }
  return config;
}

/**
 * The extra globs of each kind, for the client's own document selector (which
 * files it hands to the server): the strings among what the user set. Whether
 * the setting is valid is the server's to say.
 */
export function selectorGlobs(config: ServerConfig): Partial<Record<Kind, string[]>> {
  const out: Partial<Record<Kind, string[]>> = {};
  for (const kind of KINDS) {
    const value = config.kinds?.[kind];
    const items: readonly unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
    const globs = items.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
    if (globs.length > 0) {
      out[kind] = globs.map((glob) => glob.trim());
    }
  }
  return out;
}

/** What `WorkspaceConfiguration.inspect` reports for one setting. */
export interface InspectedSetting {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** True when the user set the setting at some level, rather than leaving the default. */
export function isExplicitlySet(inspected: InspectedSetting | undefined): boolean {
  return (
    inspected !== undefined &&
    (inspected.globalValue !== undefined ||
      inspected.workspaceValue !== undefined ||
      inspected.workspaceFolderValue !== undefined)
  );
}

/** The default file-name globs, e.g. `**\/*.form.yaml`, for every kind and extension. */
export function defaultPatterns(): string[] {
  const out: string[] = [];
  for (const kind of KINDS) {
    for (const ext of DEFAULT_EXTENSIONS) {
      out.push(`**/*.${kind}.${ext}`);
    }
  }
  return out;
}

/**
 * A user glob as a document-filter pattern. VS Code matches document filters
 * against the whole path, so a relative glob ("specs/*.yaml") gets a `**\/`
 * prefix; absolute ones ("/…", "C:/…") and ones already starting with `**` stay.
 */
export function toDocumentPattern(glob: string): string {
  const g = glob.trim().replace(/\\/g, '/');
  if (g.startsWith('**') || g.startsWith('/') || /^[A-Za-z]:\//.test(g)) {
    return g;
  }
  return `**/${g.replace(/^\.\//, '')}`;
}

/** A document filter for the language client: file scheme plus a glob. */
export interface FilePatternFilter {
  readonly scheme: 'file';
  readonly pattern: string;
}

/** The documents the server handles: the default names plus the `formscript.kinds.*` globs. */
export function documentSelector(kinds: Readonly<Partial<Record<Kind, readonly string[]>>>): FilePatternFilter[] {
  const patterns = defaultPatterns();
  for (const kind of KINDS) {
    for (const glob of kinds[kind] ?? []) {
      const pattern = toDocumentPattern(glob);
      if (pattern !== '**/' && !patterns.includes(pattern)) {
        patterns.push(pattern);
      }
    }
  }
  return patterns.map((pattern) => ({ scheme: 'file', pattern }));
}

/** Python files: the server reads the scripts and forms they hand to lionagi (and says nothing on the others). */
export interface LanguageFilter {
  readonly scheme: 'file';
  readonly language: 'python';
}

export const PYTHON_FILTER: LanguageFilter = { scheme: 'file', language: 'python' };

/** A filter of the documents the client sends to the server. */
export type ServerDocumentFilter = FilePatternFilter | LanguageFilter;

/** The documents sent to the server: its files (see `documentSelector`) and Python files. */
export function serverSelector(kinds: Readonly<Partial<Record<Kind, readonly string[]>>>): ServerDocumentFilter[] {
  return [...documentSelector(kinds), PYTHON_FILTER];
}

/**
 * True when a Python text imports lionagi (`import lionagi`, `import lionagi.testing as lt`,
 * `from lionagi.work import …`, also indented inside a function). Only such a file starts
 * the server; once it runs, other Python files are sent too and get nothing.
 */
export function importsLionagi(text: string): boolean {
  return /^[ \t]*(?:from[ \t]+lionagi(?:\.[\w.]+)?[ \t]+import\b|import[ \t]+(?:[\w.]+[ \t]*(?:as[ \t]+\w+[ \t]*)?,[ \t]*)*lionagi\b)/m.test(
    text,
  );
}

/** Settings whose change needs a new server process (the command, or the document selector). */
export const RESTART_SETTINGS = [
  'formscript.path',
  'formscript.interpreter',
  'formscript.importStrategy',
  'formscript.kinds',
] as const;
