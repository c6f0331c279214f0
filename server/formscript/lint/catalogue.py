"""The rule catalogue: every code formscript reports, with its documentation.

Each rule's failing example must produce its code and its passing example must not; the
test suite runs both, so the documentation cannot drift from the behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass

from formscript.core.verdict import Severity

DOCS_URL = "https://formscript.dev/rules/{code}"


@dataclass(frozen=True)
class RuleDoc:
    """One rule: code, name, the kind of file it applies to, default severity and docs."""

    code: str
    name: str
    kind: str  # form | script | rules | calls | any
    severity: Severity
    summary: str
    why: str
    bad: str
    good: str
    #: File name the examples are linted under (decides the kind and the loader).
    example_name: str = ""

    @property
    def url(self) -> str:
        """Where the documentation lives online."""
        return DOCS_URL.format(code=self.code)

    def example_path(self) -> str:
        """The file name under which the examples are checked."""
        if self.example_name:
            return self.example_name
        return {
            "form": "example.form.yaml",
            "script": "example.script.yaml",
            "rules": "example.rules.yaml",
            "calls": "example.calls.yaml",
        }.get(self.kind, "example.form.yaml")

    def markdown(self) -> str:
        """The long documentation as Markdown."""
        return (
            f"# {self.code} {self.name}\n\n{self.summary}\n\n"
            f"Applies to: {self.kind} files. Default severity: {self.severity}.\n\n"
            f"## Why\n\n{self.why}\n\n"
            f"## Fails\n\n```yaml\n{self.bad}```\n\n## Passes\n\n```yaml\n{self.good}```\n"
        )


_F = "fields:\n  age: {type: int}\n"
_LAUGHS = "".join(f"    - &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcde", "bcdef", strict=True))

#: The form rulesets' examples are checked against (as with ``--form``).
PAIRED_FORM = (
    "fields:\n  age: {type: int}\n  name: {type: str}\n  bio: {type: str, required: false}\n"
    "values:\n  age: 30\n  name: Ada\n  bio: " + "x" * 5000 + "\n"
)

RULES: tuple[RuleDoc, ...] = (
    # -- parsing -------------------------------------------------------------------------
    RuleDoc(
        "YM001",
        "syntax-error",
        "any",
        "error",
        "The file is not valid YAML (or JSON, where the runtime reads JSON).",
        "The runtime cannot load the file at all, so it refuses it before doing anything else.",
        "fields:\n  age: {type: int\n",
        "fields:\n  age: {type: int}\n",
    ),
    RuleDoc(
        "YM002",
        "duplicate-key",
        "any",
        "warning",
        "A mapping repeats a key; the runtime silently keeps the last copy.",
        "YAML loaders do not complain about duplicate keys: the earlier copy simply vanishes, "
        "usually along with an edit someone meant to keep.",
        "fields:\n  age: {type: int}\n  age: {type: str}\n",
        "fields:\n  age: {type: int}\n",
    ),
    RuleDoc(
        "YM003",
        "unsafe-tag",
        "any",
        "error",
        "A tag safe_load refuses (python objects and other non-standard tags).",
        "The runtime loads with safe_load, which refuses these tags, so the file is rejected; "
        "formscript never executes or constructs them.",
        "title: !!python/object/apply:os.getcwd []\n",
        "title: Review\n",
    ),
    # -- forms ---------------------------------------------------------------------------
    RuleDoc(
        "FS001",
        "unknown-top-level-key",
        "form",
        "error",
        "A form spec key other than title, fields and values.",
        "`li agent --form` has a closed schema: any other top-level key refuses the whole form.",
        "title: Review\nfeilds:\n  age: {type: int}\n",
        "title: Review\nfields:\n  age: {type: int}\n",
    ),
    RuleDoc(
        "FS002",
        "spec-not-a-mapping",
        "form",
        "error",
        "The form spec's top level is not a mapping.",
        "The runtime needs a mapping with title, fields and values; a list or a scalar is refused.",
        "- age\n- name\n",
        _F,
    ),
    RuleDoc(
        "FS003",
        "section-not-a-mapping",
        "form",
        "error",
        "`fields` or `values` is present but is not a mapping.",
        "Both sections are mappings keyed by field name; a list (a common slip) is refused.",
        "fields:\n  - age\n",
        _F,
    ),
    RuleDoc(
        "FS004",
        "values-without-fields",
        "form",
        "error",
        "`values` has entries but no fields are declared.",
        "The gate refuses values it cannot validate, so that unchecked text never reaches the model.",
        "values:\n  age: 7\n",
        _F + "values:\n  age: 7\n",
    ),
    RuleDoc(
        "FS005",
        "undeclared-value",
        "form",
        "error",
        "A key in `values` has no declaration in `fields`.",
        "The gate refuses undeclared values; it is usually a typo of a declared name.",
        _F + "values:\n  aeg: 7\n",
        _F + "values:\n  age: 7\n",
    ),
    RuleDoc(
        "FS006",
        "invalid-field-name",
        "form",
        "error",
        "A field name that is not an identifier.",
        "Names must start with a letter or underscore and hold only letters, digits and "
        "underscores; the runtime refuses the declaration otherwise.",
        "fields:\n  first-name: {type: str}\n",
        "fields:\n  first_name: {type: str}\n",
    ),
    RuleDoc(
        "FS007",
        "declaration-not-a-mapping",
        "form",
        "error",
        "A field declaration is not a mapping.",
        "Each field is declared with a mapping (type, required, default, description); a bare type name is refused.",
        "fields:\n  age: int\n",
        _F,
    ),
    RuleDoc(
        "FS008",
        "unknown-declaration-key",
        "form",
        "error",
        "A declaration key the runtime does not know.",
        "Declarations are closed: a misspelt key such as `requried` refuses the form instead of being ignored.",
        "fields:\n  age: {type: int, requried: false}\n",
        "fields:\n  age: {type: int, required: false}\n",
    ),
    RuleDoc(
        "FS009",
        "name-in-declaration",
        "form",
        "error",
        "A declaration carries its own `name` key.",
        "The mapping key is the field's name; the runtime passes it as `name` and a second "
        "`name` makes the declaration fail.",
        "fields:\n  age: {name: age, type: int}\n",
        _F,
    ),
    RuleDoc(
        "FS010",
        "unknown-field-type",
        "form",
        "error",
        "A field type other than str, int, float, bool, list and dict.",
        "The runtime knows exactly six type names; anything else refuses the declaration.",
        "fields:\n  age: {type: integer}\n",
        _F,
    ),
    RuleDoc(
        "FS011",
        "default-type-mismatch",
        "form",
        "error",
        "A default that is not already of the declared type.",
        "Defaults are checked with isinstance when the field is built and never coerced: "
        '`default: "5"` refuses an int field, while an int default is fine for a float field.',
        "fields:\n  age: {type: int, default: '5'}\n",
        "fields:\n  age: {type: int, default: 5}\n",
    ),
    RuleDoc(
        "FS012",
        "required-value-missing",
        "form",
        "error",
        "A required field with no value and no default.",
        "Fields are required unless `required: false`; with no value and no default the form "
        "fails validation and no model call is made.",
        "fields:\n  age: {type: int}\nvalues: {}\n",
        "fields:\n  age: {type: int, default: 30}\n",
    ),
    RuleDoc(
        "FS013",
        "required-value-null",
        "form",
        "error",
        "A required field whose value is null.",
        "The runtime treats null as missing. Note that YAML reads `~`, `null` and an empty value as null.",
        _F + "values:\n  age: ~\n",
        _F + "values:\n  age: 30\n",
    ),
    RuleDoc(
        "FS014",
        "uncoercible-value",
        "form",
        "error",
        "A value that cannot be turned into its field's type.",
        "Coercion accepts instances, int for float, numeric strings for int/float and "
        "true/1/yes, false/0/no for bool; anything else fails validation.",
        _F + "values:\n  age: thirty\n",
        _F + "values:\n  age: 30\n",
    ),
    RuleDoc(
        "FS015",
        "yaml11-surprise",
        "form",
        "warning",
        "YAML 1.1 reads an unquoted value as something other than the text you typed.",
        "PyYAML follows YAML 1.1: `no`, `on`, `y` become booleans, `017` is octal 15, `12:30` is "
        "750 and `2024-01-01` a date. Where the field wants another type, quote the value. This "
        "is an error when it makes the runtime refuse the form.",
        "fields:\n  country: {type: str}\nvalues:\n  country: no\n",
        "fields:\n  country: {type: str}\nvalues:\n  country: 'no'\n",
    ),
    RuleDoc(
        "FS016",
        "implicit-coercion",
        "form",
        "info",
        "A string value the runtime converts to the field's type.",
        '`"7"` in an int field is stored as 7; the context block shows the converted value.',
        _F + "values:\n  age: '7'\n",
        _F + "values:\n  age: 7\n",
    ),
    RuleDoc(
        "FS017",
        "bool-as-number",
        "form",
        "warning",
        "A boolean given to an int or float field.",
        "bool is an int in Python, so the runtime accepts `true` for an int field silently "
        "(and stores 1.0 for a float field).",
        _F + "values:\n  age: true\n",
        _F + "values:\n  age: 1\n",
    ),
    RuleDoc(
        "FS022",
        "alias-bomb-in-values",
        "form",
        "error",
        "Values that expand to more than a million items through YAML aliases.",
        "Anchors and aliases share one object, so loading stays cheap, but the context block "
        "is rendered with repr, which expands every alias: a few hundred bytes can exhaust "
        "memory before the model call.",
        "fields:\n  items: {type: list}\nvalues:\n  items:\n    - &a [x, x, x, x, x, x, x, x, x, x]\n"
        + _LAUGHS
        + "    - *f\n",
        "fields:\n  items: {type: list}\nvalues:\n  items:\n    - &a [x, x]\n    - *a\n",
    ),
    RuleDoc(
        "FS019",
        "title-not-a-string",
        "form",
        "error",
        "The title is not a string.",
        "The title must be a string; numbers and null refuse the form. Without a title the "
        "runtime uses the spec's path as given on the command line.",
        "title: 2024\n" + _F,
        "title: '2024'\n" + _F,
    ),
    RuleDoc(
        "FS020",
        "invalid-declaration-value",
        "form",
        "error",
        "A declaration key with a value of the wrong type.",
        "`required` takes a boolean (pydantic also accepts yes/no/1/0 strings), `description` a "
        "string; `description: 5` refuses the field.",
        "fields:\n  age: {type: int, description: 5}\n",
        "fields:\n  age: {type: int, description: Age in years}\n",
    ),
    RuleDoc(
        "FS021",
        "non-string-declaration-key",
        "form",
        "error",
        "A declaration key that is not a string.",
        "The declaration is passed as keyword arguments, which must be strings; YAML turns "
        "`yes:` or `1:` into a bool or an int.",
        "fields:\n  age: {type: int, 1: x}\n",
        _F,
    ),
    # -- scripts -------------------------------------------------------------------------
    RuleDoc(
        "SC001",
        "invalid-script-top-level",
        "script",
        "error",
        "The script is not a mapping, or has a key other than version, mode and responses.",
        "ScriptModel forbids extra keys, so a misspelt `response:` refuses the script.",
        "responses:\n  - {type: text, content: hi}\nmodes: auto\n",
        "responses:\n  - {type: text, content: hi}\nmode: auto\n",
    ),
    RuleDoc(
        "SC002",
        "unknown-response-type",
        "script",
        "error",
        "An entry whose `type` is missing or not text, tool_call, structured, stream or error.",
        "Entries are dispatched on `type`; an unknown or missing one refuses the script.",
        "responses:\n  - {type: txt, content: hi}\n",
        "responses:\n  - {type: text, content: hi}\n",
    ),
    RuleDoc(
        "SC003",
        "unknown-entry-key",
        "script",
        "error",
        "A key the entry, its matcher or a stream chunk does not accept.",
        "Entries, matchers and chunks are closed models: a misspelt key refuses the script.",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_contain: hello}\n",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_contains: hello}\n",
    ),
    RuleDoc(
        "SC004",
        "missing-entry-key",
        "script",
        "error",
        "An entry lacks a key its type requires.",
        "text needs content, tool_call needs name, structured needs data, stream needs chunks.",
        "responses:\n  - {type: tool_call}\n",
        "responses:\n  - {type: tool_call, name: search}\n",
    ),
    RuleDoc(
        "SC005",
        "invalid-entry-value",
        "script",
        "error",
        "An entry value of the wrong type.",
        "For example content must be a string and arguments a mapping.",
        "responses:\n  - {type: text, content: [hi]}\n",
        "responses:\n  - {type: text, content: hi}\n",
    ),
    RuleDoc(
        "SC006",
        "invalid-mode",
        "script",
        "error",
        "A mode other than auto, positional and when_only.",
        "ScriptModel validates the mode against exactly these three names.",
        "mode: positonal\nresponses:\n  - {type: text, content: hi}\n",
        "mode: positional\nresponses:\n  - {type: text, content: hi}\n",
    ),
    RuleDoc(
        "SC007",
        "invalid-version",
        "script",
        "error",
        "A version that is not an integer.",
        "The version is an int (lax: '1' and 1.0 pass, 1.5 does not).",
        "version: v1\nresponses: []\n",
        "version: 1\nresponses: []\n",
    ),
    RuleDoc(
        "SC008",
        "conflicting-predicates",
        "script",
        "warning",
        "A matcher sets more than one of prompt_contains, prompt_regex and has_tool.",
        "The runtime consults only the first set one in that order; the others are never "
        "evaluated (they are not ANDed, whatever the docstring says).",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_contains: weather, has_tool: search}\n",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_contains: weather}\n",
    ),
    RuleDoc(
        "SC009",
        "invalid-prompt-regex",
        "script",
        "error",
        "A prompt_regex that does not compile.",
        "The script loads, but the first call that evaluates the matcher raises re.error.",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_regex: '(unclosed'}\n",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_regex: '(closed)'}\n",
    ),
    RuleDoc(
        "SC010",
        "regex-backtracking-risk",
        "script",
        "warning",
        "A prompt_regex with nested quantifiers that can backtrack catastrophically.",
        "Python's re backtracks; `(a+)+$` on a long non-matching prompt can hang a test run.",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_regex: '(a+)+$'}\n",
        "responses:\n  - type: text\n    content: hi\n    when: {prompt_regex: 'a+$'}\n",
    ),
    RuleDoc(
        "SC011",
        "unreachable-entry",
        "script",
        "warning",
        "An entry the runtime can never serve.",
        "Conditional entries are skipped in positional mode, unconditional ones in when_only "
        "mode; call_index below after_calls, a negative call_index, or a call_index gate already "
        "taken by an earlier gate-only entry never match.",
        "mode: positional\nresponses:\n  - type: text\n    content: hi\n    when: {call_index: 0}\n",
        "mode: auto\nresponses:\n  - type: text\n    content: hi\n    when: {call_index: 0}\n",
    ),
    RuleDoc(
        "SC012",
        "empty-matcher",
        "script",
        "info",
        "`when: {}` sets no condition, so the entry is positional.",
        "An empty matcher is treated exactly like no matcher; drop it or add a condition.",
        "responses:\n  - {type: text, content: hi, when: {}}\n",
        "responses:\n  - {type: text, content: hi}\n",
    ),
    RuleDoc(
        "SC013",
        "stream-terminal-chunk",
        "script",
        "warning",
        "A stream does not end in exactly one terminal chunk (result or error).",
        "Consumers stop at the terminal event: one must come last and none before it.",
        "responses:\n  - type: stream\n    chunks:\n      - {type: text, content: hi}\n",
        "responses:\n  - type: stream\n    chunks:\n      - {type: text, content: hi}\n      - {type: result}\n",
    ),
    RuleDoc(
        "SC014",
        "tool-use-without-name",
        "script",
        "warning",
        "A tool_use chunk without tool_name.",
        "A tool call event with no tool name cannot be dispatched by the consumer.",
        "responses:\n  - type: stream\n    chunks:\n      - {type: tool_use}\n      - {type: result}\n",
        "responses:\n  - type: stream\n    chunks:\n      - {type: tool_use, tool_name: search}\n"
        "      - {type: result}\n",
    ),
    RuleDoc(
        "SC015",
        "duplicate-tool-call-id",
        "script",
        "warning",
        "Two tool_call entries share an id.",
        "Tool results are matched to calls by id; a repeated id confuses the conversation.",
        "responses:\n  - {type: tool_call, name: a, id: call_1}\n  - {type: tool_call, name: b, id: call_1}\n",
        "responses:\n  - {type: tool_call, name: a, id: call_1}\n  - {type: tool_call, name: b, id: call_2}\n",
    ),
    RuleDoc(
        "SC016",
        "empty-script",
        "script",
        "warning",
        "The script has no responses.",
        "The first call raises ScriptExhaustedError.",
        "responses: []\n",
        "responses:\n  - {type: text, content: hi}\n",
    ),
    RuleDoc(
        "SC017",
        "json-script-not-strict-json",
        "script",
        "error",
        "A script whose name does not end in .yaml/.yml but which is not strict JSON.",
        "The runtime reads every other suffix with json.load, so YAML syntax there is refused.",
        "responses:\n  - {type: text, content: hi}\n",
        '{"responses": [{"type": "text", "content": "hi"}]}\n',
        example_name="example.script.json",
    ),
    RuleDoc(
        "SC018",
        "entry-not-a-mapping",
        "script",
        "error",
        "A response entry that is not a mapping.",
        "Entries are mappings with a `type`; a bare string is refused.",
        "responses:\n  - hello\n",
        "responses:\n  - {type: text, content: hello}\n",
    ),
    RuleDoc(
        "SC019",
        "responses-not-a-list",
        "script",
        "error",
        "`responses` is not a list.",
        "ScriptModel needs a list of entries.",
        "responses:\n  type: text\n",
        "responses:\n  - {type: text, content: hi}\n",
    ),
    RuleDoc(
        "SC020",
        "not-json-encodable",
        "script",
        "error",
        "Structured data or tool arguments hold values JSON cannot encode (dates, for instance).",
        "The endpoint encodes them with json.dumps when serving, which raises TypeError; YAML "
        "turns unquoted dates into date objects.",
        "responses:\n  - type: structured\n    data: {due: 2024-01-01}\n",
        "responses:\n  - type: structured\n    data: {due: '2024-01-01'}\n",
    ),
    RuleDoc(
        "SC021",
        "alias-bomb-in-response",
        "script",
        "error",
        "Structured data or tool arguments that expand to more than a million values through YAML aliases.",
        "The script loads cheaply, but serving the entry JSON-encodes every expanded value, "
        "which exhausts time and memory.",
        "responses:\n  - type: structured\n    data:\n      items:\n"
        "        - &a [x, x, x, x, x, x, x, x, x, x]\n" + _LAUGHS.replace("    - ", "        - ") + "        - *f\n",
        "responses:\n  - type: structured\n    data: {items: [1, 2]}\n",
    ),
    # -- rulesets ------------------------------------------------------------------------
    RuleDoc(
        "RS001",
        "unknown-check-kind",
        "rules",
        "error",
        "A rule check other than required, type, range, pattern and custom.",
        "Rule validates `check` against exactly these kinds.",
        "rules:\n  - {rule_id: r1, field: age, check: ranges}\n",
        "rules:\n  - {rule_id: r1, field: age, check: range, params: {min: 0}}\n",
    ),
    RuleDoc(
        "RS002",
        "rule-field-not-declared",
        "rules",
        "warning",
        "A rule names a field the paired form does not declare (with --form).",
        "The rule reads values.get(field); for an undeclared field it always sees None.",
        "rules:\n  - {rule_id: r1, field: agee, check: required}\n",
        "rules:\n  - {rule_id: r1, field: age, check: required}\n",
    ),
    RuleDoc(
        "RS003",
        "range-min-above-max",
        "rules",
        "error",
        "A range rule whose min is above its max.",
        "No value can pass such a rule.",
        "rules:\n  - {rule_id: r1, field: age, check: range, params: {min: 10, max: 1}}\n",
        "rules:\n  - {rule_id: r1, field: age, check: range, params: {min: 1, max: 10}}\n",
    ),
    RuleDoc(
        "RS004",
        "range-on-non-numeric-field",
        "rules",
        "warning",
        "A range rule on a field declared str, list or dict (with --form).",
        "Range checks fail on any non-numeric value (bool counts as numeric).",
        "rules:\n  - {rule_id: r1, field: name, check: range, params: {min: 1}}\n",
        "rules:\n  - {rule_id: r1, field: age, check: range, params: {min: 1}}\n",
    ),
    RuleDoc(
        "RS005",
        "type-rule-mismatch",
        "rules",
        "warning",
        "A type rule naming an unknown type, or one that disagrees with the declared type.",
        "Rules see coerced values, so a type rule other than the declared type always fails; an "
        "unknown type name is itself a rule error.",
        "rules:\n  - {rule_id: r1, field: age, check: type, params: {type: integer}}\n",
        "rules:\n  - {rule_id: r1, field: age, check: type, params: {type: int}}\n",
    ),
    RuleDoc(
        "RS006",
        "invalid-pattern",
        "rules",
        "error",
        "A pattern rule whose regex does not compile.",
        "The rule then always fails with an invalid-pattern error.",
        "rules:\n  - {rule_id: r1, field: name, check: pattern, params: {pattern: '[a-'}}\n",
        "rules:\n  - {rule_id: r1, field: name, check: pattern, params: {pattern: '[a-z]+'}}\n",
    ),
    RuleDoc(
        "RS007",
        "pattern-on-non-string-field",
        "rules",
        "warning",
        "A pattern rule on a field declared other than str (with --form).",
        "Pattern checks fail on any non-string value.",
        "rules:\n  - {rule_id: r1, field: age, check: pattern, params: {pattern: '^1'}}\n",
        "rules:\n  - {rule_id: r1, field: name, check: pattern, params: {pattern: '^A'}}\n",
    ),
    RuleDoc(
        "RS008",
        "pattern-input-too-long",
        "rules",
        "error",
        "A value longer than the 4,096-character pattern input cap (with --form).",
        "Pattern rules refuse longer inputs before compiling the regex.",
        "rules:\n  - {rule_id: r1, field: bio, check: pattern, params: {pattern: x}}\n",
        "rules:\n  - {rule_id: r1, field: name, check: pattern, params: {pattern: A}}\n",
    ),
    RuleDoc(
        "RS009",
        "duplicate-rule-id",
        "rules",
        "error",
        "Two rules share a rule_id.",
        "RuleSet.add raises on a duplicate id.",
        "rules:\n  - {rule_id: r1, field: age, check: required}\n  - {rule_id: r1, field: name, check: required}\n",
        "rules:\n  - {rule_id: r1, field: age, check: required}\n  - {rule_id: r2, field: name, check: required}\n",
    ),
    RuleDoc(
        "RS010",
        "custom-check",
        "rules",
        "info",
        "A custom check cannot be decided from a file.",
        "Custom checks call a Python callable supplied at run time; from the file alone the "
        "verdict is insufficient_evidence.",
        "rules:\n  - {rule_id: r1, field: age, check: custom}\n",
        "rules:\n  - {rule_id: r1, field: age, check: required}\n",
    ),
    RuleDoc(
        "RS011",
        "invalid-rule",
        "rules",
        "error",
        "A ruleset or rule of the wrong shape (missing rule_id, field or check; wrong types).",
        "A ruleset file is a mapping with `rules:`, a list of Rule mappings.",
        "rules:\n  - {field: age, check: required}\n",
        "rules:\n  - {rule_id: r1, field: age, check: required}\n",
    ),
    RuleDoc(
        "RS012",
        "pattern-backtracking-risk",
        "rules",
        "warning",
        "A pattern with nested quantifiers that can backtrack catastrophically.",
        "The 4,096-character cap bounds the input, not the pattern; `(a+)+$` can still take seconds.",
        "rules:\n  - {rule_id: r1, field: name, check: pattern, params: {pattern: '(a+)+$'}}\n",
        "rules:\n  - {rule_id: r1, field: name, check: pattern, params: {pattern: 'a+$'}}\n",
    ),
    RuleDoc(
        "RS013",
        "unknown-rule-key",
        "rules",
        "warning",
        "A rule key the runtime does not know; it is silently dropped.",
        "Rule ignores unknown keys instead of refusing them, so a misspelt `mesage:` or `enable:` never takes effect.",
        "rules:\n  - {rule_id: r1, field: age, check: required, mesage: Age is needed}\n",
        "rules:\n  - {rule_id: r1, field: age, check: required, message: Age is needed}\n",
    ),
    RuleDoc(
        "RS100",
        "rule-fails",
        "rules",
        "error",
        "A rule fails on the paired form's values (dry runs and --form).",
        "fill_form appends rule errors after field errors and the form ends in status error.",
        "rules:\n  - {rule_id: r1, field: age, check: range, params: {max: 5}}\n",
        "rules:\n  - {rule_id: r1, field: age, check: range, params: {max: 50}}\n",
    ),
    # -- call transcripts ----------------------------------------------------------------
    RuleDoc(
        "CL001",
        "transcript-not-a-list",
        "calls",
        "error",
        "A calls transcript that is not a list.",
        "A transcript is a list of calls: strings, {prompt, tools} or {payload} mappings.",
        "prompt: hello\n",
        "- hello\n",
    ),
    RuleDoc(
        "CL002",
        "invalid-call",
        "calls",
        "error",
        "A call of the wrong shape.",
        "Each call is a string, a mapping with `prompt` (string) and optional `tools` (list of "
        "names), or a mapping with `payload` (a request payload mapping).",
        "- {prompt: hello, tool: [search]}\n",
        "- {prompt: hello, tools: [search]}\n",
    ),
    # -- suppressions --------------------------------------------------------------------
    RuleDoc(
        "FSX001",
        "unused-suppression",
        "any",
        "warning",
        "A `# formscript: ignore[...]` comment that suppresses nothing.",
        "Stale suppressions hide nothing today and hide a real problem tomorrow.",
        _F + "# formscript: ignore[FS005] legacy\nvalues:\n  age: 7\n",
        _F + "values:\n  age: 7\n",
    ),
    RuleDoc(
        "FSX002",
        "suppression-without-reason",
        "any",
        "warning",
        "A suppression comment with no reason after the codes.",
        "Say why the finding is acceptable so the next reader can judge it.",
        _F + "values:\n  # formscript: ignore[FS005]\n  aeg: 7\n",
        _F + "values:\n  # formscript: ignore[FS005] kept for the legacy agent\n  aeg: 7\n",
    ),
)

BY_CODE: dict[str, RuleDoc] = {rule.code: rule for rule in RULES}


def get(code: str) -> RuleDoc | None:
    """The documentation of *code* (case-insensitive), or None."""
    return BY_CODE.get(code.upper())


def default_severity(code: str) -> Severity:
    """The catalogue's severity for *code* (error for codes it does not know)."""
    rule = BY_CODE.get(code)
    return rule.severity if rule is not None else "error"
