"""Configuration: ``[tool.formscript]`` in pyproject.toml or a formscript.toml, found upward.

One settings model serves the CLI and the language server (initializationOptions,
workspace/configuration): the fields of :class:`Settings` marked as settings are the keys, in
the TOML table as ``extend-select`` and from an editor also as ``extend_select`` or
``extendSelect`` (:func:`setting_names`). Nothing else lists them: the parser, the merge, the
language server's layer and the check of the VS Code manifest all read them from here.
"""

from __future__ import annotations

import dataclasses
import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

from formscript.core import verdict
from formscript.core.verdict import Severity

Kind: TypeAlias = 'Literal["form", "script", "rules", "calls"]'
Level: TypeAlias = 'Literal["error", "warning", "info", "hint", "off"]'
#: The values of ``Kind`` and ``Level`` (tests/test_settings_model.py holds them equal).
KINDS: tuple[Kind, ...] = ("form", "script", "rules", "calls")
SEVERITIES: tuple[Level, ...] = (*verdict.SEVERITIES, "off")


#: What users also write for a level (the VS Code extension maps the same ones).
LEVEL_ALIASES: dict[str, Level] = {"warn": "warning", "information": "info", "none": "off"}


def level_of(value: object) -> Level | None:
    """The level *value* names (any case, an alias included), or None."""
    if not isinstance(value, str):
        return None
    name = value.strip().lower()
    name = LEVEL_ALIASES.get(name, name)
    return next((level for level in SEVERITIES if level == name), None)


class ConfigError(ValueError):
    """A configuration that cannot be used (exit code 2)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Which codes run, at which severity, and how files map to kinds.

    The fields named in ``SETTINGS`` are what a configuration (or an editor) can set; a
    tuple is replaced by a layer above it, a table is merged key by key.
    """

    #: Codes or prefixes to report; empty: every rule.
    select: tuple[str, ...] = ()
    #: Codes or prefixes reported in addition to ``select``.
    extend_select: tuple[str, ...] = ()
    #: Codes or prefixes not reported.
    ignore: tuple[str, ...] = ()
    #: A severity per code (``off`` disables it).
    severity: dict[str, Level] = dataclasses.field(default_factory=dict)
    #: Codes or prefixes not reported in files matching a glob.
    per_file_ignores: dict[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    #: Extra globs per file kind.
    kinds: dict[Kind, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    #: Calls transcripts for scripts without a sibling ``<name>.calls.yaml``: glob -> path
    #: (both relative to the configuration's folder). Used by simulation in the editor.
    calls: dict[str, str] = dataclasses.field(default_factory=dict)
    #: Whether a Python test's stated outcome (``pytest.raises``, an asserted status) is set
    #: against the prediction (PY003), its expected rejections not reported as problems.
    expected_outcomes: bool = True
    #: Paths left out of folder walks (the CLI's, the editor's workspace listing), as
    #: .gitignore lines relative to the configuration's folder; a file named on the command
    #: line or opened in the editor is still checked (``--force-exclude`` leaves it out too).
    exclude: tuple[str, ...] = ()
    #: Whether folder walks also leave out what the repository's .gitignore files ignore.
    respect_gitignore: bool = True
    #: Directory the configuration came from; per-file globs are relative to it.
    root: str = ""
    source: str = ""

    def enabled(self, code: str, path: str = "") -> bool:
        """Whether *code* is reported for *path*."""
        selected = _matches(code, self.select) if self.select else True
        if not selected and not _matches(code, self.extend_select):
            return False
        if _matches(code, self.ignore):
            return False
        if self.per_file_ignores:
            rel = self.relative(path)  # resolves links: only when a glob needs it
            for pattern, codes in self.per_file_ignores.items():
                if fnmatch.fnmatch(rel, pattern) and _matches(code, codes):
                    return False
        return self.severity.get(code, "") != "off"

    def severity_of(self, code: str, default: Severity) -> Severity:
        """The configured severity of *code*, else *default*."""
        chosen = self.severity.get(code)
        if chosen in verdict.SEVERITIES:
            return chosen
        return default

    def relative(self, path: str) -> str:
        """*path* relative to the configuration's folder, in POSIX form (as given when outside)."""
        if not path:
            return ""
        if self.root:
            try:
                return Path(path).resolve().relative_to(Path(self.root).resolve()).as_posix()
            except (ValueError, OSError, RuntimeError):  # RuntimeError: a link loop (Python 3.11)
                pass
        return Path(path).as_posix()

    def merged(self, overrides: dict[str, Any], source: str = "settings") -> Settings:
        """These settings with *overrides* (same keys as the TOML table, from *source*) applied."""
        parsed = _parse_table(overrides, source)
        out: dict[str, Any] = {}
        for name in SETTINGS:
            if name not in overrides and toml_name(name) not in overrides:
                continue
            value = getattr(parsed, name)
            out[name] = {**getattr(self, name), **value} if isinstance(value, dict) else value
        return dataclasses.replace(self, **out)


#: The settings' attribute names, in declaration order: the fields of :class:`Settings`
#: before ``root`` and ``source``.
SETTINGS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Settings))[:-2]


