"""The dry run and the simulation for clients that show no code lenses (eglot 1.9, Helix,
Neovim 0.7 drops a command's text answer): code actions "formscript: Dry run" on a form and
"formscript: Simulate" on a script (and on the call that hands one to lionagi in a Python
file) run what the lenses run, and the server shows the result — the result file opened with
``window/showDocument`` when the client supports it, else a short ``window/showMessage``
naming the file and the whole text in ``window/logMessage``. The file is written in the
user's cache (here a temporary ``XDG_CACHE_HOME``), never in the workspace; the lenses'
commands still answer their text and show nothing."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Union

import pytest
import pytest_lsp
from lsp_support import Client, capabilities, config, doc_id, make_client, open_doc, rng, write
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError

FORM = 'title: T\nfields:\n  age: {type: int}\n  ok: {type: bool}\nvalues:\n  age: "7"\n  ok: no\n'
SCRIPT = (
    "responses:\n  - type: text\n    content: hi\n  - type: text\n    content: weather\n"
    "    when: {prompt_contains: weather}\n"
)
CALLS = "- what is the WEATHER\n- hello\n"
RULES = "rules:\n  - name: r\n    field: age\n    kind: range\n    params: {min: 1, max: 9}\n"
PYTHON = """from lionagi.testing import TestBranch


async def test_chat():
    branch = TestBranch.from_text("hello")
    assert branch
"""

#: The server's cache folder: outside every workspace folder the tests open.
CACHE = Path(tempfile.mkdtemp(prefix="formscript-results-cache-"))
atexit.register(shutil.rmtree, CACHE, True)
ENV = {**os.environ, "XDG_CACHE_HOME": str(CACHE)}
RESULTS = CACHE / "formscript" / "results"

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]


def _client(refuse: bool = False, fail: bool = False) -> Client:
    """The test client (with *refuse*, one that answers ``window/showDocument`` with
    ``success: false``, as a client does that cannot open the file; with *fail*, one that
    answers it with an error), reading a code action
    that carries a command as a code action: lsprotocol takes any object with a ``command``
    key for a bare ``Command`` (and turns the nested command into its string), where the
    protocol tells them apart by whether ``command`` is a string — as VS Code and eglot do."""
    client = make_client()
    if refuse:

        def refuse_to_show(params: types.ShowDocumentParams) -> types.ShowDocumentResult:
            client.shown_documents.append(params)
            return types.ShowDocumentResult(success=False)

        client.protocol.fm.features[types.WINDOW_SHOW_DOCUMENT] = refuse_to_show  # as registered: bound
    if fail:

        def fail_to_show(params: types.ShowDocumentParams) -> types.ShowDocumentResult:
            client.shown_documents.append(params)
            raise JsonRpcInternalError("no window to show it in")

        client.protocol.fm.features[types.WINDOW_SHOW_DOCUMENT] = fail_to_show
        # the error answered is the point, not a fault of the test client
        client.report_server_error = lambda error, source: None  # type: ignore[method-assign]
    converter = client.protocol._converter

    def structure(value: Any, _: Any) -> types.Command | types.CodeAction:
        if isinstance(value.get("command"), str):
            return converter.structure(value, types.Command)
        return converter.structure(value, types.CodeAction)

    converter.register_structure_hook(Union[types.Command, types.CodeAction], structure)  # noqa: UP007
    return client


def _config(refuse: bool = False, fail: bool = False) -> Any:
    found = config(env=ENV)
    found.client_factory = lambda: _client(refuse, fail)
    return found


def _caps(show_document: bool) -> types.ClientCapabilities:
    caps = capabilities()
    caps.window = types.WindowClientCapabilities(
        work_done_progress=True,
        show_document=types.ShowDocumentClientCapabilities(support=True) if show_document else None,
    )
    return caps


async def _start(client: Client, root: Path, show_document: bool) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=_caps(show_document),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        )
    )


@pytest_lsp.fixture(scope="module", config=_config())
async def shows(lsp_client: Client, tmp_path_factory: pytest.TempPathFactory):
    """A client that opens documents the server asks it to (VS Code, Emacs 29's eglot)."""
    root = tmp_path_factory.mktemp("shows")
    await _start(lsp_client, root, show_document=True)
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=_config())
async def tells(lsp_client: Client, tmp_path_factory: pytest.TempPathFactory):
    """A client without ``window.showDocument`` (eglot 1.9, Neovim 0.7)."""
    root = tmp_path_factory.mktemp("tells")
    await _start(lsp_client, root, show_document=False)
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=_config(refuse=True))
async def refuses(lsp_client: Client, tmp_path_factory: pytest.TempPathFactory):
    """A client that advertises ``window.showDocument`` but cannot open the file."""
    root = tmp_path_factory.mktemp("refuses")
    await _start(lsp_client, root, show_document=True)
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=_config(fail=True))
async def fails(lsp_client: Client, tmp_path_factory: pytest.TempPathFactory):
    """A client that advertises ``window.showDocument`` and answers it with an error."""
    root = tmp_path_factory.mktemp("fails")
    await _start(lsp_client, root, show_document=True)
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _opened(client: Client, name: str, text: str, language: str = "yaml") -> str:
    uri = write(client.root, name, text)  # type: ignore[attr-defined]
    if language == "yaml":
        open_doc(client, uri, text)
    else:
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
            )
        )
    return uri


