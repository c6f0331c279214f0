"""The language server with two features broken on purpose, for the failure tests."""

from __future__ import annotations

from typing import Any

from formscript.lsp import hover, navigation
from formscript.lsp.serve import run


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("boom")


hover.hover = _boom
navigation.folding = _boom

if __name__ == "__main__":
    run(None)
