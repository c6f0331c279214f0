import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import {
  KINDS,
  defaultPatterns,
  documentSelector,
  importsLionagi,
  isExplicitlySet,
  toDocumentPattern,
  serverSelector,
  selectorGlobs,
  toServerConfig,
  type SettingGetter,
} from '../src/settings';

/** A getter over a flat map of `formscript.`-relative keys, like WorkspaceConfiguration.get. */
function getter(values: Record<string, unknown>): SettingGetter {
  return (key) => values[key];
}


describe('toServerConfig', () => {
  it('sends nothing for settings the user did not set, so the project configuration decides', () => {
    assert.deepEqual(toServerConfig(getter({})), {});
  });

  it('maps every camelCase setting to the snake_case model of [tool.formscript]', () => {
    const config = toServerConfig(
      getter({
        select: ['FS0', 'FS201'],
        extendSelect: ['FS01'],
        ignore: ['FS105'],
        severity: { FS001: 'warning', FS201: 'off' },
        perFileIgnores: { 'legacy/*.yaml': ['FS2'] },
        'kinds.form': ['specs/*.yaml'],
        'kinds.script': ['fixtures/**/*.yml'],
        'kinds.rules': ['policy.yaml'],
        'kinds.calls': ['calls/*.json'],
        calls: { '*.script.yaml': 'common.calls.yaml' },
        expectedOutcomes: false,
      }),
    );
    // What goes over the wire: exactly these keys, in this order.
    assert.equal(
      JSON.stringify(config),
      '{"select":["FS0","FS201"],"extend_select":["FS01"],"ignore":["FS105"],' +
        '"severity":{"FS001":"warning","FS201":"off"},"per_file_ignores":{"legacy/*.yaml":["FS2"]},' +
        '"calls":{"*.script.yaml":"common.calls.yaml"},"expected_outcomes":false,' +
        '"kinds":{"form":["specs/*.yaml"],"script":["fixtures/**/*.yml"],"rules":["policy.yaml"],"calls":["calls/*.json"]}}',
    );
  });

  it('sends a setting explicitly set to empty (it clears the project value)', () => {
    const config = toServerConfig(getter({ ignore: [], severity: {}, 'kinds.calls': [] }));
    assert.deepEqual(config, { ignore: [], severity: {}, kinds: { calls: [] } });
  });

  it('sends only the kinds that are set', () => {
    assert.deepEqual(toServerConfig(getter({ 'kinds.rules': ['*.policy.yaml'] })), {
      kinds: { rules: ['*.policy.yaml'] },
    });
  });

  it('passes values through as the user wrote them, wrong ones included, for the server to judge', () => {
    const written = {
      select: [' FS2 ', 7, null],
      extendSelect: 42,
      severity: { FS1: 'Warning', FS2: 'warn', FS4: 'fatal' },
      'kinds.form': { a: 1 },
      perFileIgnores: { 'a/*.yaml': 'FS1' },
      calls: ['not', 'a', 'table'],
    };
    assert.deepEqual(toServerConfig(getter(written)), {
      select: [' FS2 ', 7, null],
      extend_select: 42,
      severity: { FS1: 'Warning', FS2: 'warn', FS4: 'fatal' },
      per_file_ignores: { 'a/*.yaml': 'FS1' },
      calls: ['not', 'a', 'table'],
      kinds: { form: { a: 1 } },
    });
  });

  it('reads exactly the lint settings the manifest declares (path, interpreter, importStrategy and trace are client-side)', () => {
    const asked: string[] = [];
    toServerConfig((key) => {
      asked.push(`formscript.${key}`);
      return undefined;
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, unknown> } };
    };
    const declared = Object.keys(manifest.contributes.configuration.properties).filter(
      (key) => !['formscript.path', 'formscript.interpreter', 'formscript.importStrategy', 'formscript.trace.server'].includes(key),
    );
    assert.deepEqual([...asked].sort(), [...declared].sort());
  });
});

describe('selectorGlobs', () => {
  it('takes the usable globs of each kind for the document selector, whatever else was written', () => {
    assert.deepEqual(
      selectorGlobs({ kinds: { form: [' specs/*.yaml ', 3, ''], script: 'one.yml', rules: { a: 1 }, calls: [] } }),
      { form: ['specs/*.yaml'], script: ['one.yml'] },
    );
    assert.deepEqual(selectorGlobs({}), {});
  });
});

describe('isExplicitlySet', () => {
  it('is true for a value at any level, false for the default alone', () => {
    assert.equal(isExplicitlySet(undefined), false);
    assert.equal(isExplicitlySet({}), false);
    assert.equal(isExplicitlySet({ globalValue: [] }), true);
    assert.equal(isExplicitlySet({ workspaceValue: 'x' }), true);
    assert.equal(isExplicitlySet({ workspaceFolderValue: {} }), true);
  });
});

describe('document selector', () => {
  it('covers every kind with .yaml, .yml and .json by default', () => {
    const patterns = defaultPatterns();
    assert.equal(patterns.length, 12);
    for (const kind of KINDS) {
      for (const ext of ['yaml', 'yml', 'json']) {
        assert.ok(patterns.includes(`**/*.${kind}.${ext}`), `${kind}.${ext}`);
      }
    }
    assert.deepEqual(
      documentSelector({}).map((f) => f.scheme),
      new Array<string>(12).fill('file'),
    );
  });

  it('adds the kinds globs, made to match anywhere, without duplicates', () => {
    const selector = documentSelector({
      form: ['specs/*.yaml', './specs/*.yaml', '**/*.form.yaml'],
      script: ['/abs/fixtures/*.yml'],
      rules: [],
      calls: ['C:\\work\\calls\\*.json', ' '],
    });
    const extra = selector.slice(12).map((f) => f.pattern);
    assert.deepEqual(extra, ['**/specs/*.yaml', '/abs/fixtures/*.yml', 'C:/work/calls/*.json']);
  });

  it('converts single globs', () => {
    assert.equal(toDocumentPattern('a/*.yaml'), '**/a/*.yaml');
    assert.equal(toDocumentPattern('**/x.yaml'), '**/x.yaml');
    assert.equal(toDocumentPattern('/x/*.yaml'), '/x/*.yaml');
    assert.equal(toDocumentPattern('.\\a\\b.yaml'), '**/a/b.yaml');
  });
});

describe('Python files', () => {
  it('are sent to the server beside its files', () => {
    const selector = serverSelector({ form: ['specs/*.yaml'] });
    assert.equal(selector.length, 14);
    assert.deepEqual(selector.at(-1), { scheme: 'file', language: 'python' });
    assert.deepEqual(selector.slice(0, 13), documentSelector({ form: ['specs/*.yaml'] }));
  });

  it('start it only when they import lionagi', () => {
    for (const text of [
      'import lionagi\n',
      'from lionagi.testing import TestBranch\n',
      'import os, lionagi.testing as lt\n',
      'def test_x():\n    from lionagi.work import FieldSpec\n',
      '"""doc"""\nfrom lionagi import iModel\n',
    ]) {
      assert.equal(importsLionagi(text), true, text);
    }
    for (const text of [
      '',
      'import os\n',
      '# from lionagi.testing import TestBranch\n',
      'import lionagix\n',
      'from lionagi_extra import thing\n',
      'x = "from lionagi.testing import TestBranch"\n',
    ]) {
      assert.equal(importsLionagi(text), false, text);
    }
  });
});