async def _actions(client: Client, uri: str, at: types.Range, only: list[str] | None = None) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc_id(uri), range=at, context=types.CodeActionContext(diagnostics=[], only=only)
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def _runs(found: list[types.CodeAction]) -> list[tuple[str, Any, Any, Any]]:
    return [
        (a.title, a.kind, a.command.command, tuple(a.command.arguments or ()))
        for a in found
        if a.command is not None and str(a.kind).startswith("source.formscript")
    ]


async def _execute(client: Client, command: types.Command) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command.command, arguments=list(command.arguments or []))
    )


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------------------ offered


WHOLE = rng(0, 0, 0, 0)


async def test_a_form_offers_the_dry_run_and_a_script_the_simulation_anywhere(tells: Client) -> None:
    form = _opened(tells, "offer.form.yaml", FORM)
    script = _opened(tells, "offer.script.yaml", SCRIPT)
    for at in (WHOLE, rng(5, 2, 5, 4), rng(0, 0, 6, 6)):
        assert _runs(await _actions(tells, form, at)) == [
            ("formscript: Dry run", "source.formscript.dryRun", "formscript.showDryRun", (form,))
        ]
        assert _runs(await _actions(tells, script, at)) == [
            ("formscript: Simulate", "source.formscript.simulate", "formscript.showSimulation", (script,))
        ]
    # a run action edits nothing: the client only executes its command
    (action,) = [a for a in await _actions(tells, form, WHOLE) if a.command is not None]
    assert action.edit is None


async def test_rules_calls_and_other_yaml_offer_no_run(tells: Client) -> None:
    for name, text in (
        ("offer.rules.yaml", RULES),
        ("offer.calls.yaml", CALLS),
        ("compose.yaml", "services:\n  web:\n    image: nginx\n"),
    ):
        uri = _opened(tells, name, text)
        assert _runs(await _actions(tells, uri, WHOLE)) == [], name


async def test_only_filters_the_run_actions_as_it_filters_the_others(tells: Client) -> None:
    form = _opened(tells, "only.form.yaml", FORM)
    assert _runs(await _actions(tells, form, WHOLE, only=["quickfix"])) == []
    assert _runs(await _actions(tells, form, WHOLE, only=["source.fixAll"])) == []
    for only in (["source"], ["source.formscript"], ["source.formscript.dryRun"]):
        assert [t for t, *_ in _runs(await _actions(tells, form, WHOLE, only=only))] == ["formscript: Dry run"]
    assert _runs(await _actions(tells, form, WHOLE, only=["source.formscript.simulate"])) == []


async def test_in_a_python_file_the_run_is_offered_on_the_call(tells: Client) -> None:
    uri = _opened(tells, "test_offer.py", PYTHON, language="python")
    on_call = _runs(await _actions(tells, uri, rng(4, 20, 4, 20)))
    assert on_call == [
        (
            "formscript: Simulate (TestBranch.from_text, line 5)",
            "source.formscript.simulate",
            "formscript.showSimulation",
            (uri, 5),
        )
    ]
    assert _runs(await _actions(tells, uri, rng(0, 0, 0, 0))) == []
    assert _runs(await _actions(tells, uri, rng(5, 4, 5, 4))) == []


# ------------------------------------------------------------------------------- shown


async def test_a_client_that_can_open_documents_is_shown_the_result_file(shows: Client) -> None:
    root: Path = shows.root  # type: ignore[attr-defined]
    form = _opened(shows, "shown.form.yaml", FORM)
    lens_text = await _execute(shows, types.Command(title="", command="formscript.dryRun", arguments=[form]))
    before = _files(root)
    (run,) = [a for a in await _actions(shows, form, WHOLE) if a.command is not None]
    assert run.command is not None
    answer = await _execute(shows, run.command)
    assert answer == lens_text and str(lens_text).startswith(f"{root / 'shown.form.yaml'}: accepted")
    (shown,) = shows.shown_documents
    assert shown.take_focus is True
    path = Path(shown.uri.removeprefix("file://"))
    assert path.parent == RESULTS and path.read_text(encoding="utf-8") == lens_text
    assert shows.messages == []
    assert _files(root) == before, "nothing is written into the workspace"


