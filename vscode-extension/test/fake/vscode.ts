/**
 * A small in-process stand-in for the `vscode` module, enough for the
 * extension and vscode-languageclient to activate, start a server, send
 * commands and show results. The smoke test bundles the extension with
 * `vscode` resolved to this file and inspects `fake` afterwards.
 *
 * Like VS Code, registering a command id twice throws.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Listener<T> = (event: T) => unknown;

export class Disposable {
  private callback: (() => unknown) | undefined;
  constructor(callback?: () => unknown) {
    this.callback = callback;
  }
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  dispose(): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.();
  }
}

export class EventEmitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: Disposable[]): Disposable => {
    const bound: Listener<T> = thisArg === undefined ? listener : listener.bind(thisArg);
    this.listeners.add(bound);
    const disposable = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(disposable);
    return disposable;
  };
  /** How many listeners are subscribed (tests wait for a subscription before firing). */
  get listenerCount(): number {
    return this.listeners.size;
  }
  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      listener(event);
    }
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', '', path.resolve(p), '', '');
  }
  static parse(value: string): Uri {
    if (value.startsWith('file:')) {
      return Uri.file(fileURLToPath(value));
    }
    const match = /^([a-zA-Z][\w+.-]*):(\/\/([^/]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/.exec(value);
    if (match === null) {
      throw new Error(`cannot parse URI ${value}`);
    }
    return new Uri(match[1] ?? '', match[3] ?? '', match[4] ?? '', match[6] ?? '', match[8] ?? '');
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: path.posix.join(base.path, ...segments) });
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { path?: string }): Uri {
    return new Uri(this.scheme, this.authority, change.path ?? this.path, this.query, this.fragment);
  }
  toString(): string {
    if (this.scheme === 'file') {
      return pathToFileURL(this.path).toString();
    }
    const authority = this.authority === '' ? '' : `//${this.authority}`;
    return `${this.scheme}:${authority}${this.path}${this.query ? `?${this.query}` : ''}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, path: this.path, external: this.toString() };
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = a instanceof Position ? a : new Position(a, b as number);
    this.end = b instanceof Position ? b : new Position(c ?? 0, d ?? 0);
  }
  contains(p: Position): boolean {
    const after = p.line > this.start.line || (p.line === this.start.line && p.character >= this.start.character);
    const before = p.line < this.end.line || (p.line === this.end.line && p.character <= this.end.character);
    return after && before;
  }
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

/** Generic stand-ins for the classes vscode-languageclient extends at load time. */
class Plain {
  constructor(...args: unknown[]) {
    Object.assign(this, { args });
  }
}
export class CompletionItem extends Plain {}
export class CodeLens extends Plain {}
export class DocumentLink extends Plain {}
export class InlayHint extends Plain {}
export class SymbolInformation extends Plain {}
export class CallHierarchyItem extends Plain {}
export class TypeHierarchyItem extends Plain {}
export class CodeAction extends Plain {}
export class Diagnostic {
  code?: unknown;
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: number = 0,
  ) {}
}
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}
export class TabInputCustom {
  constructor(readonly uri: Uri) {}
}
export class CancellationError extends Error {}
export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: this.cancelled.event,
  };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}
export class MarkdownString {
  constructor(public value = '') {}
}

export const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 } as const;
export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 } as const;
export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;
export const TextDocumentSaveReason = { Manual: 1, AfterDelay: 2, FocusOut: 3 } as const;
export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 } as const;
export const version = '1.82.0';

/** CodeActionKind values, read at construction time by the client's protocol converter. */
class Kind {
  constructor(readonly value: string) {}
  append(part: string): Kind {
    return new Kind(this.value === '' ? part : `${this.value}.${part}`);
  }
  contains(other: Kind): boolean {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: Kind): boolean {
    return this.contains(other) || other.contains(this);
  }
}
function kind(value: string): Kind {
  return new Kind(value);
}
export const CodeActionKind = {
  Empty: kind(''),
  QuickFix: kind('quickfix'),
  Refactor: kind('refactor'),
  RefactorExtract: kind('refactor.extract'),
  RefactorInline: kind('refactor.inline'),
  RefactorRewrite: kind('refactor.rewrite'),
  Source: kind('source'),
  SourceOrganizeImports: kind('source.organizeImports'),
  SourceFixAll: kind('source.fixAll'),
};

interface FakeDocument {
  uri: Uri;
  languageId: string;
  version: number;
  getText(): string;
  isClosed: boolean;
  isDirty: boolean;
}

interface Shown {
  kind: 'error' | 'warning' | 'info';
  message: string;
  items: string[];
}

/** Everything the test sets up and inspects. */
export const fake = {
  /** Full setting keys ("formscript.ignore") the user has set. */
  settings: {} as Record<string, unknown>,
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  /** Commands that were executed but not registered (built-ins such as markdown.showPreviewToSide). */
  builtinsExecuted: [] as { id: string; args: unknown[] }[],
  messages: [] as Shown[],
  /** The answer message boxes give (an item title), or a function of the message that gives it. */
  messageChoice: undefined as string | ((message: string) => string | undefined) | undefined,
  inputBoxValue: undefined as string | undefined,
  /** What a file dialog answers. */
  openDialogAnswer: undefined as Uri[] | undefined,
  /** Every configuration update the extension made, in order. */
  updatedSettings: [] as { key: string; value: unknown; target: unknown }[],
  shownDocuments: [] as { uri: string; text: string }[],
  contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string }>(),
  outputChannels: [] as { name: string; text: string[] }[],
  /** The status-bar items the extension made, as they show now. */
  statusItems: [] as { id: string; text: string; tooltip: string; command: unknown; visible: boolean }[],
  textDocuments: [] as FakeDocument[],
  activeTextEditor: undefined as undefined | { document: FakeDocument; selection: { active: Position } },
  clipboard: '',
  /** The files open in editor tabs (the language client pulls diagnostics for those). */
  tabs: [] as Uri[],
  /** Diagnostic collections by name: URI string -> diagnostics. */
  diagnostics: new Map<string, Map<string, unknown[]>>(),
  /** What `extensions.getExtension('ms-python.python')` returns. */
  pythonExtension: undefined as unknown,
  onDidOpenTextDocument: new EventEmitter<FakeDocument>(),
  onDidChangeConfiguration: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  onDidGrantWorkspaceTrust: new EventEmitter<void>(),
  onDidChangeActiveTextEditor: new EventEmitter<unknown>(),
  /** Full setting keys set in the workspace's settings.json (VS Code ignores restricted ones until the folder is trusted). */
  workspaceSettings: {} as Record<string, unknown>,
  /** Makes a document the active editor's, as VS Code does. */
  activate(document: FakeDocument): void {
    this.activeTextEditor = { document, selection: { active: new Position(0, 0) } };
    this.onDidChangeActiveTextEditor.fire(this.activeTextEditor);
  },
  /** Progress notifications: their titles, and whether each has ended. */
  progress: [] as { title: string; done: boolean }[],
  /** The values given to `setContext`, by key. */
  contextKeys: new Map<string, unknown>(),
  reset(): void {
    this.progress = [];
    this.workspaceSettings = {};
    this.contextKeys.clear();
    workspace.isTrusted = true;
    this.settings = {};
    this.commands.clear();
    this.builtinsExecuted = [];
    this.messages = [];
    this.messageChoice = undefined;
    this.inputBoxValue = undefined;
    this.openDialogAnswer = undefined;
    this.updatedSettings = [];
    this.shownDocuments = [];
    this.contentProviders.clear();
    this.outputChannels = [];
    this.statusItems = [];
    this.textDocuments = [];
    this.activeTextEditor = undefined;
    this.pythonExtension = undefined;
    this.diagnostics.clear();
    this.tabs = [];
  },
  /** A document as if opened in an editor. */
  document(file: string, text = ''): FakeDocument {
    return { uri: Uri.file(file), languageId: 'yaml', version: 1, getText: () => text, isClosed: false, isDirty: false };
  },
  /** Changes settings and tells listeners, as VS Code does. */
  changeSettings(changes: Record<string, unknown>): void {
    Object.assign(this.settings, changes);
    const keys = Object.keys(changes);
    this.onDidChangeConfiguration.fire({
      affectsConfiguration: (section: string) => keys.some((key) => key === section || key.startsWith(`${section}.`)),
    });
  },
};

function noEvent<T>(): (listener: Listener<T>) => Disposable {
  return () => new Disposable();
}

/** A glob as a regular expression over "/"-separated paths (enough for `**`, `*`, `?`). */
function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (glob.startsWith('**/', i)) {
      out += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else {
      out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`);
}

