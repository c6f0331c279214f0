/**
 * Which formscript serves, with which Python: the bundled copy or the one installed in the
 * interpreter's environment (`formscript.importStrategy`), as the Python tool extensions built
 * on vscode-python-tools-extension-template choose.
 *
 * Pure: the Python interpreters are probed elsewhere (`python.ts`) and come in as
 * `PythonProbe`s, the bundle as `Bundle`; so every case is unit-tested without VS Code.
 *
 *   1. `formscript.path`, when set, decides alone (see `discovery.ts`);
 *   2. the Python: `formscript.interpreter`, the selected interpreter, else `python3` /
 *      `python` on PATH, the first of version 3.11 or newer;
 *   3. `useBundled` (the default): that Python runs the bundled formscript; without a bundle
 *      for it (a development build, a Python the bundle was not built for) the environment's;
 *      `fromEnvironment`: the formscript installed for that Python, else `formscript` on PATH,
 *      else the bundled one (saying so).
 */
import * as path from 'node:path';

import {
  SERVER_EXECUTABLE,
  expandVariables,
  findOnPath,
  fromPathSetting,
  moduleArgs,
  type Discovery,
  type DiscoveryHost,
  type InterpreterOrigin,
  type ServerCommand,
} from './discovery';

/** The lowest Python the server runs on. */
export const MINIMUM_PYTHON: readonly [number, number] = [3, 11];

/** The `formscript.importStrategy` values. */
export const IMPORT_STRATEGIES = ['useBundled', 'fromEnvironment'] as const;
export type ImportStrategy = (typeof IMPORT_STRATEGIES)[number];

/** Where a Python interpreter candidate came from. */
export type PythonOrigin = InterpreterOrigin | 'PATH' | 'formscript.interpreter';

/** What running a candidate interpreter told (or why it could not be run). */
export interface PythonProbe {
  readonly path: string;
  readonly origin: PythonOrigin;
  /** Its version (major, minor); undefined when it could not be run. */
  readonly version?: readonly [number, number] | undefined;
  /** The version of the formscript installed for it; null when none is importable. */
  readonly formscript?: string | null | undefined;
  /** Why it could not be run. */
  readonly error?: string | undefined;
}

/** The formscript shipped inside the extension (bundled/), from its manifest. */
export interface Bundle {
  /** The folder put on PYTHONPATH. */
  readonly libs: string;
  readonly version: string;
  /** The Python versions it holds compiled modules for ("3.11", ...). */
  readonly pythons: readonly string[];
}

/** The inputs of the choice. */
export interface ChoiceInput {
  readonly pathSetting: unknown;
  readonly strategy: unknown;
  readonly pythons: readonly PythonProbe[];
  readonly bundle?: Bundle | undefined;
}

/** The `formscript.importStrategy` value in effect (anything unknown reads as the default). */
export function importStrategy(value: unknown): ImportStrategy {
  return value === 'fromEnvironment' ? 'fromEnvironment' : 'useBundled';
}

/** Whether a probed interpreter is one the server runs on. */
export function usable(probe: PythonProbe): boolean {
  const version = probe.version;
  if (version === undefined) {
    return false;
  }
  return version[0] > MINIMUM_PYTHON[0] || (version[0] === MINIMUM_PYTHON[0] && version[1] >= MINIMUM_PYTHON[1]);
}

/** The interpreters to probe, in order: `formscript.interpreter`, the selected one, then
 * python3 and python on PATH. */
export function candidates(
  selected: { readonly path: string; readonly origin: InterpreterOrigin } | undefined,
  host: DiscoveryHost,
  configured?: unknown,
): { readonly path: string; readonly origin: PythonOrigin }[] {
  const found: { path: string; origin: PythonOrigin }[] = [];
  if (typeof configured === 'string' && configured.trim() !== '') {
    found.push({ path: expandVariables(configured.trim(), host), origin: 'formscript.interpreter' });
  }
  if (selected !== undefined && selected.path.trim() !== '' && !found.some((c) => c.path === selected.path.trim())) {
    found.push({ path: selected.path.trim(), origin: selected.origin });
  }
  const names = host.platform === 'win32' ? ['python', 'python3'] : ['python3', 'python'];
  for (const name of names) {
    const onPath = findOnPath(name, host);
    if (onPath !== undefined && !found.some((c) => c.path === onPath)) {
      found.push({ path: onPath, origin: 'PATH' });
    }
  }
  return found;
}

