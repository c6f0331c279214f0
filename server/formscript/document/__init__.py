"""Located documents: text in, a loaded value with the source range of each part, the
parser's own problems and the comments out.

``model`` defines what a located document answers (the ``Document`` protocol and its
value types); ``located`` implements it for YAML and JSON. Callers import from here.
"""

from formscript.document.located import loads_json, parse_document
from formscript.document.model import (
    Collection,
    Comment,
    Document,
    Edit,
    Location,
    Pos,
    Scalar,
    Span,
    Syntax,
    TextDocument,
)
from formscript.document.yamlread import MAX_DEPTH

__all__ = [
    "MAX_DEPTH",
    "Collection",
    "Comment",
    "Document",
    "Edit",
    "Location",
    "Pos",
    "Scalar",
    "Span",
    "Syntax",
    "TextDocument",
    "loads_json",
    "parse_document",
]
