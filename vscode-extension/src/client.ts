/**
 * The language client: finding the server, starting, restarting and stopping
 * it, and answering its configuration requests with the mapped settings.
 */
import * as vscode from 'vscode';
import {
  CodeLensRequest,
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  State,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

import {
  INSTALL_COMMAND,
  formatCommandLine,
  fromPathSetting,
  needsShell,
  untrustedMessage,
  type Discovery,
  type ServerCommand,
} from './discovery';
import { StatusItem } from './status';
import * as fs from 'node:fs';

import { bundlePaths, candidates, chooseServer, readBundle } from './choice';
import { nodeHost } from './host';
import { onInterpreterChange, probeInterpreter, selectedInterpreter } from './python';
import { commandsLeftToClient } from './results';
import {
  KINDS,
  RESTART_SETTINGS,
  SECTION,
  importsLionagi,
  isExplicitlySet,
  selectorGlobs,
  serverSelector,
  toServerConfig,
  type ServerDocumentFilter,
  type Kind,
  type ServerConfig,
} from './settings';

/** How the status bar names where the running formscript comes from. */
const SOURCE_LABELS: Record<ServerCommand['source'], string> = {
  setting: 'formscript.path',
  path: 'PATH',
  interpreter: 'environment',
  bundled: 'bundled',
  environment: 'environment',
};

const CLIENT_ID = 'formscript';
const CLIENT_NAME = 'formscript';
const OPEN_SETTINGS = 'Open Settings';
const COPY_INSTALL = 'Copy Install Command';
const SHOW_OUTPUT = 'Show Output';
const RETRY = 'Retry';
const SELECT_INTERPRETER = 'Select Interpreter';
/** How long a trust grant waits for the folder's settings to arrive. */
const TRUST_SETTLE_MS = 1000;

/** Owns the language client and its output channel for the extension's lifetime. */
export class ServerController implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient | undefined> | undefined;
  private selector: ServerDocumentFilter[];
  private server: ServerCommand | undefined;
  /** After a failed start, opening documents does not retry until settings change or a restart. */
  private startFailed = false;
  private interpreterWatch: vscode.Disposable | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  /** Withdraws the "folder not trusted" notice; set while it is shown. */
  private withdrawUntrustedNotice: (() => void) | undefined;
  private readonly startedEmitter = new vscode.EventEmitter<LanguageClient>();
  /** How many servers have started (so a trust grant knows whether one started since). */
  private starts = 0;
  /** Fires with the client each time a server has started. */
  readonly onDidStart = this.startedEmitter.event;

  /** The status-bar item: what the server is doing, its version and where it comes from. */
  readonly status: StatusItem;

  constructor(private readonly extensionPath: string) {
    this.output = vscode.window.createOutputChannel('formscript');
    this.status = new StatusItem();
    this.selector = this.currentSelector();
    this.disposables.push(
      this.output,
      this.status,
      vscode.workspace.onDidOpenTextDocument((document) => this.startIfHandled(document)),
      vscode.workspace.onDidChangeConfiguration((event) => void this.onConfigurationChanged(event)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.onTrustGranted()),
      this.startedEmitter,
    );
  }

  /** Starts the server now if an open document is one of its files. */
  startForOpenDocuments(): void {
    for (const document of vscode.workspace.textDocuments) {
      if (this.startIfHandled(document)) {
        return;
      }
    }
  }

  /** The running client, starting it first if needed; undefined (after telling the user) when it cannot start. */
  async ensureStarted(): Promise<LanguageClient | undefined> {
    if (this.client !== undefined && this.client.state === State.Running) {
      return this.client;
    }
    if (this.starting === undefined) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  /** The client when its server is running, else undefined (nothing is started). */
  runningClient(): LanguageClient | undefined {
    return this.client !== undefined && this.client.state === State.Running ? this.client : undefined;
  }

  /** Whether the server is handed this document (the selector of its files, and Python files). */
  handles(document: vscode.TextDocument): boolean {
    return vscode.languages.match(this.selector, document) > 0;
  }

  /** Stops the server and starts it again with the current settings. */
  async restart(): Promise<void> {
    this.log('Restarting the server.');
    await this.stop();
    this.startFailed = false;
    this.selector = this.currentSelector();
    await this.ensureStarted();
  }

  /** Stops the server, if it runs (after letting a start in progress finish). */
  async stop(): Promise<void> {
    if (this.starting !== undefined) {
      await this.starting.catch(() => undefined);
    }
    await this.disposeClient();
  }

  private async disposeClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.server = undefined;
    this.interpreterWatch?.dispose();
    this.interpreterWatch = undefined;
    if (client !== undefined) {
      try {
        await client.stop(2000);
      } catch (error) {
        this.log(`Stopping the server: ${String(error)}`);
      }
      await client.dispose().catch(() => undefined);
    }
  }

  dispose(): void {
    this.withdrawUntrustedNotice?.();
    void this.stop();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }

  /** Appends a timestamped line to the formscript output channel. */
  log(line: string): void {
    this.output.appendLine(`[${new Date().toISOString()}] ${line}`);
  }

  /** The server configuration for a scope (a folder or file URI), as the server's model. */
  serverConfig(scope: vscode.Uri | undefined): ServerConfig {
    const configuration = vscode.workspace.getConfiguration(SECTION, scope);
    // Settings left at their defaults are not sent: the project's [tool.formscript] decides them.
    // The values go as written: the server validates them and says what is wrong.
    return toServerConfig((key) => (isExplicitlySet(configuration.inspect(key)) ? configuration.get(key) : undefined));
  }

  private startIfHandled(document: vscode.TextDocument): boolean {
    if (this.client !== undefined || this.starting !== undefined || this.startFailed) {
      return false;
    }
    if (vscode.languages.match(this.selector, document) === 0) {
      return false;
    }
    const named = vscode.languages.match(this.selector.filter((f) => 'pattern' in f), document) > 0;
    if (!named && document.languageId === 'python' && !importsLionagi(document.getText())) {
      return false; // a Python file that does not use lionagi: no server for it
    }
    void this.ensureStarted();
    return true;
  }

  private async start(): Promise<LanguageClient | undefined> {
    if (this.client !== undefined) {
      // A client that is no longer running (its server exited for good): replace it.
      this.log('The previous server is not running any more; starting a new one.');
      await this.disposeClient();
    }
    this.status.starting();
    const discovery = await this.discover();
    if (!discovery.ok) {
      this.startFailed = true;
      this.log(discovery.message);
      if (discovery.reason === 'untrusted') {
        this.status.off('formscript is off: the folder is not trusted');
        this.showUntrustedNotice(discovery.message);
      } else {
        this.status.failed(discovery.message);
        if (discovery.reason === 'no-python') {
          void this.showNoPython(discovery.message);
        } else {
          void this.showStartError(discovery.message, discovery.reason === 'not-found');
        }
      }
      return undefined;
    }
    const server = discovery.server;
    this.log(`Starting the server from ${server.description}: ${formatCommandLine(server)}`);
    if (server.env !== undefined) {
      this.log(`  with ${Object.entries(server.env).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    }
    if (server.notice !== undefined) {
      this.log(server.notice);
      void vscode.window.showInformationMessage(server.notice);
    }

    const workspaceFolder = vscode.workspace.workspaceFolders?.[0];
    const serverOptions: ServerOptions = {
      command: server.command,
      args: [...server.args],
      options: {
        cwd: workspaceFolder?.uri.fsPath,
        env: { ...process.env, PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8', ...server.env },
        shell: needsShell(server.command, process.platform),
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: this.selector,
      outputChannel: this.output,
      traceOutputChannel: this.output,
      initializationOptions: this.serverConfig(workspaceFolder?.uri),
      middleware: {
        workspace: {
          configuration: async (params, token, next) => {
            const defaults = await next(params, token);
            if (!Array.isArray(defaults)) {
              return defaults;
            }
            return params.items.map((item, index) =>
              item.section === SECTION
                ? this.serverConfig(item.scopeUri !== undefined ? vscode.Uri.parse(item.scopeUri) : undefined)
                : defaults[index],
            );
          },
          // The client's own notification would carry the raw camelCase
          // settings (or null); `pushConfiguration` sends the mapped model instead.
          didChangeConfiguration: async () => undefined,
        },
      },
    };

    let client: LanguageClient | undefined;
    try {
      client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
      keepExtensionCommandsOut(client);
      this.client = client;
      this.server = server;
      await client.start();
    } catch (error) {
      this.client = undefined;
      this.server = undefined;
      this.startFailed = true;
      await client?.dispose().catch(() => undefined);
      const message = `The formscript language server (${formatCommandLine(server)}) failed to start: ${errorText(error)}`;
      this.log(message);
      this.status.failed(message);
      void this.showStartError(message, false);
      return undefined;
    }
    const version = client.initializeResult?.serverInfo?.version ?? server.version;
    this.log(`The server is running: formscript ${version ?? '(version not reported)'}, ${SOURCE_LABELS[server.source]}.`);
    this.status.running(version, SOURCE_LABELS[server.source], server.description);
    client.onDidChangeState((change) => {
      if (change.newState === State.Stopped && this.client === client) {
        this.status.failed('The formscript language server stopped. See the output for why.');
      }
    });
    this.starts += 1;
    this.startedEmitter.fire(client);
    if (server.source === 'interpreter' || server.source === 'bundled' || server.source === 'environment') {
      this.interpreterWatch = await onInterpreterChange(
        () => void this.restartIfRunning('the Python interpreter changed'),
        (line) => this.log(line),
      );
    }
    return client;
  }

  /** Chooses the server: the formscript.path setting, else a Python 3.11+ running the bundled
   * formscript or the environment's (formscript.importStrategy). */
  private async discover(): Promise<Discovery> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const host = nodeHost(folder?.uri.fsPath);
    const configuration = vscode.workspace.getConfiguration(SECTION);
    const pathSetting = configuration.get<unknown>('path');
    const configured = fromPathSetting(pathSetting, host);
    if (configured !== undefined) {
      return configured;
    }
    if (!vscode.workspace.isTrusted) {
      return { ok: false, reason: 'untrusted', message: untrustedMessage() };
    }
    const selected = await selectedInterpreter(folder?.uri, (line) => this.log(line));
    const pythons = [];
    for (const candidate of candidates(selected, host, configuration.get<unknown>('interpreter'))) {
      const probe = await probeInterpreter(candidate.path, candidate.origin, folder?.uri.fsPath);
      const said = probe.version !== undefined ? `Python ${probe.version.join('.')}` : `not usable (${probe.error ?? '?'})`;
      this.log(`Python from ${probe.origin}: ${probe.path}: ${said}, formscript ${probe.formscript ?? 'not installed'}.`);
      pythons.push(probe);
    }
    const where = bundlePaths(this.extensionPath);
    let manifest: string | undefined;
    try {
      manifest = fs.readFileSync(where.manifest, 'utf8');
    } catch {
      manifest = undefined;
    }
    const bundle = readBundle(manifest, where.libs);
    this.log(bundle !== undefined ? `Bundled: formscript ${bundle.version} for Python ${bundle.pythons.join(', ')}.` : 'No bundled formscript in this build.');
    return chooseServer({ pathSetting, strategy: configuration.get<unknown>('importStrategy'), pythons, bundle }, host);
  }

  /** No Python 3.11+: the message, with the interpreter picker (or the setting) as its action. */
  private async showNoPython(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(message, SELECT_INTERPRETER, SHOW_OUTPUT, RETRY);
    if (choice === SELECT_INTERPRETER) {
      const commands = await vscode.commands.getCommands(true);
      if (commands.includes('python.setInterpreter')) {
        await vscode.commands.executeCommand('python.setInterpreter');
        return;
      }
      // Without the Python extension: pick the executable, kept in formscript.interpreter.
      const picked = await vscode.window.showOpenDialog({
        title: 'Select a Python 3.11+ interpreter for formscript',
        openLabel: 'Use this interpreter',
        canSelectMany: false,
        canSelectFiles: true,
        canSelectFolders: false,
      });
      const python = picked?.[0]?.fsPath;
      if (python !== undefined) {
        this.log(`formscript.interpreter set to ${python}.`);
        await vscode.workspace
          .getConfiguration(SECTION)
          .update('interpreter', python, vscode.ConfigurationTarget.Global);
      }
    } else if (choice === SHOW_OUTPUT) {
      this.output.show(true);
    } else if (choice === RETRY) {
      await this.restart();
    }
  }

  private async showStartError(message: string, offerInstall: boolean): Promise<void> {
    // After `pip install formscript`, Retry starts the server without a window reload.
    const actions = offerInstall ? [OPEN_SETTINGS, COPY_INSTALL, RETRY] : [OPEN_SETTINGS, SHOW_OUTPUT, RETRY];
    const choice = await vscode.window.showErrorMessage(message, ...actions);
    if (choice === OPEN_SETTINGS) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.path`);
    } else if (choice === COPY_INSTALL) {
      await vscode.env.clipboard.writeText(INSTALL_COMMAND);
      void vscode.window.showInformationMessage(`Copied "${INSTALL_COMMAND}" to the clipboard.`);
    } else if (choice === SHOW_OUTPUT) {
      this.output.show(true);
    } else if (choice === RETRY) {
      await this.restart();
    }
  }

  /**
   * In a folder that is not trusted, says so in a notification that stays until the folder
   * is trusted (or the user closes it); then it goes away by itself.
   */
  private showUntrustedNotice(message: string): void {
    if (this.withdrawUntrustedNotice !== undefined) {
      return;
    }
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: message, cancellable: true },
      (_progress, token) =>
        new Promise<void>((resolve) => {
          const done = (): void => {
            this.withdrawUntrustedNotice = undefined;
            resolve();
          };
          this.withdrawUntrustedNotice = done;
          token.onCancellationRequested(done);
        }),
    );
  }

  private async onTrustGranted(): Promise<void> {
    this.withdrawUntrustedNotice?.();
    this.log('The folder is trusted now.');
    // VS Code hands the folder's restricted settings (formscript.path) to extensions just
    // around the trust event: start once they have arrived (at most a moment later).
    const starts = this.starts;
    await this.settingsSettled(TRUST_SETTLE_MS);
    await this.starting?.catch(() => undefined);
    if (this.starts !== starts && this.runningClient() !== undefined) {
      return; // the settings change started it already, with the folder's settings
    }
    this.startFailed = false;
    this.selector = this.currentSelector();
    if (this.client !== undefined) {
      await this.restart();
    } else {
      this.startForOpenDocuments();
    }
  }

  /** Resolves at the next change of the formscript settings, or after `ms`. */
  private settingsSettled(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const listener = vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SECTION)) {
          done();
        }
      });
    });
  }

  private async onConfigurationChanged(event: vscode.ConfigurationChangeEvent): Promise<void> {
    const needsRestart =
      RESTART_SETTINGS.some((section) => event.affectsConfiguration(section)) ||
      event.affectsConfiguration('formscript.importStrategy') ||
      (this.server?.source !== 'setting' && event.affectsConfiguration('python.defaultInterpreterPath'));
    if (needsRestart) {
      this.log('The settings that start the server changed.');
      // A start in progress read the settings before this change: let it end, then start anew.
      await this.starting?.catch(() => undefined);
      this.startFailed = false;
      this.selector = this.currentSelector();
      if (this.client !== undefined) {
        await this.restart();
      } else {
        this.startForOpenDocuments();
      }
      return;
    }
    if (event.affectsConfiguration(SECTION)) {
      this.pushConfiguration();
    }
  }

  /** Sends the mapped settings with workspace/didChangeConfiguration. */
  private pushConfiguration(): void {
    const client = this.client;
    if (client === undefined || client.state !== State.Running) {
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    void client
      .sendNotification(DidChangeConfigurationNotification.type, {
        settings: { [SECTION]: this.serverConfig(folder?.uri) },
      })
      // The lenses name what they run with (a `formscript.calls` transcript): ask for them again.
      .then(() => refreshCodeLenses(client))
      .catch((error: unknown) => this.log(`Sending the settings: ${errorText(error)}`));
  }

  private async restartIfRunning(reason: string): Promise<void> {
    if (this.client === undefined) {
      return;
    }
    this.log(`Restarting: ${reason}.`);
    await this.restart();
  }

  /** The document selector from the `formscript.kinds.*` globs of every scope. */
  private currentSelector(): ServerDocumentFilter[] {
    const kinds = Object.fromEntries(KINDS.map((kind) => [kind, [] as string[]])) as Record<Kind, string[]>;
    const scopes: (vscode.Uri | undefined)[] = [
      undefined,
      ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
    ];
    for (const scope of scopes) {
      const globs = selectorGlobs(this.serverConfig(scope));
      for (const kind of KINDS) {
        kinds[kind].push(...(globs[kind] ?? []));
      }
    }
    return serverSelector(kinds);
  }
}

/**
 * The server advertises formscript.dryRun, formscript.simulate and
 * formscript.ruleDoc as executeCommand commands; the client would register VS
 * Code commands of the same names, which the extension already owns (and which
 * show the answers). Those are left out; any other server command (a code
 * action's, say) is registered by the client as usual.
 */
function keepExtensionCommandsOut(client: LanguageClient): void {
  const feature = client.getFeature(ExecuteCommandRequest.method);
  const register = feature.register.bind(feature);
  feature.register = (data) => {
    const commands = commandsLeftToClient(data.registerOptions.commands ?? []);
    register({ ...data, registerOptions: { ...data.registerOptions, commands } });
  };
}

/** Makes VS Code ask the server for its code lenses again, as a `workspace/codeLens/refresh` would. */
function refreshCodeLenses(client: LanguageClient): void {
  const feature = client.getFeature(CodeLensRequest.method);
  const providers = new Set(vscode.workspace.textDocuments.map((document) => feature.getProvider(document)));
  for (const provider of providers) {
    provider?.onDidChangeCodeLensEmitter.fire();
  }
}

/** A readable message from anything thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
