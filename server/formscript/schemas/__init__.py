"""JSON Schemas (draft 2020-12) for formscript's four file kinds, generated from the core.

The structure comes from the core's pydantic models (``model_json_schema()``, post-processed
in :mod:`formscript.schemas.builders` into what editors that only speak JSON Schema can use);
every description, enum description and snippet comes from :mod:`formscript.core.keys`, the
one place key knowledge is written (:mod:`formscript.schemas.prose` shapes it). The
checked-in files under ``schemas/`` are compared byte for byte with :func:`schema_text` by the
test suite; regenerate them with::

    python -m formscript.schemas            # write schemas/*.schema.json
    python -m formscript.schemas --check    # exit 1 when a checked-in file is stale

The ``formscript schema KIND`` subcommand prints :func:`schema_text` for a kind of
:data:`SCHEMA_KINDS`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from formscript.schemas.names import (
    BASE_URL,
    DIALECT,
    KIND_ALIASES,
    SCHEMA_FILES,
    SCHEMA_KINDS,
    Schema,
    canonical_kind,
    schema_filename,
    schema_id,
)

__all__ = [
    "BASE_URL",
    "DIALECT",
    "KIND_ALIASES",
    "SCHEMA_FILES",
    "SCHEMA_KINDS",
    "Schema",
    "build_schema",
    "canonical_kind",
    "default_directory",
    "main",
    "schema_filename",
    "schema_id",
    "schema_text",
    "stale_schemas",
    "write_schemas",
]


def build_schema(kind: str) -> Schema:
    """The schema for *kind* as a fresh JSON-compatible mapping."""
    from formscript.schemas.builders import BUILDERS

    return BUILDERS[canonical_kind(kind)]()


def schema_text(kind: str) -> str:
    """The canonical text of *kind*'s schema: sorted keys, 2-space indent, trailing newline."""
    return json.dumps(build_schema(kind), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def default_directory() -> Path:
    """The repository's ``schemas/`` folder (next to ``server/``)."""
    return Path(__file__).resolve().parents[3] / "schemas"


def write_schemas(directory: Path | None = None) -> list[Path]:
    """Write every schema into *directory* (default: the repository's ``schemas/``)."""
    target = directory or default_directory()
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in SCHEMA_KINDS:
        path = target / schema_filename(kind)
        path.write_bytes(schema_text(kind).encode("utf-8"))
        written.append(path)
    return written


def stale_schemas(directory: Path | None = None) -> list[Path]:
    """The schema files in *directory* that are missing or differ from what the code generates."""
    target = directory or default_directory()
    stale = []
    for kind in SCHEMA_KINDS:
        path = target / schema_filename(kind)
        if not path.is_file() or path.read_bytes() != schema_text(kind).encode("utf-8"):
            stale.append(path)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m formscript.schemas [--check] [DIRECTORY]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    rest = [a for a in args if a != "--check"]
    if len(rest) > 1 or any(a.startswith("-") for a in rest):
        print("usage: python -m formscript.schemas [--check] [DIRECTORY]", file=sys.stderr)
        return 2
    directory = Path(rest[0]) if rest else None
    if check:
        stale = stale_schemas(directory)
        for path in stale:
            print(f"stale: {path} (regenerate with python -m formscript.schemas)", file=sys.stderr)
        return 1 if stale else 0
    for path in write_schemas(directory):
        print(path)
    return 0
