#!/usr/bin/env bash
# Installs Debian's Emacs, eglot and yaml-mode for the editor test (tests/emacs), when missing.
# CI machines are fresh Debian hosts where this runs as root; elsewhere sudo is used if present.
set -euo pipefail

have_lisp() {
  # Both packages install under /usr/share/emacs/site-lisp/elpa/ once emacs is present.
  emacs --batch --eval "(progn (package-initialize) (require 'eglot) (require 'yaml-mode))" >/dev/null 2>&1
}

if command -v emacs >/dev/null 2>&1 && have_lisp; then
  echo "emacs, eglot and yaml-mode already installed: $(emacs --version | head -n 1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "extras-emacs: emacs/eglot/yaml-mode are missing and this is not root (no sudo either)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends emacs-nox elpa-eglot elpa-yaml-mode
echo "installed: $(emacs --version | head -n 1)"
