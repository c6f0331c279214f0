"""Field declarations as the runtime builds them: ``FieldSpec(name=<key>, **declaration)``
for each entry of a form's ``fields``, reporting every fault instead of stopping at the first.

Declarations written with the declared types are built as plain data (``fields.plain_field``);
the others are validated by ``lax_fields``, which asks the pydantic model only for the values
it does not decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from formscript import rules
from formscript.core.fields import (
    DECLARATION_KEYS,
    FIELD_NAME_RE,
    FIELD_TYPES,
    Declared,
    as_text,
    default_fits,
    plain_field,
)
from formscript.core.lax_fields import validate_fieldspec
from formscript.core.suggest import closest
from formscript.core.verdict import reason_of

if TYPE_CHECKING:
    from formscript.core.lax_fields import Error
    from formscript.core.verdict import Problem


#: Declarations already built, by the identity of their raw mapping (kept beside it with its
#: key, so the identity cannot be reused): what building (key, mapping) gave, its problems
#: included. An incremental caller keeps one across versions of a text.
DeclarationMemo: TypeAlias = "dict[int, tuple[Any, Any, Declared | None, list[Problem]]]"


def build_declarations(
    fields: dict[Any, Any], problems: list[Problem], memo: DeclarationMemo | None = None
) -> dict[Any, Declared]:
    """The declarations of *fields* that build, keyed as the runtime's ``WorkForm`` keys them;
    the faults of the others go to *problems* (*memo*: what building each (key, mapping)
    gave before; building one depends on nothing else).

    ``WorkForm.fields`` is a pydantic ``dict[str, FieldSpec]``, so a bytes key (``!!binary``,
    ``b"..."``) becomes its UTF-8 text; two keys that meet that way keep the first one's place
    and the last one's declaration, as a dict does.
    """
    built: dict[Any, Declared] = {}
    for key, declaration in fields.items():
        if memo is None or type(declaration) is not dict:
            spec = _build_declaration(key, declaration, problems)
        else:
            known = memo.get(id(declaration))
            if known is None or known[0] is not declaration or known[1] is not key:
                own: list[Problem] = []
                known = memo[id(declaration)] = (declaration, key, _build_declaration(key, declaration, own), own)
            spec = known[2]
            problems.extend(known[3])
        if spec is not None:
            built[workform_key(key)] = spec
    return built


def workform_key(key: Any) -> Any:
    """The key a declaration has in the built form (*key* itself unless pydantic's lax str
    turns it into other text)."""
    if type(key) is str:
        return key
    text = as_text(key)
    return key if text is None else text


def raw_key(fields: dict[Any, Any], name: Any) -> Any:
    """The key of *fields* as written for the built form's key *name* (its first spelling)."""
    if name in fields:
        return name
    return next((key for key in fields if workform_key(key) == name), name)


def _build_declaration(key: Any, declaration: Any, problems: list[Problem]) -> Declared | None:
    """Build ``FieldSpec(name=key, **declaration)`` the runtime's way, reporting every fault."""
    where = ("fields", key)
    if not isinstance(declaration, dict):
        problems.append(rules.FS007.problem(path=where, key=key, found=declaration))
        return None
    fast = plain_field(key, declaration)
    if fast is not None:
        return fast
    ok = True
    name = as_text(key)  # FieldSpec's name is a pydantic str: bytes are read as UTF-8
    if name is None or not FIELD_NAME_RE.match(name):
        problems.append(rules.FS006.problem(path=where, key=key))
        ok = False
    for sub in declaration:
        if not isinstance(sub, str):
            problems.append(rules.FS021.problem(path=(*where, sub), key=key, sub=sub))
            ok = False
        elif sub == "name":
            problems.append(rules.FS009.problem(path=(*where, sub), key=key))
            ok = False
    payload = {k: v for k, v in declaration.items() if isinstance(k, str) and k != "name"}
    payload["name"] = name if name is not None and FIELD_NAME_RE.match(name) else "placeholder"
    built, errors = validate_fieldspec(payload)
    if errors:
        _report_declaration_errors(key, declaration, errors, problems)
        return None
    return built if ok else None


def _report_declaration_errors(
    key: Any, declaration: dict[Any, Any], errors: list[Error], problems: list[Problem]
) -> None:
    where = ("fields", key)
    type_ok = True
    for loc, kind, message in errors:
        sub = loc[0] if loc else None
        if sub == "type":
            type_ok = False
            value = declaration.get("type")
            problems.append(
                rules.FS010.problem(
                    path=(*where, "type"),
                    key=key,
                    given=value,
                    types=FIELD_TYPES,
                    suggestion=closest(value, FIELD_TYPES),
                )
            )
        elif kind == "extra_forbidden":
            problems.append(
                rules.FS008.problem(
                    path=(*where, sub),
                    key=key,
                    sub=sub,
                    allowed=DECLARATION_KEYS,
                    suggestion=closest(sub, DECLARATION_KEYS, declaration),
                )
            )
        elif sub is not None and sub != "name":
            problems.append(
                rules.FS020.problem(
                    path=(*where, sub), key=key, sub=str(sub), value=declaration.get(sub), reason=reason_of(message)
                )
            )
    # The default is checked after the fields, by the model validator; report it when we can.
    default = declaration.get("default")
    declared_type = declaration.get("type", "str")
    if (
        type_ok
        and default is not None
        and isinstance(declared_type, str)
        and declared_type in FIELD_TYPES
        and not default_fits(declared_type, default)
    ):
        problems.append(
            rules.FS011.problem(path=("fields", key, "default"), key=key, declared=declared_type, default=default)
        )
