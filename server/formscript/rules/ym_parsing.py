"""Parsing: the file does not load, repeats a key, or carries a tag safe_load refuses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from formscript.core.verdict import Problem
from formscript.rules.base import Rule

if TYPE_CHECKING:
    from formscript.document.model import Span


class FileDoesNotLoad(Rule):
    """The file does not load: it is not valid YAML (or JSON, where the runtime reads JSON).

    ## Why

    The runtime cannot load the file at all, so it refuses it before doing anything else. The same
    holds for a file that is not UTF-8 text, not a readable regular file or above formscript's 64
    MiB limit, and for text safe_load cannot build a value from (a date with day 0, nesting too
    deep).

    ## Fails

    ```yaml
    fields:
      age: {type: int
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "YM001"
    name = "syntax-error"
    kind = "any"
    severity = "error"
    rejects = True
    offer_suppression = False

    def yaml_syntax(self, *, detail: str, span: Span) -> Problem:
        """libyaml or PyYAML refused the text."""
        return self.found(f"YAML syntax error: {detail}", span=span)

    def json_syntax(self, *, detail: str, span: Span) -> Problem:
        """json.loads refused the text."""
        return self.found(f"JSON syntax error: {detail}", span=span)

    def unconstructible(self, *, error: Exception, span: Span) -> Problem:
        """The text parses but safe_load cannot build a value (a timestamp with day 0)."""
        return self.found(f"a value cannot be constructed: {_described(error)}", span=span)

    def loader_failed(self, *, error: Exception, span: Span) -> Problem:
        """The runtime's loader raises an exception of its own (not a syntax error) on the text."""
        return self.found(f"the runtime's loader fails on this text: {_described(error)}", span=span)

    def too_deep(self, *, span: Span) -> Problem:
        """The nesting exceeds what the loaders can recurse into."""
        return self.found("the document nests too deeply to load; the runtime's loader fails on it too", span=span)

    def cannot_read(self, *, detail: object) -> str:
        """The message for a file the operating system refuses to read."""
        return f"cannot read the file ({detail})"

    def not_regular(self) -> str:
        """The message for a path that is not a regular file."""
        return "not a regular file; the runtime refuses anything else"

    def too_big(self, *, size: int, limit: int) -> str:
        """The message for a file above formscript's size limit."""
        return f"the file is {size} bytes, above formscript's limit of {limit}"

    def not_utf8(self, *, byte: int) -> str:
        """The message for a file that is not UTF-8."""
        return f"the file is not valid UTF-8 (byte {byte}); the runtime reads it as UTF-8 and fails"


YM001 = FileDoesNotLoad()


def _described(error: Exception) -> str:
    """*error*'s message, with its type where the message alone says little (a KeyError's)."""
    if type(error) in (ValueError, TypeError) and str(error):
        return str(error)
    return f"{type(error).__name__}: {error}"


class DuplicateKey(Rule):
    """A mapping repeats a key; the runtime silently keeps the last copy.

    ## Why

    YAML loaders do not complain about duplicate keys: the earlier copy simply vanishes, usually
    along with an edit someone meant to keep.

    ## Fails

    ```yaml
    fields:
      age: {type: int}
      age: {type: str}
    values:
      age: 30
    ```

    ## Passes

    ```yaml
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "YM002"
    name = "duplicate-key"
    kind = "any"
    severity = "warning"

    def problem(self, *, key: object, span: Span, kept: Span | None) -> Problem:
        """*span* is the overridden copy's key; *kept* the key of the copy that wins."""
        where = f" (line {kept.start.line + 1})" if kept is not None else ""
        return self.found(
            f"duplicate key {key!r}: this earlier copy is ignored, the runtime keeps the last one{where}", span=span
        )


YM002 = DuplicateKey()


class UnsafeTag(Rule):
    """A tag safe_load refuses (python objects and other non-standard tags).

    ## Why

    The runtime loads with safe_load, which refuses these tags, so the file is rejected; formscript
    never executes or constructs them.

    ## Fails

    ```yaml
    title: !!python/object/apply:os.getcwd []
    fields:
      age: {type: int}
    values:
      age: 30
    ```

    ## Passes

    ```yaml
    title: Review
    fields:
      age: {type: int}
    values:
      age: 30
    ```
    """

    code = "YM003"
    name = "unsafe-tag"
    kind = "any"
    severity = "error"
    rejects = True

    def problem(self, *, detail: str, span: Span) -> Problem:
        """*detail* is the loader's complaint about the tag."""
        return self.found(f"unsafe or unknown tag refused by safe_load: {detail}", span=span)


YM003 = UnsafeTag()