def toml_name(name: str) -> str:
    """A setting as the TOML table spells it (``per-file-ignores``)."""
    return name.replace("_", "-")


def editor_name(name: str) -> str:
    """A setting as editors spell it (``perFileIgnores``, VS Code's ``formscript.perFileIgnores``)."""
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def setting_names() -> dict[str, str]:
    """Every spelling of every setting an editor may send, to its attribute name (the TOML
    table takes the attribute and the TOML spellings only)."""
    return {alias: name for name in SETTINGS for alias in (name, toml_name(name), editor_name(name))}


def _matches(code: str, patterns: tuple[str, ...]) -> bool:
    return any(code == p or (p and code.startswith(p)) or p == "ALL" for p in patterns)


def known_codes() -> tuple[str, ...]:
    """Every rule's code."""
    from formscript import rules

    return tuple(sorted(rule.code for rule in rules.all_rules()))


def check_code(code: str, where: str) -> str:
    """*code* (any case) as a rule code or a prefix of some, or ``ALL``; ``ConfigError``
    otherwise: an empty string or a typo would select, ignore or silence nothing, silently."""
    upper = code.upper()
    codes = known_codes()
    if upper == "ALL" or any(known.startswith(upper) for known in codes if upper):
        return upper
    import difflib

    stripped = upper.strip()
    close = [stripped] if stripped and stripped != upper and (stripped == "ALL" or stripped in codes) else []
    close = close or difflib.get_close_matches(stripped, codes, n=1)
    hint = f"; did you mean {close[0]}?" if close else f" (codes look like {codes[0]}; ALL selects every rule)"
    raise ConfigError(f"{where}: {code!r} is not a rule code, a prefix of one, or ALL{hint}")


def _codes(value: Any, where: str) -> tuple[str, ...]:
    listed = _strings([value] if isinstance(value, str) else value, where, "rule codes")
    return tuple(check_code(v, where) for v in listed)


