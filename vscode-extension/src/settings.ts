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

/** A rule severity as the server understands it. */
export const SEVERITIES = ['error', 'warning', 'info', 'hint', 'off'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * The server's configuration, as sent in `initializationOptions`, answered to
 * `workspace/configuration` for section "formscript" and pushed with
 * `workspace/didChangeConfiguration`. Keys and values are those of
 * `[tool.formscript]`.
 *
 * A key is present only when the user set the setting (at any level, even to
 * an empty value). The server merges these over the project's
 * `[tool.formscript]`, where a present key replaces the project's value; so a
 * setting left at its default must be absent, or an untouched
 * `formscript.ignore` would wipe the project's `ignore`.
 */
export interface ServerConfig {
  select?: string[];
  extend_select?: string[];
  ignore?: string[];
  severity?: Record<string, Severity>;
  per_file_ignores?: Record<string, string[]>;
  kinds?: Partial<Record<Kind, string[]>>;
  calls?: Record<string, string>;
}

/**
 * Reads one setting below `formscript.`, e.g. `get("kinds.form")`; undefined
 * when the user did not set it (see `explicitValue`).
 */
export type SettingGetter = (key: string) => unknown;

/** The mapped configuration, plus what was dropped and why (for the output channel). */
export interface MappedSettings {
  readonly config: ServerConfig;
  readonly problems: readonly string[];
}

/** Aliases users type for the severities, mapped onto the server's names. */
const SEVERITY_ALIASES: Readonly<Record<string, Severity>> = {
  information: 'info',
  warn: 'warning',
  none: 'off',
};

/** Maps the `formscript.*` settings onto the server's configuration model. */
export function toServerConfig(get: SettingGetter): MappedSettings {
  const problems: string[] = [];
  const config: ServerConfig = {};
  const lists = [
    ['select', 'select'],
    ['extendSelect', 'extend_select'],
    ['ignore', 'ignore'],
  ] as const;
  for (const [setting, key] of lists) {
    const value = stringList(get(setting), `formscript.${setting}`, problems);
    if (value !== undefined) {
      config[key] = value;
    }
  }
  const severity = severityMap(get('severity'), problems);
  if (severity !== undefined) {
    config.severity = severity;
  }
  const perFile = perFileIgnores(get('perFileIgnores'), problems);
  if (perFile !== undefined) {
    config.per_file_ignores = perFile;
  }
  for (const kind of KINDS) {
    const globs = stringList(get(`kinds.${kind}`), `formscript.kinds.${kind}`, problems);
    if (globs !== undefined) {
      config.kinds = { ...config.kinds, [kind]: globs };
    }
  }
  const calls = callsMap(get('calls'), problems);
  if (calls !== undefined) {
    config.calls = calls;
  }
  return { config, problems };
}

function callsMap(value: unknown, problems: string[]): Record<string, string> | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`formscript.calls: expected an object of script glob -> transcript path, got ${describe(value)}; ignored.`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [rawGlob, target] of Object.entries(value as Record<string, unknown>)) {
    const glob = rawGlob.trim();
    if (glob === '' || typeof target !== 'string' || target.trim() === '') {
      problems.push(`formscript.calls["${rawGlob}"]: expected a non-empty glob and transcript path; ignored.`);
      continue;
    }
    out[glob] = target;
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

function perFileIgnores(value: unknown, problems: string[]): Record<string, string[]> | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`formscript.perFileIgnores: expected an object of glob -> codes, got ${describe(value)}; ignored.`);
    return undefined;
  }
  const out: Record<string, string[]> = {};
  for (const [rawGlob, codes] of Object.entries(value as Record<string, unknown>)) {
    const glob = rawGlob.trim();
    if (glob === '') {
      problems.push('formscript.perFileIgnores: an empty glob; ignored.');
      continue;
    }
    const list = stringList(codes, `formscript.perFileIgnores["${glob}"]`, problems);
    if (list !== undefined) {
      out[glob] = list;
    }
  }
  return out;
}

/**
 * Trimmed, non-empty, de-duplicated strings, in the order given; undefined
 * (the setting is left to the project) when unset, null or not a list.
 */
function stringList(value: unknown, name: string, problems: string[]): string[] | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (!Array.isArray(value) && typeof value !== 'string') {
    problems.push(`${name}: expected an array of strings, got ${describe(value)}; ignored.`);
    return undefined;
  }
  // A lone string (a hand-edited settings.json) is taken as a one-element list.
  const items: readonly unknown[] = typeof value === 'string' ? [value] : (value as unknown[]);
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      problems.push(`${name}: ${describe(item)} is not a string; ignored.`);
      continue;
    }
    const trimmed = item.trim();
    if (trimmed !== '' && !out.includes(trimmed)) {
      out.push(trimmed);
    }
  }
  return out;
}

function severityMap(value: unknown, problems: string[]): Record<string, Severity> | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`formscript.severity: expected an object of code -> severity, got ${describe(value)}; ignored.`);
    return undefined;
  }
  const out: Record<string, Severity> = {};
  for (const [rawCode, rawLevel] of Object.entries(value as Record<string, unknown>)) {
    const code = rawCode.trim();
    const level = normalizeSeverity(rawLevel);
    if (code === '') {
      problems.push('formscript.severity: an empty rule code; ignored.');
    } else if (level === undefined) {
      problems.push(
        `formscript.severity: "${code}" has severity ${describe(rawLevel)}; expected one of ${SEVERITIES.join(', ')}; ignored.`,
      );
    } else {
      out[code] = level;
    }
  }
  return out;
}

/** "Warning", "warn" -> "warning"; anything unknown -> undefined. */
export function normalizeSeverity(value: unknown): Severity | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const lowered = value.trim().toLowerCase();
  if ((SEVERITIES as readonly string[]).includes(lowered)) {
    return lowered as Severity;
  }
  return SEVERITY_ALIASES[lowered];
}

function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  return typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`;
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
export const RESTART_SETTINGS = ['formscript.path', 'formscript.kinds'] as const;
