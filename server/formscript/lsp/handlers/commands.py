"""Commands the client can execute (``workspace/executeCommand``): the dry run of a form, the
simulation of a script, a rule's documentation. The lenses invoke the first two."""

from __future__ import annotations

from typing import Any

from pygls.exceptions import JsonRpcInvalidParams

from formscript.lsp import lenses
from formscript.lsp.analysis import path_to_uri
from formscript.lsp.handlers.guard import Handler, guarded
from formscript.lsp.server import FormscriptServer


def _uri_argument(args: tuple[Any, ...]) -> tuple[str, int | None]:
    """The document's URI and, for a Python file, the line of the document (1-based): given as
    a second argument or written ``FILE.py:LINE``."""
    if not args:
        raise JsonRpcInvalidParams("expected the document's URI as the argument")
    first = args[0]
    if isinstance(first, dict):
        first = first.get("uri") or first.get("textDocument", {}).get("uri")
    if not isinstance(first, str):
        raise JsonRpcInvalidParams("expected the document's URI as the argument")
    line = args[1] if len(args) > 1 and isinstance(args[1], int) and not isinstance(args[1], bool) else None
    head, colon, tail = first.rpartition(":")
    if line is None and colon and head.endswith(".py") and tail.isdigit() and int(tail) > 0:
        first, line = head, int(tail)
    if "://" not in first:
        first = path_to_uri(first)
    return first, line


@guarded(lambda: "")
async def cmd_dry_run(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.dryRun [uri]``: the dry run of a form, as text."""
    uri, line = _uri_argument(args)
    found = await ls.documents.current(uri)
    return await ls.documents.off_loop_run(lenses.dry_run, found, ls.documents.read, line)


@guarded(lambda: "")
async def cmd_simulate(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.simulate [uri]``: the simulation of a script, as text."""
    uri, line = _uri_argument(args)
    found = await ls.documents.current(uri)
    return await ls.documents.off_loop_run(lenses.simulate, found, ls.documents.read, ls.roots(), line)


@guarded(lambda: "")
def cmd_rule_doc(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.ruleDoc [code]``: a rule's documentation as Markdown."""
    if not args or not isinstance(args[0], str):
        raise JsonRpcInvalidParams("expected a rule code as the argument")
    return lenses.rule_doc(args[0])


FEATURES: list[tuple[str, Handler, Any]] = []
COMMANDS: list[tuple[str, Handler]] = [
    (lenses.DRY_RUN, cmd_dry_run),
    (lenses.SIMULATE, cmd_simulate),
    (lenses.RULE_DOC, cmd_rule_doc),
]