type Filter = string | { scheme?: string; pattern?: string; language?: string };

/** Providers registered through `languages.register*Provider`, by function name. */
export const registeredProviders: string[] = [];

const languageFunctions = {
  match(selector: Filter | Filter[], document: FakeDocument): number {
    const filters = Array.isArray(selector) ? selector : [selector];
    return filters.some((filter) => {
      if (typeof filter === 'string') {
        return filter === document.languageId;
      }
      if (filter.scheme !== undefined && filter.scheme !== document.uri.scheme) {
        return false;
      }
      if (filter.language !== undefined && filter.language !== document.languageId) {
        return false;
      }
      return filter.pattern === undefined || globRegExp(filter.pattern).test(document.uri.path);
    })
      ? 10
      : 0;
  },
  createDiagnosticCollection(name: string) {
    const entries = new Map<string, unknown[]>();
    fake.diagnostics.set(name, entries);
    return {
      name,
      set: (uri: Uri, diagnostics: unknown[]) => entries.set(uri.toString(), diagnostics),
      delete: (uri: Uri) => entries.delete(uri.toString()),
      get: (uri: Uri) => entries.get(uri.toString()),
      clear: () => entries.clear(),
      forEach: () => undefined,
      has: (uri: Uri) => entries.has(uri.toString()),
      dispose: () => entries.clear(),
    };
  },
  getDiagnostics: () => [],
};

