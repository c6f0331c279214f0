"""Form checks beyond the runtime's verdict: YAML 1.1 surprises, implicit coercions and
booleans given to numbers. Light on purpose: linting a form imports no model machinery."""

from __future__ import annotations

import re
from typing import Any

from formscript.core.fields import CoercionError, Declared, coerce_value, type_label
from formscript.core.gate import GateResult
from formscript.core.verdict import Problem
from formscript.document.located import Document

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_NULL = "tag:yaml.org,2002:null"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")


def form_checks(doc: Document, result: GateResult) -> list[Problem]:
    """YAML 1.1 surprises, implicit coercions and bools given to numbers."""
    spec = doc.value if isinstance(doc.value, dict) else {}
    values = spec.get("values")
    if not isinstance(values, dict):
        return []
    found: list[Problem] = []
    rejected_paths = {p.path for p in result.problems if p.rejects}
    for key, raw in values.items():
        declaration = result.declarations.get(key)
        if declaration is None:
            continue
        path = ("values", key)
        entry = doc.entry(path)
        scalar = entry.scalar if entry is not None else None
        surprise = None
        if scalar is not None and scalar.style == "":
            surprise = _yaml11_surprise(declaration, scalar.text, scalar.tag, raw)
        if surprise is not None:
            rejects = path in rejected_paths
            text = scalar.text if scalar is not None else ""
            safe = declaration.type == "str"
            found.append(
                Problem(
                    "FS015",
                    f"{surprise}; quote it to keep the text {text!r}",
                    path=path,
                    severity="error" if rejects else "warning",
                    field=str(key),
                    data={
                        "fix": {"op": "quote", "path": path, "text": text, "safe": safe},
                        "replaces": ("FS014", "FS013"),
                    },
                )
            )
            continue
        if isinstance(raw, bool) and declaration.type in ("int", "float"):
            stored = 1.0 if raw and declaration.type == "float" else raw
            if declaration.type == "float":
                stored = float(raw)
            found.append(
                Problem(
                    "FS017",
                    f"field {key!r} is {declaration.type} but gets the boolean {raw!r}; the runtime "
                    f"accepts it silently and stores {stored!r}",
                    path=path,
                    field=str(key),
                )
            )
        elif isinstance(raw, str) and declaration.type in ("int", "float", "bool"):
            try:
                coerced = coerce_value(str(key), declaration.type, raw)
            except CoercionError:
                continue
            found.append(
                Problem(
                    "FS016",
                    f"{raw!r} is a string; the runtime converts it to {declaration.type} {coerced!r}",
                    path=path,
                    field=str(key),
                )
            )
    return found


def _yaml11_surprise(declaration: Declared, text: str, tag: str, value: Any) -> str | None:
    wanted = declaration.type
    if wanted == "str":
        if tag == _BOOL:
            return f"YAML 1.1 reads unquoted {text!r} as the boolean {value!r}, not a string"
        if tag in (_INT, _FLOAT):
            return f"YAML 1.1 reads unquoted {text!r} as the number {value!r}, not a string"
        if tag == _TIMESTAMP:
            return f"YAML 1.1 reads unquoted {text!r} as a {type_label(value)}, not a string"
        if tag == _NULL and text == "~":
            return "YAML reads unquoted '~' as null, not a string"
        return None
    if wanted in ("int", "float"):
        if tag == _INT and (_OCTAL.match(text) or ":" in text):
            kind = "octal" if _OCTAL.match(text) else "base-60"
            return f"YAML 1.1 reads unquoted {text!r} as the {kind} number {value!r}"
        if tag == _FLOAT and ":" in text:
            return f"YAML 1.1 reads unquoted {text!r} as the base-60 number {value!r}"
        if tag == _TIMESTAMP:
            return f"YAML 1.1 reads unquoted {text!r} as a {type_label(value)}, not a number"
    return None
