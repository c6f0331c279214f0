"""The active plugin: one per pytest session (and per xdist worker)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

from formscript.pytest_plugin.checks import clear_cache
from formscript.pytest_plugin.coverage import MODELLED_LIONAGI, Coverage, dumps, write_all
from formscript.pytest_plugin.observe import Observer

__all__ = ["FormscriptSession"]

_KEY = "formscript"


class FormscriptSession:
    """Observes lionagi while the tests run, gathers the workers' coverage and reports it."""

    def __init__(self, config: pytest.Config) -> None:
        from formscript.lint.config import ConfigError, discover

        self.config = config
        self.rootdir = Path(str(config.rootpath))
        try:
            settings = discover(self.rootdir)
        except ConfigError as exc:
            raise pytest.UsageError(f"formscript: {exc}") from exc
        clear_cache()
        self.coverage = Coverage()
        self.observer = Observer(self.rootdir, settings, self.coverage)
        self.installed = self.observer.install()
        drift_dir = config.getoption("formscript_drift_dir")
        self.observer.drift_dir = Path(drift_dir).resolve() if drift_dir else None
        self.coverage.lionagi_version = _lionagi_version() if self.installed else None
        self.is_worker = hasattr(config, "workerinput")
        self.written: list[str] = []
        self.failed_under: float | None = None

    # -- while the tests run

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        self.observer.current_test = item.nodeid
        try:
            return (yield)
        finally:
            self.observer.current_test = ""
            self.observer.forget_rejections()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        if call.excinfo is not None and report.failed:
            text = self.observer.rejection(call.excinfo.value)
            if text is not None:
                if self.config.getoption("formscript_traceback"):
                    report.sections.append(("formscript", text))
                else:
                    report.longrepr = text
            elif self.observer.pending():
                # lionagi refused something during the test that is not what failed it (a form
                # whose command returned 1, an exception caught and replaced): say what it was
                report.sections.append(("formscript", "\n".join(self.observer.pending())))
        return report

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(self, collector: pytest.Collector) -> Generator[None, Any, Any]:
        """A test module that loads a script lionagi rejects while it is imported."""
        self.observer.forget_rejections()
        report = yield
        pending = self.observer.pending()
        if report.failed and pending:
            report.longrepr = "\n".join(pending) + "\n" + str(report.longrepr)
        self.observer.forget_rejections()
        return report

    # -- the end of the session

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """An xdist worker finished: add its data."""
        data = getattr(node, "workeroutput", {}).get(_KEY)
        if data is not None:
            self.coverage.merge(data)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.is_worker:
            self.config.workeroutput[_KEY] = self.coverage.to_json()  # type: ignore[attr-defined]
            return
        outputs: tuple[tuple[str, Callable[[str], str]], ...] = (
            ("formscript_report", lambda path: _write(path, dumps(self.coverage.report()), "JSON report")),
            ("formscript_sarif", lambda path: _write(path, dumps(self.coverage.sarif()), "SARIF")),
            (
                "formscript_record_calls",
                lambda path: (
                    f"{len(write_all(self.coverage.transcripts(path), Path(path)))} calls transcript(s) under {path}"
                ),
            ),
        )
        for option, writer in outputs:
            path = self.config.getoption(option)
            if not path:
                continue
            try:  # checked when the session started; a folder may still vanish or fill up since
                self.written.append(writer(path))
            except OSError as exc:
                name = option.replace("_", "-")
                self.written.append(f"--{name} {path}: cannot write ({exc.strerror or exc})")
        threshold = self.config.getoption("formscript_fail_under")
        percent = self.coverage.percent()
        if threshold is not None and percent is not None and percent < threshold:
            self.failed_under = threshold
        strict = self.coverage.drift and self.config.getoption("formscript_strict")
        if (strict or self.failed_under is not None) and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        write = terminalreporter.write_line
        terminalreporter.section("formscript: scripted entries served")
        if not self.installed:
            write("lionagi is not importable here: no script was observed")
            return
        installed = self.coverage.lionagi_version
        if installed is not None and installed != MODELLED_LIONAGI:
            write(
                f"lionagi {installed} is installed; formscript models {MODELLED_LIONAGI}: "
                "each call served is checked against the prediction (drift below)",
                yellow=True,
            )
        if not self.coverage.sources:
            write("no test loaded a script")
        else:
            for line in self.coverage.table():
                write(line)
        for line in self.coverage.forms_table():
            write(line)
        drift = sorted(self.coverage.drift, key=lambda d: (d["test"], d["source"], d["call"]))
        seen = self.coverage
        checked = seen.predicted + seen.predicted_forms + seen.predicted_constructs + seen.predicted_specs
        if checked and not drift:
            write(
                f"drift check: {seen.predicted} call(s) served, {seen.predicted_responses} response(s) built, "
                f"{seen.predicted_forms} fill_form / validate_form call(s), {seen.predicted_constructs} "
                f"FieldSpec / WorkForm / Rule / RuleSet call(s) and {seen.predicted_specs} li agent --form "
                f"spec(s) ({seen.predicted_blocks} context block(s)) as formscript predicts"
            )
        if drift:
            strict = bool(self.config.getoption("formscript_strict"))
            write(
                f"{'FAIL: ' if strict else ''}drift: {len(drift)} call(s) lionagi served otherwise than "
                "formscript predicts",
                red=strict,
                yellow=not strict,
                bold=strict,
            )
            for found in drift:
                where = f"{found['path']}:{found['line']}" if found["line"] is not None else found["path"]
                write(
                    f"  {where}: call {found['call']} in {found['test'] or 'collection'}: "
                    f"lionagi {found['lionagi']}, formscript predicts {found['formscript']}"
                )
        for line in self.written:
            write(line)
        if self.failed_under is not None:
            percent = self.coverage.percent()
            write(
                f"FAIL: formscript coverage of {self.failed_under:g}% not reached: "
                f"{percent:.1f}% of the entries served",
                red=True,
                bold=True,
            )

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.observer.uninstall()


def _write(path: str, text: str, what: str) -> str:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text, encoding="utf-8")
    return f"{what}: {path}"


def _lionagi_version() -> str | None:
    from importlib import metadata

    try:
        return metadata.version("lionagi")
    except metadata.PackageNotFoundError:
        return None