/** Chooses the command that starts the server (see the module). */
export function chooseServer(input: ChoiceInput, host: DiscoveryHost): Discovery {
  const configured = fromPathSetting(input.pathSetting, host);
  if (configured !== undefined) {
    return configured; // formscript.path set (or wrongly set): it decides alone
  }
  const strategy = importStrategy(input.strategy);
  const python = input.pythons.find(usable);
  const onPath = findOnPath(SERVER_EXECUTABLE, host);
  const fromPath: ServerCommand | undefined =
    onPath === undefined
      ? undefined
      : { command: onPath, args: ['serve'], source: 'path', description: `${SERVER_EXECUTABLE} on PATH (${onPath})` };
  if (python === undefined) {
    if (fromPath !== undefined) {
      return { ok: true, server: fromPath };
    }
    return { ok: false, reason: 'no-python', message: noPythonMessage(input.pythons) };
  }
  const bundled = bundledServer(python, input.bundle);
  const environment = environmentServer(python);
  if (strategy === 'useBundled') {
    const server = bundled ?? environment ?? fromPath;
    if (server !== undefined) {
      return { ok: true, server };
    }
  } else {
    if (environment !== undefined) {
      return { ok: true, server: environment };
    }
    if (fromPath !== undefined) {
      return { ok: true, server: fromPath };
    }
    if (bundled !== undefined) {
      const notice =
        `formscript.importStrategy is fromEnvironment, but ${python.path} has no formscript installed: ` +
        `using the bundled formscript ${bundled.version ?? ''}`.trimEnd() +
        '.';
      return { ok: true, server: { ...bundled, notice } };
    }
  }
  return { ok: false, reason: 'not-found', message: notInstalledMessage(python, input.bundle) };
}

function bundledServer(python: PythonProbe, bundle: Bundle | undefined): ServerCommand | undefined {
  const version = python.version;
  if (bundle === undefined || version === undefined || !bundle.pythons.includes(`${version[0]}.${version[1]}`)) {
    return undefined;
  }
  return {
    command: python.path,
    args: moduleArgs(),
    env: { PYTHONPATH: bundle.libs },
    source: 'bundled',
    version: bundle.version,
    description: `the bundled formscript ${bundle.version}, run by Python ${version.join('.')} (${python.path})`,
  };
}

function environmentServer(python: PythonProbe): ServerCommand | undefined {
  if (typeof python.formscript !== 'string') {
    return undefined;
  }
  return {
    command: python.path,
    args: moduleArgs(),
    source: 'environment',
    version: python.formscript,
    description: `formscript ${python.formscript} installed for ${python.path}`,
  };
}

function shownVersion(probe: PythonProbe): string {
  if (probe.version !== undefined) {
    return `Python ${probe.version.join('.')}`;
  }
  return probe.error !== undefined ? `cannot be run: ${probe.error}` : 'cannot be run';
}

/** The message when no Python 3.11+ is found (and no formscript on PATH either). */
export function noPythonMessage(probes: readonly PythonProbe[]): string {
  const tried = probes.map((p) => `${p.path} (${shownVersion(p)})`);
  const seen = tried.length > 0 ? `found: ${tried.join(', ')}` : 'no interpreter is selected and none is on PATH';
  return (
    `formscript needs Python ${MINIMUM_PYTHON.join('.')} or newer to run its language server, and none was found (${seen}). ` +
    'Select a Python 3.11+ interpreter (or set formscript.interpreter), or set formscript.path.'
  );
}

function notInstalledMessage(python: PythonProbe, bundle: Bundle | undefined): string {
  const version = python.version?.join('.') ?? '?';
  const why =
    bundle === undefined
      ? 'this build of the extension carries no formscript of its own'
      : `the bundled formscript is built for Python ${bundle.pythons.join(', ')}`;
  return (
    `The formscript language server was not found: ${python.path} (Python ${version}) has no formscript installed, ` +
    `${SERVER_EXECUTABLE} is not on PATH, and ${why}` +
    `. Install it with "${python.path} -m pip install formscript", or set formscript.path.`
  );
}

/** The bundle's folder layout inside the extension. */
export function bundlePaths(extensionPath: string): { readonly manifest: string; readonly libs: string } {
  return {
    manifest: path.join(extensionPath, 'bundled', 'manifest.json'),
    libs: path.join(extensionPath, 'bundled', 'libs'),
  };
}

/** The bundle from its manifest's text; undefined when it is missing or not one. */
export function readBundle(manifestText: string | undefined, libs: string): Bundle | undefined {
  if (manifestText === undefined) {
    return undefined;
  }
  try {
    const data = JSON.parse(manifestText) as { formscript?: unknown; python?: unknown };
    if (typeof data.formscript !== 'string' || !Array.isArray(data.python)) {
      return undefined;
    }
    const pythons = data.python.filter((v): v is string => typeof v === 'string');
    return { libs, version: data.formscript, pythons };
  } catch {
    return undefined;
  }
}

/** The Python that asks an interpreter its version and its formscript's (one line of JSON). */
export const PROBE_SCRIPT = [
  'import json, os, sys',
  // the workspace folder is not searched: its own formscript/ (a checkout) is not installed
  "sys.path[:] = [p for p in sys.path if p not in ('', os.getcwd())]",
  'try:',
  '    import formscript',
  '    found = getattr(formscript, "__version__", "unknown")',
  'except Exception:',
  '    found = None',
  'print(json.dumps([sys.version_info[0], sys.version_info[1], found]))',
].join('\n');

/** A probe's answer from the interpreter's output; undefined when it is not one. */
export function parseProbe(output: string): { version: [number, number]; formscript: string | null } | undefined {
  const line = output.trim().split(/\r?\n/).pop() ?? '';
  try {
    const data = JSON.parse(line) as unknown;
    if (!Array.isArray(data) || data.length !== 3) {
      return undefined;
    }
    const [major, minor, found] = data as unknown[];
    if (typeof major !== 'number' || typeof minor !== 'number') {
      return undefined;
    }
    return { version: [major, minor], formscript: typeof found === 'string' ? found : null };
  } catch {
    return undefined;
  }
}
