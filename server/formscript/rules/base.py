"""What a rule is: its attributes, its page and the typed fixes its findings may carry.

A rule is a singleton instance of its own subclass of :class:`Rule`. The subclass sets the
class attributes, documents the rule in its docstring (the page ``formscript rule CODE``
prints, after a title line and an "Applies to" line made from the attributes) and adds a
typed method, usually ``problem(...)``, that builds the finding's message, location and fix.
Emission sites call that method; they never name a code or choose a severity.

The docstring has a summary paragraph, then ``## Why``, ``## Fails`` and ``## Passes``
sections; the last two hold one fenced example each, which the test suite lints under the
rule's example file name (the failing one must report the code, the passing one nothing).
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias

from formscript.core.printable import printable
from formscript.core.verdict import FixPlan, KeyPath, Problem, ReplaceWith, Severity

if TYPE_CHECKING:
    from formscript.document.model import Span

RuleKind: TypeAlias = 'Literal["form", "script", "rules", "calls", "any"]'

_EXAMPLE_NAMES: dict[str, str] = {
    "form": "example.form.yaml",
    "script": "example.script.yaml",
    "rules": "example.rules.yaml",
    "calls": "example.calls.yaml",
    "any": "example.form.yaml",
}
_APPLIES: dict[str, str] = {
    "form": "form specs",
    "script": "response scripts",
    "rules": "rulesets",
    "calls": "calls transcripts",
    "any": "every kind of file",
}
_SECTION = re.compile(r"^## (?P<title>.+)$", re.MULTILINE)
_FENCE = re.compile(r"```[a-z]*\n(?P<body>.*?)```", re.DOTALL)

#: The form ruleset examples are checked against (as with ``--form``).
EXAMPLE_FORM = (
    "fields:\n  age: {type: int}\n  name: {type: str}\n  bio: {type: str, required: false}\n"
    "values:\n  age: 30\n  name: Ada\n  bio: " + "x" * 5000 + "\n"
)
EXAMPLE_FORM_NAME = "paired.form.yaml"
_EXAMPLE_FORM_NOTE = (
    "The examples are checked with `--form` against a form declaring `age` (int, value 30),\n"
    "`name` (str, value Ada) and `bio` (optional str, a 5,000-character value)."
)


# ------------------------------------------------------------------------------- fixes


def replace_with(suggestion: str | None) -> ReplaceWith | None:
    """The did-you-mean fix for *suggestion*, or None when there is no suggestion."""
    return ReplaceWith(suggestion) if suggestion is not None else None


def did_you_mean(suggestion: str | None) -> str:
    """A ``; did you mean 'x'?`` message suffix, or an empty string."""
    return f"; did you mean {suggestion!r}?" if suggestion is not None else ""


def shorten(value: object) -> str:
    """``repr(value)``, its middle cut out when longer than 80 characters (a pattern of 1,200
    nested groups is named, not printed)."""
    text = repr(value)
    if len(text) <= 80:
        return text
    return f"{text[:50]}…({len(text):,} characters)…{text[-10:]}"


# ------------------------------------------------------------------------------- rules


def _printing(method: Callable[..., Any]) -> Callable[..., Any]:
    """*method*, which builds a finding or its message, made safe for values Python cannot
    write in decimal (an int of more than 4,300 digits, which YAML loads from hex): where
    the message's repr raises, it is built again with such ints written in hex."""

    @functools.wraps(method)
    def build(self: Rule, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except ValueError:
            shown_args = [printable(a) for a in args]
            shown_kwargs = {k: printable(v) for k, v in kwargs.items()}
            if all(a is b for a, b in zip(args, shown_args, strict=True)) and all(
                kwargs[k] is shown_kwargs[k] for k in kwargs
            ):
                raise
            return method(self, *shown_args, **shown_kwargs)

    return build


class Rule:
    """One rule formscript reports. Subclasses set the attributes and write the docstring."""

    __slots__ = ()

    code: ClassVar[str]
    #: Kebab-case, stable: what a reader says instead of the code.
    name: ClassVar[str]
    kind: ClassVar[RuleKind]
    #: The one default severity; configuration may change it, emission sites never do.
    severity: ClassVar[Severity]
    #: Whether the runtime refuses the file because of a finding of this rule.
    rejects: ClassVar[bool] = False
    #: The finding marks dead text (editors fade it: DiagnosticTag.Unnecessary).
    unnecessary: ClassVar[bool] = False
    #: Whether the editor offers "suppress with a reason" for a finding of this rule.
    offer_suppression: ClassVar[bool] = True
    #: Whether the page carries a failing and a passing example (checked by the tests).
    has_examples: ClassVar[bool] = True
    #: The file name the examples are linted as ('' for the kind's default name).
    example_name: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, member in list(vars(cls).items()):
            if not name.startswith("_") and isinstance(member, types.FunctionType):
                setattr(cls, name, _printing(member))

    def found(
        self,
        message: str,
        path: KeyPath = (),
        *,
        on_key: bool = False,
        field: str | None = None,
        fix: FixPlan | None = None,
        replaces: tuple[Rule, ...] = (),
        rule_id: str | None = None,
        span: Span | None = None,
    ) -> Problem:
        """A finding of this rule at *path* (or at *span*, for findings located directly)."""
        return Problem(self, message, path, on_key, field, fix, replaces, rule_id, span)

    def __repr__(self) -> str:
        return f"<rule {self.code} {self.name}>"

    # -------------------------------------------------------------------- documentation

    @property
    def doc(self) -> str:
        """The docstring, dedented: the body of the page."""
        import inspect

        return inspect.cleandoc(type(self).__doc__ or "")

    def _sections(self) -> dict[str, str]:
        text = self.doc
        marks = list(_SECTION.finditer(text))
        found = {"": text[: marks[0].start()].strip() if marks else text.strip()}
        for mark, after in zip(marks, [*marks[1:], None], strict=True):
            end = after.start() if after is not None else len(text)
            found[mark.group("title").strip()] = text[mark.end() : end].strip()
        return found

    @property
    def summary(self) -> str:
        """What the rule finds, as one line."""
        return " ".join(self._sections()[""].split())

    @property
    def why(self) -> str:
        """Why the finding matters, as one line."""
        return " ".join(self._sections().get("Why", "").split())

    def _example(self, title: str) -> str | None:
        match = _FENCE.search(self._sections().get(title, ""))
        return match.group("body") if match is not None else None

    @property
    def fails(self) -> str | None:
        """The failing example's text (None for a rule without examples)."""
        return self._example("Fails")

    @property
    def passes(self) -> str | None:
        """The passing example's text (None for a rule without examples)."""
        return self._example("Passes")

    def example_path(self) -> str:
        """The file name the examples are linted as."""
        return self.example_name or _EXAMPLE_NAMES[self.kind]

    def page(self) -> str:
        """The rule's documentation as Markdown: what ``formscript rule CODE`` prints."""
        sections = self._sections()
        applies = f"Applies to: {_APPLIES[self.kind]}. Default severity: {self.severity}."
        if self.rejects:
            applies += " A finding makes the verdict `rejected`."
        head = [f"# {self.code} {self.name}", sections[""], applies]
        if self.kind == "rules" and self.has_examples:
            head.append(_EXAMPLE_FORM_NOTE)
        first = _SECTION.search(self.doc)
        rest = self.doc[first.start() :] if first is not None else ""
        return "\n\n".join([*head, rest]).rstrip() + "\n"
