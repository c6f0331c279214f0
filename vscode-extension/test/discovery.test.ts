import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  INSTALL_COMMAND,
  discoverServer,
  expandVariables,
  findOnPath,
  formatCommandLine,
  isPythonInterpreter,
  missingModuleMessage,
  needsShell,
  normalizePathSetting,
  type Discovery,
  type DiscoveryHost,
  type DiscoveryInput,
  type ServerCommand,
} from '../src/discovery';

/** A POSIX machine whose executable files are exactly `files`. */
function posixHost(files: string[], extra: Partial<DiscoveryHost> = {}): DiscoveryHost {
  const executables = new Set(files);
  return {
    platform: 'linux',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/ada', FORMSCRIPT_HOME: '/opt/fs' },
    homeDir: '/home/ada',
    workspaceFolder: '/work/project',
    isExecutableFile: (p) => executables.has(p),
    ...extra,
  };
}

function found(discovery: Discovery): ServerCommand {
  assert.equal(discovery.ok, true, `expected a server, got ${JSON.stringify(discovery)}`);
  if (!discovery.ok) {
    throw new Error('unreachable');
  }
  return discovery.server;
}

function failed(discovery: Discovery): { reason: string; message: string } {
  assert.equal(discovery.ok, false, `expected a failure, got ${JSON.stringify(discovery)}`);
  if (discovery.ok) {
    throw new Error('unreachable');
  }
  return discovery;
}

const VENV_PYTHON = '/work/project/.venv/bin/python';
const withInterpreter = (pathSetting: unknown): DiscoveryInput => ({
  pathSetting,
  interpreter: { path: VENV_PYTHON, origin: 'python-extension' },
});

describe('discoverServer: precedence', () => {
  const everything = posixHost(['/opt/formscript/bin/formscript', '/usr/bin/formscript', VENV_PYTHON]);

  it('uses the formscript.path string first, with "serve", even when PATH and an interpreter exist', () => {
    const server = found(discoverServer(withInterpreter('/opt/formscript/bin/formscript'), everything));
    assert.deepEqual(
      { command: server.command, args: server.args, source: server.source },
      { command: '/opt/formscript/bin/formscript', args: ['serve'], source: 'setting' },
    );
    assert.match(server.description, /formscript\.path/);
  });

  it('uses formscript on PATH when the setting is unset, before the interpreter', () => {
    for (const unset of [undefined, null, '', '   ', []]) {
      const server = found(discoverServer(withInterpreter(unset), everything));
      assert.deepEqual(
        { command: server.command, args: server.args, source: server.source },
        { command: '/usr/bin/formscript', args: ['serve'], source: 'path' },
        `setting ${JSON.stringify(unset)}`,
      );
    }
  });

  it('falls back to "<python> -m formscript serve" when nothing is on PATH', () => {
    const host = posixHost([VENV_PYTHON]);
    const server = found(discoverServer(withInterpreter(''), host));
    assert.deepEqual(
      { command: server.command, args: server.args, source: server.source },
      { command: VENV_PYTHON, args: ['-m', 'formscript', 'serve'], source: 'interpreter' },
    );
    assert.match(server.description, /python-extension/);
  });

  it('names python.defaultInterpreterPath as the origin when that is where the interpreter came from', () => {
    const server = found(
      discoverServer(
        { pathSetting: '', interpreter: { path: 'python3', origin: 'python.defaultInterpreterPath' } },
        posixHost([]),
      ),
    );
    assert.equal(server.command, 'python3', 'a bare interpreter name is left to the OS to find');
    assert.deepEqual(server.args, ['-m', 'formscript', 'serve']);
    assert.match(server.description, /python\.defaultInterpreterPath/);
  });

  it('fails with the install command when there is no setting, nothing on PATH and no interpreter', () => {
    for (const interpreter of [undefined, { path: '   ', origin: 'python-extension' as const }]) {
      const failure = failed(discoverServer({ pathSetting: undefined, interpreter }, posixHost([])));
      assert.equal(failure.reason, 'not-found');
      assert.ok(failure.message.includes(INSTALL_COMMAND), failure.message);
      assert.ok(failure.message.includes('formscript.path'), failure.message);
    }
  });
});

