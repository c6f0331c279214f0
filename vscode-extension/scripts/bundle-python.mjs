// Builds bundled/ for one platform: formscript (the wheel of this repository, never a copy in
// git) and its dependencies in bundled/libs, which the extension puts on PYTHONPATH, and
// bundled/manifest.json (formscript's version, the platform, the Python versions).
//
//   node scripts/bundle-python.mjs [--target linux-x64]
//
// pip downloads the dependencies' wheels for the target platform (`pip install --target
// --platform --only-binary=:all:`), so any platform is built from any machine. The compiled
// ones (pydantic-core, PyYAML's libyaml binding) differ per CPython version: the set for the
// first version is installed whole, then each other version's compiled files are added beside
// them (their names carry the version: _pydantic_core.cpython-312-x86_64-linux-gnu.so), so one
// folder serves every version listed. The Python that runs pip: $FORMSCRIPT_PYTHON, else python3.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** VS Code's platform targets and pip's platform tags for each (newest glibc/macOS first). */
export const TARGETS = {
  'linux-x64': ['manylinux_2_17_x86_64', 'manylinux2014_x86_64'],
  'linux-arm64': ['manylinux_2_17_aarch64', 'manylinux2014_aarch64'],
  'darwin-x64': ['macosx_10_12_x86_64', 'macosx_10_9_x86_64'],
  'darwin-arm64': ['macosx_11_0_arm64'],
  'win32-x64': ['win_amd64'],
};
/** The CPython versions the bundle serves (formscript needs 3.11 or newer). */
export const PYTHONS = ['3.11', '3.12', '3.13', '3.14'];

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.resolve(here, '..');
const repository = path.resolve(extension, '..');

function argument(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 && index + 1 < process.argv.length ? process.argv[index + 1] : fallback;
}

function run(command, args) {
  const done = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (done.error !== undefined || done.status !== 0) {
    console.error(`bundle-python: ${command} ${args.join(' ')} failed (${done.error ?? `exit ${done.status}`})`);
    process.exit(1);
  }
}

/** Files below `root`, as paths relative to it. */
function files(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else {
        found.push(path.relative(root, full));
      }
    }
  };
  walk(root);
  return found.sort();
}

const compiled = (file) => /\.(so|pyd)$/.test(file);

/** The distributions in `libs` that hold compiled files, as "name==version". */
function compiledDistributions(libs) {
  const found = [];
  for (const entry of fs.readdirSync(libs)) {
    const match = /^(.+)-([^-]+)\.dist-info$/.exec(entry);
    const record = path.join(libs, entry, 'RECORD');
    if (match === null || !fs.existsSync(record)) {
      continue;
    }
    const listed = fs.readFileSync(record, 'utf8').split('\n').map((line) => line.split(',')[0]);
    if (listed.some(compiled)) {
      found.push(`${match[1]}==${match[2]}`);
    }
  }
  return found.sort();
}

function main() {
  const target = argument('--target', 'linux-x64');
  const platforms = TARGETS[target];
  if (platforms === undefined) {
    console.error(`bundle-python: unknown --target ${target}; one of ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
  const python = process.env.FORMSCRIPT_PYTHON ?? 'python3';
  const bundled = path.join(extension, 'bundled');
  const libs = path.join(bundled, 'libs');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'formscript-bundle-'));
  try {
    fs.rmSync(bundled, { recursive: true, force: true });
    fs.mkdirSync(libs, { recursive: true });
    const wheels = path.join(scratch, 'wheel');
    run(python, ['-m', 'pip', 'wheel', '--quiet', '--no-deps', '--wheel-dir', wheels, repository]);
    const [wheel] = fs.readdirSync(wheels).filter((name) => name.endsWith('.whl'));
    const version = /^formscript-([^-]+)-/.exec(wheel ?? '')?.[1];
    if (wheel === undefined || version === undefined) {
      console.error('bundle-python: pip built no formscript wheel');
      process.exit(1);
    }
    const platformArgs = platforms.flatMap((tag) => ['--platform', tag]);
    const install = (into, pythonVersion, what, deps) =>
      run(python, [
        '-m', 'pip', 'install', '--quiet', '--no-compile', '--target', into, ...platformArgs,
        '--python-version', pythonVersion, '--implementation', 'cp', '--only-binary=:all:',
        ...(deps ? [] : ['--no-deps']), ...what,
      ]);
    const [first, ...others] = PYTHONS;
    install(libs, first, [path.join(wheels, wheel)], true);
    const binaries = compiledDistributions(libs);
    for (const pythonVersion of others) {
      const into = path.join(scratch, `python-${pythonVersion}`);
      install(into, pythonVersion, binaries, false);
      for (const file of files(into).filter(compiled)) {
        const destination = path.join(libs, file);
        fs.mkdirSync(path.dirname(destination), { recursive: true });
        fs.copyFileSync(path.join(into, file), destination);
      }
    }
    // Console scripts name the interpreter that built them: of no use inside the extension.
    fs.rmSync(path.join(libs, 'bin'), { recursive: true, force: true });
    // Every compiled module is there for every version.
    const modules = new Map();
    for (const file of files(libs).filter(compiled)) {
      const [stem] = path.basename(file).split('.');
      const key = path.join(path.dirname(file), stem);
      modules.set(key, [...(modules.get(key) ?? []), path.basename(file)]);
    }
    for (const [module, built] of modules) {
      for (const pythonVersion of PYTHONS) {
        const tag = pythonVersion.replace('.', '');
        if (!built.some((name) => name.includes(`cpython-${tag}`) || name.includes(`cp${tag}`))) {
          console.error(`bundle-python: ${module} has no build for Python ${pythonVersion} (${built.join(', ')})`);
          process.exit(1);
        }
      }
    }
    const manifest = { formscript: version, platform: target, python: PYTHONS, compiled: binaries };
    fs.writeFileSync(path.join(bundled, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(
      `bundle-python: formscript ${version} for ${target}, Python ${PYTHONS.join(', ')} ` +
        `(compiled: ${binaries.join(', ')}), ${files(libs).length} files in bundled/libs`,
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main();
