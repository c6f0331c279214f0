"""When the server lints a change: at once after a quiet time, and only once they settle for
changes in quick succession (``FORMSCRIPT_LSP_DEBOUNCE_MS``). With a debounce of ten minutes,
whatever is published during the test was linted without waiting for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import Client, change_doc, config, open_doc, published, start, write

FORM = "title: Review\nfields:\n  age: {type: int}\nvalues:\n  age: 3\n"
ENV = {**os.environ, "FORMSCRIPT_LSP_DEBOUNCE_MS": "600000"}


@pytest_lsp.fixture(scope="module", config=config(env=ENV))
async def client(lsp_client: Client, workspace: Path):
    await start(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_a_change_after_a_quiet_time_is_linted_at_once_and_a_quick_one_waits(
    client: Client, workspace: Path
) -> None:
    first = write(workspace, "first.form.yaml", FORM)
    open_doc(client, first, FORM)
    await published(client, first, version=1)  # not ten minutes later: the open was linted at once
    change_doc(client, first, FORM.replace("age: 3", "age: 4"), 2)  # right after: held
    change_doc(client, first, FORM.replace("age: 3", "age: 5"), 3)
    second = write(workspace, "second.form.yaml", FORM)
    open_doc(client, second, FORM)  # another document's first change: at once
    await published(client, second, version=1)
    assert [p.version for p in client.published[first]] == [1], "a change in quick succession was not held"
