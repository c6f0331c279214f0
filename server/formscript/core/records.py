"""Records without the ``dataclasses`` module: what a one-file ``formscript lint`` defines.

Importing ``dataclasses`` (with ``inspect``, ``ast``, ``dis`` and ``tokenize`` behind it) and
generating each class's methods at import cost a one-file lint more than reading its file, so
the classes on that path are written out: each lists its fields in ``__init__`` order
(``_fields``) and writes its own ``__init__``; this base gives the rest as ``@dataclass`` does
(the repr, equality on the compared fields, and for :class:`FrozenRecord` hashing, refused
assignment and pickling by field), and :func:`replace` stands for ``dataclasses.replace``.

Kept for a figure (bench/run.py's one-file lint): 30 classes written as
``@dataclass(frozen=True, slots=True)`` take 74 ms to import, as long as a whole one-file lint
(75 ms, 0.58x yamllint on the same file), which would reach about 1.15x of its 1.2x target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

if TYPE_CHECKING:
    R = TypeVar("R")


class Record:
    """A record whose fields are ``_fields`` (``__init__``'s parameters, in order); the repr
    shows ``_shown`` and equality compares ``_compared`` (both all fields unless a class says
    otherwise). Instances of different classes are never equal (``NotImplemented``)."""

    __slots__ = ()
    if TYPE_CHECKING:  # annotated for mypy only: ``typing.get_type_hints`` sees a record's fields
        _fields: ClassVar[tuple[str, ...]]
        _shown: ClassVar[tuple[str, ...]]
        _compared: ClassVar[tuple[str, ...]]
        __hash__: ClassVar[None]  # type: ignore[assignment]
    _fields = _shown = _compared = ()
    #: A mutable record is unhashable, as a dataclass with ``eq=True`` is.
    __hash__ = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "_fields" in own:
            if "_shown" not in own:
                cls._shown = cls._fields
            if "_compared" not in own:
                cls._compared = cls._fields

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = self._compared
        return tuple(getattr(self, name) for name in compared) == tuple(getattr(other, name) for name in compared)


class FrozenRecord(Record):
    """A record whose fields are set once, in ``__init__`` (with ``object.__setattr__``);
    hashed on its compared fields; pickled and copied by its fields."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(getattr(self, name) for name in self._compared))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__class__, tuple(getattr(self, name) for name in self._fields)


def replace(record: R, /, **changes: Any) -> R:
    """A copy of *record* with *changes* (``dataclasses.replace`` for a :class:`Record`)."""
    if not isinstance(record, Record):
        import dataclasses

        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    for name in changes:
        if name not in record._fields:
            raise TypeError(f"{record.__class__.__qualname__} has no field {name!r}")
    values = {name: getattr(record, name) for name in record._fields}
    values.update(changes)
    return record.__class__(**values)
