#!/usr/bin/env bash
# Installs Debian's Emacs, eglot and yaml-mode for the editor test (tests/emacs), when missing.
set -euo pipefail

have_lisp() {
  # Both packages install under /usr/share/emacs/site-lisp/elpa/ once emacs is present.
  emacs --batch --eval "(progn (package-initialize) (require 'eglot) (require 'yaml-mode))" >/dev/null 2>&1
}

if command -v emacs >/dev/null 2>&1 && have_lisp; then
  echo "emacs, eglot and yaml-mode already installed: $(emacs --version | head -n 1)"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" extras-emacs emacs-nox elpa-eglot elpa-yaml-mode
echo "installed: $(emacs --version | head -n 1)"
