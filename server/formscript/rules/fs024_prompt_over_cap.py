"""FS024 prompt-over-cap: the prompt li agent would send is longer than it allows."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem
from formscript.rules.base import Rule


class PromptOverCap(Rule):
    """The prompt `li agent` would send is longer than the 262,144 characters it allows.

    ## Why

    `li agent --form` puts the form's context block and a blank line in front of the prompt
    text and refuses the whole prompt when it is longer than 262,144 characters
    (`MAX_SPEC_PROMPT_CHARS`): it exits 1 before any model call. When the block alone is
    over the limit, every prompt is refused with this form. Values repeated through YAML
    aliases count once per repetition, because the block prints each value with `repr`.
    `formscript dry-run --prompt` applies the limit to the block and your prompt together.

    ## Fails

    ```yaml
    fields:
      tags: {type: list}
    values:
      tags:
        - &a [xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx]
        - &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        - &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        - [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
    ```

    ## Passes

    ```yaml
    fields:
      tags: {type: list}
    values:
      tags:
        - &a [xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,
              xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx, xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx]
        - &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        - &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        - [*c, *c, *c, *c, *c, *c]
    ```
    """

    code = "FS024"
    name = "prompt-over-cap"
    kind = "form"
    severity = "error"
    rejects = True

    def prefix_over(self, *, path: KeyPath, length: int, cap: int) -> Problem:
        """The context block and its blank line alone are *length* characters."""
        return self.found(
            f"the context block li agent puts in front of the prompt is {length:,} characters "
            f"(with its blank line), over the {cap:,} characters it allows for the whole prompt: "
            "li agent refuses every prompt with this form",
            path,
        )

    def prefix_at_least(self, *, path: KeyPath, length: int, cap: int) -> Problem:
        """Values that expand through YAML aliases to more than *length* items: the block is
        at least that long (each renders as one character or more)."""
        return self.found(
            f"the context block li agent puts in front of the prompt renders more than {length - 1:,} values "
            f"expanded through YAML aliases, so it is longer than the {cap:,} characters it allows for the "
            "whole prompt: li agent refuses every prompt with this form",
            path,
        )

    def prompt_over(self, *, path: KeyPath, prefix: int, prompt: int, cap: int) -> Problem:
        """The context block (*prefix* characters) and the prompt text (*prompt*) together."""
        return self.found(
            f"the prompt li agent would send is {prefix + prompt:,} characters (context block {prefix:,} + "
            f"prompt text {prompt:,}), over the {cap:,} it allows: li agent exits 1 before any model call",
            path,
        )


FS024 = PromptOverCap()