async def test_the_lenses_commands_still_answer_text_and_show_nothing(shows: Client) -> None:
    script = _opened(shows, "quiet.script.yaml", SCRIPT)
    _opened(shows, "quiet.calls.yaml", CALLS)
    shown = len(shows.shown_documents)
    text = await _execute(shows, types.Command(title="", command="formscript.simulate", arguments=[script]))
    assert isinstance(text, str) and "accepted" in text.splitlines()[0]
    assert len(shows.shown_documents) == shown and shows.messages == []


async def test_a_client_that_cannot_is_told_in_a_message_and_the_log(tells: Client) -> None:
    root: Path = tells.root  # type: ignore[attr-defined]
    script = _opened(tells, "told.script.yaml", SCRIPT)
    _opened(tells, "told.calls.yaml", CALLS)
    lens_text = await _execute(tells, types.Command(title="", command="formscript.simulate", arguments=[script]))
    assert isinstance(lens_text, str) and "call 1: entry #0" in lens_text  # against the sibling calls
    before = _files(root)
    messages, logs = len(tells.messages), len(tells.log_messages)
    (run,) = [a for a in await _actions(tells, script, WHOLE) if a.command is not None]
    assert run.command is not None
    assert await _execute(tells, run.command) == lens_text
    assert tells.shown_documents == []
    (message,) = tells.messages[messages:]
    first = lens_text.splitlines()[0]
    written = next(RESULTS.glob("told.script.yaml-*.simulation.txt"))
    assert message.type == types.MessageType.Info
    assert message.message == f"formscript simulation: {first}; the whole result is in {written} and the server log"
    assert [m.message for m in tells.log_messages[logs:]] == [lens_text]
    assert written.read_text(encoding="utf-8") == lens_text
    assert _files(root) == before, "nothing is written into the workspace"


async def test_a_python_run_is_shown_for_the_document_on_its_line(tells: Client) -> None:
    uri = _opened(tells, "test_told.py", PYTHON, language="python")
    path = tells.root / "test_told.py"  # type: ignore[attr-defined]
    messages = len(tells.messages)
    (run,) = [a for a in await _actions(tells, uri, rng(4, 20, 4, 20)) if a.command is not None]
    assert run.command is not None
    text = await _execute(tells, run.command)
    assert text == f"{path}:5: accepted, mode auto\n#0 text (line 5): positional\n"
    (message,) = tells.messages[messages:]
    assert message.message.startswith(f"formscript simulation: {path}:5: accepted, mode auto; the whole result is in ")
    assert next(RESULTS.glob("test_told.py-5-*.simulation.txt")).read_text(encoding="utf-8") == text


async def test_a_client_that_fails_to_open_the_file_is_told_instead(refuses: Client) -> None:
    form = _opened(refuses, "refused.form.yaml", FORM)
    (run,) = [a for a in await _actions(refuses, form, WHOLE) if a.command is not None]
    assert run.command is not None
    text = await _execute(refuses, run.command)
    assert isinstance(text, str) and text.startswith(str(refuses.root / "refused.form.yaml"))  # type: ignore[attr-defined]
    (asked,) = refuses.shown_documents
    (message,) = refuses.messages
    written = Path(asked.uri.removeprefix("file://"))
    assert message.message.endswith(f"the whole result is in {written} and the server log")
    assert [m.message for m in refuses.log_messages if m.type == types.MessageType.Log] == [text]


async def test_a_client_that_answers_show_document_with_an_error_is_told_instead(fails: Client) -> None:
    form = _opened(fails, "failed.form.yaml", FORM)
    (run,) = [a for a in await _actions(fails, form, WHOLE) if a.command is not None]
    assert run.command is not None
    text = await _execute(fails, run.command)
    assert isinstance(text, str) and text.startswith(str(fails.root / "failed.form.yaml"))  # type: ignore[attr-defined]
    (asked,) = fails.shown_documents
    (message,) = fails.messages
    written = Path(asked.uri.removeprefix("file://"))
    assert message.message.endswith(f"the whole result is in {written} and the server log")
    assert [m.message for m in fails.log_messages if m.type == types.MessageType.Log] == [text]
