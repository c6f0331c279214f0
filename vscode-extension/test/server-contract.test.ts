/**
 * The mapped settings against the real server model: formscript.lint.config
 * parses what the extension sends, and merging it over a project's
 * [tool.formscript] keeps what the user did not set.
 *
 * Needs a Python that can import formscript: $FORMSCRIPT_PYTHON, else the
 * repository's .venv, else python3. Skipped (with the reason) when there is none.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

import { toServerConfig, type SettingGetter } from '../src/settings';

const REPO = path.join(__dirname, '..', '..');

function findPython(): string | undefined {
  const candidates = [
    process.env.FORMSCRIPT_PYTHON,
    path.join(REPO, '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python'),
    'python3',
  ];
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === '') {
      continue;
    }
    if (candidate.includes(path.sep) && !fs.existsSync(candidate)) {
      continue;
    }
    const probe = spawnSync(candidate, ['-c', 'import formscript.lint.config, formscript.lint.kinds'], {
      encoding: 'utf8',
    });
    if (probe.status === 0) {
      return candidate;
    }
  }
  return undefined;
}

const python = findPython();
const skip = python === undefined ? 'no Python that can import formscript' : false;

/** The language server's settings layer, once it exists (formscript.lsp.settings). */
function hasLspSettings(): boolean {
  if (python === undefined) {
    return false;
  }
  const probe = spawnSync(
    python,
    ['-c', 'import formscript.lsp.settings as s; assert callable(s.editor_table) and hasattr(s, "SettingsStore")'],
    { encoding: 'utf8' },
  );
  return probe.status === 0;
}
const lspSkip = hasLspSettings() ? false : 'formscript.lsp.settings (editor_table, SettingsStore) is not available';

// Reads {"project": {...}, "editor": {...}} and prints the merged Settings, or the ConfigError.
const MERGE = `
import dataclasses, json, sys
from formscript.lint.config import ConfigError, settings_from_mapping
data = json.load(sys.stdin)
try:
    project = settings_from_mapping(data["project"], "pyproject")
    merged = project.merged(data["editor"])
    parsed = settings_from_mapping(data["editor"])
except ConfigError as exc:
    print(json.dumps({"error": str(exc)}))
    raise SystemExit(0)
def plain(s):
    return {f.name: getattr(s, f.name) for f in dataclasses.fields(s) if f.name not in ("root", "source")}
print(json.dumps({"merged": plain(merged), "parsed": plain(parsed)}))
`;