describe('discoverServer: the formscript.path setting', () => {
  it('runs a configured Python interpreter as "-m formscript serve"', () => {
    const host = posixHost(['/usr/bin/python3.12']);
    const server = found(discoverServer({ pathSetting: '/usr/bin/python3.12' }, host));
    assert.deepEqual(server.args, ['-m', 'formscript', 'serve']);
  });

  it('takes an array as the whole command and appends "serve" when it is missing', () => {
    const host = posixHost(['/usr/bin/uvx', '/usr/bin/formscript']);
    const server = found(discoverServer({ pathSetting: ['uvx', 'formscript'] }, host));
    assert.deepEqual([server.command, ...server.args], ['/usr/bin/uvx', 'formscript', 'serve']);
  });

  it('keeps an array that already says "serve" as it is', () => {
    const host = posixHost([VENV_PYTHON]);
    const server = found(
      discoverServer({ pathSetting: [VENV_PYTHON, '-m', 'formscript', 'serve', '--log-level', 'debug'] }, host),
    );
    assert.deepEqual(
      [server.command, ...server.args],
      [VENV_PYTHON, '-m', 'formscript', 'serve', '--log-level', 'debug'],
    );
  });

  it('resolves relative paths, ${workspaceFolder}, ${userHome}, ${env:NAME} and ~', () => {
    const host = posixHost([
      '/work/project/.venv/bin/formscript',
      '/home/ada/.local/bin/formscript',
      '/opt/fs/bin/formscript',
    ]);
    const cases: [string, string][] = [
      ['.venv/bin/formscript', '/work/project/.venv/bin/formscript'],
      ['./.venv/bin/formscript', '/work/project/.venv/bin/formscript'],
      ['${workspaceFolder}/.venv/bin/formscript', '/work/project/.venv/bin/formscript'],
      ['~/.local/bin/formscript', '/home/ada/.local/bin/formscript'],
      ['${userHome}/.local/bin/formscript', '/home/ada/.local/bin/formscript'],
      ['${env:FORMSCRIPT_HOME}/bin/formscript', '/opt/fs/bin/formscript'],
    ];
    for (const [setting, expected] of cases) {
      assert.equal(found(discoverServer({ pathSetting: setting }, host)).command, expected, setting);
    }
  });

  it('looks a bare program name up on PATH', () => {
    const host = posixHost(['/usr/local/bin/formscript-dev']);
    assert.equal(found(discoverServer({ pathSetting: 'formscript-dev' }, host)).command, '/usr/local/bin/formscript-dev');
  });

  it('reports a configured file that does not exist, instead of silently using PATH or the interpreter', () => {
    const host = posixHost(['/usr/bin/formscript', VENV_PYTHON]);
    const failure = failed(discoverServer(withInterpreter('/nope/formscript'), host));
    assert.equal(failure.reason, 'invalid-setting');
    assert.match(failure.message, /"\/nope\/formscript" is not an executable file/);
    assert.ok(failure.message.includes(INSTALL_COMMAND));
  });

  it('reports a configured bare name that is not on PATH', () => {
    const failure = failed(discoverServer({ pathSetting: ['uvx', 'formscript'] }, posixHost(['/usr/bin/formscript'])));
    assert.equal(failure.reason, 'invalid-setting');
    assert.match(failure.message, /"uvx" was not found on PATH/);
  });

  it('rejects values of the wrong type', () => {
    for (const bad of [42, { command: 'x' }, ['formscript', 3], ['  ', 'serve'], true]) {
      const failure = failed(discoverServer({ pathSetting: bad }, posixHost(['/usr/bin/formscript'])));
      assert.equal(failure.reason, 'invalid-setting', JSON.stringify(bad));
      assert.match(failure.message, /formscript\.path/);
    }
  });

  it('normalizes the setting: empty means unset, strings are trimmed', () => {
    assert.deepEqual(normalizePathSetting('  /x/formscript  '), {
      kind: 'command',
      parts: ['/x/formscript'],
      fromArray: false,
    });
    assert.deepEqual(normalizePathSetting([]), { kind: 'unset' });
    assert.deepEqual(normalizePathSetting(''), { kind: 'unset' });
  });
});

