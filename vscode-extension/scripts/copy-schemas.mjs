// Copies the JSON schemas the manifest points at (contributes.yamlValidation and
// contributes.jsonValidation) from ../schemas/ into ./schemas/, at package time.
//
// The schemas are generated elsewhere in the repository. A missing or unreadable
// schema fails the build loudly, so no .vsix ships with dangling schema links.
// FORMSCRIPT_SKIP_SCHEMAS=1 (or --skip) skips the copy, for unit tests only.
// FORMSCRIPT_SCHEMAS_SRC and FORMSCRIPT_SCHEMAS_DEST override the two folders.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.resolve(root, process.env.FORMSCRIPT_SCHEMAS_SRC ?? '../schemas');
const dest = path.resolve(root, process.env.FORMSCRIPT_SCHEMAS_DEST ?? 'schemas');

/** Every schema the manifest references; keep in step with package.json. */
export const REQUIRED_SCHEMAS = [
  'form-spec.schema.json',
  'script.schema.json',
  'ruleset.schema.json',
  'calls.schema.json',
];

function fail(lines) {
  console.error(['', 'copy-schemas: ERROR', ...lines.map((l) => `  ${l}`), ''].join('\n'));
  process.exit(1);
}

if (process.env.FORMSCRIPT_SKIP_SCHEMAS === '1' || process.argv.includes('--skip')) {
  console.warn('copy-schemas: skipped (FORMSCRIPT_SKIP_SCHEMAS=1); the result must not be packaged.');
  process.exit(0);
}

const problems = [];
const contents = new Map();
for (const name of REQUIRED_SCHEMAS) {
  const file = path.join(source, name);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    problems.push(`missing: ${file}`);
    continue;
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      problems.push(`not a JSON schema object: ${file}`);
      continue;
    }
  } catch (error) {
    problems.push(`not valid JSON: ${file} (${error.message})`);
    continue;
  }
  contents.set(name, text);
}
if (problems.length > 0) {
  fail([
    `the extension's JSON schemas are not all available in ${source}:`,
    ...problems,
    'Generate them first (they live in the repository\'s schemas/ folder).',
  ]);
}

fs.rmSync(dest, { recursive: true, force: true });
fs.mkdirSync(dest, { recursive: true });
for (const [name, text] of contents) {
  fs.writeFileSync(path.join(dest, name), text);
}
console.log(`copy-schemas: copied ${contents.size} schemas from ${source} to ${dest}`);