def _strings(value: Any, where: str, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of {what}, found {_short(value)}")
    return list(value)


def _short(value: Any) -> str:
    """*value* for a message: its repr, cut at 80 characters (a huge or deep value)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"a deeply nested {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def _parse_table(table: dict[str, Any], source: str) -> Settings:
    known = {toml_name(name) for name in SETTINGS}
    normal = {k.replace("_", "-"): v for k, v in table.items()}
    for key in normal:
        if key not in known:
            raise ConfigError(f"{source}: unknown setting {key!r}; known: {', '.join(sorted(known))}")
    severity = normal.get("severity", {})
    if not isinstance(severity, dict):
        raise ConfigError(f"{source}: severity must be a table of CODE = level")
    levels: dict[str, Level] = {}
    for code, level in severity.items():
        check_code(str(code), f"{source}: severity")
        chosen = level_of(level)
        if chosen is None:
            aliases = ", ".join(f"{a} ({b})" for a, b in LEVEL_ALIASES.items())
            raise ConfigError(f"{source}: severity for {code} must be one of {', '.join(SEVERITIES)} or {aliases}")
        levels[str(code).upper()] = chosen
    per_file = normal.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{source}: per-file-ignores must be a table of glob = [codes]")
    kinds = normal.get("kinds", {})
    if not isinstance(kinds, dict) or any(k not in KINDS for k in kinds):
        raise ConfigError(f"{source}: kinds must be a table with keys among {', '.join(KINDS)}")
    return Settings(
        select=_codes(normal.get("select", []), f"{source}: select"),
        extend_select=_codes(normal.get("extend-select", []), f"{source}: extend-select"),
        ignore=_codes(normal.get("ignore", []), f"{source}: ignore"),
        severity=levels,
        per_file_ignores={str(k): _codes(v, f"{source}: per-file-ignores") for k, v in per_file.items()},
        kinds={k: tuple(_globs(v, source)) for k, v in kinds.items()},
        calls=_calls(normal.get("calls", {}), source),
        expected_outcomes=_flag(normal.get("expected-outcomes", True), f"{source}: expected-outcomes"),
        exclude=tuple(_strings(normal.get("exclude", []), f"{source}: exclude", ".gitignore-style patterns")),
        respect_gitignore=_flag(normal.get("respect-gitignore", True), f"{source}: respect-gitignore"),
    )


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, found {_short(value)}")
    return value


def _calls(value: Any, source: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigError(f"{source}: calls must be a table of script glob = calls transcript path")
    return dict(value)


def _globs(value: Any, source: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: kinds take lists of globs")
    return list(value)


def settings_from_mapping(table: dict[str, Any], source: str = "settings", root: str = "") -> Settings:
    """Settings from a mapping shaped like the TOML table (LSP settings use the same keys)."""
    return dataclasses.replace(_parse_table(table, source), root=root, source=source)


#: A configuration file larger than this is refused (no configuration is near it).
MAX_CONFIG_BYTES = 4 * 1024 * 1024


def load_file(path: Path) -> Settings | None:
    """Settings from a pyproject.toml (only with a [tool.formscript] table) or formscript.toml.

    Every problem is a ``ConfigError`` naming the file and, where it can be found, the line
    of the setting (``path:LINE: ...``): unreadable or oversized files, invalid or too deeply
    nested TOML, a ``tool`` that is not a table, unknown settings and codes."""
    import tomllib  # only when a configuration file exists

    from formscript.lint.files import Unreadable, read_text

    try:
        text = read_text(str(path), MAX_CONFIG_BYTES)
    except Unreadable as exc:
        problem = "not a regular file" if exc.reason == "not_regular" else exc.message(MAX_CONFIG_BYTES)
        raise ConfigError(f"{path}: {problem}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML (nested too deeply to read)") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}:{_line_of(text, 'tool')}: tool must be a table, found {_short(tool)}")
    if path.name == "pyproject.toml":
        table = tool.get("formscript")
        if table is None:
            return None
    else:
        table = tool.get("formscript", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}:{_line_of(text, 'formscript')}: [tool.formscript] must be a table")
    try:
        return settings_from_mapping(table, str(path), str(path.parent))
    except ConfigError as exc:
        raise ConfigError(_located(str(exc), str(path), text)) from None
    except RecursionError:
        raise ConfigError(f"{path}: [tool.formscript] is nested too deeply") from None


def _line_of(text: str, key: str) -> int:
    """The 1-based line where *key* is set (``key =`` or a ``[...key]`` header), else 1."""
    import re

    pattern = re.compile(rf"^[ \t]*(?:\[+[^\]\n]*\b{re.escape(key)}\b|[\"']?{re.escape(key)}[\"']?\s*[=.])", re.M)
    found = pattern.search(text)
    return text.count("\n", 0, found.start()) + 1 if found is not None else 1


def _located(message: str, source: str, text: str) -> str:
    """*message* (``source: setting...`` or ``source: unknown setting...``, as every
    ``_parse_table`` message reads) with the line of the setting it names."""
    rest = message[len(f"{source}: ") :]
    for key in sorted({toml_name(n) for n in SETTINGS}, key=len, reverse=True):
        if rest.startswith(key) or rest.startswith(f"unknown setting '{key}'"):
            return f"{source}:{_line_of(text, key)}: {rest}"
    name = rest.split("'")[1] if "'" in rest else ""
    return f"{source}:{_line_of(text, name)}: {rest}" if name else message


def discover(start: Path, loaded: dict[Path, Settings | None] | None = None) -> Settings:
    """The nearest configuration at or above *start* (formscript.toml before pyproject.toml);
    *loaded* keeps the files read, for a caller that asks for many folders."""
    current = start if start.is_dir() else start.parent
    current = current.resolve()
    known = {} if loaded is None else loaded
    for folder in (current, *current.parents):
        for name in ("formscript.toml", "pyproject.toml"):
            candidate = folder / name
            if candidate not in known:
                if not candidate.is_file():
                    continue
                known[candidate] = load_file(candidate)
            found = known[candidate]
            if found is not None:
                return found
    return Settings()


class SettingsFinder:
    """The settings of each file on the command line, as the language server finds them: the
    configuration nearest the file's folder (or the one ``--config`` names), with the command
    line's codes on top; so results do not depend on the order paths are given in."""

    def __init__(self, fixed: Settings | None = None, overrides: dict[str, Any] | None = None) -> None:
        self._overrides = overrides or {}
        self._every = fixed.merged(self._overrides, "command line") if fixed and self._overrides else fixed
        self._folders: dict[str, Settings] = {}
        self._loaded: dict[Path, Settings | None] = {}
        #: Each path's answer: a run asks for each file four times (the walk, the selection,
        #: the check before linting, the lint), each a stat call (10 ms on 1,000 files).
        self._paths: dict[str, Settings] = {}

    def __call__(self, path: str) -> Settings:
        """The settings for *path* (a file, or a folder for itself); ConfigError when the
        configuration that applies cannot be used."""
        import os

        if self._every is not None:
            return self._every
        settings = self._paths.get(path)
        if settings is not None:
            return settings
        full = os.path.abspath(path)
        folder = full if os.path.isdir(full) else os.path.dirname(full)
        settings = self._folders.get(folder)
        if settings is None:
            base = discover(Path(folder), self._loaded)
            settings = base.merged(self._overrides, "command line") if self._overrides else base
            self._folders[folder] = settings
        self._paths[path] = settings
        return settings
