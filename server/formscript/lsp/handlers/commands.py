"""Commands the client can execute (``workspace/executeCommand``): the dry run of a form, the
simulation of a script, a rule's documentation. The lenses invoke the first two, which answer
the text; the code actions of clients without lenses invoke ``formscript.showDryRun`` and
``formscript.showSimulation``, which run the same and have the server show the result
(``lsp.results``)."""

from __future__ import annotations

import asyncio
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from formscript.lsp import actions, lenses, results
from formscript.lsp.analysis import Analysis, path_to_uri
from formscript.lsp.handlers.guard import Handler, guarded
from formscript.lsp.server import FormscriptServer


def _uri_argument(args: tuple[Any, ...]) -> tuple[str, int | None]:
    """The document's URI and, for a Python file, the line of the document (1-based): given as
    a second argument or written ``FILE.py:LINE``."""
    from formscript.runs import split_location

    if not args:
        raise JsonRpcInvalidParams("expected the document's URI as the argument")
    first = args[0]
    if isinstance(first, dict):
        first = first.get("uri") or first.get("textDocument", {}).get("uri")
    if not isinstance(first, str):
        raise JsonRpcInvalidParams("expected the document's URI as the argument")
    line = args[1] if len(args) > 1 and isinstance(args[1], int) and not isinstance(args[1], bool) else None
    if line is None:
        first, line = split_location(first)
    if "://" not in first:
        first = path_to_uri(first)
    return first, line


async def _run(ls: FormscriptServer, what: str, args: tuple[Any, ...]) -> tuple[Analysis, int | None, str]:
    """The document named by *args*, its line, and the text of its dry run or simulation."""
    uri, line = _uri_argument(args)
    found = await ls.documents.current(uri)
    if what == "dry run":
        text = await ls.documents.off_loop_run(lenses.dry_run, found, ls.documents.read, line)
    else:
        text = await ls.documents.off_loop_run(lenses.simulate, found, ls.documents.read, ls.roots(), line)
    return found, line, text


@guarded(lambda: "")
async def cmd_dry_run(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.dryRun [uri]``: the dry run of a form, as text."""
    return (await _run(ls, "dry run", args))[2]


@guarded(lambda: "")
async def cmd_simulate(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.simulate [uri]``: the simulation of a script, as text."""
    return (await _run(ls, "simulation", args))[2]


#: How long the server waits for the client to open a result file before saying it instead.
SHOW_TIMEOUT = 10.0


async def show(ls: FormscriptServer, what: str, args: tuple[Any, ...]) -> str:
    """Run *what* and show its result to the user: the file opened by the client when it says
    it can (``window.showDocument.support``), else a message with the first line and the log;
    answers the text."""
    found, line, text = await _run(ls, what, args)
    label = "dry-run" if what == "dry run" else "simulation"
    written = await asyncio.get_running_loop().run_in_executor(
        None, results.write, found.path, label, line, text, ls.roots()
    )
    if written is not None and ls.capability("window", "show_document", "support"):
        params = types.ShowDocumentParams(uri=written.as_uri(), take_focus=True)
        try:
            opened = await asyncio.wait_for(ls.window_show_document_async(params), SHOW_TIMEOUT)
        except (TimeoutError, JsonRpcException):
            opened = None
        if opened is not None and opened.success:
            return text
    ls.window_show_message(
        types.ShowMessageParams(type=types.MessageType.Info, message=results.summary(what, text, written))
    )
    ls.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=text))
    return text


@guarded(lambda: "")
async def cmd_show_dry_run(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.showDryRun [uri]``: ``formscript.dryRun``, shown by the server; answers the text."""
    return await show(ls, "dry run", args)


@guarded(lambda: "")
async def cmd_show_simulation(ls: FormscriptServer, *args: Any) -> str:
    """``formscript.showSimulation [uri]``: ``formscript.simulate``, shown by the server; answers the text."""
    return await show(ls, "simulation", args)


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
    (actions.SHOW_DRY_RUN, cmd_show_dry_run),
    (actions.SHOW_SIMULATION, cmd_show_simulation),
]
