"""Alias expansion (core/expansion.py): a value that contains itself is finite, a bomb is not,
and json_error names what json.dumps raises. Checked against naive reference walks on seeded
random graphs of shared and self-containing containers."""

from __future__ import annotations

import datetime
import json
import math
import random
import time
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from formscript.core.expansion import Exhausts, encoded_length, json_error, measure
from formscript.runs import json_safe


def _graph(rng: random.Random) -> Any:
    """A root container whose children are scalars or any container of the graph (so shared
    nodes and cycles of every shape occur)."""
    nodes: list[Any] = [rng.choice([[], {}]) for _ in range(rng.randint(1, 6))]
    for node in nodes:
        for position in range(rng.randint(0, 3)):
            child: Any = rng.choice(nodes) if rng.random() < 0.5 else rng.choice([1, "s", None, 2.5])
            if isinstance(node, list):
                node.append(child)
            else:
                node[f"k{position}"] = child
    return nodes[0]


def _reference_size(value: Any, limit: int) -> tuple[int, bool]:
    """Values visited as repr visits them (a container on the current path counts once), by
    plain recursion with no memo; stops past *limit*."""
    count = 0
    cyclic = False
    path: set[int] = set()

    def visit(node: Any) -> None:
        nonlocal count, cyclic
        if count > limit:
            return
        count += 1
        if not isinstance(node, dict | list):
            return
        if id(node) in path:
            cyclic = True
            return
        path.add(id(node))
        for child in [*node.keys(), *node.values()] if isinstance(node, dict) else node:
            visit(child)
        path.discard(id(node))

    visit(value)
    return min(count, limit + 1), cyclic


def _dumps_error(value: Any) -> tuple[str, str] | None:
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        return type(exc).__name__, str(exc)
    return None


@pytest.mark.parametrize("seed", range(400))
def test_measure_matches_a_plain_walk(seed: int) -> None:
    rng = random.Random(seed)
    value = _graph(rng)
    limit = rng.choice([5, 40, 10_000])
    expected_size, expected_cyclic = _reference_size(value, limit)
    shape = measure(value, limit)
    assert shape.size == expected_size
    if expected_size <= limit:
        assert shape.cyclic == expected_cyclic


@pytest.mark.parametrize("seed", range(200))
def test_json_safe_writes_back_references_as_repr_does(seed: int) -> None:
    value = _graph(random.Random(seed))
    text = repr(json_safe(value)).replace("'[...]'", "[...]").replace("'{...}'", "{...}")
    assert text == repr(value)


@pytest.mark.parametrize("seed", range(200))
def test_json_error_is_what_json_dumps_raises(seed: int) -> None:
    rng = random.Random(seed)
    value = _graph(rng)
    if rng.random() < 0.3:
        value = [value, {1, 2}] if rng.random() < 0.5 else {"a": value, (1, 2): 3}
    found = json_error(value)
    assert found is None or not isinstance(found, Exhausts)
    assert (None if found is None else (type(found).__name__, str(found))) == _dumps_error(value)
    # Under a small limit the answer is either the same or "exhausts" (the walk gave up first).
    small = json_error(value, limit=4)
    if small is not None and not isinstance(small, Exhausts):
        assert (type(small).__name__, str(small)) == _dumps_error(value)


BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 10 if prev else ['x'] * 10)}]\n"
    for prev, name in zip(["", "a", "b", "c", "d", "e"], ["a", "b", "c", "d", "e", "f"], strict=True)
)


def test_a_value_that_contains_itself_is_finite_and_quick() -> None:
    value = yaml.safe_load("a: &x {k: 1, self: [*x, *x]}")["a"]
    started = time.perf_counter()
    shape = measure(value)
    assert (shape.size, shape.cyclic) == (7, True)
    assert isinstance(json_error(value), ValueError)
    assert time.perf_counter() - started < 0.5


def test_a_bomb_exhausts_and_is_measured_by_its_distinct_nodes() -> None:
    value = yaml.safe_load(BOMB)
    started = time.perf_counter()
    assert measure(value).size > 1_000_000
    assert isinstance(json_error(value), Exhausts)
    assert time.perf_counter() - started < 0.5


