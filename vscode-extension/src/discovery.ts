/**
 * Finding the formscript language server: which command to run, and why.
 *
 * Pure functions only. Everything that touches the machine (the file system,
 * PATH, the Python extension) comes in through `DiscoveryHost` and
 * `DiscoveryInput`, so the order of precedence is unit-tested without VS Code:
 *
 *   1. the `formscript.path` setting (a path, or a whole command as an array);
 *   2. `formscript` on PATH;
 *   3. the selected Python interpreter, as `<python> -m formscript serve`.
 */
import * as path from 'node:path';

/** The install command shown whenever no server can be found. */
export const INSTALL_COMMAND = 'pip install formscript';

/** The executable name looked up on PATH. */
export const SERVER_EXECUTABLE = 'formscript';

/** The subcommand that starts the language server over stdio. */
export const SERVE_SUBCOMMAND = 'serve';

/** Where a server command came from. */
export type ServerSource = 'setting' | 'path' | 'interpreter' | 'bundled' | 'environment';

/** Where the Python interpreter came from. */
export type InterpreterOrigin = 'python-extension' | 'python.defaultInterpreterPath';

/** A command that starts `formscript serve`. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly source: ServerSource;
  /** Human-readable origin, for the output channel. */
  readonly description: string;
  /** Variables set for the server process (the bundle's PYTHONPATH). */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** The formscript version this command runs, when known before it starts. */
  readonly version?: string | undefined;
  /** Something the user should be told about this choice (shown once). */
  readonly notice?: string | undefined;
}

/** The selected Python interpreter, if any. */
export interface InterpreterChoice {
  readonly path: string;
  readonly origin: InterpreterOrigin;
}

/** What the user and the Python extension chose. */
export interface DiscoveryInput {
  /** The raw value of `formscript.path` (string, string[], or anything a user typed). */
  readonly pathSetting: unknown;
  /** The selected Python interpreter; undefined when there is none. */
  readonly interpreter?: InterpreterChoice | undefined;
}

/** The machine, as discovery sees it. */
export interface DiscoveryHost {
  readonly platform: NodeJS.Platform;
  /** The environment (PATH, PATHEXT, and variables for `${env:NAME}`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** The first workspace folder's file-system path, for relative paths. */
  readonly workspaceFolder?: string | undefined;
  /** True when `p` is an existing file this process may execute. */
  isExecutableFile(p: string): boolean;
}

/** Why no server command could be chosen. */
export type DiscoveryFailureReason = 'invalid-setting' | 'not-found' | 'untrusted' | 'no-python';

/** The outcome of discovery. */
export type Discovery =
  | { readonly ok: true; readonly server: ServerCommand }
  | { readonly ok: false; readonly reason: DiscoveryFailureReason; readonly message: string };

/**
 * Chooses the command that starts the server.
 *
 * An explicit `formscript.path` that cannot be used is an error, not a reason
 * to fall back: running some other formscript than the one configured would
 * be surprising.
 */
export function discoverServer(input: DiscoveryInput, host: DiscoveryHost): Discovery {
  const setting = normalizePathSetting(input.pathSetting);
  if (setting.kind === 'invalid') {
    return { ok: false, reason: 'invalid-setting', message: setting.message };
  }
  if (setting.kind === 'command') {
    return fromSetting(setting.parts, setting.fromArray, host);
  }

  const onPath = findOnPath(SERVER_EXECUTABLE, host);
  if (onPath !== undefined) {
    return {
      ok: true,
      server: {
        command: onPath,
        args: [SERVE_SUBCOMMAND],
        source: 'path',
        description: `${SERVER_EXECUTABLE} on PATH (${onPath})`,
      },
    };
  }

  const interpreter = input.interpreter;
  if (interpreter !== undefined && interpreter.path.trim() !== '') {
    const python = resolveInterpreter(interpreter.path.trim(), host);
    return {
      ok: true,
      server: {
        command: python,
        args: moduleArgs(),
        source: 'interpreter',
        description: `the Python interpreter from ${interpreter.origin} (${python})`,
      },
    };
  }

  return { ok: false, reason: 'not-found', message: notFoundMessage() };
}

