// Compiles the tests with esbuild into out-test/, then runs them with Node's
// built-in test runner.
//
// - test/*.test.ts are unit tests of the pure modules (discovery, settings,
//   results, host). `vscode` is not resolvable in their build, so a pure module
//   that starts importing it fails here.
// - test/*.smoke.test.ts load the whole extension, with `vscode` resolved to
//   the stand-in test/fake/vscode.ts.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const outdir = 'out-test';
const all = fs
  .readdirSync('test')
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => path.join('test', name));
const smoke = all.filter((file) => file.endsWith('.smoke.test.ts'));
const unit = all.filter((file) => !smoke.includes(file));
if (unit.length === 0) {
  console.error('run-tests: no test/*.test.ts files');
  process.exit(1);
}

const common = {
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
};

fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({ ...common, entryPoints: unit });
if (smoke.length > 0) {
  await esbuild.build({
    ...common,
    entryPoints: smoke,
    alias: { vscode: path.resolve('test/fake/vscode.ts') },
  });
}

const compiled = all.map((t) => path.join(outdir, path.basename(t).replace(/\.ts$/, '.cjs')));
const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', ...compiled], { stdio: 'inherit' });
process.exit(result.status ?? 1);
