import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { MENU_WHEN } from '../src/offers';
import { EXTENSION_COMMANDS } from '../src/results';
import { defaultPatterns } from '../src/settings';

const ROOT = path.join(__dirname, '..');

interface Validation {
  fileMatch: string | string[];
  url: string;
}

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
  contributes: {
    commands: { command: string; title: string; category: string }[];
    menus: Record<string, { command: string; when: string; group?: string }[]>;
    yamlValidation: Validation[];
    jsonValidation: Validation[];
    configuration: { properties: Record<string, { default?: unknown }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

function schemaFor(validations: Validation[], file: string): string | undefined {
  const ext = file.slice(file.lastIndexOf('.'));
  const suffix = file.slice(file.indexOf('.'));
  const entry = validations.find((v) =>
    (Array.isArray(v.fileMatch) ? v.fileMatch : [v.fileMatch]).some((m) => m === `*${suffix}` && m.endsWith(ext)),
  );
  return entry?.url;
}

describe('package.json', () => {
  it('contributes the five commands under the Formscript category', () => {
    const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.deepEqual(titles, {
      [EXTENSION_COMMANDS.dryRun]: 'Formscript: Dry run',
      [EXTENSION_COMMANDS.simulate]: 'Formscript: Simulate',
      [EXTENSION_COMMANDS.showRuleDocumentation]: 'Formscript: Show rule documentation',
      [EXTENSION_COMMANDS.restartServer]: 'Formscript: Restart server',
      [EXTENSION_COMMANDS.showLogs]: 'Formscript: Show logs',
    });
  });

  it('offers Dry run and Simulate only where they apply: forms and scripts, as the server decides', () => {
    const when = (menu: string) =>
      Object.fromEntries((manifest.contributes.menus[menu] ?? []).map((entry) => [entry.command, entry.when]));
    const byServer = { [EXTENSION_COMMANDS.dryRun]: MENU_WHEN.editor.dryRun, [EXTENSION_COMMANDS.simulate]: MENU_WHEN.editor.simulate };
    assert.deepEqual(when('editor/context'), byServer);
    assert.deepEqual(when('commandPalette'), byServer);
    assert.deepEqual(when('explorer/context'), {
      [EXTENSION_COMMANDS.dryRun]: MENU_WHEN.explorer.dryRun,
      [EXTENSION_COMMANDS.simulate]: MENU_WHEN.explorer.simulate,
    });
    // The explorer's clauses, as VS Code evaluates them on file names.
    const matches = (clause: string, name: string) => new RegExp(/=~ \/(.*)\/$/.exec(clause)?.[1] ?? '$^').test(name);
    for (const [name, dry, sim] of [
      ['a.form.yaml', true, false],
      ['a.form.json', true, false],
      ['a.script.yml', false, true],
      ['a.rules.yaml', false, false],
      ['a.calls.yaml', false, false],
      ['notes.yaml', false, false],
    ] as const) {
      assert.equal(matches(MENU_WHEN.explorer.dryRun, name), dry, name);
      assert.equal(matches(MENU_WHEN.explorer.simulate, name), sim, name);
    }
  });

  it('maps each kind to its schema for YAML and JSON files', () => {
    const expected: Record<string, string> = {
      form: './schemas/form-spec.schema.json',
      script: './schemas/script.schema.json',
      rules: './schemas/ruleset.schema.json',
      calls: './schemas/calls.schema.json',
    };
    for (const [kind, url] of Object.entries(expected)) {
      assert.equal(schemaFor(manifest.contributes.yamlValidation, `x.${kind}.yaml`), url, `${kind}.yaml`);
      assert.equal(schemaFor(manifest.contributes.yamlValidation, `x.${kind}.yml`), url, `${kind}.yml`);
      assert.equal(schemaFor(manifest.contributes.jsonValidation, `x.${kind}.json`), url, `${kind}.json`);
    }
  });

  it('references exactly the schemas the copy script requires', async () => {
    const urls = new Set(
      [...manifest.contributes.yamlValidation, ...manifest.contributes.jsonValidation].map((v) => v.url),
    );
    const copied = fs.readFileSync(path.join(ROOT, 'scripts', 'copy-schemas.mjs'), 'utf8');
    for (const url of urls) {
      assert.ok(copied.includes(`'${path.basename(url)}'`), `copy-schemas.mjs must copy ${url}`);
    }
    assert.equal(urls.size, 4);
  });

  it('activates on every default file name', () => {
    for (const pattern of defaultPatterns()) {
      assert.ok(manifest.activationEvents.includes(`workspaceContains:${pattern}`), pattern);
    }
  });

  it('ships the bundle and pins every dependency to an exact version', () => {
    assert.equal(manifest.main, './dist/extension.js');
    for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      assert.match(version, /^\d+\.\d+\.\d+$/, `${name}@${version} is not pinned`);
    }
    assert.equal(manifest.dependencies['vscode-languageclient']?.split('.')[0], '9');
    // npm run package: scripts/package.mjs bundles formscript, then runs vsce without node_modules
    assert.equal(manifest.scripts.package, 'node scripts/package.mjs');
    const packaging = fs.readFileSync(path.join(ROOT, 'scripts', 'package.mjs'), 'utf8');
    assert.match(packaging, /'--no-dependencies'/);
    assert.match(packaging, /bundle-python\.mjs/);
    assert.equal(
      manifest.devDependencies['@types/vscode'],
      manifest.engines.vscode.replace(/^\^/, ''),
      '@types/vscode must match engines.vscode',
    );
  });

  it('keeps sources, tests and node_modules out of the .vsix', () => {
    const ignored = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const entry of ['src/**', 'test/**', 'out-test/**', 'scripts/**', 'node_modules/**']) {
      assert.ok(ignored.includes(entry), `.vscodeignore lacks ${entry}`);
    }
  });
});
