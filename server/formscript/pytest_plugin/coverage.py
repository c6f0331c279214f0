"""Which scripted entries the tests served: the data, merged over xdist workers, and the
reports made of it (terminal table, JSON, SARIF, calls transcripts).

Everything here is plain data (JSON-able), so a worker hands its part to the controller as it
is. The reports are deterministic: sources sorted by key, sessions by test id and order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from formscript import __version__
from formscript.core.printable import printable_repr
from formscript.lint.formats import sarif_log, sarif_result
from formscript.lint.kinds import without_ending

__all__ = ["MODELLED_LIONAGI", "REPORT_VERSION", "Coverage", "call_item", "transcript_name"]

#: The version of the JSON report's contract (README "pytest plugin").
REPORT_VERSION = 1
#: The lionagi release whose behaviour formscript models.
MODELLED_LIONAGI = "0.36.0"


#: The counts of what formscript predicted and compared (``Coverage``'s fields of those names).
_COUNTERS = (
    "predicted",
    "predicted_forms",
    "predicted_responses",
    "predicted_specs",
    "predicted_constructs",
    "predicted_blocks",
)


@dataclass
class Coverage:
    """Sources (with their entries), how often each entry was served, and the sessions
    (one script object with a fresh cursor, its calls in order)."""

    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    served: dict[str, dict[int, int]] = field(default_factory=dict)
    sessions: list[dict[str, Any]] = field(default_factory=list)
    #: Calls lionagi served otherwise than formscript predicts (``observe.Observer._predict``).
    drift: list[dict[str, Any]] = field(default_factory=list)
    #: The lionagi version the session ran with (None: not importable).
    lionagi_version: str | None = None
    #: How many served calls formscript replayed and compared (drift check).
    predicted: int = 0
    #: How many fill_form / validate_form calls formscript predicted and compared.
    predicted_forms: int = 0
    #: How many responses the endpoint built formscript predicted and compared.
    predicted_responses: int = 0
    #: How many form specs ``li agent --form`` loaded and built formscript predicted.
    predicted_specs: int = 0
    #: How many FieldSpec / WorkForm / Rule constructions, ``RuleSet.add`` and ``apply_all``
    #: calls formscript predicted and compared.
    predicted_constructs: int = 0
    #: How many context blocks ``li agent --form`` rendered formscript predicted and compared.
    predicted_blocks: int = 0
    #: Forms filled or validated: by key (title and declared fields), the site first seen, how
    #: often each declared field had a value, and how often each rule passed and failed.
    forms: dict[str, dict[str, Any]] = field(default_factory=dict)

    # -- recording

    def add_source(self, source: dict[str, Any]) -> None:
        """Register a source (the first registration of a key stands)."""
        self.sources.setdefault(source["key"], source)
        self.served.setdefault(source["key"], {})

    def fill(self, key: str, site: str, filled: dict[str, bool], rules: dict[str, bool]) -> None:
        """Count one fill_form / validate_form of the form *key*: which declared fields had a
        value (*filled*) and which rules failed (*rules*: rule_id -> failed)."""
        fields = {name: int(has) for name, has in filled.items()}
        counts = {rule_id: {"passed": int(not failed), "failed": int(failed)} for rule_id, failed in rules.items()}
        self._add_form({"key": key, "site": site, "calls": 1, "fields": fields, "rules": counts})

    def _add_form(self, form: dict[str, Any]) -> None:
        """Add the counts of *form* (one call's, or a worker's of many) to the form's."""
        kept: dict[str, Any] = self.forms.setdefault(form["key"], {**form, "calls": 0, "fields": {}, "rules": {}})
        kept["calls"] += form["calls"]
        for name, count in form["fields"].items():
            kept["fields"][name] = kept["fields"].get(name, 0) + count
        for rule_id, counts in form["rules"].items():
            both = kept["rules"].setdefault(rule_id, {"passed": 0, "failed": 0})
            both["passed"] += counts["passed"]
            both["failed"] += counts["failed"]

    def serve(self, key: str, index: int, count: int = 1) -> None:
        """Count *count* calls served by entry *index* of source *key*."""
        counts = self.served.setdefault(key, {})
        counts[index] = counts.get(index, 0) + count

    # -- xdist

    def to_json(self) -> dict[str, Any]:
        """The data as a worker sends it."""
        return {
            "sources": self.sources,
            "served": {k: {str(i): n for i, n in v.items()} for k, v in self.served.items()},
            "sessions": self.sessions,
            "drift": self.drift,
            **{name: getattr(self, name) for name in _COUNTERS},
            "forms": self.forms,
        }

    def merge(self, data: dict[str, Any]) -> None:
        """Add a worker's data."""
        for source in data.get("sources", {}).values():
            self.add_source(source)
        for key, counts in data.get("served", {}).items():
            for index, count in counts.items():
                self.serve(key, int(index), int(count))
        self.sessions.extend(data.get("sessions", []))
        self.drift.extend(data.get("drift", []))
        for name in _COUNTERS:
            setattr(self, name, getattr(self, name) + int(data.get(name, 0)))
        for form in data.get("forms", {}).values():
            self._add_form(form)

    # -- the numbers

    def rows(self) -> list[dict[str, Any]]:
        """One row per source, sorted by key: its entries with their served counts."""
        out = []
        for key in sorted(self.sources):
            source = self.sources[key]
            counts = self.served.get(key, {})
            entries = [{**e, "served": counts.get(e["index"], 0)} for e in source["entries"]]
            hit = sum(1 for e in entries if e["served"])
            out.append(
                {
                    "source": key,
                    "kind": source["kind"],
                    "path": source["path"],
                    "line": source["line"],
                    "call": source["call"],
                    "entries": entries,
                    "total": len(entries),
                    "served": hit,
                    "never_served": [e["index"] for e in entries if not e["served"]],
                    "percent": _percent(hit, len(entries)),
                }
            )
        return out

    def totals(self) -> tuple[int, int]:
        """(entries served at least once, entries) over every source."""
        rows = self.rows()
        return sum(r["served"] for r in rows), sum(r["total"] for r in rows)

    def percent(self) -> float | None:
        """The share of entries served, in percent (None when no script was loaded)."""
        hit, total = self.totals()
        return _percent(hit, total)

    # -- reports

    def report(self) -> dict[str, Any]:
        """The JSON report (version ``REPORT_VERSION``)."""
        hit, total = self.totals()
        return {
            "version": REPORT_VERSION,
            "tool": {"name": "formscript", "version": __version__},
            "summary": {
                "sources": len(self.sources),
                "entries": total,
                "served": hit,
                "never_served": total - hit,
                "percent": _percent(hit, total),
            },
            "sources": self.rows(),
            "lionagi": {
                "installed": self.lionagi_version,
                "modelled": MODELLED_LIONAGI,
                "calls_checked": self.predicted,
                "form_calls_checked": self.predicted_forms,
                "responses_checked": self.predicted_responses,
                "form_specs_checked": self.predicted_specs,
                "constructs_checked": self.predicted_constructs,
                "context_blocks_checked": self.predicted_blocks,
            },
            "drift": sorted(self.drift, key=lambda d: (d["test"], d["source"], d["call"])),
            "forms": [self.forms[key] for key in sorted(self.forms)],
        }

    def table(self) -> list[str]:
        """The terminal table: per source its entries (line, type, served count), then the total."""
        lines: list[str] = []
        for row in self.rows():
            shown = "—" if row["percent"] is None else f"{row['percent']:.1f}%"
            where = row["source"] if row["call"] is None else f"{row['source']} ({row['call']})"
            lines.append(f"{where}: {row['served']} of {row['total']} entries served, {shown}")
            for entry in row["entries"]:
                at = f"{row['path']}:{entry['line']}" if entry["line"] is not None else row["path"]
                count = "never served" if not entry["served"] else f"served {entry['served']}x"
                lines.append(f"  #{entry['index']:<3} {entry['type']:<10} {at:<48} {count}")
        hit, total = self.totals()
        overall = self.percent()
        shown = "—" if overall is None else f"{overall:.1f}%"
        lines.append(f"TOTAL: {hit} of {total} entries served in {len(self.sources)} script(s), {shown}")
        return lines

    def forms_table(self) -> list[str]:
        """Per form filled or validated: how often, which declared fields were given a value,
        and each rule's passes and failures."""
        lines: list[str] = []
        for key in sorted(self.forms):
            form = self.forms[key]
            never = [name for name, count in form["fields"].items() if not count]
            lines.append(
                f"form {key} ({form['site']}): filled or validated {form['calls']}x, "
                f"{len(form['fields']) - len(never)} of {len(form['fields'])} fields given a value"
                + (f" (never: {', '.join(never)})" if never else "")
            )
            for rule_id, counts in sorted(form["rules"].items()):
                lines.append(f"  rule {rule_id}: passed {counts['passed']}x, failed {counts['failed']}x")
        return lines

    def sarif(self) -> dict[str, Any]:
        """SARIF 2.1.0: one result per never-served entry, at its line."""
        results = []
        for row in self.rows():
            for entry in row["entries"]:
                if entry["served"]:
                    continue
                text = (
                    f"entry #{entry['index']} ({entry['type']}) of {row['source']} was never served by the test session"
                )
                results.append(_result(0, text, row["path"], entry["line"] or row["line"] or 1))
        for key in sorted(self.forms):
            form = self.forms[key]
            path, _, line = str(form["site"]).rpartition(":")
            gaps = [f"field {name!r} was never given a value" for name, n in form["fields"].items() if not n]
            for rule_id, counts in sorted(form["rules"].items()):
                if not counts["failed"]:
                    gaps.append(f"rule {rule_id!r} never failed")
                if not counts["passed"]:
                    gaps.append(f"rule {rule_id!r} never passed")
            for gap in gaps:
                text = f"form {key}: {gap} in the test session"
                results.append(_result(1, text, path or form["site"], int(line) if line.isdigit() else 1))
        return sarif_log("formscript-pytest", list(_SARIF_RULES), results)

    def transcripts(self, directory: str = ".") -> dict[str, str]:
        """Per recorded session, the calls transcript: {file name relative to *directory*
        (the record directory as given, which the replay command in each header names): text}."""
        by_source: dict[str, list[dict[str, Any]]] = {}
        for session in self.sessions:
            by_source.setdefault(session["source"], []).append(session)
        out: dict[str, str] = {}
        for key in sorted(by_source):
            source = self.sources.get(key)
            if source is None or source["kind"] == "runtime":
                continue
            sessions = sorted(by_source[key], key=lambda s: (s["test"], s["seq"]))
            for number, session in enumerate(sessions, start=1):
                name = transcript_name(source, number)
                out[name] = transcript_text(source, session, str(PurePosixPath(directory) / name))
        return out


