import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  PROBE_SCRIPT,
  candidates,
  chooseServer,
  importStrategy,
  noPythonMessage,
  parseProbe,
  readBundle,
  usable,
  type Bundle,
  type PythonProbe,
} from '../src/choice';
import type { Discovery, DiscoveryHost, ServerCommand } from '../src/discovery';

function host(files: string[]): DiscoveryHost {
  const executables = new Set(files);
  return {
    platform: 'linux',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
    homeDir: '/home/ada',
    workspaceFolder: '/work/project',
    isExecutableFile: (p) => executables.has(p),
  };
}

function found(discovery: Discovery): ServerCommand {
  if (!discovery.ok) {
    throw new Error(`expected a server, got ${JSON.stringify(discovery)}`);
  }
  return discovery.server;
}

const BUNDLE: Bundle = { libs: '/ext/bundled/libs', version: '0.1.0', pythons: ['3.11', '3.12', '3.13', '3.14'] };
const VENV = '/work/project/.venv/bin/python';
const venv = (formscript: string | null, version: [number, number] = [3, 12]): PythonProbe => ({
  path: VENV,
  origin: 'python-extension',
  version,
  formscript,
});

describe('chooseServer', () => {
  it('useBundled (the default): the selected Python runs the bundled formscript, with the bundle on PYTHONPATH', () => {
    for (const strategy of [undefined, 'useBundled', 'nonsense']) {
      const server = found(chooseServer({ pathSetting: '', strategy, pythons: [venv('0.0.9')], bundle: BUNDLE }, host([])));
      assert.deepEqual(
        { command: server.command, args: server.args, env: server.env, source: server.source, version: server.version },
        { command: VENV, args: ['-m', 'formscript', 'serve'], env: { PYTHONPATH: '/ext/bundled/libs' }, source: 'bundled', version: '0.1.0' },
      );
    }
  });

  it('fromEnvironment: the formscript installed for the interpreter, its own version, no PYTHONPATH', () => {
    const server = found(
      chooseServer({ pathSetting: '', strategy: 'fromEnvironment', pythons: [venv('0.0.9')], bundle: BUNDLE }, host([])),
    );
    assert.deepEqual(
      { command: server.command, env: server.env, source: server.source, version: server.version, notice: server.notice },
      { command: VENV, env: undefined, source: 'environment', version: '0.0.9', notice: undefined },
    );
  });

  it('fromEnvironment without formscript in the environment: formscript on PATH, else the bundled one, saying so', () => {
    const onPath = found(
      chooseServer({ pathSetting: '', strategy: 'fromEnvironment', pythons: [venv(null)], bundle: BUNDLE }, host(['/usr/bin/formscript'])),
    );
    assert.equal(onPath.source, 'path');
    const bundled = found(chooseServer({ pathSetting: '', strategy: 'fromEnvironment', pythons: [venv(null)], bundle: BUNDLE }, host([])));
    assert.equal(bundled.source, 'bundled');
    assert.match(bundled.notice ?? '', /fromEnvironment, but .*\.venv\/bin\/python has no formscript installed: using the bundled formscript 0\.1\.0\./);
  });

  it('useBundled without a bundle (a development build) or for a Python it was not built for: the environment, then PATH', () => {
    const noBundle = found(chooseServer({ pathSetting: '', strategy: 'useBundled', pythons: [venv('0.0.9')] }, host([])));
    assert.equal(noBundle.source, 'environment');
    const newer = found(
      chooseServer({ pathSetting: '', strategy: 'useBundled', pythons: [venv(null, [3, 15])], bundle: BUNDLE }, host(['/usr/bin/formscript'])),
    );
    assert.equal(newer.source, 'path');
    const nothing = chooseServer({ pathSetting: '', strategy: 'useBundled', pythons: [venv(null, [3, 15])], bundle: BUNDLE }, host([]));
    assert.equal(nothing.ok, false);
    if (!nothing.ok) {
      assert.equal(nothing.reason, 'not-found');
      assert.match(nothing.message, /built for Python 3\.11, 3\.12, 3\.13, 3\.14/);
    }
  });

  it('skips an interpreter older than 3.11 (or one that does not run) for the next candidate', () => {
    const old: PythonProbe = { path: '/usr/bin/python3.9', origin: 'python-extension', version: [3, 9], formscript: null };
    const broken: PythonProbe = { path: '/nowhere/python', origin: 'python.defaultInterpreterPath', error: 'ENOENT' };
    const path3: PythonProbe = { path: '/usr/bin/python3', origin: 'PATH', version: [3, 11], formscript: null };
    const server = found(chooseServer({ pathSetting: '', strategy: undefined, pythons: [old, broken, path3], bundle: BUNDLE }, host([])));
    assert.equal(server.command, '/usr/bin/python3');
  });

  it('no Python 3.11+: formscript on PATH still serves; without it, one message naming what was found', () => {
    const old: PythonProbe = { path: '/usr/bin/python3', origin: 'PATH', version: [3, 9], formscript: null };
    assert.equal(found(chooseServer({ pathSetting: '', strategy: undefined, pythons: [old], bundle: BUNDLE }, host(['/usr/bin/formscript']))).source, 'path');
    const none = chooseServer({ pathSetting: '', strategy: undefined, pythons: [old], bundle: BUNDLE }, host([]));
    assert.equal(none.ok, false);
    if (!none.ok) {
      assert.equal(none.reason, 'no-python');
      assert.equal(
        none.message,
        'formscript needs Python 3.11 or newer to run its language server, and none was found (found: /usr/bin/python3 (Python 3.9)). ' +
          'Select a Python 3.11+ interpreter (or set formscript.interpreter), or set formscript.path.',
      );
    }
    assert.match(noPythonMessage([]), /no interpreter is selected and none is on PATH/);
  });

  it('formscript.path decides alone, whatever the strategy and the interpreters', () => {
    const server = found(
      chooseServer({ pathSetting: '/opt/fs/bin/formscript', strategy: 'fromEnvironment', pythons: [venv('0.0.9')], bundle: BUNDLE }, host(['/opt/fs/bin/formscript'])),
    );
    assert.deepEqual({ source: server.source, command: server.command }, { source: 'setting', command: '/opt/fs/bin/formscript' });
    const wrong = chooseServer({ pathSetting: 5, strategy: undefined, pythons: [venv('0.0.9')], bundle: BUNDLE }, host([]));
    assert.equal(wrong.ok, false);
  });
});

