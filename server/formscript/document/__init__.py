"""Position-aware documents: text in, a located tree plus the parser's own problems out."""

from formscript.document.located import Document, Pos, Span, parse_document

__all__ = ["Document", "Pos", "Span", "parse_document"]
