#!/usr/bin/env bash
# Installs Debian's valgrind for the benchmark's instruction counts (bench/run.py
# --instructions: the same under any machine load, so .ci/run can hold them tightly).
set -euo pipefail

if command -v valgrind >/dev/null 2>&1; then
  echo "valgrind already installed: $(valgrind --version)"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" extras-valgrind valgrind
echo "installed: $(valgrind --version)"