/** What the `formscript.path` setting decides: a command, an error, or undefined when unset. */
export function fromPathSetting(pathSetting: unknown, host: DiscoveryHost): Discovery | undefined {
  const setting = normalizePathSetting(pathSetting);
  if (setting.kind === 'invalid') {
    return { ok: false, reason: 'invalid-setting', message: setting.message };
  }
  if (setting.kind === 'command') {
    return fromSetting(setting.parts, setting.fromArray, host);
  }
  return undefined;
}

/** `-m formscript serve`, the arguments given to a Python interpreter. */
export function moduleArgs(): string[] {
  return ['-m', 'formscript', SERVE_SUBCOMMAND];
}

/** The message shown when nothing can start the server. */
export function notFoundMessage(): string {
  return (
    'The formscript language server was not found: no formscript.path setting, no ' +
    `"${SERVER_EXECUTABLE}" on PATH and no Python interpreter selected. ` +
    `Install it with "${INSTALL_COMMAND}", or set formscript.path.`
  );
}

/**
 * The message shown in a folder that is not trusted, where nothing found a server. VS Code
 * does not hand a folder's own formscript.path to extensions there (so the extension cannot
 * tell whether the folder sets one), and its Python interpreter is not asked. The extension
 * withdraws the message once the folder is trusted.
 */
export function untrustedMessage(): string {
  return (
    'formscript is off in this folder because the folder is not trusted: VS Code does not use the ' +
    "folder's formscript.path setting or its Python interpreter until you trust it " +
    '(Workspaces: Manage Workspace Trust). Trust the folder to turn formscript on, or set ' +
    'formscript.path in your user settings.'
  );
}

/** The message shown when the selected interpreter lacks the formscript package. */
export function missingModuleMessage(interpreter: string): string {
  return (
    `The formscript language server was not found: "${SERVER_EXECUTABLE}" is not on PATH and ` +
    `the selected Python interpreter (${interpreter}) cannot import formscript. ` +
    `Install it with "${INSTALL_COMMAND}" (for that interpreter: "${interpreter} -m ${INSTALL_COMMAND}"), ` +
    'or set formscript.path.'
  );
}

type NormalizedSetting =
  | { readonly kind: 'unset' }
  | { readonly kind: 'command'; readonly parts: readonly string[]; readonly fromArray: boolean }
  | { readonly kind: 'invalid'; readonly message: string };

/** Reads the raw `formscript.path` value; empty strings and arrays mean "unset". */
export function normalizePathSetting(value: unknown): NormalizedSetting {
  if (value === undefined || value === null) {
    return { kind: 'unset' };
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? { kind: 'unset' } : { kind: 'command', parts: [trimmed], fromArray: false };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return { kind: 'unset' };
    }
    if (!value.every((part): part is string => typeof part === 'string')) {
      return { kind: 'invalid', message: 'formscript.path must be a string or an array of strings.' };
    }
    const first = value[0]?.trim() ?? '';
    if (first === '') {
      return { kind: 'invalid', message: 'formscript.path: the first element of the array (the program) is empty.' };
    }
    return { kind: 'command', parts: [first, ...value.slice(1)], fromArray: true };
  }
  return { kind: 'invalid', message: 'formscript.path must be a string or an array of strings.' };
}

function fromSetting(parts: readonly string[], fromArray: boolean, host: DiscoveryHost): Discovery {
  const [program = '', ...rest] = parts;
  const resolved = resolveProgram(program, host);
  if (resolved === undefined) {
    const shown = expandVariables(program, host);
    const where = looksLikePath(shown) ? 'is not an executable file' : 'was not found on PATH';
    return {
      ok: false,
      reason: 'invalid-setting',
      message: `formscript.path: "${shown}" ${where}. Fix the setting, or clear it to use ${SERVER_EXECUTABLE} on PATH (install: "${INSTALL_COMMAND}").`,
    };
  }
  let args: string[];
  if (fromArray) {
    // An array is a whole command; only `serve` is added when it is missing.
    args = rest.includes(SERVE_SUBCOMMAND) ? [...rest] : [...rest, SERVE_SUBCOMMAND];
  } else {
    args = isPythonInterpreter(resolved, host.platform) ? moduleArgs() : [SERVE_SUBCOMMAND];
  }
  return {
    ok: true,
    server: { command: resolved, args, source: 'setting', description: `the formscript.path setting (${resolved})` },
  };
}

