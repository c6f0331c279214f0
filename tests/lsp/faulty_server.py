"""The language server with three features broken on purpose, for the failure tests."""

from __future__ import annotations

from typing import Any

from formscript.lsp import hover, navigation
from formscript.lsp.serve import run
from formscript.lsp.workspace import WorkspaceFiles


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("boom")


hover.hover = _boom
navigation.folding = _boom
WorkspaceFiles.is_configuration = staticmethod(_boom)  # type: ignore[method-assign]  # didSave fails

if __name__ == "__main__":
    run(None)
