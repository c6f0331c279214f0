"""The fast construction of a composed graph gives what SafeConstructor gives, or steps
aside (None) so SafeConstructor decides: on every tag, node kind and key shape."""

from __future__ import annotations

import itertools
import random

import yaml

from formscript.document.construct import fast_construct
from formscript.document.yamlread import Constructor

TAGS = [
    "",
    "!!str ",
    "!!int ",
    "!!float ",
    "!!bool ",
    "!!null ",
    "!!map ",
    "!!seq ",
    "!!binary ",
    "!!timestamp ",
    "!!set ",
    "!!omap ",
    "!!pairs ",
    "!!python/tuple ",
    "!local ",
    "! ",
]
NODES = [
    "a",
    "'1'",
    "1",
    "0x1F",
    "1.5",
    ".inf",
    "yes",
    "~",
    "",
    "2024-01-05",
    "2024-13-01",
    "aGVsbG8=",
    "[a, 1]",
    "{a: 1}",
    "[]",
    "{}",
    "{a: 1, a: 2}",
    "{[a]: 1}",
    "{{a: 1}: 2}",
    "=",
    "<<",
    # the texts the fast path builds booleans and ints from itself, and their neighbours
    "0",
    "012",
    "0b11",
    "1_000",
    "-5",
    "+5",
    "1:30",
    "\u0663",  # ARABIC-INDIC DIGIT THREE: a digit to str.isdigit and int()
    "\u00b2",  # SUPERSCRIPT TWO: a digit to str.isdigit, not to int()
    "9" * 5000,  # past Python's 4,300 digits
    "On",
    "NO",
    "y",
]


def _slow(node: yaml.Node) -> tuple[bool, object]:
    try:
        return True, Constructor().construct_document(node)
    except Exception as exc:
        return False, type(exc)


def _check(text: str) -> bool:
    """Whether *text* composed; asserts the fast path agrees or steps aside."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return False
    if node is None:
        return False
    fast = fast_construct(node)
    ok, slow = _slow(node)
    if fast is not None:
        assert ok, f"fast path built a value where SafeConstructor raises {slow}: {text!r}"
        assert fast[0] == slow and repr(fast[0]) == repr(slow), text
    return True


def test_every_tag_on_every_node_shape() -> None:
    composed = 0
    for tag, node in itertools.product(TAGS, NODES):
        for text in (f"k: {tag}{node}\n", f"- {tag}{node}\n", f"? {tag}{node}\n: v\n", f"[{tag}{node}]"):
            composed += _check(text)
    assert composed > 500


def test_random_documents() -> None:
    rng = random.Random(14)

    def value(depth: int) -> str:
        roll = rng.random()
        if depth > 3 or roll < 0.5:
            return rng.choice(TAGS[:10]) + rng.choice(NODES[:12])
        if roll < 0.75:
            items = ", ".join(f"{rng.choice(NODES[:9])}: {value(depth + 1)}" for _ in range(rng.randrange(4)))
            return rng.choice(["", "!!map "]) + "{" + items + "}"
        return rng.choice(["", "!!seq "]) + "[" + ", ".join(value(depth + 1) for _ in range(rng.randrange(4))) + "]"

    composed = sum(_check(f"root: {value(0)}\n") for _ in range(3000))
    assert composed > 2000


def test_duplicates_are_noticed() -> None:
    node = yaml.compose("a: 1\nb: {x: 1, x: 2}\n", Loader=yaml.SafeLoader)
    assert fast_construct(node) == ({"a": 1, "b": {"x": 2}}, True)
    node = yaml.compose("a: 1\nb: {x: 1, y: 2}\n", Loader=yaml.SafeLoader)
    assert fast_construct(node) == ({"a": 1, "b": {"x": 1, "y": 2}}, False)
