#!/usr/bin/env bash
# apt-install.sh WHO PACKAGE...: installs Debian packages for one of the extras (WHO names it
# in messages). CI machines are fresh Debian hosts where this runs as root; elsewhere sudo is
# used if present, and without either it fails saying what is missing. Not an extras-* file,
# so .ci/run does not run it on its own.
set -euo pipefail

who="$1"
shift
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "$who: $* missing and this is not root (no sudo either)" >&2
    exit 1
  fi
fi
echo "== $who: apt-get install $*"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@"
