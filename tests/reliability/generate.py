"""Generated files for ``--fix``: every line break the YAML scanner counts, a leading BOM or
none, anchors and aliases around the fixed parts, comments everywhere a fix goes near, and
block, flow and JSON layouts.

Each case knows its fixable sites — an empty matcher (SC012) to remove, an unquoted YAML 1.1
boolean in a string field (FS015) to quote — and which of them a fix can make exactly (a
site written once, used once). ``settle`` maps a loaded value to the same value whatever
state each site is in (removed or kept, quoted or not), so "nothing else changed" is one
comparison; ``fixed`` says whether each exact site was fixed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

#: Every line break the YAML scanner counts.
BREAKS = ("\n", "\r\n", "\r", "\x85", "\u2028", "\u2029")

#: YAML 1.1 booleans and nulls that a str field refuses, as they are written.
SURPRISES = ("no", "yes", "on", "off", "Yes", "NO", "true", "False", "y", "n")


@dataclass
class Case:
    """One generated file."""

    name: str
    text: str
    kind: str  # "script" or "form"
    breaks: str
    #: Paths of sites: (path, how) with how "remove" (SC012) or "quote" (FS015, the text).
    sites: list[tuple[tuple[Any, ...], str]] = field(default_factory=list)
    #: The subset of sites a fix must make (no alias touches them).
    exact: list[tuple[Any, ...]] = field(default_factory=list)
    #: Every comment's text, in order.
    comments: list[str] = field(default_factory=list)


class _Writer:
    """Lines joined by one line break, with comments noted."""

    def __init__(self, rng: random.Random, brk: str, comment_rate: float) -> None:
        self.rng = rng
        self.brk = brk
        self.lines: list[str] = []
        self.comments: list[str] = []
        self.rate = comment_rate
        self.count = 0

    def comment(self) -> str:
        self.count += 1
        extra = self.rng.choice(["", "formscript", "when: {}", "&a *a", "'q'", '"x"'])
        text = f"# note {self.count} {extra}".rstrip()
        self.comments.append(text)
        return text

    def line(self, text: str, *, trailing: bool = True) -> None:
        if trailing and self.rng.random() < self.rate:
            text = f"{text}  {self.comment()}"
        self.lines.append(text)

    def comment_line(self, indent: str) -> None:
        if self.rng.random() < self.rate:
            self.lines.append(indent + self.comment())

    def text(self, bom: bool, final_break: bool) -> str:
        body = self.brk.join(self.lines) + (self.brk if final_break else "")
        return ("\ufeff" if bom else "") + body


def _script(rng: random.Random, name: str, brk: str, bom: bool) -> Case:
    writer = _Writer(rng, brk, rng.choice([0.0, 0.3, 0.8]))
    case = Case(name, "", "script", brk)
    entries = rng.randint(1, 6)
    anchored_entry = rng.random() < 0.2 and entries >= 2
    writer.comment_line("")
    writer.line("responses:")
    for index in range(entries):
        layout = rng.choice(["block", "block_first", "flow", "flow_first", "flow_multiline"])
        has_when = rng.random() < 0.8
        anchor = "&e " if anchored_entry and index == 0 else ""
        if anchored_entry and index == entries - 1:
            writer.line("  - *e")
            continue
        content = f"reply {index}"
        path = ("responses", index, "when")
        if has_when:
            case.sites.append((path, "remove"))
            if not (anchored_entry and index == 0):
                case.exact.append(path)
        if layout in ("block", "block_first"):
            members = ["type: text", f"content: {content}"]
            if has_when:
                members.insert(0 if layout == "block_first" else len(members), "when: {}")
            if anchor:
                writer.line(f"  - {anchor}".rstrip())
                first, rest = members[0], members[1:]
                writer.line(f"    {first}")
            else:
                first, rest = members[0], members[1:]
                writer.line(f"  - {first}")
            for member in rest:
                writer.comment_line("    ")
                writer.line(f"    {member}")
        else:
            members = ["type: text", f"content: {content}"]
            if has_when:
                members.insert(0 if layout == "flow_first" else len(members), "when: {}")
            if layout == "flow_multiline":
                writer.line(f"  - {anchor}{{")
                for member in members[:-1]:
                    writer.line(f"      {member},", trailing=False)
                writer.line(f"      {members[-1]}", trailing=False)
                writer.line("    }")
            else:
                writer.line(f"  - {anchor}{{{', '.join(members)}}}")
    case.text = writer.text(bom, rng.random() < 0.9)
    case.comments = writer.comments
    return case


def _form(rng: random.Random, name: str, brk: str, bom: bool) -> Case:
    writer = _Writer(rng, brk, rng.choice([0.0, 0.3, 0.8]))
    case = Case(name, "", "form", brk)
    count = rng.randint(1, 5)
    names = [f"f{i}" for i in range(count)]
    flow_values = rng.random() < 0.3
    aliased = rng.random() < 0.25 and count >= 2
    anchored = rng.random() < 0.3
    writer.comment_line("")
    writer.line("title: Generated")
    writer.line("fields:")
    for field_name in names:
        writer.comment_line("  ")
        writer.line(f"  {field_name}: {{type: str}}")
    values: list[str] = []
    chosen_anchor_word = ""
    for index, field_name in enumerate(names):
        word = rng.choice(SURPRISES)
        path = ("values", field_name)
        if aliased and index == count - 1:
            values.append(f"{field_name}: *a")
            case.sites.append((path, "quote:" + chosen_anchor_word))
            continue
        prefix = ""
        if index == 0 and (anchored or aliased):
            prefix = "&a "
            chosen_anchor_word = word
        case.sites.append((path, "quote:" + word))
        if not (aliased and index == 0):
            case.exact.append(path)
        values.append(f"{field_name}: {prefix}{word}")
    if flow_values:
        writer.line("values: {" + ", ".join(values) + "}")
    else:
        writer.line("values:")
        for value in values:
            writer.comment_line("  ")
            writer.line(f"  {value}")
    case.text = writer.text(bom, rng.random() < 0.9)
    case.comments = writer.comments
    return case


def _json_script(rng: random.Random, name: str, brk: str) -> Case:
    case = Case(name, "", "script", brk)
    entries = []
    for index in range(rng.randint(1, 4)):
        entry: dict[str, Any] = {"type": "text", "content": f"reply {index}"}
        if rng.random() < 0.8:
            if rng.random() < 0.5:
                entry = {"when": {}, **entry}
            else:
                entry["when"] = {}
            case.sites.append((("responses", index, "when"), "remove"))
            case.exact.append(("responses", index, "when"))
        entries.append(entry)
    text = json.dumps({"responses": entries}, indent=rng.choice([None, 2]))
    case.text = text.replace("\n", brk) + brk
    return case


def cases(count: int, seed: int) -> Iterator[Case]:
    """*count* cases, the same for the same *seed*: every break, with and without a BOM,
    scripts, forms and JSON scripts in turn."""
    rng = random.Random(seed)
    for number in range(count):
        brk = BREAKS[number % len(BREAKS)]
        bom = (number // len(BREAKS)) % 2 == 1
        shape = (number // (2 * len(BREAKS))) % 5
        if shape == 4:
            if brk in ("\n", "\r\n", "\r"):  # JSON's own line breaks
                yield _json_script(rng, f"c{number:05d}.script.json", brk)
                continue
            shape = number % 2
        if shape in (0, 2):
            yield _script(rng, f"c{number:05d}.script.yaml", brk, bom)
        else:
            yield _form(rng, f"c{number:05d}.form.yaml", brk, bom)


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def settle(value: Any, case: Case) -> Any:
    """*value* with every site in one state: empty matchers removed, quoted words as text
    (a copy; aliases expanded, which is fine at these sizes)."""
    settled = json.loads(json.dumps(value))
    for path, how in case.sites:
        try:
            parent = _get(settled, path[:-1])
        except (KeyError, IndexError, TypeError):
            continue
        key = path[-1]
        if how == "remove":
            if isinstance(parent, dict) and parent.get(key) == {}:
                del parent[key]
        elif isinstance(parent, dict) and key in parent:
            parent[key] = how.split(":", 1)[1]
    return settled


def unfixed(value: Any, case: Case) -> list[tuple[Any, ...]]:
    """The exact sites still in their old state in *value*."""
    left = []
    for path in case.exact:
        how = dict(case.sites)[path]
        try:
            parent = _get(value, path[:-1])
        except (KeyError, IndexError, TypeError):
            left.append(path)
            continue
        removed = how == "remove" and not (isinstance(parent, dict) and path[-1] in parent)
        quoted = how.startswith("quote:") and isinstance(parent.get(path[-1]), str)
        if not (removed or quoted):
            left.append(path)
    return left
