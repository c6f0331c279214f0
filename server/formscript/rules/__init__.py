"""Every rule formscript reports: the registry.

Each rule lives in its own module (or one per tight family), named by code and name, as a
singleton of a :class:`~formscript.rules.base.Rule` subclass whose docstring is its page.
``from formscript import rules`` is cheap: a rule's module is imported the first time the rule
is used (``rules.FS005``), so linting a clean file loads none of them.

To add a rule: write ``rules/<code>_<name>.py`` (copy a neighbour), list it in ``MODULES`` and
in the ``TYPE_CHECKING`` imports below, emit it with ``rules.<CODE>.problem(...)``, add its
cases under ``tests/rules/<CODE>/``; the site builds its page. The tests check the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from formscript.rules.base import Rule
    from formscript.rules.cl001_transcript_not_a_list import CL001 as CL001
    from formscript.rules.cl002_invalid_call import CL002 as CL002
    from formscript.rules.fs001_unknown_top_level_key import FS001 as FS001
    from formscript.rules.fs002_spec_not_a_mapping import FS002 as FS002
    from formscript.rules.fs003_section_not_a_mapping import FS003 as FS003
    from formscript.rules.fs004_values_without_fields import FS004 as FS004
    from formscript.rules.fs005_undeclared_value import FS005 as FS005
    from formscript.rules.fs006_invalid_field_name import FS006 as FS006
    from formscript.rules.fs007_declaration_not_a_mapping import FS007 as FS007
    from formscript.rules.fs008_unknown_declaration_key import FS008 as FS008
    from formscript.rules.fs009_name_in_declaration import FS009 as FS009
    from formscript.rules.fs010_unknown_field_type import FS010 as FS010
    from formscript.rules.fs011_default_type_mismatch import FS011 as FS011
    from formscript.rules.fs012_required_value_missing import FS012 as FS012
    from formscript.rules.fs013_required_value_null import FS013 as FS013
    from formscript.rules.fs014_uncoercible_value import FS014 as FS014
    from formscript.rules.fs015_yaml11_surprise import FS015 as FS015
    from formscript.rules.fs015_yaml11_surprise import FS023 as FS023
    from formscript.rules.fs016_implicit_coercion import FS016 as FS016
    from formscript.rules.fs017_bool_as_number import FS017 as FS017
    from formscript.rules.fs019_title_not_a_string import FS019 as FS019
    from formscript.rules.fs020_invalid_declaration_value import FS020 as FS020
    from formscript.rules.fs021_non_string_declaration_key import FS021 as FS021
    from formscript.rules.fs022_alias_bomb_in_values import FS022 as FS022
    from formscript.rules.fs024_prompt_over_cap import FS024 as FS024
    from formscript.rules.fs025_value_crashes_runtime import FS025 as FS025
    from formscript.rules.fs026_set_order_varies import FS026 as FS026
    from formscript.rules.fsx000_internal_error import FSX000 as FSX000
    from formscript.rules.fsx_suppressions import FSX001 as FSX001
    from formscript.rules.fsx_suppressions import FSX002 as FSX002
    from formscript.rules.py001_not_a_literal import PY001 as PY001
    from formscript.rules.py002_call_raises import PY002 as PY002
    from formscript.rules.py003_expectation_unmet import PY003 as PY003
    from formscript.rules.rs001_unknown_check_kind import RS001 as RS001
    from formscript.rules.rs002_rule_field_not_declared import RS002 as RS002
    from formscript.rules.rs003_range_min_above_max import RS003 as RS003
    from formscript.rules.rs004_range_on_non_numeric_field import RS004 as RS004
    from formscript.rules.rs005_type_rule_mismatch import RS005 as RS005
    from formscript.rules.rs006_invalid_pattern import RS006 as RS006
    from formscript.rules.rs007_pattern_on_non_string_field import RS007 as RS007
    from formscript.rules.rs008_pattern_input_too_long import RS008 as RS008
    from formscript.rules.rs009_duplicate_rule_id import RS009 as RS009
    from formscript.rules.rs010_custom_check import RS010 as RS010
    from formscript.rules.rs011_invalid_rule import RS011 as RS011
    from formscript.rules.rs012_pattern_backtracking_risk import RS012 as RS012
    from formscript.rules.rs013_unknown_rule_key import RS013 as RS013
    from formscript.rules.rs014_unknown_rule_type import RS014 as RS014
    from formscript.rules.rs015_unknown_ruleset_key import RS015 as RS015
    from formscript.rules.rs100_rule_fails import RS100 as RS100
    from formscript.rules.rs101_rule_raises import RS101 as RS101
    from formscript.rules.sc001_invalid_script_top_level import SC001 as SC001
    from formscript.rules.sc002_unknown_response_type import SC002 as SC002
    from formscript.rules.sc003_unknown_entry_key import SC003 as SC003
    from formscript.rules.sc004_missing_entry_key import SC004 as SC004
    from formscript.rules.sc005_invalid_entry_value import SC005 as SC005
    from formscript.rules.sc006_invalid_mode import SC006 as SC006
    from formscript.rules.sc007_invalid_version import SC007 as SC007
    from formscript.rules.sc008_conflicting_predicates import SC008 as SC008
    from formscript.rules.sc009_invalid_prompt_regex import SC009 as SC009
    from formscript.rules.sc010_regex_backtracking_risk import SC010 as SC010
    from formscript.rules.sc011_unreachable_entry import SC011 as SC011
    from formscript.rules.sc012_empty_matcher import SC012 as SC012
    from formscript.rules.sc013_stream_terminal_chunk import SC013 as SC013
    from formscript.rules.sc014_tool_use_without_name import SC014 as SC014
    from formscript.rules.sc015_duplicate_tool_call_id import SC015 as SC015
    from formscript.rules.sc016_empty_script import SC016 as SC016
    from formscript.rules.sc017_json_script_not_strict_json import SC017 as SC017
    from formscript.rules.sc018_entry_not_a_mapping import SC018 as SC018
    from formscript.rules.sc019_responses_not_a_list import SC019 as SC019
    from formscript.rules.sc020_not_json_encodable import SC020 as SC020
    from formscript.rules.sc021_alias_bomb_in_response import SC021 as SC021
    from formscript.rules.sc022_negative_delay import SC022 as SC022
    from formscript.rules.sc023_negative_after_calls import SC023 as SC023
    from formscript.rules.ym_parsing import YM001 as YM001
    from formscript.rules.ym_parsing import YM002 as YM002
    from formscript.rules.ym_parsing import YM003 as YM003

#: Every rule by code, with the module that defines it, in documentation order.
MODULES: dict[str, str] = {
    "YM001": "ym_parsing",
    "YM002": "ym_parsing",
    "YM003": "ym_parsing",
    "FS001": "fs001_unknown_top_level_key",
    "FS002": "fs002_spec_not_a_mapping",
    "FS003": "fs003_section_not_a_mapping",
    "FS004": "fs004_values_without_fields",
    "FS005": "fs005_undeclared_value",
    "FS006": "fs006_invalid_field_name",
    "FS007": "fs007_declaration_not_a_mapping",
    "FS008": "fs008_unknown_declaration_key",
    "FS009": "fs009_name_in_declaration",
    "FS010": "fs010_unknown_field_type",
    "FS011": "fs011_default_type_mismatch",
    "FS012": "fs012_required_value_missing",
    "FS013": "fs013_required_value_null",
    "FS014": "fs014_uncoercible_value",
    "FS015": "fs015_yaml11_surprise",
    "FS023": "fs015_yaml11_surprise",
    "FS016": "fs016_implicit_coercion",
    "FS017": "fs017_bool_as_number",
    "FS019": "fs019_title_not_a_string",
    "FS020": "fs020_invalid_declaration_value",
    "FS021": "fs021_non_string_declaration_key",
    "FS022": "fs022_alias_bomb_in_values",
    "FS024": "fs024_prompt_over_cap",
    "FS025": "fs025_value_crashes_runtime",
    "FS026": "fs026_set_order_varies",
    "SC001": "sc001_invalid_script_top_level",
    "SC002": "sc002_unknown_response_type",
    "SC003": "sc003_unknown_entry_key",
    "SC004": "sc004_missing_entry_key",
    "SC005": "sc005_invalid_entry_value",
    "SC006": "sc006_invalid_mode",
    "SC007": "sc007_invalid_version",
    "SC008": "sc008_conflicting_predicates",
    "SC009": "sc009_invalid_prompt_regex",
    "SC010": "sc010_regex_backtracking_risk",
    "SC011": "sc011_unreachable_entry",
    "SC012": "sc012_empty_matcher",
    "SC013": "sc013_stream_terminal_chunk",
    "SC014": "sc014_tool_use_without_name",
    "SC015": "sc015_duplicate_tool_call_id",
    "SC016": "sc016_empty_script",
    "SC017": "sc017_json_script_not_strict_json",
    "SC018": "sc018_entry_not_a_mapping",
    "SC019": "sc019_responses_not_a_list",
    "SC020": "sc020_not_json_encodable",
    "SC021": "sc021_alias_bomb_in_response",
    "SC022": "sc022_negative_delay",
    "SC023": "sc023_negative_after_calls",
    "RS001": "rs001_unknown_check_kind",
    "RS002": "rs002_rule_field_not_declared",
    "RS003": "rs003_range_min_above_max",
    "RS004": "rs004_range_on_non_numeric_field",
    "RS005": "rs005_type_rule_mismatch",
    "RS006": "rs006_invalid_pattern",
    "RS007": "rs007_pattern_on_non_string_field",
    "RS008": "rs008_pattern_input_too_long",
    "RS009": "rs009_duplicate_rule_id",
    "RS010": "rs010_custom_check",
    "RS011": "rs011_invalid_rule",
    "RS012": "rs012_pattern_backtracking_risk",
    "RS013": "rs013_unknown_rule_key",
    "RS014": "rs014_unknown_rule_type",
    "RS015": "rs015_unknown_ruleset_key",
    "RS100": "rs100_rule_fails",
    "RS101": "rs101_rule_raises",
    "CL001": "cl001_transcript_not_a_list",
    "CL002": "cl002_invalid_call",
    "PY001": "py001_not_a_literal",
    "PY002": "py002_call_raises",
    "PY003": "py003_expectation_unmet",
    "FSX000": "fsx000_internal_error",
    "FSX001": "fsx_suppressions",
    "FSX002": "fsx_suppressions",
}


def reference() -> str:
    """Every rule's page after an index (``formscript rule --all --format markdown``)."""
    found = all_rules()
    rows = [
        f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {r.kind} | {r.severity} | {'yes' * r.rejects} |"
        for r in found
    ]
    head = (
        "# formscript rules\n\n"
        "<!-- Generated from server/formscript/rules by `formscript rule --all --format markdown`; do not edit. -->\n\n"
        "| code | name | applies to | severity | rejects |\n|---|---|---|---|---|\n"
    )
    return head + "".join(row + "\n" for row in rows) + "\n" + "\n".join(r.page() for r in found)


def get(code: str) -> Rule | None:
    """The rule with *code* (any case, surrounding blanks ignored), or None."""
    key = code.strip().upper()
    if key not in MODULES:
        return None
    rule: Rule = getattr(__import__(f"{__name__}.{MODULES[key]}", fromlist=[key]), key)
    globals()[key] = rule
    return rule


def all_rules() -> tuple[Rule, ...]:
    """Every rule, in documentation order (imports every rule module)."""
    found = tuple(get(code) for code in MODULES)
    return tuple(rule for rule in found if rule is not None)


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Rule:
        """``rules.FS005``: load the rule's module on first use."""
        rule = get(name) if name in MODULES else None
        if rule is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return rule
