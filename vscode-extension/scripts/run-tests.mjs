// Compiles test/*.test.ts (and the modules they import) with esbuild into
// out-test/, then runs them with Node's built-in test runner.
// The `vscode` module is deliberately not available: the tested modules
// (discovery, settings, results, host) must not import it.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const outdir = 'out-test';
const tests = fs
  .readdirSync('test')
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => path.join('test', name));
if (tests.length === 0) {
  console.error('run-tests: no test/*.test.ts files');
  process.exit(1);
}

fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: tests,
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});

const compiled = tests.map((t) => path.join(outdir, path.basename(t).replace(/\.ts$/, '.cjs')));
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', ...compiled], { stdio: 'inherit' });
process.exit(result.status ?? 1);