function merge(project: Record<string, unknown>, editor: unknown): Record<string, unknown> {
  const run = spawnSync(python ?? 'python3', ['-c', MERGE], {
    input: JSON.stringify({ project, editor }),
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const getter =
  (values: Record<string, unknown>): SettingGetter =>
  (key) =>
    values[key];

describe('settings against the server model (formscript.lint.config)', { skip }, () => {
  it('parses everything the extension can send', () => {
    const config = toServerConfig(
      getter({
        select: ['FS0'],
        extendSelect: ['fs01'],
        ignore: ['FS015'],
        severity: { FS001: 'Warning', FS002: 'off' },
        perFileIgnores: { 'legacy/*.yaml': ['FS02'] },
        'kinds.form': ['specs/*.yaml'],
        'kinds.calls': ['calls/*.json'],
        calls: { '*.script.yaml': 'common.calls.yaml' },
        expectedOutcomes: false,
        exclude: ['legacy/'],
        respectGitignore: false,
      }),
    );
    const out = merge({}, config);
    assert.equal(out.error, undefined, String(out.error));
    assert.deepEqual(out.parsed, {
      select: ['FS0'],
      extend_select: ['FS01'],
      ignore: ['FS015'],
      severity: { FS001: 'warning', FS002: 'off' },
      per_file_ignores: { 'legacy/*.yaml': ['FS02'] },
      kinds: { form: ['specs/*.yaml'], calls: ['calls/*.json'] },
      calls: { '*.script.yaml': 'common.calls.yaml' },
      expected_outcomes: false,
      exclude: ['legacy/'],
      respect_gitignore: false,
    });
  });

  it('keeps the project configuration when no editor setting is set', () => {
    const project = { select: ['FS0'], ignore: ['SC0'], kinds: { rules: ['*.policy.yaml'] }, severity: { FS004: 'hint' } };
    const out = merge(project, toServerConfig(getter({})));
    assert.deepEqual(out.merged, {
      select: ['FS0'],
      extend_select: [],
      ignore: ['SC0'],
      severity: { FS004: 'hint' },
      per_file_ignores: {},
      kinds: { rules: ['*.policy.yaml'] },
      calls: {},
      expected_outcomes: true,
      exclude: [],
      respect_gitignore: true,
    });
  });

  it('Settings.merged: a present key replaces the project value, tables are merged', () => {
    const project = { ignore: ['SC0'], severity: { FS004: 'hint' }, kinds: { rules: ['*.policy.yaml'] } };
    const config = toServerConfig(
      getter({ ignore: [], severity: { FS005: 'error' }, 'kinds.form': ['specs/*.yaml'] }),
    );
    const merged = merge(project, config).merged as Record<string, unknown>;
    assert.deepEqual(merged.ignore, []);
    assert.deepEqual(merged.severity, { FS004: 'hint', FS005: 'error' });
    assert.deepEqual(merged.kinds, { rules: ['*.policy.yaml'], form: ['specs/*.yaml'] });
  });

  it('takes the severity aliases the settings accept, in any case', () => {
    const config = toServerConfig(getter({ severity: { FS001: 'WARN', FS002: 'information', FS003: 'None' } }));
    const out = merge({}, config);
    assert.equal(out.error, undefined, String(out.error));
    assert.deepEqual((out.parsed as Record<string, unknown>).severity, { FS001: 'warning', FS002: 'info', FS003: 'off' });
  });

  it('accepts every severity the settings schema offers', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { additionalProperties?: { enum?: string[] } }> } };
    };
    const offered = manifest.contributes.configuration.properties['formscript.severity']?.additionalProperties?.enum ?? [];
    assert.ok(offered.length >= 5);
    const severity = Object.fromEntries(offered.map((level, index) => [`FS00${index + 1}`, level]));
    const out = merge({}, toServerConfig(getter({ severity })));
    assert.equal(out.error, undefined, String(out.error));
  });

  it('refuses a wrong value the extension passed through, naming the setting', () => {
    const out = merge({}, toServerConfig(getter({ severity: { FS001: 'fatal' } })));
    assert.match(String(out.error), /severity for FS001 must be one of error, warning, info, hint, off/);
  });

  it('agrees with the server on the default file names of each kind', () => {
    const script = `
import json
from formscript.lint.config import Settings
from formscript.lint.kinds import kind_from_name
names = ["a/b/x.%s.%s" % (k, e) for k in ("form", "script", "rules", "calls") for e in ("yaml", "yml", "json")]
print(json.dumps({n: kind_from_name(n, Settings()) for n in names + ["a/x.yaml", "a/form.yaml"]}))
`;
    const run = spawnSync(python ?? 'python3', ['-c', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const kinds = JSON.parse(run.stdout) as Record<string, string | null>;
    for (const [name, kind] of Object.entries(kinds)) {
      const expected = /\.(form|script|rules|calls)\.(yaml|yml|json)$/.exec(name)?.[1] ?? null;
      assert.equal(kind, expected, name);
    }
  });
});

// Reads {"sent": ..., "project_toml": "..."} and prints what the server's layer makes of it.
const LAYER = `
import json, sys, tempfile, pathlib
from formscript.lsp.settings import SettingsStore, editor_table
data = json.load(sys.stdin)
with tempfile.TemporaryDirectory() as folder:
    pathlib.Path(folder, "pyproject.toml").write_text(data["project_toml"])
    store = SettingsStore()
    error = store.set_editor(data["sent"])
    merged = store.for_path(str(pathlib.Path(folder, "a.form.yaml")))
print(json.dumps({"table": editor_table(data["sent"]), "error": error,
                  "ignore": list(merged.ignore), "select": list(merged.select),
                  "severity": merged.severity}))
`;

function layer(sent: unknown, projectToml = ''): Record<string, unknown> {
  const run = spawnSync(python ?? 'python3', ['-c', LAYER], {
    input: JSON.stringify({ sent, project_toml: projectToml }),
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('settings against the language server layer (formscript.lsp.settings)', { skip: lspSkip }, () => {
  const full = toServerConfig(
    getter({
      select: ['FS0'],
      extendSelect: ['FS01'],
      ignore: ['FS015'],
      severity: { FS001: 'warning' },
      perFileIgnores: { 'legacy/*.yaml': ['FS02'] },
      'kinds.form': ['specs/*.yaml'],
    }),
  );

  it('keeps every key the extension sends, as initializationOptions or workspace/configuration', () => {
    const out = layer(full);
    assert.equal(out.error, null);
    assert.deepEqual(out.table, full);
  });

  it('reads the didChangeConfiguration payload ({"formscript": ...})', () => {
    assert.deepEqual(layer({ formscript: full }).table, full);
  });

  it("leaves the project's [tool.formscript] alone when nothing is set in the editor", () => {
    const toml = '[tool.formscript]\nselect = ["FS0"]\nignore = ["FS003"]\n';
    const out = layer(toServerConfig(getter({})), toml);
    assert.deepEqual([out.select, out.ignore], [['FS0'], ['FS003']]);
  });

  it('puts a set editor setting over the project value', () => {
    const toml = '[tool.formscript]\nignore = ["FS003"]\n';
    const out = layer(toServerConfig(getter({ ignore: ['FS004'], severity: { FS001: 'hint' } })), toml);
    assert.deepEqual(out.ignore, ['FS004']);
    assert.deepEqual(out.severity, { FS001: 'hint' });
  });
});
