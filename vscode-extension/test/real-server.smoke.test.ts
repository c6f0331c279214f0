/**
 * The whole extension against the real `formscript serve` (the Python language
 * server), with the stand-in `vscode` module: the server starts from a
 * `formscript.path` command, applies the editor settings to the diagnostics
 * the client pulls, and answers the three commands for small forms and scripts.
 *
 * Needs a Python that can import formscript.lsp.server ($FORMSCRIPT_PYTHON,
 * the repository's .venv, or python3); skipped otherwise.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { after, afterEach, before, describe, it } from 'node:test';

import { activate, deactivate } from '../src/extension';
import { Uri, fake } from './fake/vscode';

const REPO = path.join(__dirname, '..', '..');

/** The files the test opens, written to a temporary folder. */
const FIXTURES: Record<string, string> = {
  // Clean: accepted, so the dry run shows what the model receives.
  'review.form.yaml': `title: Code review request
fields:
  repository:
    type: str
  pull_request:
    type: int
values:
  repository: khive-ai/lionagi
  pull_request: 1024
`,
  // Mistakes: FS008 (misspelt declaration key), FS012 (required field without value),
  // FS015 (YAML 1.1 reads "no" as false).
  'onboarding.form.yaml': `title: Customer onboarding
fields:
  country:
    type: str
  seats:
    type: int
    requried: true
  contact:
    type: str
values:
  country: no
  seats: 25
`,
  'weather.script.yaml': `version: 1
mode: auto
responses:
  - type: text
    content: It is sunny in Paris.
`,
  'weather.calls.yaml': `- What is the weather in Paris?
`,
};

function findPython(): string | undefined {
  const candidates = [
    process.env.FORMSCRIPT_PYTHON,
    path.join(REPO, '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python'),
    'python3',
  ];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === '' || (candidate.includes(path.sep) && !fs.existsSync(candidate))) {
      continue;
    }
    if (spawnSync(candidate, ['-c', 'import formscript.lsp.server'], { encoding: 'utf8' }).status === 0) {
      return candidate;
    }
  }
  return undefined;
}

const python = findPython();
const skip = python === undefined ? 'no Python that can import formscript.lsp.server' : false;

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the extension against the real formscript server', { skip }, () => {
  const ctx: { subscriptions: { dispose(): unknown }[] } = { subscriptions: [] };
  let dir = '';

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formscript-real-'));
    for (const [name, text] of Object.entries(FIXTURES)) {
      fs.writeFileSync(path.join(dir, name), text);
    }
  });

  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await deactivate();
    for (const disposable of ctx.subscriptions.splice(0)) {
      disposable.dispose();
    }
  });

  it('starts, takes the settings and answers dry run, simulate and rule documentation', async () => {
    fake.reset();
    fake.settings = {
      'formscript.path': [python, '-m', 'formscript'],
      'formscript.severity': { FS008: 'warning' },
      'formscript.ignore': ['FS015'],
    };
    // Two forms already open in editor tabs when the extension activates.
    const form = path.join(dir, 'review.form.yaml');
    const onboarding = path.join(dir, 'onboarding.form.yaml');
    const withMistakes = fake.document(onboarding, fs.readFileSync(onboarding, 'utf8'));
    fake.textDocuments.push(fake.document(form, fs.readFileSync(form, 'utf8')), withMistakes);
    fake.tabs.push(Uri.file(form), withMistakes.uri);
    activate(ctx as never);

    const channel = await waitFor('the output channel', () => fake.outputChannels.find((c) => c.name === 'formscript'));
    await waitFor('the server to run', () => channel.text.join('').includes('The server is running: formscript ')).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}; output channel:\n${channel.text.join('')}`);
      },
    );
    const log = channel.text.join('');
    assert.match(log, /-m formscript serve/);
    assert.doesNotMatch(log, /failed to start/);

    const dryRun = (await fake.commands.get('formscript.dryRun')?.(Uri.file(form))) as string | undefined;
    assert.equal(typeof dryRun, 'string', `dry run answered ${JSON.stringify(dryRun)}; log:\n${channel.text.join('')}`);
    assert.ok((dryRun ?? '').includes('khive-ai/lionagi'), `the dry run shows the values: ${dryRun}`);
    assert.equal(fake.shownDocuments.at(-1)?.uri, 'formscript:/dry-run/review.form.yaml.txt');

    const script = path.join(dir, 'weather.script.yaml');
    const simulation = (await fake.commands.get('formscript.simulate')?.(Uri.file(script).toString())) as
      | string
      | undefined;
    assert.ok(
      (simulation ?? '').includes('It is sunny in Paris.'),
      `the simulation serves the entry: ${simulation}; log:\n${channel.text.join('')}`,
    );

    const doc = (await fake.commands.get('formscript.showRuleDocumentation')?.('FS001')) as string | undefined;
    assert.match(doc ?? '', /FS001/);

    // Diagnostics of a form with mistakes, pulled by the client, with the editor settings applied:
    // FS008 lowered to a warning, FS015 ignored.
    const uri = withMistakes.uri.toString();
    const diagnostics = await waitFor('diagnostics of onboarding.form.yaml', () => {
      const found = [...fake.diagnostics.values()].map((collection) => collection.get(uri)).find((d) => d?.length);
      return found as { code?: unknown; severity: number; source?: string }[] | undefined;
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}; output channel:\n${channel.text.join('')}`);
    });
    const codes = diagnostics.map((d) => (typeof d.code === 'object' && d.code !== null ? (d.code as { value: unknown }).value : d.code));
    assert.ok(codes.includes('FS008'), `codes: ${JSON.stringify(codes)}`);
    assert.ok(codes.includes('FS012'), `codes: ${JSON.stringify(codes)}`);
    assert.ok(!codes.includes('FS015'), 'FS015 is ignored by formscript.ignore');
    const fs008 = diagnostics[codes.indexOf('FS008')];
    assert.equal(fs008?.severity, 1, 'FS008 is a warning by formscript.severity');
    assert.equal(diagnostics[codes.indexOf('FS012')]?.severity, 0, 'FS012 stays an error');

    assert.deepEqual(
      fake.messages.filter((m) => m.kind === 'error'),
      [],
      'no error was shown',
    );
  });
});
