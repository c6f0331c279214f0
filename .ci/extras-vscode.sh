#!/usr/bin/env bash
# The VS Code extension: install (from the lock file), type-check, unit-test and package it,
# then check that the .vsix was written. Needs Node >= 20 with npm and the npm registry.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
  echo "extras-vscode: npm is not installed (Node >= 20 with npm is required)" >&2
  exit 1
fi
# The server-contract tests use the project's Python when .ci/run has set it up.
if [ -z "${FORMSCRIPT_PYTHON:-}" ] && [ -x .venv/bin/python ]; then
  export FORMSCRIPT_PYTHON="$PWD/.venv/bin/python"
fi

cd vscode-extension
echo "== vscode-extension: npm ci (node $(node --version), npm $(npm --version))"
npm ci --no-audit --no-fund
echo "== vscode-extension: typecheck"
npm run typecheck
echo "== vscode-extension: tests"
npm test
echo "== vscode-extension: package (linux-x64, formscript bundled)"
rm -f ./*.vsix
npm run package

shopt -s nullglob
vsix=(./*.vsix)
if [ "${#vsix[@]}" -ne 1 ] || [ ! -s "${vsix[0]}" ]; then
  echo "extras-vscode: expected exactly one non-empty .vsix in vscode-extension/, found ${#vsix[@]}" >&2
  exit 1
fi
# The package must carry the bundle and the four schemas the manifest points at.
listing="$(unzip -l "${vsix[0]}" 2>/dev/null || python3 -m zipfile -l "${vsix[0]}")"
for entry in extension/dist/extension.js extension/schemas/form-spec.schema.json \
  extension/schemas/script.schema.json extension/schemas/ruleset.schema.json \
  extension/schemas/calls.schema.json extension/bundled/manifest.json \
  extension/bundled/libs/formscript/__init__.py \
  extension/bundled/libs/pydantic_core/_pydantic_core.cpython-311-x86_64-linux-gnu.so \
  extension/bundled/libs/pydantic_core/_pydantic_core.cpython-314-x86_64-linux-gnu.so \
  extension/bundled/libs/yaml/_yaml.cpython-313-x86_64-linux-gnu.so; do
  if ! grep -q "$entry" <<<"$listing"; then
    echo "extras-vscode: ${vsix[0]} lacks $entry" >&2
    exit 1
  fi
done
echo "extras-vscode: built ${vsix[0]} ($(wc -c <"${vsix[0]}") bytes)"