/** `languages`, where every `register...` function records its name and returns a Disposable. */
export const languages = new Proxy(languageFunctions, {
  get(target, property, receiver) {
    if (typeof property === 'string' && property.startsWith('register') && !(property in target)) {
      return () => {
        registeredProviders.push(property);
        return new Disposable();
      };
    }
    return Reflect.get(target, property, receiver) as unknown;
  },
}) as typeof languageFunctions & Record<string, (...args: unknown[]) => Disposable>;

export const workspace = {
  get textDocuments(): FakeDocument[] {
    return fake.textDocuments;
  },
  workspaceFolders: undefined,
  isTrusted: true as boolean,
  rootPath: undefined,
  getConfiguration(section?: string) {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: (key: string, defaultValue?: unknown) =>
        fake.settings[full(key)] ??
        (workspace.isTrusted || full(key) !== 'formscript.path' ? fake.workspaceSettings[full(key)] : undefined) ??
        defaultValue,
      has: (key: string) => full(key) in fake.settings,
      inspect: (key: string) => ({
        key: full(key),
        globalValue: fake.settings[full(key)],
        workspaceValue: fake.workspaceSettings[full(key)],
      }),
      update: async (key: string, value: unknown, target?: unknown) => {
        fake.updatedSettings.push({ key: full(key), value, target });
      },
    };
  },
  onDidOpenTextDocument: fake.onDidOpenTextDocument.event,
  onDidChangeConfiguration: fake.onDidChangeConfiguration.event,
  onDidGrantWorkspaceTrust: fake.onDidGrantWorkspaceTrust.event,
  onDidCloseTextDocument: noEvent<FakeDocument>(),
  onDidChangeTextDocument: noEvent<unknown>(),
  onDidSaveTextDocument: noEvent<FakeDocument>(),
  onWillSaveTextDocument: noEvent<unknown>(),
  onDidChangeWorkspaceFolders: noEvent<unknown>(),
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string }) {
    fake.contentProviders.set(scheme, provider);
    return new Disposable(() => fake.contentProviders.delete(scheme));
  },
  async openTextDocument(uri: Uri): Promise<FakeDocument> {
    const provider = fake.contentProviders.get(uri.scheme);
    const text = provider?.provideTextDocumentContent(uri) ?? '';
    return { uri, languageId: 'plaintext', version: 1, getText: () => text, isClosed: false, isDirty: false };
  },
  createFileSystemWatcher: () => ({
    onDidCreate: noEvent(),
    onDidChange: noEvent(),
    onDidDelete: noEvent(),
    dispose: () => undefined,
  }),
  applyEdit: async () => true,
};

