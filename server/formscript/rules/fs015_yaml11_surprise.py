"""YAML 1.1 surprises: an unquoted value that YAML reads as something other than the text."""

from __future__ import annotations

from formscript.core.verdict import KeyPath, Problem, QuoteScalar
from formscript.rules.base import Rule
from formscript.rules.fs013_required_value_null import FS013
from formscript.rules.fs014_uncoercible_value import FS014


class Yaml11Surprise(Rule):
    """An unquoted value that YAML 1.1 reads as something other than the text you typed, so that the
    runtime refuses the form.

    ## Why

    PyYAML follows YAML 1.1: `no`, `on`, `y` become booleans, `12:30` is 750 and `2024-01-01` a
    date. In a field that wants a string, the boolean, number or date then fails validation. Quote
    the value; the fix does (safely for a string field). This finding replaces the validation error
    it explains.

    ## Fails

    ```yaml
    fields:
      country: {type: str}
    values:
      country: no
    ```

    ## Passes

    ```yaml
    fields:
      country: {type: str}
    values:
      country: 'no'
    ```
    """

    code = "FS015"
    name = "yaml11-surprise"
    kind = "form"
    severity = "error"
    rejects = True

    def problem(self, *, path: KeyPath, field: str, reading: str, text: str, safe: bool) -> Problem:
        """*reading* says how YAML reads the unquoted *text*; quoting is *safe* for a string field."""
        return _surprise(self, path, field, reading, text, safe)


FS015 = Yaml11Surprise()


class Yaml11SurpriseAccepted(Rule):
    """An unquoted value that YAML 1.1 reads as something other than the text you typed; the runtime
    accepts the form, with that other value.

    ## Why

    `017` is the octal number 15, `1:30` the base-60 number 90, and `~` null: the form passes, but
    the model sees a value you did not write. Quote it if you meant the text. Split from FS015,
    which now covers only the values the runtime refuses.

    ## Fails

    ```yaml
    fields:
      note: {type: str, required: false}
    values:
      note: ~
    ```

    ## Passes

    ```yaml
    fields:
      note: {type: str, required: false}
    values:
      note: '~'
    ```
    """

    code = "FS023"
    name = "yaml11-surprise-accepted"
    kind = "form"
    severity = "warning"

    def problem(self, *, path: KeyPath, field: str, reading: str, text: str, safe: bool) -> Problem:
        """*reading* says how YAML reads the unquoted *text*; quoting is *safe* for a string field."""
        return _surprise(self, path, field, reading, text, safe)


FS023 = Yaml11SurpriseAccepted()


def _surprise(rule: Rule, path: KeyPath, field: str, reading: str, text: str, safe: bool) -> Problem:
    return rule.found(
        f"{reading}; quote it to keep the text {text!r}",
        path,
        field=field,
        fix=QuoteScalar(path, text, safe),
        replaces=(FS014, FS013),
    )