describe('the pieces', () => {
  it('candidates: the selected interpreter, then python3 and python on PATH, each once', () => {
    const machine = host(['/usr/bin/python3', '/usr/bin/python']);
    assert.deepEqual(candidates({ path: '/usr/bin/python3', origin: 'python.defaultInterpreterPath' }, machine), [
      { path: '/usr/bin/python3', origin: 'python.defaultInterpreterPath' },
      { path: '/usr/bin/python', origin: 'PATH' },
    ]);
    assert.deepEqual(candidates(undefined, host([])), []);
  });

  it('usable from 3.11 on; importStrategy reads anything unknown as useBundled', () => {
    assert.equal(usable({ path: 'p', origin: 'PATH', version: [3, 10] }), false);
    assert.equal(usable({ path: 'p', origin: 'PATH', version: [3, 11] }), true);
    assert.equal(usable({ path: 'p', origin: 'PATH', version: [4, 0] }), true);
    assert.equal(usable({ path: 'p', origin: 'PATH' }), false);
    assert.equal(importStrategy('fromEnvironment'), 'fromEnvironment');
    assert.equal(importStrategy(3), 'useBundled');
  });

  it('parseProbe reads the last line of the probe; readBundle the manifest', () => {
    assert.deepEqual(parseProbe('noise\n[3, 12, "0.1.0"]\n'), { version: [3, 12], formscript: '0.1.0' });
    assert.deepEqual(parseProbe('[3, 11, null]'), { version: [3, 11], formscript: null });
    assert.equal(parseProbe('Traceback (most recent call last):'), undefined);
    assert.equal(parseProbe('[3]'), undefined);
    assert.deepEqual(readBundle('{"formscript": "0.1.0", "python": ["3.11", 5]}', '/l'), { libs: '/l', version: '0.1.0', pythons: ['3.11'] });
    assert.equal(readBundle('not json', '/l'), undefined);
    assert.equal(readBundle(undefined, '/l'), undefined);
    assert.match(PROBE_SCRIPT, /import formscript/);
  });
});