def _percent(hit: int, total: int) -> float | None:
    return None if total == 0 else round(100.0 * hit / total, 2)


def _uri(path: str) -> str:
    from urllib.parse import quote

    return quote(PurePosixPath(path).as_posix(), safe="/:")


def transcript_name(source: dict[str, Any], number: int) -> str:
    """The transcript's file name, relative to the record directory: the script's sibling
    name (``weather.script.yaml`` → ``weather.calls.yaml``, ``test_x.py:12`` →
    ``test_x.L12.calls.yaml``), numbered from the second session on."""
    path = PurePosixPath(source["path"])
    name = path.name
    if source["kind"] == "literal":
        name = f"{path.stem}.L{source['line']}"
    else:
        name = without_ending(name).removesuffix(".script")
    if number > 1:
        name = f"{name}.{number}"
    return str(path.with_name(f"{name}.calls.yaml"))


def call_item(payload: Any) -> Any:
    """The transcript item for a call with *payload*, keeping exactly what the script's
    matchers read: the last user message that decides (its text) and the tool names; a raw
    ``payload`` item where a ``prompt`` item could not say the same."""
    if not isinstance(payload, dict):
        return {"payload": {}}
    messages = payload.get("messages") or []
    deciding: dict[str, Any] | None = None
    if isinstance(messages, list):
        for message in reversed(messages):
            deciding_message = isinstance(message, dict) and message.get("role") == "user"
            if deciding_message and isinstance(message.get("content"), str | list):
                deciding = {"role": "user", "content": message["content"]}
                break
    tools = payload.get("tools") or []
    tools_plain = isinstance(tools, list)
    names = [
        (tool.get("function") or {}).get("name") or tool.get("name")
        for tool in (tools if tools_plain else [])
        if isinstance(tool, dict)
    ]
    named = tools_plain and all(isinstance(n, str) for n in names)
    if deciding is not None and isinstance(deciding["content"], str) and named:
        if not names:
            return deciding["content"]
        return {"prompt": deciding["content"], "tools": names}
    reduced: dict[str, Any] = {}
    if deciding is not None:
        reduced["messages"] = [deciding]
    elif isinstance(payload.get("input"), str):
        reduced["input"] = payload["input"]
    if tools:
        reduced["tools"] = tools
    return {"payload": reduced}


