/**
 * The whole extension (activation, the language client, the commands) in one
 * process against a stand-in for `vscode` (test/fake/vscode.ts) and a stand-in
 * LSP server (test/fake/lsp-server.cjs). VS Code itself cannot be downloaded
 * here; this checks what the client sends and how it shows the answers.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';

import { untrustedMessage } from '../src/discovery';
import { activate, deactivate } from '../src/extension';
import { EventEmitter, Uri, fake, workspace } from './fake/vscode';

const FAKE_SERVER = path.join(__dirname, '..', 'test', 'fake', 'lsp-server.cjs');

interface Logged {
  argv?: string[];
  pythonpath?: string | null;
  method?: string;
  params?: Record<string, unknown>;
  response?: string;
  result?: unknown;
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An extension folder without a bundled formscript (a development build), unless given one. */
let extensionPath = path.join(os.tmpdir(), 'formscript-smoke-extension-none');

function context(): { subscriptions: { dispose(): unknown }[]; extensionPath: string } {
  return { subscriptions: [], extensionPath };
}

describe('the extension against a stand-in server', () => {
  let dir = '';
  let log = '';
  let ctx = context();
  const savedPath = process.env.PATH;

  const logged = (): Logged[] =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Logged)
      : [];
  const received = (method: string) => logged().filter((entry) => entry.method === method);

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formscript-smoke-'));
    log = path.join(dir, 'lsp.jsonl');
    process.env.FAKE_LSP_LOG = log;
  });

  afterEach(async () => {
    await deactivate();
    for (const disposable of ctx.subscriptions) {
      disposable.dispose();
    }
    process.env.PATH = savedPath;
  });

  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    delete process.env.FAKE_LSP_LOG;
  });

  it('starts the server for a formscript file, sends the settings, runs the commands and stops it', async () => {
    fake.reset();
    fs.rmSync(log, { force: true });
    fake.settings = {
      'formscript.path': [process.execPath, FAKE_SERVER],
      'formscript.ignore': ['FS105'],
      'formscript.severity': { FS001: 'Warning' },
      'formscript.kinds.form': ['specs/*.yaml'],
    };
    ctx = context();
    activate(ctx as never);

    // The four commands exist before any server runs.
    for (const id of ['formscript.dryRun', 'formscript.simulate', 'formscript.showRuleDocumentation', 'formscript.restartServer']) {
      assert.ok(fake.commands.has(id), id);
    }
    assert.deepEqual(received('initialize'), [], 'no server until a formscript file is open');

    // A plain YAML file does not start it; a file matching a kinds glob does.
    fake.onDidOpenTextDocument.fire(fake.document('/w/notes.yaml'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(received('initialize'), []);
    fake.onDidOpenTextDocument.fire(fake.document('/w/specs/review.yaml'));

    const [init] = await waitFor('initialize', () => {
      const found = received('initialize');
      return found.length > 0 ? found : undefined;
    });
    assert.deepEqual(logged().find((entry) => entry.argv !== undefined)?.argv, ['serve'], 'the array command gets "serve" appended');
    assert.deepEqual(init?.params?.initializationOptions, {
      ignore: ['FS105'],
      severity: { FS001: 'Warning' },
      kinds: { form: ['specs/*.yaml'] },
    });

    // workspace/configuration: the mapped model for "formscript", the default answer for others.
    const answer = await waitFor('the configuration answer', () =>
      logged().find((entry) => entry.response === 'workspace/configuration'),
    );
    assert.deepEqual(answer.result, [
      { ignore: ['FS105'], severity: { FS001: 'Warning' }, kinds: { form: ['specs/*.yaml'] } },
      null,
    ]);

    // The client registered the server's other commands (without clashing with the extension's).
    assert.ok(fake.commands.has('formscript.applyFix'), 'the client registers formscript.applyFix');

    // Dry run on a file from the explorer menu.
    const file = Uri.file('/w/specs/review.form.yaml');
    await fake.commands.get('formscript.dryRun')?.(file);
    const dryRuns = received('workspace/executeCommand');
    assert.deepEqual(dryRuns.at(-1)?.params, { command: 'formscript.dryRun', arguments: [file.toString()] });
    assert.deepEqual(fake.shownDocuments.at(-1), {
      uri: 'formscript:/dry-run/review.form.yaml.txt',
      text: `formscript.dryRun of ${file.toString()}`,
    });

    // A code lens passes the URI as a string; the command returns the text too.
    const fromLens = await fake.commands.get('formscript.dryRun')?.('file:///w/lens.form.yaml');
    assert.deepEqual(received('workspace/executeCommand').at(-1)?.params, {
      command: 'formscript.dryRun',
      arguments: ['file:///w/lens.form.yaml'],
    });
    assert.equal(fromLens, 'formscript.dryRun of file:///w/lens.form.yaml');
    assert.equal(fake.shownDocuments.at(-1)?.uri, 'formscript:/dry-run/lens.form.yaml.txt');

    // Simulate on the active editor's file; the server's error is shown, not thrown.
    fake.activeTextEditor = { document: fake.document('/w/a.script.yaml'), selection: { active: { line: 0, character: 0 } as never } };
    await fake.commands.get('formscript.simulate')?.();
    assert.deepEqual(received('workspace/executeCommand').at(-1)?.params, {
      command: 'formscript.simulate',
      arguments: [Uri.file('/w/a.script.yaml').toString()],
    });
    assert.match(fake.messages.at(-1)?.message ?? '', /Simulate of a\.script\.yaml failed: simulate failed on purpose/);

    // Rule documentation: the typed code goes to formscript.ruleDoc; the Markdown opens in a preview.
    fake.inputBoxValue = ' FS001 ';
    await fake.commands.get('formscript.showRuleDocumentation')?.();
    assert.deepEqual(received('workspace/executeCommand').at(-1)?.params, {
      command: 'formscript.ruleDoc',
      arguments: ['FS001'],
    });
    const preview = fake.builtinsExecuted.find((entry) => entry.id === 'markdown.showPreviewToSide');
    assert.ok(preview, 'a Markdown preview was opened');
    const previewUri = preview.args[0] as Uri;
    assert.equal(previewUri.toString(), 'formscript:/rule/FS001.md');
    assert.equal(fake.contentProviders.get('formscript')?.provideTextDocumentContent(previewUri), '# FS001\n\nWhat the rule checks.');

    // formscript.ruleDoc with [code] (a server's command link) shows the documentation too.
    const doc = await fake.commands.get('formscript.ruleDoc')?.('FS002');
    assert.equal(doc, '# FS002\n\nWhat the rule checks.');
    assert.equal(
      (fake.builtinsExecuted.at(-1)?.args[0] as Uri | undefined)?.toString(),
      'formscript:/rule/FS002.md',
    );

    // A code passed as an argument skips the prompt; no documentation is reported as such.
    await fake.commands.get('formscript.showRuleDocumentation')?.('FS404');
    assert.match(fake.messages.at(-1)?.message ?? '', /no documentation for rule FS404/);

    // A lint setting change is pushed in the server's shape.
    fake.changeSettings({ 'formscript.select': ['FS0'] });
    const pushed = await waitFor('didChangeConfiguration', () => received('workspace/didChangeConfiguration').at(-1));
    assert.deepEqual(pushed.params, {
      settings: {
        formscript: {
          select: ['FS0'],
          ignore: ['FS105'],
          severity: { FS001: 'Warning' },
          kinds: { form: ['specs/*.yaml'] },
        },
      },
    });

    // The server log reaches the formscript output channel.
    const channel = fake.outputChannels.find((c) => c.name === 'formscript');
    assert.ok(channel);
    await waitFor('server stderr in the output channel', () => channel.text.join('').includes('fake server: initialized'));
    assert.match(channel.text.join(''), /Starting the server from the formscript\.path setting/);

    // Restart: a second initialize; deactivation: shutdown and exit.
    await fake.commands.get('formscript.restartServer')?.();
    await waitFor('a second initialize', () => received('initialize').length === 2);
    await deactivate();
    await waitFor('shutdown', () => received('shutdown').length === 2 && received('exit').length === 2);
  });

  it('offers Dry run on forms and Simulate on scripts, as the server\'s lenses say, and refuses the other', async () => {
    fake.reset();
    fs.rmSync(log, { force: true });
    fake.settings = { 'formscript.path': [process.execPath, FAKE_SERVER] };
    ctx = context();
    activate(ctx as never);
    assert.equal(fake.contextKeys.get('formscript.dryRunOffered'), false, 'nothing is offered before a server runs');

    const form = fake.document('/w/a.form.yaml', 'fields: {}\n');
    const script = fake.document('/w/b.script.yaml', 'responses: []\n');
    fake.textDocuments = [form, script];
    fake.onDidOpenTextDocument.fire(form);
    fake.activate(form);
    await waitFor('the form to offer Dry run', () => fake.contextKeys.get('formscript.dryRunOffered') === true);
    assert.equal(fake.contextKeys.get('formscript.simulateOffered'), false);

    fake.activate(script);
    await waitFor('the script to offer Simulate', () => fake.contextKeys.get('formscript.simulateOffered') === true);
    assert.equal(fake.contextKeys.get('formscript.dryRunOffered'), false);

    // A keybinding or a stale menu asks for a dry run of the script: it is refused, not sent.
    const sentBefore = received('workspace/executeCommand').length;
    assert.equal(await fake.commands.get('formscript.dryRun')?.(), undefined);
    assert.equal(
      fake.messages.at(-1)?.message,
      'Formscript: Dry run applies to work-form specs, and formscript does not read b.script.yaml as one (it is a script: use Simulate).',
    );
    assert.equal(received('workspace/executeCommand').length, sentBefore);
    // Simulate on it goes to the server.
    await fake.commands.get('formscript.simulate')?.();
    assert.equal(received('workspace/executeCommand').length, sentBefore + 1);

    // A rule set offers neither.
    const rules = fake.document('/w/c.rules.yaml', 'rules: []\n');
    fake.textDocuments.push(rules);
    fake.activate(rules);
    await waitFor('the rule set to offer nothing', () => fake.contextKeys.get('formscript.simulateOffered') === false);
    assert.equal(fake.contextKeys.get('formscript.dryRunOffered'), false);
  });

  it('in a folder that is not trusted, says formscript is off for that reason, and withdraws it once trusted', async () => {
    fake.reset();
    fs.rmSync(log, { force: true });
    process.env.PATH = path.join(dir, 'empty'); // no formscript on PATH: only the folder's setting could start it
    fake.workspaceSettings = { 'formscript.path': [process.execPath, FAKE_SERVER] };
    workspace.isTrusted = false;
    ctx = context();
    activate(ctx as never);
    fake.onDidOpenTextDocument.fire(fake.document('/w/a.form.yaml'));
    const notice = await waitFor('the untrusted notice', () => fake.progress.find((p) => !p.done));
    assert.equal(notice.title, untrustedMessage());
    assert.deepEqual(fake.messages, [], 'no error that would stay on screen');
    assert.deepEqual(received('initialize'), []);

    workspace.isTrusted = true;
    fake.textDocuments = [fake.document('/w/a.form.yaml')];
    fake.onDidGrantWorkspaceTrust.fire();
    await waitFor('the notice to go', () => notice.done);
    await waitFor('the server from the folder setting', () => received('initialize').length === 1);
    assert.deepEqual(logged().find((entry) => entry.argv !== undefined)?.argv, ['serve']);
  });

  it('starts for a Python file that imports lionagi, not for another, and runs a lens on its line', async () => {
    fake.reset();
    fs.rmSync(log, { force: true });
    fake.settings = { 'formscript.path': [process.execPath, FAKE_SERVER] };
    ctx = context();
    activate(ctx as never);

    const plain = { ...fake.document('/w/test_plain.py', 'import os\n'), languageId: 'python' };
    fake.onDidOpenTextDocument.fire(plain);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(received('initialize'), [], 'a Python file without lionagi starts nothing');

    const text = 'from lionagi.testing import TestBranch\n\nbranch = TestBranch.from_text("hi")\n';
    const python = { ...fake.document('/w/test_chat.py', text), languageId: 'python' };
    fake.onDidOpenTextDocument.fire(python);
    await waitFor('initialize', () => (received('initialize').length > 0 ? true : undefined));

    // The Simulate lens above the document passes the document's line (FILE.py:LINE).
    await fake.commands.get('formscript.simulate')?.(python.uri.toString(), 3);
    const sent = await waitFor('the simulate command', () => received('workspace/executeCommand').at(-1));
    assert.deepEqual(sent.params, { command: 'formscript.simulate', arguments: [python.uri.toString(), 3] });
    await deactivate();
  });

  it('says that no Python 3.11+ was found, and offers the interpreter picker (a file dialog without the Python extension)', async () => {
    fake.reset();
    fake.messageChoice = 'Select Interpreter';
    fake.openDialogAnswer = [Uri.file('/opt/python3.12/bin/python3')];
    process.env.PATH = dir; // no formscript and no python here
    ctx = context();
    activate(ctx as never);
    await fake.commands.get('formscript.dryRun')?.(Uri.file('/w/x.form.yaml'));
    const error = fake.messages.find((m) => m.kind === 'error');
    assert.ok(error, 'an error message was shown');
    assert.match(error.message, /^formscript needs Python 3\.11 or newer to run its language server, and none was found/);
    assert.deepEqual(error.items, ['Select Interpreter', 'Show Output', 'Retry']);
    await waitFor('formscript.interpreter to be set', () =>
      fake.updatedSettings.find((u) => u.key === 'formscript.interpreter' && u.value === '/opt/python3.12/bin/python3'),
    );
    const status = fake.statusItems.find((item) => item.id === 'formscript.status');
    assert.equal(status?.text, '$(error) formscript');
    assert.equal(status?.command, 'formscript.showLogs');
  });

  it('starts the server on Retry once formscript is installed', { skip: process.platform === 'win32' }, async () => {
    fake.reset();
    fs.rmSync(log, { force: true });
    const bin = path.join(dir, 'retry-bin');
    fs.mkdirSync(bin, { recursive: true });
    process.env.PATH = bin;
    let asked = 0;
    fake.messageChoice = () => {
      asked += 1;
      if (asked > 1) {
        return undefined;
      }
      // The user runs "pip install formscript", then clicks Retry.
      fs.writeFileSync(
        path.join(bin, 'formscript'),
        `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_SERVER)} "$@"\n`,
        { mode: 0o755 },
      );
      return 'Retry';
    };
    ctx = context();
    activate(ctx as never);
    fake.onDidOpenTextDocument.fire(fake.document('/w/a.form.yaml'));
    await waitFor('initialize after Retry', () => received('initialize').length === 1);
    assert.equal(asked, 1);
    assert.deepEqual(logged().find((entry) => entry.argv !== undefined)?.argv, ['serve']);
  });

  it('reports a formscript.path that does not exist', async () => {
    fake.reset();
    fake.settings = { 'formscript.path': path.join(dir, 'missing', 'formscript') };
    ctx = context();
    activate(ctx as never);
    fake.onDidOpenTextDocument.fire(fake.document('/w/a.rules.yaml'));
    const error = await waitFor('an error message', () => fake.messages.find((m) => m.kind === 'error'));
    assert.match(error.message, /formscript\.path: ".*missing\/formscript" is not an executable file/);
    assert.deepEqual(error.items, ['Open Settings', 'Show Output', 'Retry']);
  });

  describe('with a Python interpreter', { skip: process.platform === 'win32' ? 'uses a shell script as python' : false }, () => {
    /** A "python3" that answers the probe as Python 3.12 with formscript FAKE_PYTHON_FORMSCRIPT installed
     * ("null": none) and runs the stand-in server for -m. */
    function fakePython(): string {
      const bin = path.join(dir, 'venv', 'bin');
      fs.mkdirSync(bin, { recursive: true });
      const python = path.join(bin, 'python3');
      fs.writeFileSync(
        python,
        `#!/bin/sh\nif [ "$1" = "-c" ]; then echo "[3, 12, \${FAKE_PYTHON_FORMSCRIPT:-\\"0.0.9\\"}]"; exit 0; fi\n` +
          `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_SERVER)} "$@"\n`,
        { mode: 0o755 },
      );
      return python;
    }

    /** An extension folder with a bundle for Python 3.12 (its libs folder is only put on PYTHONPATH). */
    function bundledExtension(): string {
      const root = path.join(dir, 'extension');
      fs.mkdirSync(path.join(root, 'bundled', 'libs'), { recursive: true });
      fs.writeFileSync(
        path.join(root, 'bundled', 'manifest.json'),
        JSON.stringify({ formscript: '9.9.9', platform: 'linux-x64', python: ['3.11', '3.12'] }),
      );
      return root;
    }

    it("runs '<python> -m formscript serve' with the Python extension's interpreter, and restarts when it changes", async () => {
      fake.reset();
      fs.rmSync(log, { force: true });
      process.env.PATH = path.join(dir, 'empty');
      const python = fakePython();
      const changed = new EventEmitter<unknown>();
      fake.pythonExtension = {
        isActive: true,
        exports: {
          environments: {
            getActiveEnvironmentPath: () => ({ id: 'venv', path: path.dirname(path.dirname(python)) }),
            resolveEnvironment: async () => ({ executable: { uri: Uri.file(python) } }),
            onDidChangeActiveEnvironmentPath: changed.event,
          },
        },
      };
      ctx = context();
      activate(ctx as never);
      fake.onDidOpenTextDocument.fire(fake.document('/w/chat.script.json'));
      await waitFor('initialize', () => received('initialize').length === 1);
      assert.deepEqual(logged().find((entry) => entry.argv !== undefined)?.argv, ['-m', 'formscript', 'serve']);
      const channel = fake.outputChannels.find((c) => c.name === 'formscript');
      assert.match(channel?.text.join('') ?? '', /from formscript 0\.0\.9 installed for .*python3/);
      assert.equal(logged().find((entry) => entry.argv !== undefined)?.pythonpath, null);
      // The extension subscribes to interpreter changes once the server is running.
      await waitFor('the interpreter watch', () => changed.listenerCount > 0);
      changed.fire({});
      await waitFor('a restart', () => received('initialize').length === 2);
    });

    it('names the interpreter that has no formscript, in a build without a bundle (python.defaultInterpreterPath)', async () => {
      fake.reset();
      process.env.PATH = path.join(dir, 'empty');
      process.env.FAKE_PYTHON_FORMSCRIPT = 'null';
      try {
        const python = fakePython();
        fake.settings = { 'python.defaultInterpreterPath': python };
        ctx = context();
        activate(ctx as never);
        fake.onDidOpenTextDocument.fire(fake.document('/w/a.calls.yaml'));
        const error = await waitFor('an error message', () => fake.messages.find((m) => m.kind === 'error'));
        assert.ok(error.message.includes(`${python} (Python 3.12) has no formscript installed`), error.message);
        assert.ok(error.message.includes('this build of the extension carries no formscript of its own'), error.message);
        assert.ok(error.message.includes(`${python} -m pip install formscript`), error.message);
        assert.deepEqual(error.items, ['Open Settings', 'Copy Install Command', 'Retry']);
      } finally {
        delete process.env.FAKE_PYTHON_FORMSCRIPT;
      }
    });

    it('runs the bundled formscript with the interpreter (bundle on PYTHONPATH); the status bar says so', async () => {
      fake.reset();
      fs.rmSync(log, { force: true });
      process.env.PATH = path.join(dir, 'empty');
      const saved = extensionPath;
      extensionPath = bundledExtension();
      try {
        fake.settings = { 'python.defaultInterpreterPath': fakePython() };
        ctx = context();
        activate(ctx as never);
        fake.onDidOpenTextDocument.fire(fake.document('/w/a.form.yaml'));
        await waitFor('initialize', () => received('initialize').length === 1);
        const started = logged().find((entry) => entry.argv !== undefined);
        assert.deepEqual(started?.argv, ['-m', 'formscript', 'serve']);
        assert.equal(started?.pythonpath, path.join(extensionPath, 'bundled', 'libs'));
        const status = await waitFor('the status bar', () =>
          fake.statusItems.find((item) => item.id === 'formscript.status' && item.text.startsWith('$(check)')),
        );
        // the version the server reports (the stand-in says 0), and where it comes from
        assert.equal(status.text, '$(check) formscript 0 (bundled)');
        assert.match(status.tooltip, /the bundled formscript 9\.9\.9, run by Python 3\.12/);
      } finally {
        extensionPath = saved;
      }
    });

    it('fromEnvironment: the environment has none, so the bundled one serves, and the user is told', async () => {
      fake.reset();
      fs.rmSync(log, { force: true });
      process.env.PATH = path.join(dir, 'empty');
      process.env.FAKE_PYTHON_FORMSCRIPT = 'null';
      const saved = extensionPath;
      extensionPath = bundledExtension();
      try {
        const python = fakePython();
        fake.settings = { 'python.defaultInterpreterPath': python, 'formscript.importStrategy': 'fromEnvironment' };
        ctx = context();
        activate(ctx as never);
        fake.onDidOpenTextDocument.fire(fake.document('/w/a.form.yaml'));
        await waitFor('initialize', () => received('initialize').length === 1);
        const info = await waitFor('the notice', () => fake.messages.find((m) => m.kind === 'info'));
        assert.equal(
          info.message,
          `formscript.importStrategy is fromEnvironment, but ${python} has no formscript installed: using the bundled formscript 9.9.9.`,
        );
      } finally {
        extensionPath = saved;
        delete process.env.FAKE_PYTHON_FORMSCRIPT;
      }
    });
  });
});
