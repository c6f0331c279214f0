/**
 * The Python interpreter the user selected: the Python extension's active
 * environment when that extension is installed, else `python.defaultInterpreterPath`.
 */
import { execFile } from 'node:child_process';

import * as vscode from 'vscode';

import { PROBE_SCRIPT, parseProbe, type PythonOrigin, type PythonProbe } from './choice';
import { needsShell, type InterpreterChoice } from './discovery';

const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The few parts of the ms-python.python API used here (it ships no typings of its own). */
interface EnvironmentPath {
  readonly id: string;
  readonly path: string;
}

interface ResolvedEnvironment {
  readonly executable: { readonly uri?: vscode.Uri | undefined };
}

interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
  resolveEnvironment(environment: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
  readonly onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
}

interface PythonExtensionApi {
  readonly environments?: PythonEnvironmentsApi;
  /** The older API, still present in current releases. */
  readonly settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

async function pythonApi(log: (line: string) => void): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch (error) {
    log(`The Python extension could not be activated: ${String(error)}`);
    return undefined;
  }
}

/**
 * The selected interpreter for `resource`, or undefined when there is none.
 * Never throws: a broken Python extension only means "no interpreter".
 */
export async function selectedInterpreter(
  resource: vscode.Uri | undefined,
  log: (line: string) => void,
): Promise<InterpreterChoice | undefined> {
  const api = await pythonApi(log);
  if (api !== undefined) {
    try {
      const environments = api.environments;
      if (environments !== undefined) {
        const active = environments.getActiveEnvironmentPath(resource);
        const resolved = await environments.resolveEnvironment(active);
        const executable = resolved?.executable.uri?.fsPath;
        if (executable !== undefined && executable !== '') {
          return { path: executable, origin: 'python-extension' };
        }
      }
      const execCommand = api.settings?.getExecutionDetails?.(resource).execCommand;
      // A multi-part command ("conda run ...") is not an interpreter path; skip it.
      if (execCommand !== undefined && execCommand.length === 1 && execCommand[0] !== undefined) {
        return { path: execCommand[0], origin: 'python-extension' };
      }
    } catch (error) {
      log(`The Python extension did not report an interpreter: ${String(error)}`);
    }
  }
  const configured = vscode.workspace
    .getConfiguration('python', resource)
    .get<string>('defaultInterpreterPath');
  if (typeof configured === 'string' && configured.trim() !== '') {
    return { path: configured.trim(), origin: 'python.defaultInterpreterPath' };
  }
  return undefined;
}

/** Calls `listener` whenever the Python extension's active environment changes. */
export async function onInterpreterChange(
  listener: () => void,
  log: (line: string) => void,
): Promise<vscode.Disposable | undefined> {
  const api = await pythonApi(log);
  return api?.environments?.onDidChangeActiveEnvironmentPath?.(() => listener());
}

/** Runs `python` to learn its version and the formscript installed for it (never throws). */
export function probeInterpreter(
  python: string,
  origin: PythonOrigin,
  cwd: string | undefined,
): Promise<PythonProbe> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', PROBE_SCRIPT],
      { cwd, timeout: 20_000, windowsHide: true, shell: needsShell(python, process.platform) },
      (error, stdout) => {
        const found = parseProbe(String(stdout));
        if (found !== undefined) {
          resolve({ path: python, origin, version: found.version, formscript: found.formscript });
          return;
        }
        const why = error !== null ? (error.message.split('\n')[0] ?? String(error)) : 'it printed no version';
        resolve({ path: python, origin, error: why });
      },
    );
  });
}