def transcript_text(source: dict[str, Any], session: dict[str, Any], written_as: str) -> str:
    import yaml

    calls = session["calls"]
    items = [c["item"] for c in calls]
    target = source["key"] if source["kind"] == "literal" else source["path"]
    head = [
        f"# Calls made to {target} by {session['test']}",
        "# (recorded by formscript's pytest plugin; replay them with:",
        f"#   formscript simulate {target} --calls {written_as})",
    ]
    if not session.get("fresh", True):
        head.append("# The script had served calls before this session's first one (a copy of a used script);")
        head.append("# a replay starts from a fresh script.")
    if session.get("more"):
        head.append(f"# The test made {session['more']} more call(s) after the one that raised; a replay stops there.")
    if any(c["call_index"] != c["replay_index"] for c in calls):
        head.append("# Some calls were made with a call index other than the number of calls served before;")
        head.append("# a replay counts the calls itself, so call_index / after_calls matchers may differ.")
    try:
        body = yaml.safe_dump(items, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)
    except yaml.YAMLError:  # a value YAML cannot write is JSON's, and one neither can, its repr
        body = json.dumps(items, ensure_ascii=True, indent=2, default=printable_repr) + "\n"
    return "\n".join(head) + "\n" + body


def write_all(files: dict[str, str], directory: Path) -> list[Path]:
    """Write each transcript under *directory*; the paths written."""
    written = []
    for name, text in sorted(files.items()):
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


