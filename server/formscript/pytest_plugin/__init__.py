"""formscript's pytest plugin: located failures when lionagi rejects a script a test loads,
warnings for what it accepts with problems, and coverage of the scripted entries served.

Registered as the ``pytest11`` entry point ``formscript``; it does nothing until the session
asks for it with ``--formscript`` or ``formscript = true`` in the pytest configuration. Only
then is lionagi imported (if it is importable at all) and its ScriptModel observed
(:mod:`formscript.pytest_plugin.observe`). See README "pytest plugin".
"""

from __future__ import annotations

import pytest

from formscript.pytest_plugin.warning import FormscriptWarning

__all__ = ["FormscriptWarning"]

_OPTIONS = (
    "formscript_fail_under",
    "formscript_report",
    "formscript_sarif",
    "formscript_record_calls",
    "formscript_strict",
    "formscript_drift_dir",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options and its ini switch."""
    group = parser.getgroup("formscript", "formscript: lionagi scripts loaded by the tests")
    group.addoption(
        "--formscript",
        action="store_true",
        default=None,
        help="check every script a test hands to lionagi and report which scripted entries were served",
    )
    group.addoption(
        "--formscript-fail-under",
        type=float,
        default=None,
        metavar="PCT",
        help="fail the session when fewer than PCT percent of the scripted entries were served",
    )
    group.addoption("--formscript-report", default=None, metavar="PATH", help="write the coverage as JSON to PATH")
    group.addoption("--formscript-sarif", default=None, metavar="PATH", help="write never-served entries as SARIF")
    group.addoption(
        "--formscript-record-calls",
        default=None,
        metavar="DIR",
        help="write the calls the tests made to each script as <name>.calls.yaml transcripts under DIR",
    )
    group.addoption(
        "--formscript-strict",
        action="store_true",
        default=None,
        help="fail the session when lionagi serves a call otherwise than formscript predicts (drift)",
    )
    group.addoption(
        "--formscript-drift-dir",
        default=None,
        metavar="DIR",
        help="write a repro bundle (script, calls, both answers) under DIR for each drift",
    )
    group.addoption(
        "--formscript-traceback",
        action="store_true",
        default=False,
        help="show lionagi's own traceback after formscript's report of a rejected script",
    )
    parser.addini("formscript", type="bool", default=False, help="activate formscript's plugin (as --formscript)")


def pytest_configure(config: pytest.Config) -> None:
    """Activate the plugin when asked; otherwise the session is left exactly as it was."""
    active = config.getoption("formscript") or config.getini("formscript")
    if not active:
        given = [f"--{name.replace('_', '-')}" for name in _OPTIONS if config.getoption(name) is not None]
        if given:
            raise pytest.UsageError(f"{', '.join(given)} needs --formscript (or formscript = true in the ini file)")
        return
    threshold = config.getoption("formscript_fail_under")
    if threshold is not None and not 0 <= threshold <= 100:
        raise pytest.UsageError("--formscript-fail-under takes a percentage from 0 to 100")
    for name, folder in (("report", False), ("sarif", False), ("record_calls", True), ("drift_dir", True)):
        given = config.getoption(f"formscript_{name}")
        why = _unwritable(str(given), folder=folder) if given else None
        if why is not None:
            raise pytest.UsageError(f"--formscript-{name.replace('_', '-')} {given}: cannot write ({why})")
    from formscript.pytest_plugin.session import FormscriptSession

    config.pluginmanager.register(FormscriptSession(config), "formscript-session")


def _unwritable(path: str, *, folder: bool) -> str | None:
    """Why the file (or, *folder*, the folder) *path* cannot be written at the end of the
    session (folders on the way are created then), or None: checked before the tests run."""
    import os

    target = os.path.normpath(path)  # as given: the message names what the user wrote
    if folder and os.path.exists(target) and not os.path.isdir(target):
        return "it is a file, not a folder"
    if not folder and os.path.isdir(target):
        return "it is a folder"
    if not folder and os.path.exists(target) and not os.access(target, os.W_OK):
        return "it is read-only"
    on_the_way = target if folder else os.path.dirname(target) or os.curdir
    while not os.path.exists(on_the_way):
        parent = os.path.dirname(on_the_way) or os.curdir
        if parent == on_the_way:
            break
        on_the_way = parent
    if not os.path.isdir(on_the_way):
        return f"{on_the_way} is a file, not a folder"
    if not os.access(on_the_way, os.W_OK | os.X_OK):
        return f"the folder {on_the_way} is not writable"
    return None
