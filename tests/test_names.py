"""``names.suffix`` is ``PurePath(path).suffix`` for every path, odd ones included."""

from __future__ import annotations

import itertools
from pathlib import PurePath

from formscript.core.names import suffix

PARTS = ["", ".", "..", "a", ".a", "a.", "a.b", "a..b", "...b", "a.b.", ".yaml", "x.script.yaml", "é.yml", "a b.json"]


def test_suffix_is_purepaths_for_every_path() -> None:
    checked = 0
    for first, second in itertools.product(PARTS, repeat=2):
        for sep in ("/", "//", "/./"):
            for path in (first, f"{first}{sep}{second}", f"{first}{sep}{second}/", f"/{first}{sep}{second}"):
                assert suffix(path) == PurePath(path).suffix, path
                checked += 1
    assert checked > 2000