def dumps(value: Any) -> str:
    """JSON as the reports are written (ASCII, so valid whatever a path or payload holds)."""
    return json.dumps(value, indent=2, ensure_ascii=True, sort_keys=False) + "\n"


#: The SARIF rules of the coverage report, by index.
_SARIF_RULES: tuple[dict[str, Any], ...] = (
    {
        "id": "never-served",
        "name": "NeverServedEntry",
        "shortDescription": {"text": "a scripted entry no test served"},
        "fullDescription": {
            "text": "No call of the test session was answered by this entry of the script: "
            "a `when:` that never matches, a positional entry past the calls made, or a test that was removed."
        },
        "defaultConfiguration": {"level": "warning"},
    },
    {
        "id": "form-gap",
        "name": "FormCoverageGap",
        "shortDescription": {"text": "a form field never filled, or a rule never failed or never passed"},
        "fullDescription": {
            "text": "Over the fill_form and validate_form calls of the test session, a declared field "
            "never had a value, or a rule's failure (or its pass) was never exercised."
        },
        "defaultConfiguration": {"level": "note"},
    },
)


def _result(rule: int, text: str, path: str, line: int) -> dict[str, Any]:
    """One SARIF result of rule *rule* (an index of :data:`_SARIF_RULES`), at *path*:*line*."""
    level = _SARIF_RULES[rule]["defaultConfiguration"]["level"]
    return sarif_result(_SARIF_RULES[rule]["id"], rule, level, text, _uri(path), {"startLine": line})