def test_a_bomb_that_meets_a_cycle_first_raises_as_json_dumps_does() -> None:
    # json.dumps meets the cycle in its first element before it expands the bomb behind it.
    value = yaml.safe_load("loop: &l [*l]\n" + BOMB)
    value = [value["loop"], value["f"]]
    assert measure(value).size > 1_000_000
    found = json_error(value)
    assert isinstance(found, ValueError) and str(found) == "Circular reference detected"


def _tree(rng: random.Random, depth: int = 0) -> Any:
    """A value that shares no container (as loaded from a text without aliases), with a
    scalar JSON cannot write now and then (a set, bytes, a timestamp) or a tuple key."""
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        odd = rng.random() < 0.1
        return rng.choice([{1}, b"x", datetime.date(2001, 1, 1)] if odd else [1, "s", "", None, 2.5, True, math.nan])
    if roll < 0.65:
        return [_tree(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    keys: list[Any] = ["k", "", 1, None, 2.5, True]
    if rng.random() < 0.1:
        keys[rng.randrange(len(keys))] = (1, 2)
    return {key: _tree(rng, depth + 1) for key in keys[: rng.randint(0, 6)]}


def _said(found: Exception | None) -> tuple[str, str] | None:
    return None if found is None else (type(found).__name__, str(found))


@pytest.mark.parametrize("seed", range(400))
def test_json_error_of_an_unshared_value_is_the_walks(seed: int) -> None:
    # the shortcut for values loaded without aliases (encode first, walk only past the limit
    # or on a failure) says what the walk says, at every limit, at and around the boundary
    rng = random.Random(seed)
    value = _tree(rng)
    size = measure(value).size
    for limit in {1, 2, 5, max(1, size - 1), size, size + 1, 10_000}:
        assert _said(json_error(value, limit, unshared=True)) == _said(json_error(value, limit)), limit


# -- the exact length of the JSON a response expands to (SC021: lionagi serves it)

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=8))
_KEYS = st.one_of(st.text(max_size=6), st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False))


@st.composite
def _shared(draw: st.DrawFn) -> Any:
    """A JSON-able value whose containers are shared, as YAML anchors share them."""
    pool: list[Any] = [draw(_SCALARS)]
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            pool.append([draw(st.sampled_from(pool)) for _ in range(draw(st.integers(0, 4)))])
        else:
            pool.append({draw(_KEYS): draw(st.sampled_from(pool)) for _ in range(draw(st.integers(0, 4)))})
    return pool[-1]


@given(_shared())
def test_encoded_length_is_the_length_of_json_dumps(value: Any) -> None:
    assert encoded_length(value) == len(json.dumps(value))


def test_encoded_length_of_what_json_dumps_refuses_is_none() -> None:
    holder: list[Any] = [1]
    holder.append(holder)
    assert encoded_length(holder) is None
    assert encoded_length({"k": {1, 2}}) is None
    assert encoded_length({(1, 2): "tuple key"}) is None


def test_encoded_length_of_a_bomb_costs_its_distinct_nodes() -> None:
    rung: Any = ["x"] * 10
    for _ in range(8):  # 10**9 values: json.dumps would need gigabytes
        rung = [rung] * 10
    assert encoded_length(rung) == _ladder_length(9)


def _ladder_length(depth: int) -> int:
    """len(json.dumps) of a ladder of *depth* rungs of ten: '"x"' leaves, ", " between items."""
    length = 3 * 10 + 2 + 2 * 9  # ["x", ...] of ten
    for _ in range(depth - 1):
        length = length * 10 + 2 + 2 * 9
    return length


@pytest.mark.parametrize("key", [datetime.date(2020, 1, 1), datetime.datetime(2020, 1, 1, 8)])
def test_a_key_json_refuses_is_named_as_the_encoder_names_it_in_the_walk(key: Any) -> None:
    """Past the limit, a value that contains itself is walked in the encoder's order: its
    refusal of a key reads as json.dumps's own (``datetime.date``, not ``date``)."""
    itself: list[Any] = []
    itself.append(itself)
    with pytest.raises(TypeError) as raised:
        json.dumps({key: 1})
    value = {key: itself, "n": list(range(10))}
    shape = measure(value, 5)
    assert (shape.size, shape.cyclic) == (6, True)  # past the limit, and the walk met the cycle
    error = json_error(value, limit=5)
    assert type(error) is TypeError and str(error) == str(raised.value)
