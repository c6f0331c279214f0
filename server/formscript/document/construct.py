"""A YAML node graph's values as PyYAML's SafeConstructor builds them (``located``'s):
the one-walk construction of a graph without aliases, the scalars, and a key's value."""

from __future__ import annotations

from typing import Any

import yaml

from formscript.document.model import Scalar
from formscript.document.yamlread import MAX_DEPTH, Constructor

UNHASHABLE = object()


def key_value(node: yaml.Node) -> Any:
    if node.tag == STR_TAG and isinstance(node, yaml.ScalarNode):
        return node.value  # what SafeConstructor makes of it, without making one
    if isinstance(node, yaml.ScalarNode):
        try:
            value = Constructor().construct_object(node, deep=True)
            hash(value)
            return value
        except Exception:
            return UNHASHABLE
    return UNHASHABLE


STR_TAG = "tag:yaml.org,2002:str"
NULL_TAG = "tag:yaml.org,2002:null"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
#: The scalar tags whose values SafeConstructor's own functions build (everything else, e.g.
#: a set or an omap, takes the slow path).
_SCALAR_TAGS = frozenset("tag:yaml.org,2002:" + name for name in ("bool", "int", "float", "timestamp", "binary"))


def fast_construct(root: yaml.Node) -> tuple[Any, bool] | None:
    """The value SafeConstructor builds from *root* and whether a mapping lost a key to a
    later duplicate, built in one recursive walk, or None (then SafeConstructor decides).

    Only for a graph without aliases (each node reached once; the caller checks the text
    has no ``*``) and without merge keys: then SafeConstructor's deferred filling of
    mappings and lists gives exactly what a direct walk gives. Scalars other than strings
    and nulls are built by SafeConstructor's own functions. Any failure (an unhashable key,
    a bad timestamp, an unknown tag, a collection with items at ``MAX_DEPTH``, as
    ``too_deep_node`` counts) returns None, so the slow path raises exactly what the
    runtime raises: a value built is one no deeper than that.

    Speed (what it holds): half of bench's clean 1,000-file lint in process, 200 ms with it
    and 300 ms without (the cold lint's "1.5x the bare parse" target)."""
    walk = _FastWalk()
    try:
        return walk.build(root, 1), walk.lost
    except Exception:  # Slow, or whatever a scalar's construction raised
        return None


class _FastWalk:
    """``fast_construct``'s walk (a class, not a closure that calls itself: that would be a
    cycle of a function and its cell, left to the collector after every parse)."""

    __slots__ = ("constructor", "lost")

    def __init__(self) -> None:
        self.constructor = Constructor()
        self.lost = False

    def build(self, node: yaml.Node, depth: int) -> Any:
        tag = node.tag
        kind = type(node)
        if tag == STR_TAG and kind is yaml.ScalarNode:  # `!!str [a]` is SafeConstructor's error
            return node.value
        if tag == MAP_TAG and kind is yaml.MappingNode:
            items = node.value
            if depth >= MAX_DEPTH and items:
                raise Slow
            built = {}
            depth += 1
            build = self.build
            scalar = yaml.ScalarNode
            for key_node, value_node in items:
                # a string key or value is taken in place (most nodes are: no call for them)
                if key_node.tag == STR_TAG and type(key_node) is scalar:
                    key = key_node.value
                else:
                    key = build(key_node, depth)
                    if type(key) in (dict, list):
                        raise Slow
                if value_node.tag == STR_TAG and type(value_node) is scalar:
                    built[key] = value_node.value
                else:
                    built[key] = build(value_node, depth)
            if len(built) < len(items):
                self.lost = True
            return built
        if tag == SEQ_TAG and kind is yaml.SequenceNode:
            if depth >= MAX_DEPTH and node.value:
                raise Slow
            depth += 1
            build = self.build
            scalar = yaml.ScalarNode
            return [
                item.value if item.tag == STR_TAG and type(item) is scalar else build(item, depth)
                for item in node.value
            ]
        if kind is yaml.ScalarNode:
            if tag == NULL_TAG:
                return None
            # what SafeConstructor's bool and int constructors make of the commonest texts
            # (a boolean word; decimal digits without a sign, a leading zero or a '_'),
            # without their calls; any other text, and any failure, is theirs
            if tag == _BOOL:
                return _BOOL_VALUES[node.value.lower()]
            if tag == _INT:
                text = node.value
                if text.isdigit() and text[0] != "0":
                    return int(text)
            if tag in _SCALAR_TAGS:
                return _SAFE_TABLE[tag](self.constructor, node)
        raise Slow


_SAFE_TABLE = yaml.constructor.SafeConstructor.yaml_constructors
_BOOL_VALUES = yaml.constructor.SafeConstructor.bool_values
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"


class Slow(Exception):
    """The fast construction does not apply: SafeConstructor decides."""


def scalar_of(node: yaml.Node) -> Scalar | None:
    if isinstance(node, yaml.ScalarNode):
        return Scalar(node.style or "", node.value, node.tag)
    return None
