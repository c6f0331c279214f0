"""Writing a string as a YAML or JSON scalar that loads back to exactly that string.

A name a fix writes (a did-you-mean, a quoted YAML 1.1 surprise) may be ``no``, ``true``,
``null``, ``[x]``, ``a #`` or hold a line break: written plain it would load as something
else or break the document. ``scalar_source`` writes it plain only when the runtime's
resolver reads it back as that same string, else single-quoted, else double-quoted with
escapes.
"""

from __future__ import annotations

import functools
import json
import re

import yaml

_STR_TAG = "tag:yaml.org,2002:str"
#: The resolver SafeLoader (and so the runtime) reads plain scalars with.
_RESOLVER = yaml.resolver.Resolver()

#: Plain text that is safe in block and flow context alike: no indicator, no space, no
#: comment sign, no flow punctuation; the resolver still has to call it a string.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]*\Z")

#: What a single-quoted scalar cannot hold as it is: line breaks (they fold), characters
#: the YAML reader refuses, and a BOM (libyaml skips one at the start of a line).
#: (Compiled the first time a scalar is written: its wide ranges take milliseconds.)
_NOT_SINGLE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\t": "\\t", "\n": "\\n", "\r": "\\r", "\0": "\\0"}


def resolves_to_str(text: str) -> bool:
    """Whether *text* written plain is read by the runtime's (PyYAML's) resolver as a string."""
    resolved: str = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return resolved == _STR_TAG


@functools.lru_cache(maxsize=1024)  # the same names are written fix after fix
def scalar_source(text: str, *, quoted: bool = False) -> str:
    """YAML source for a scalar that loads to the string *text* (quoted when *quoted*)."""
    if not quoted and _PLAIN.match(text) and resolves_to_str(text):
        return text
    if not re.search(_NOT_SINGLE, text):
        return "'" + text.replace("'", "''") + "'"
    return '"' + "".join(_escaped(char) for char in text) + '"'


def _escaped(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    if not re.match(_NOT_SINGLE, char):
        return char
    code = ord(char)  # every such character is in the Basic Multilingual Plane
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def json_source(text: str) -> str:
    """JSON source for the string *text*."""
    surrogate = any("\ud800" <= char <= "\udfff" for char in text)
    return json.dumps(text, ensure_ascii=surrogate)
