"""Form checks beyond the runtime's verdict: YAML 1.1 surprises, implicit coercions and
booleans given to numbers. Light on purpose: linting a form imports no model machinery."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from formscript import rules
from formscript.core.declarations import DeclarationMemo
from formscript.core.fields import CoercionError, Declared, coerce_value
from formscript.core.gate import GateResult
from formscript.core.printable import printable, type_label
from formscript.core.verdict import Problem
from formscript.document import Document

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")


#: One value's own findings: a YAML 1.1 surprise (its reading and text; FS015 or FS023 is
#: chosen by whether the gate rejects the value), a finding, or nothing.
ValueItems = tuple[str, str] | Problem | None


@dataclass
class FormMemo:
    """What checking a form's fields and values found, kept across versions of its text."""

    declarations: DeclarationMemo = dataclasses.field(default_factory=dict)
    #: Each value's findings, by its key: (where it was written, its declaration, items).
    values: dict[Any, tuple[object, Declared, ValueItems]] = dataclasses.field(default_factory=dict)

    def keep_only(self, fields: dict[Any, Any], values: dict[Any, Any]) -> None:
        """Forget what the declarations and values no longer in the text left."""
        known = self.declarations
        self.declarations = {id(d): known[id(d)] for d in fields.values() if id(d) in known}
        kept = self.values
        self.values = {k: kept[k] for k in values if k in kept}


def form_checks(doc: Document, result: GateResult, memo: FormMemo | None = None) -> list[Problem]:
    """YAML 1.1 surprises, implicit coercions and bools given to numbers (*memo*: what each
    value's own checks found before, for an incremental caller whose document says where
    each value was written, ``source_of``)."""
    spec = doc.value if isinstance(doc.value, dict) else {}
    values = spec.get("values")
    if not isinstance(values, dict):
        return []
    found: list[Problem] = []
    rejected_paths = {p.path for p in result.problems if p.rejects}
    source = getattr(doc, "source_of", None) if memo is not None else None
    for key, raw in values.items():
        declaration = result.declarations.get(key)
        if declaration is None:
            continue
        path = ("values", key)
        written = source(path) if source is not None else None
        known = memo.values.get(key) if memo is not None and written is not None else None
        if known is not None and known[0] is written and known[1] is declaration:
            items = known[2]
        else:
            items = _value_items(doc, key, raw, declaration)
            if memo is not None and written is not None:
                memo.values[key] = (written, declaration, items)
        if isinstance(items, tuple):
            surprise, text = items
            rule = rules.FS015 if path in rejected_paths else rules.FS023
            found.append(
                rule.problem(path=path, field=str(key), reading=surprise, text=text, safe=declaration.type == "str")
            )
        elif items is not None:
            found.append(items)
    return found


def _value_items(doc: Document, key: Any, raw: Any, declaration: Declared) -> ValueItems:
    """What the value *raw* of field *key* finds on its own."""
    path = ("values", key)
    surprise = None
    # a string was written as a string: YAML 1.1 misread nothing (its scalar's tag is str)
    entry = doc.entry(path) if type(raw) is not str else None
    scalar = entry.scalar if entry is not None else None
    if scalar is not None and scalar.style == "":
        surprise = _yaml11_surprise(declaration, scalar.text, scalar.tag, raw)
    if surprise is not None:
        return surprise, scalar.text if scalar is not None else ""
    if isinstance(raw, bool) and declaration.type in ("int", "float"):
        stored = float(raw) if declaration.type == "float" else raw
        return rules.FS017.problem(path=path, field=str(key), declared=declaration.type, given=raw, stored=stored)
    if isinstance(raw, str) and declaration.type in ("int", "float", "bool"):
        try:
            coerced = coerce_value(str(key), declaration.type, raw)
        except CoercionError:
            return None
        return rules.FS016.problem(path=path, field=str(key), given=raw, declared=declaration.type, coerced=coerced)
    return None


def string_surprise(text: str, tag: str, value: Any) -> str | None:
    """How YAML 1.1 misreads the plain scalar *text* where a string is wanted, or None."""
    value = printable(value)  # an int too long for decimal is shown in hex
    if tag == _BOOL:
        return f"YAML 1.1 reads unquoted {text!r} as the boolean {value!r}, not a string"
    if tag in (_INT, _FLOAT):
        return f"YAML 1.1 reads unquoted {text!r} as the number {value!r}, not a string"
    if tag == _TIMESTAMP:
        return f"YAML 1.1 reads unquoted {text!r} as a {type_label(value)}, not a string"
    if tag == _NULL and text == "~":
        return "YAML reads unquoted '~' as null, not a string"
    return None


def _yaml11_surprise(declaration: Declared, text: str, tag: str, value: Any) -> str | None:
    wanted = declaration.type
    if wanted == "str":
        return string_surprise(text, tag, value)
    value = printable(value)  # an int too long for decimal is shown in hex
    if wanted in ("int", "float"):
        if tag == _INT and (_OCTAL.match(text) or ":" in text):
            kind = "octal" if _OCTAL.match(text) else "base-60"
            return f"YAML 1.1 reads unquoted {text!r} as the {kind} number {value!r}"
        if tag == _FLOAT and ":" in text:
            return f"YAML 1.1 reads unquoted {text!r} as the base-60 number {value!r}"
        if tag == _TIMESTAMP:
            return f"YAML 1.1 reads unquoted {text!r} as a {type_label(value)}, not a number"
    return None