/**
 * Resolves a configured program: variables and `~` are expanded, a relative
 * path is taken from the workspace folder, and a bare name is looked up on PATH.
 */
export function resolveProgram(program: string, host: DiscoveryHost): string | undefined {
  const expanded = expandVariables(program, host);
  if (!looksLikePath(expanded)) {
    return findOnPath(expanded, host);
  }
  const absolute = absolutize(expanded, host);
  if (host.isExecutableFile(absolute)) {
    return absolute;
  }
  // On Windows a configured "...\\Scripts\\formscript" usually means formscript.exe.
  if (host.platform === 'win32' && path.win32.extname(absolute) === '') {
    for (const ext of pathExtensions(host)) {
      if (host.isExecutableFile(absolute + ext)) {
        return absolute + ext;
      }
    }
  }
  return undefined;
}

/** Expands `~`, `${userHome}`, `${workspaceFolder}` and `${env:NAME}`. */
export function expandVariables(value: string, host: DiscoveryHost): string {
  let out = value.replace(/\$\{(userHome|workspaceFolder|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (name === 'userHome') {
      return host.homeDir;
    }
    if (name === 'workspaceFolder') {
      return host.workspaceFolder ?? whole;
    }
    return envName !== undefined ? (lookupEnv(host, envName) ?? '') : whole;
  });
  if (out === '~' || out.startsWith('~/') || (host.platform === 'win32' && out.startsWith('~\\'))) {
    out = host.homeDir + out.slice(1);
  }
  return out;
}

/** True when the value names a file rather than a command to look up on PATH. */
function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\');
}

function absolutize(p: string, host: DiscoveryHost): string {
  const impl = host.platform === 'win32' ? path.win32 : path.posix;
  if (impl.isAbsolute(p)) {
    return impl.normalize(p);
  }
  return impl.resolve(host.workspaceFolder ?? host.homeDir, p);
}

/** An interpreter path from the Python extension: absolute, or a bare name such as "python3". */
function resolveInterpreter(p: string, host: DiscoveryHost): string {
  const expanded = expandVariables(p, host);
  return looksLikePath(expanded) ? absolutize(expanded, host) : expanded;
}

/** True for python, python3, python3.12, pythonw, python.exe and the like. */
export function isPythonInterpreter(p: string, platform: NodeJS.Platform): boolean {
  const base = (platform === 'win32' ? path.win32 : path.posix).basename(p);
  return /^python(\d+(\.\d+)?)?w?(\.exe)?$/i.test(base);
}

/**
 * Finds `name` in the PATH directories, honouring PATHEXT on Windows.
 * Returns the first executable file, or undefined.
 */
export function findOnPath(name: string, host: DiscoveryHost): string | undefined {
  const win = host.platform === 'win32';
  const impl = win ? path.win32 : path.posix;
  const rawPath = lookupEnv(host, 'PATH') ?? '';
  const dirs = rawPath.split(win ? ';' : ':').filter((d) => d.trim() !== '');
  const names = win && impl.extname(name) === '' ? pathExtensions(host).map((ext) => name + ext) : [name];
  for (const dir of dirs) {
    const cleanDir = win ? dir.replace(/^"(.*)"$/, '$1') : dir;
    for (const candidate of names) {
      const full = impl.join(cleanDir, candidate);
      if (host.isExecutableFile(full)) {
        return full;
      }
    }
  }
  return undefined;
}

function pathExtensions(host: DiscoveryHost): string[] {
  const raw = lookupEnv(host, 'PATHEXT') ?? '.COM;.EXE;.BAT;.CMD';
  return raw
    .split(';')
    .map((ext) => ext.trim().toLowerCase())
    .filter((ext) => ext.startsWith('.'));
}

/** Environment lookup; case-insensitive on Windows, where PATH is often "Path". */
function lookupEnv(host: DiscoveryHost, name: string): string | undefined {
  if (host.platform !== 'win32') {
    return host.env[name];
  }
  const key = Object.keys(host.env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : host.env[key];
}

/** Node refuses to spawn .cmd/.bat files without a shell on Windows. */
export function needsShell(command: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' && /\.(cmd|bat)$/i.test(command);
}

/** The command line for the output channel. */
export function formatCommandLine(server: Pick<ServerCommand, 'command' | 'args'>): string {
  return [server.command, ...server.args].map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ');
}
