// Packages the extension for one platform, with formscript bundled inside:
//
//   npm run package                        (linux-x64)
//   npm run package -- --target darwin-arm64
//
// bundle-python.mjs fills bundled/ for the target, then vsce writes
// formscript-<target>-<version>.vsix (its prepublish step builds dist/ and schemas/).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const extension = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const index = process.argv.indexOf('--target');
const target = index >= 0 ? process.argv[index + 1] : 'linux-x64';

function run(command, args) {
  const done = spawnSync(command, args, { cwd: extension, stdio: 'inherit', shell: process.platform === 'win32' });
  if (done.error !== undefined || done.status !== 0) {
    process.exit(done.status ?? 1);
  }
}

run(process.execPath, [path.join('scripts', 'bundle-python.mjs'), '--target', target]);
run(path.join('node_modules', '.bin', 'vsce'), [
  'package',
  '--target',
  target,
  '--no-dependencies',
  '--allow-missing-repository',
  // the README's pictures ship in images/ and are shown from the package itself
  '--no-rewrite-relative-links',
]);