describe('findOnPath', () => {
  it('returns the first executable match in PATH order, skipping non-executables', () => {
    const host = posixHost(['/usr/bin/formscript', '/bin/formscript']);
    assert.equal(findOnPath('formscript', host), '/usr/bin/formscript');
    const later = posixHost(['/bin/formscript']);
    assert.equal(findOnPath('formscript', later), '/bin/formscript');
    assert.equal(findOnPath('formscript', posixHost([])), undefined);
  });

  it('copes with an empty or missing PATH', () => {
    assert.equal(findOnPath('formscript', posixHost(['/usr/bin/formscript'], { env: {} })), undefined);
    assert.equal(findOnPath('formscript', posixHost(['formscript'], { env: { PATH: '::' } })), undefined);
  });

  it('on Windows: reads "Path", honours PATHEXT and strips quotes', () => {
    const host: DiscoveryHost = {
      platform: 'win32',
      env: { Path: 'C:\\Windows;"C:\\Users\\ada\\venv\\Scripts"', PATHEXT: '.COM;.EXE;.BAT;.CMD' },
      homeDir: 'C:\\Users\\ada',
      workspaceFolder: 'C:\\work',
      isExecutableFile: (p) => p === 'C:\\Users\\ada\\venv\\Scripts\\formscript.exe',
    };
    assert.equal(findOnPath('formscript', host), 'C:\\Users\\ada\\venv\\Scripts\\formscript.exe');
    const server = found(discoverServer({ pathSetting: '' }, host));
    assert.deepEqual([server.command, ...server.args], ['C:\\Users\\ada\\venv\\Scripts\\formscript.exe', 'serve']);
  });

  it('on Windows: a configured path without extension finds the .exe', () => {
    const host: DiscoveryHost = {
      platform: 'win32',
      env: {},
      homeDir: 'C:\\Users\\ada',
      workspaceFolder: 'C:\\work',
      isExecutableFile: (p) => p === 'C:\\work\\.venv\\Scripts\\formscript.exe',
    };
    const server = found(discoverServer({ pathSetting: '.venv\\Scripts\\formscript' }, host));
    assert.equal(server.command, 'C:\\work\\.venv\\Scripts\\formscript.exe');
  });
});

describe('helpers', () => {
  it('recognizes Python interpreters by name', () => {
    for (const yes of ['/usr/bin/python', '/usr/bin/python3', '/x/python3.12', '/x/pythonw', 'python']) {
      assert.equal(isPythonInterpreter(yes, 'linux'), true, yes);
    }
    assert.equal(isPythonInterpreter('C:\\Python312\\python.exe', 'win32'), true);
    for (const no of ['/usr/bin/formscript', '/x/python-config', '/x/ipython', '/x/pythonic']) {
      assert.equal(isPythonInterpreter(no, 'linux'), false, no);
    }
  });

  it('needs a shell only for Windows batch files', () => {
    assert.equal(needsShell('C:\\x\\formscript.cmd', 'win32'), true);
    assert.equal(needsShell('C:\\x\\formscript.exe', 'win32'), false);
    assert.equal(needsShell('/x/formscript.cmd', 'linux'), false);
  });

  it('leaves unknown variables and a missing workspace alone', () => {
    const host = posixHost([], { workspaceFolder: undefined });
    assert.equal(expandVariables('${workspaceFolder}/x', host), '${workspaceFolder}/x');
    assert.equal(expandVariables('${env:NOT_SET}/x', host), '/x');
    assert.equal(expandVariables('~user/x', host), '~user/x');
  });

  it('formats a command line with quoting where needed', () => {
    assert.equal(
      formatCommandLine({ command: '/a b/python', args: ['-m', 'formscript', 'serve'] }),
      '"/a b/python" -m formscript serve',
    );
  });

  it('says which interpreter lacks formscript and how to install it there', () => {
    const message = missingModuleMessage('/venv/bin/python');
    assert.ok(message.includes('/venv/bin/python'));
    assert.ok(message.includes(INSTALL_COMMAND));
    assert.ok(message.includes('/venv/bin/python -m pip install formscript'));
  });
});