function show(kind: Shown['kind']) {
  return async (message: string, ...items: unknown[]): Promise<string | undefined> => {
    const titles = items.filter((item): item is string => typeof item === 'string');
    fake.messages.push({ kind, message, items: titles });
    const choice = typeof fake.messageChoice === 'function' ? fake.messageChoice(message) : fake.messageChoice;
    return choice !== undefined && titles.includes(choice) ? choice : undefined;
  };
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export const window = {
  createStatusBarItem(id: string) {
    const shown = { id, text: '', tooltip: '', command: undefined as unknown, visible: false };
    fake.statusItems.push(shown);
    return {
      name: '',
      get text() {
        return shown.text;
      },
      set text(value: string) {
        shown.text = value;
      },
      get tooltip() {
        return shown.tooltip;
      },
      set tooltip(value: string) {
        shown.tooltip = value;
      },
      get command() {
        return shown.command;
      },
      set command(value: unknown) {
        shown.command = value;
      },
      accessibilityInformation: undefined as unknown,
      backgroundColor: undefined as unknown,
      show: () => void (shown.visible = true),
      hide: () => void (shown.visible = false),
      dispose: () => void (shown.visible = false),
    };
  },
  get activeTextEditor() {
    return fake.activeTextEditor;
  },
  visibleTextEditors: [],
  tabGroups: {
    get all() {
      return [{ tabs: fake.tabs.map((uri) => ({ input: new TabInputText(uri) })) }];
    },
    onDidChangeTabs: noEvent(),
    onDidChangeTabGroups: noEvent(),
  },
  onDidChangeActiveTextEditor: fake.onDidChangeActiveTextEditor.event,
  onDidChangeVisibleTextEditors: noEvent(),
  createOutputChannel(name: string) {
    const channel = { name, text: [] as string[] };
    fake.outputChannels.push(channel);
    return {
      name,
      append: (value: string) => void channel.text.push(value),
      appendLine: (value: string) => void channel.text.push(`${value}\n`),
      replace: (value: string) => void (channel.text = [value]),
      clear: () => void (channel.text.length = 0),
      show: () => undefined,
      hide: () => undefined,
      dispose: () => undefined,
    };
  },
  showErrorMessage: show('error'),
  showWarningMessage: show('warning'),
  showInformationMessage: show('info'),
  showInputBox: async () => fake.inputBoxValue,
  showOpenDialog: async () => fake.openDialogAnswer,
  async showTextDocument(document: FakeDocument) {
    fake.shownDocuments.push({ uri: document.uri.toString(), text: document.getText() });
    return { document };
  },
  withProgress: async <R>(options: { title?: string }, task: (progress: unknown, token: unknown) => Promise<R>) => {
    const shown = { title: options.title ?? '', done: false };
    fake.progress.push(shown);
    try {
      return await task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: noEvent() });
    } finally {
      shown.done = true;
    }
  },
};

export const commands = {
  registerCommand(id: string, callback: (...args: unknown[]) => unknown): Disposable {
    if (fake.commands.has(id)) {
      throw new Error(`command '${id}' already exists`);
    }
    fake.commands.set(id, callback);
    return new Disposable(() => fake.commands.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    if (id === 'setContext') {
      fake.contextKeys.set(String(args[0]), args[1]);
      return undefined;
    }
    const callback = fake.commands.get(id);
    if (callback !== undefined) {
      return callback(...args);
    }
    fake.builtinsExecuted.push({ id, args });
    return undefined;
  },
  getCommands: async () => [...fake.commands.keys()],
};

export const extensions = {
  getExtension: (id: string) => (id === 'ms-python.python' ? fake.pythonExtension : undefined),
  all: [],
};

export const env = {
  appName: 'Fake Code',
  language: 'en',
  machineId: 'fake',
  sessionId: 'fake',
  uriScheme: 'vscode',
  clipboard: {
    writeText: async (text: string) => {
      fake.clipboard = text;
    },
    readText: async () => fake.clipboard,
  },
  openExternal: async () => true,
};
