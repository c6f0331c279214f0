#!/usr/bin/env bash
# Installs Debian's valgrind for the benchmark's instruction counts (bench/run.py
# --instructions: the same under any machine load, so .ci/run can hold them tightly).
# CI machines are fresh Debian hosts where this runs as root; elsewhere sudo is used if present.
set -euo pipefail

if command -v valgrind >/dev/null 2>&1; then
  echo "valgrind already installed: $(valgrind --version)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "extras-valgrind: valgrind is missing and this is not root (no sudo either)" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends valgrind
echo "installed: $(valgrind --version)"
