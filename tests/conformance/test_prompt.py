"""The prompt ``li agent --form`` sends (issue 12 item 1), against lionagi's own ``run_agent``.

lionagi's argument parser and ``run_agent`` run for real, stopped where the run would
start (``LionagiEngine.agent_prompt``): what it hands to the run is the final prompt, and
what it logs when it refuses is the refusal. ``formscript dry-run`` must show the same
prompt, read a ``--prompt-file`` the same way, and say how much prompt a form leaves room
for, exactly.
"""

from __future__ import annotations

import locale
from pathlib import Path
from typing import Any

import pytest

from formscript.core.gate import PROMPT_CAP
from formscript.runs import dry_run_text

from .engines import CliEngine, LionagiEngine, lionagi_missing_reason

FORMS = {
    "small": "title: T\nfields:\n  a: {type: str}\n  n: {type: int}\nvalues:\n  a: hi\n  n: '3'\n",
    "no values": "fields:\n  n: {type: int, required: false}\n",
    "title from the path": "fields:\n  a: {type: list}\nvalues:\n  a: [1, two, null]\n",
    "near the cap": (
        "title: Near\nfields:\n  a: {type: str}\n  b: {type: list}\nvalues:\n"
        "  a: &a " + "A" * 40_000 + "\n  b: [*a, *a, *a, *a, *a]\n"
    ),
}

UTF8 = locale.getpreferredencoding(False).lower().replace("-", "") == "utf8"
PROMPT_FILES: dict[str, bytes] = {
    "one line": b"Summarise the form.\n",
    "CRLF line ends": b"line one\r\nline two\r\n",
    "CR line ends": b"old\rmac\r",
    "no final newline": b"go",
    "blank lines around": b"\n\n  padded  \n\n",
    "tabs": b"\ttab\there\t",
    "a BOM": "\ufeffwith a BOM\n".encode(),
    "non-ASCII": "café ✓ 😀\n".encode(),
}


@pytest.fixture(scope="module")
def oracle() -> Any:
    reason = lionagi_missing_reason()
    if reason is not None:
        pytest.skip(reason)
    engine = LionagiEngine()
    yield engine
    engine.close()


def _form(tmp_path: Path, name: str) -> str:
    path = tmp_path / "spec.form.yaml"
    path.write_text(FORMS[name], encoding="utf-8")
    return str(path)


def test_the_cap_is_lionagis() -> None:
    from lionagi._spec_limits import MAX_SPEC_PROMPT_CHARS

    assert PROMPT_CAP == MAX_SPEC_PROMPT_CHARS


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("prompt", sorted(PROMPT_FILES))
def test_a_prompt_file_gives_the_prompt_li_agent_sends(
    tmp_path: Path, oracle: LionagiEngine, form: str, prompt: str
) -> None:
    """``dry-run --prompt-file`` shows exactly the prompt ``li agent --prompt-file`` sends."""
    if not UTF8 and not PROMPT_FILES[prompt].isascii():
        pytest.skip("li agent reads a prompt file in the locale's encoding, which is not UTF-8 here")
    path = _form(tmp_path, form)
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_bytes(PROMPT_FILES[prompt])
    sent, refusal = oracle.agent_prompt(path, "", prompt_file=str(prompt_file))
    assert refusal is None and sent is not None
    outcome = CliEngine().dry_run(path, prompt_file=str(prompt_file))
    assert (outcome.problem, outcome.verdict, outcome.exit_code) == (None, "accepted", 0)
    assert outcome.data["prompt"] == sent
    assert outcome.data["prompt_room"] == PROMPT_CAP - len(outcome.data["context_block"] or "")


@pytest.mark.parametrize("data", [b"", b"  \n\t\r\n"], ids=["empty", "blank"])
def test_an_empty_prompt_file_is_refused_before_the_form_is_read(
    tmp_path: Path, oracle: LionagiEngine, data: bytes
) -> None:
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_bytes(data)
    missing = str(tmp_path / "missing.form.yaml")  # li agent never gets as far as the form
    sent, refusal = oracle.agent_prompt(missing, "", prompt_file=str(prompt_file))
    assert sent is None and refusal is not None and "is empty" in refusal
    outcome = CliEngine().dry_run(_form(tmp_path, "small"), prompt_file=str(prompt_file))
    assert (outcome.exit_code, outcome.verdict, outcome.problem) == (2, None, None)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_prompt_room_is_the_longest_prompt_li_agent_takes(tmp_path: Path, oracle: LionagiEngine, form: str) -> None:
    path = _form(tmp_path, form)
    dry = dry_run_text(FORMS[form], path)
    room = dry["prompt_room"]
    assert dry["verdict"] == "accepted" and isinstance(room, int) and 0 <= room <= PROMPT_CAP
    fits, refusal = oracle.agent_prompt(path, "p" * room)
    assert refusal is None and fits == (dry["context_block"] or "") + "p" * room
    over, refusal = oracle.agent_prompt(path, "p" * (room + 1))
    assert over is None and refusal == f"agent prompt exceeds maximum length of {PROMPT_CAP} characters"
    for prompt in ("p" * room, "p" * (room + 1)):
        ours = dry_run_text(FORMS[form], path, prompt=prompt)
        assert ours["verdict"] == ("accepted" if len(prompt) == room else "rejected")
        assert ours["prompt"] == (fits if len(prompt) == room else None)


def test_a_prefix_over_the_cap_leaves_no_room(tmp_path: Path, oracle: LionagiEngine) -> None:
    path = tmp_path / "spec.form.yaml"
    text = FORMS["near the cap"].replace("[*a, *a, *a, *a, *a]", "[*a, *a, *a, *a, *a, *a]")
    path.write_text(text, encoding="utf-8")
    dry = dry_run_text(text, str(path))
    assert (dry["verdict"], dry["prompt_room"], dry["context_block"]) == ("rejected", None, None)
    assert [e["code"] for e in dry["errors"]] == ["FS024"]
    assert dry["errors"][0]["line"] == 7  # the longest line of the block: b's value
    sent, refusal = oracle.agent_prompt(str(path), "")
    assert sent is None and refusal == f"agent prompt exceeds maximum length of {PROMPT_CAP} characters"
