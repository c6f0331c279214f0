import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { discoverServer } from '../src/discovery';
import { isExecutableFile, nodeHost } from '../src/host';

const posixOnly = process.platform === 'win32' ? 'POSIX permissions' : false;

describe('the real file system', { skip: posixOnly }, () => {
  let root = '';
  let binA = '';
  let binB = '';

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'formscript-host-'));
    binA = path.join(root, 'a');
    binB = path.join(root, 'b');
    fs.mkdirSync(binA);
    fs.mkdirSync(binB);
    // In a: a formscript that is not executable, and a directory named like a program.
    fs.writeFileSync(path.join(binA, 'formscript'), '#!/bin/sh\n', { mode: 0o644 });
    fs.mkdirSync(path.join(binA, 'formscript-dir'));
    // In b: a working formscript that prints its arguments.
    fs.writeFileSync(path.join(binB, 'formscript'), '#!/bin/sh\necho "formscript $*"\n', { mode: 0o755 });
  });

  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('tells executable files from plain files, directories and missing paths', () => {
    assert.equal(isExecutableFile(path.join(binB, 'formscript')), true);
    assert.equal(isExecutableFile(path.join(binA, 'formscript')), false);
    assert.equal(isExecutableFile(path.join(binA, 'formscript-dir')), false);
    assert.equal(isExecutableFile(path.join(root, 'missing')), false);
  });

  it('finds the executable formscript on PATH and its command line starts the server', () => {
    const host = { ...nodeHost(root), env: { PATH: [binA, binB].join(path.delimiter) } };
    const discovery = discoverServer({ pathSetting: '' }, host);
    assert.ok(discovery.ok, JSON.stringify(discovery));
    assert.equal(discovery.server.command, path.join(binB, 'formscript'));
    const printed = execFileSync(discovery.server.command, [...discovery.server.args], { encoding: 'utf8' });
    assert.equal(printed.trim(), 'formscript serve');
  });

  it('resolves a workspace-relative formscript.path against the workspace folder', () => {
    const host = { ...nodeHost(root), env: { PATH: '' } };
    const discovery = discoverServer({ pathSetting: 'b/formscript' }, host);
    assert.ok(discovery.ok, JSON.stringify(discovery));
    assert.equal(discovery.server.command, path.join(binB, 'formscript'));
    assert.equal(discoverServer({ pathSetting: 'a/formscript' }, host).ok, false);
  });
});
