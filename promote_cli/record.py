"""``Record``: promote's immutable value type, ``typing.NamedTuple``'s shape without its cost.

``typing.NamedTuple`` makes each class through ``collections.namedtuple``, which writes the
class's ``__new__`` as source text and compiles it with ``eval``: about a million instructions
a class, measured with ``valgrind --tool=callgrind``. ``promote pair`` makes eleven such classes
before it answers and ``promote op`` twenty-one, which was a sixth of what promote adds to
Python's and click's own start-up. ``Record`` makes the same kind of class, a tuple subclass
with a named, read-only descriptor per field (namedtuple's own, in C), from the class body's
annotations, compiling nothing (about a tenth of the cost).

Write a record as a NamedTuple is written::

    class Operand(Record):
        dtype: str
        category: str = "dimensioned"

        def is_python(self) -> bool: ...

What a caller sees is NamedTuple's: positional or keyword construction, defaults, ``_fields``,
``_field_defaults``, ``_replace``, ``_asdict``, a ``repr`` naming the fields, equality, hashing
and ordering as tuples, unpacking, pickling by class, and ``__match_args__``. No ``__dict__``:
instances are plain tuples in memory. A record's annotations are never evaluated (the modules
that define records use ``from __future__ import annotations``), so field types cost nothing.

Type checkers see ``typing.NamedTuple`` itself (``TYPE_CHECKING`` below), so ``mypy`` checks
fields, defaults and constructor calls exactly as it does a NamedTuple's.
``tests/properties/test_record.py`` holds the two to the same behaviour.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING, Any

__all__ = ["Record"]

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    try:  # the field descriptor ``collections.namedtuple`` uses: C, twice a property's speed
        from _collections import _tuplegetter
    except ImportError:  # another Python: a read-only property does the same

        def _tuplegetter(index: int, doc: str) -> Any:
            return property(itemgetter(index), doc=doc)

    def _is_field(annotation: object) -> bool:
        # A ClassVar is a class attribute, not a field (NamedTuple refuses one; a record does
        # the reasonable thing). Annotations are strings here, never evaluated.
        text = annotation if isinstance(annotation, str) else repr(annotation)
        return not text.replace("typing.", "").startswith("ClassVar")

    class _RecordType(type):
        def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> type:
            ns.setdefault("__slots__", ())
            inherited: tuple[str, ...] = next(
                (b._fields for b in bases if isinstance(b, _RecordType)), ()
            )
            annotations = ns.get("__annotations__", {})
            own = [f for f, a in annotations.items() if not f.startswith("_") and _is_field(a)]
            if inherited and own:
                raise TypeError(f"{name}: a record's subclass cannot add fields ({own[0]})")
            if not own:  # Record itself, or a subclass adding only methods
                return super().__new__(mcs, name, bases, ns)
            defaults = {f: ns.pop(f) for f in own if f in ns}
            first = next((i for i, f in enumerate(own) if f in defaults), len(own))
            missing = [f for f in own[first:] if f not in defaults]
            if missing:
                raise TypeError(f"{name}: field {missing[0]} without a default follows one with")
            for i, field in enumerate(own):
                ns[field] = _tuplegetter(i, f"Field {i}: {field}")
            ns["_fields"] = tuple(own)
            ns["_field_defaults"] = defaults
            ns["__match_args__"] = tuple(own)
            # What ``__new__`` reads: how many fields must be given and how many there are,
            # the defaults of the rest in order, and each field's position.
            ns["_required"] = first
            ns["_width"] = len(own)
            ns["_tail"] = tuple(defaults[f] for f in own[first:])
            ns["_index"] = {f: i for i, f in enumerate(own)}
            return super().__new__(mcs, name, bases, ns)

    _MISSING = object()  # a field not given, in ``__new__``'s list of values

    class Record(tuple, metaclass=_RecordType):
        __slots__ = ()
        _fields = ()  # (not annotated: an annotation here would be a field)
        _required = 0
        _width = 0
        _tail = ()
        _field_defaults = {}  # type: ignore[var-annotated]  # noqa: RUF012
        _index = {}  # type: ignore[var-annotated]  # noqa: RUF012

        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            given, required = len(args), cls._required
            if not kwargs and given == cls._width:  # every field positional: most calls
                return tuple.__new__(cls, args)
            if required <= given <= cls._width:
                if not kwargs:  # positional, the rest at their defaults
                    return tuple.__new__(cls, args + cls._tail[given - required :])
                # the required fields positional, some defaults by name: ``Outcome(r, k, why,
                # decided_by=...)``; anything else (an error among them) takes the long way
                values = [*args, *cls._tail[given - required :]]
                index = cls._index
                for field, value in kwargs.items():
                    at = index.get(field)
                    if at is None or at < given:
                        break
                    values[at] = value
                else:
                    return tuple.__new__(cls, values)
            if given > len(cls._fields):
                raise TypeError(
                    f"{cls.__name__}() takes {len(cls._fields)} arguments but {given} were given"
                )
            values = [
                *args,
                *(_MISSING,) * (required - given),
                *cls._tail[max(given - required, 0) :],
            ]
            for field, value in kwargs.items():
                at = cls._index.get(field)
                if at is None:
                    raise TypeError(
                        f"{cls.__name__}() got an unexpected keyword argument {field!r}"
                    )
                if at < given:
                    raise TypeError(f"{cls.__name__}() got multiple values for argument {field!r}")
                values[at] = value
            unset = [f for f, v in zip(cls._fields, values, strict=True) if v is _MISSING]
            if unset:
                field = unset[0]
                raise TypeError(f"{cls.__name__}() missing required argument: {field!r}")
            return tuple.__new__(cls, values)

        def __repr__(self) -> str:
            pairs = ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self, strict=True))
            return f"{type(self).__name__}({pairs})"

        def __getnewargs__(self) -> tuple[Any, ...]:
            return tuple(self)

        def _replace(self, **changes: Any) -> Any:
            values, index = list(self), self._index
            for field, value in changes.items():
                at = index.get(field)
                if at is None:
                    unexpected = [f for f in changes if f not in index]
                    raise ValueError(f"Got unexpected field names: {unexpected!r}")
                values[at] = value
            return tuple.__new__(type(self), values)

        def _asdict(self) -> dict[str, Any]:
            return dict(zip(self._fields, self, strict=True))

        @classmethod
        def _make(cls, iterable: Any) -> Any:
            values = tuple(iterable)
            if len(values) != len(cls._fields):
                raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(values)}")
            return tuple.__new__(cls, values)
