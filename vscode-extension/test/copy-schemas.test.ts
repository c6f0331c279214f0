import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';

const ROOT = path.join(__dirname, '..');
const SCRIPT = path.join(ROOT, 'scripts', 'copy-schemas.mjs');
const SCHEMAS = ['form-spec.schema.json', 'script.schema.json', 'ruleset.schema.json', 'calls.schema.json'];

describe('scripts/copy-schemas.mjs', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'formscript-schemas-'));
  const src = path.join(tmp, 'src');
  const dest = path.join(tmp, 'dest');

  function run(extraEnv: Record<string, string> = {}, args: string[] = []) {
    const env: NodeJS.ProcessEnv = { ...process.env, FORMSCRIPT_SCHEMAS_SRC: src, FORMSCRIPT_SCHEMAS_DEST: dest };
    delete env.FORMSCRIPT_SKIP_SCHEMAS;
    return spawnSync(process.execPath, [SCRIPT, ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8' });
  }

  beforeEach(() => {
    fs.rmSync(src, { recursive: true, force: true });
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(src, { recursive: true });
  });

  after(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('fails loudly, naming every missing schema, when the source has none', () => {
    const result = run();
    assert.equal(result.status, 1);
    assert.match(result.stderr, /copy-schemas: ERROR/);
    for (const name of SCHEMAS) {
      assert.ok(result.stderr.includes(`missing: ${path.join(src, name)}`), result.stderr);
    }
    assert.equal(fs.existsSync(dest), false, 'nothing is copied on failure');
  });

  it('fails when one schema is missing or not JSON', () => {
    for (const name of SCHEMAS.slice(1)) {
      fs.writeFileSync(path.join(src, name), '{"type": "object"}');
    }
    let result = run();
    assert.equal(result.status, 1);
    assert.match(result.stderr, /missing: .*form-spec\.schema\.json/);
    fs.writeFileSync(path.join(src, 'form-spec.schema.json'), '{not json');
    result = run();
    assert.equal(result.status, 1);
    assert.match(result.stderr, /not valid JSON: .*form-spec\.schema\.json/);
  });

  it('copies all four schemas and removes stale ones', () => {
    for (const name of SCHEMAS) {
      fs.writeFileSync(path.join(src, name), JSON.stringify({ title: name }));
    }
    fs.writeFileSync(path.join(src, 'unrelated.json'), '{}');
    fs.mkdirSync(dest);
    fs.writeFileSync(path.join(dest, 'old.schema.json'), '{}');
    const result = run();
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(fs.readdirSync(dest).sort(), [...SCHEMAS].sort());
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dest, 'calls.schema.json'), 'utf8')), {
      title: 'calls.schema.json',
    });
  });

  it('skips only when asked to (FORMSCRIPT_SKIP_SCHEMAS=1 or --skip)', () => {
    for (const result of [run({ FORMSCRIPT_SKIP_SCHEMAS: '1' }), run({}, ['--skip'])]) {
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /skipped/);
    }
    assert.equal(run({ FORMSCRIPT_SKIP_SCHEMAS: '0' }).status, 1);
  });
});
