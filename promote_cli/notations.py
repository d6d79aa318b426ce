"""Short spellings of dtypes: notations, and reading a spelling back.

The seed documents use three notations that collide: JAX counts *bytes* (``i8`` = int64,
``c8`` = complex128), OpenVINO counts *bits* (``i8`` = int8, ``u1`` = a 1-bit type), Ascend
writes signed integers as ``s8``. Each framework declares its notation as a ``Column`` in its
directory (``promote_cli/frameworks/<name>/__init__.py``); ``Notations`` is every column at
once, built by the registry (``promote_cli.frameworks.notations``), and each ``Notation`` knows
the set it belongs to, so that reading and printing can see the collisions.

Input is read in the active notation first; a spelling that only one other notation knows is
still accepted. Whenever a printed label could be read as another type (in another notation, or
by counting bits instead of bytes), the canonical name is printed beside it: ``i8 (int64)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, cached_property

from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import PolicyDefinitionError, UsageError, did_you_mean
from promote_cli.record import Record

# A framework's own way of reading a spelling before any notation table (NumPy's np.dtype()):
# the canonical name, None when the spelling is not its to read, or a UsageError.
Reader = Callable[[str], "str | None"]


class Column(Record):
    """A notation as a framework declares it: each line of ``labels`` is a canonical name and
    the label printed for it (a name alone: the type under its own name); each line of
    ``aliases`` a canonical name and further spellings read but never printed."""

    name: str
    title: str  # how a reader names it when saying who reads a label otherwise
    description: str
    labels: str
    aliases: str = ""
    reader: Reader | None = None  # read first: NumPy's own spellings, as np.dtype() reads them

    def label_map(self) -> dict[str, str]:
        """canonical name -> label, in catalogue order."""
        return _label_map(self)

    def alias_map(self) -> dict[str, str]:
        """spelling -> canonical name."""
        return _alias_map(self)

    def label(self, canonical: str) -> str:
        return _label_map(self).get(canonical, canonical)

    def by_label(self) -> dict[str, str]:
        """Each catalogued type under the label it prints as here: how a policy's declaration,
        written in its own notation, is read (no other notation is needed for that)."""
        labels = _label_map(self)
        return {labels.get(canonical, canonical): canonical for canonical in CATALOGUE}

    def spellings(self) -> dict[str, str]:
        """Every input spelling of this column alone to its canonical name."""
        return _spellings(_label_map(self), _alias_map(self))


@cache
def _label_map(column: Column) -> dict[str, str]:
    out: dict[str, str] = {}
    for number, line in enumerate(column.labels.strip().splitlines(), 1):
        words = line.split()
        if not words:
            continue
        if len(words) > 2 or words[0] not in CATALOGUE:
            raise PolicyDefinitionError(
                f"notation {column.name}, label line {number} ({line.strip()!r}): write a"
                " canonical name and at most one label"
            )
        out[words[0]] = words[-1]
    return {c: out[c] for c in CATALOGUE if c in out}


@cache
def _alias_map(column: Column) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in column.aliases.strip().splitlines():
        canonical, *spellings = line.split()
        if canonical not in CATALOGUE:
            raise PolicyDefinitionError(f"notation {column.name}: alias of unknown {canonical}")
        out.update(dict.fromkeys(spellings, canonical))
    return out


class Notation(Record):
    name: str
    title: str
    description: str
    labels: Mapping[str, str]  # canonical name -> label printed in this notation
    aliases: Mapping[str, str]  # further input spellings
    family: Notations  # every notation read beside this one (collisions, fallbacks)
    reader: Reader | None = None  # NumPy's own spellings, read first (the numpy dialect)
    reader_title: str = ""  # whose spellings ``reader`` reads ("NumPy type codes")

    def label(self, canonical: str) -> str:
        return self.labels.get(canonical, canonical)

    def by_label(self) -> dict[str, str]:
        """Each catalogued type under the label it prints as here (the inverse of ``label``)."""
        return {self.label(canonical): canonical for canonical in CATALOGUE}

    def spellings(self) -> dict[str, str]:
        """Every input spelling of this notation to its canonical name: exact spellings, then
        case-folded ones where that folds onto nothing else (NumPy's g and G differ)."""
        return self.family.spellings(self.name)

    def reading_like(self, other: Notation) -> Notation:
        """This notation, reading ``other``'s own spellings first (``-p numpy`` reads canonical
        names, and NumPy's type codes as np.dtype() does)."""
        return self._replace(reader=other.reader, reader_title=other.title)


def _spellings(labels: Mapping[str, str], aliases: Mapping[str, str]) -> dict[str, str]:
    exact = dict(aliases)
    exact.update({label: canonical for canonical, label in labels.items()})
    out = dict(exact)
    for spelling, canonical in exact.items():
        out.setdefault(spelling.lower(), canonical)
    return out


class Notations:
    """Every notation promote reads: the canonical names and each framework's column, built
    once by the registry (``promote_cli.frameworks.notations``).

    ``titles`` names every notation in order, with the title a reader knows it by; ``column``
    gives one notation's column when that notation is first asked for (a framework's column is
    its registry entry's, read only then). What reading a spelling needs of every notation at
    once, which types each notation reads it as, comes from ``index`` when the registry has one
    (``promote_cli/frameworks/_index.py``: spelling -> ``"notation=canonical ..."``), and
    otherwise from every column's tables. ``readers`` names the notations whose column reads
    spellings with code of its own (NumPy's ``np.dtype()``)."""

    def __init__(
        self,
        titles: Mapping[str, str],
        column: Callable[[str], Column],
        prefixes: Sequence[str] = (),
        *,
        readers: Sequence[str] = (),
        index: Mapping[str, str] | None = None,
    ):
        self.titles = dict(titles)
        self.column = column
        self.prefixes = tuple(prefixes)
        self.readers = tuple(readers)
        self.index = index
        self._built: dict[str, Notation] = {}
        self._spellings: dict[str, dict[str, str]] = {}
        self._readings: dict[str, dict[str, str]] = {}

    @classmethod
    def of(cls, columns: Sequence[Column], prefixes: Sequence[str] = ()) -> Notations:
        """The notations of ``columns``, every one read from its tables."""
        by_name = {c.name: c for c in columns}
        titles = {c.name: c.title for c in columns}
        readers = [c.name for c in columns if c.reader is not None]
        return cls(titles, by_name.__getitem__, prefixes, readers=readers)

    def names(self) -> tuple[str, ...]:
        return tuple(self.titles)

    def get(self, name: str) -> Notation:
        """The notation called ``name``; an unknown name is a usage error."""
        found = self._built.get(name)
        if found is not None:
            return found
        if name not in self.titles:
            raise UsageError(
                f"unknown notation {name!r}; choose one of: {', '.join(self.titles)}"
                + did_you_mean(name, self.titles)
            )
        column = self.column(name)
        nota = Notation(
            column.name,
            column.title,
            column.description,
            column.label_map(),
            column.alias_map(),
            self,
            column.reader,
            column.title if column.reader else "",
        )
        self._built[name] = nota
        return nota

    def __iter__(self):
        return (self.get(name) for name in self.titles)

    def spellings(self, name: str) -> dict[str, str]:
        if name not in self._spellings:
            nota = self.get(name)
            self._spellings[name] = _spellings(nota.labels, nota.aliases)
        return self._spellings[name]

    def readings(self, spelling: str) -> dict[str, str]:
        """{notation name: canonical} for ``spelling``, over every notation table (asked per
        spelling, so a run reading two names merges no table of every spelling)."""
        found = self._readings.get(spelling)
        if found is None:
            if self.index is not None:
                found = _indexed(self.index.get(spelling, ""), self.titles)
            else:
                found = {}
                for name in self.titles:
                    canonical = self.spellings(name).get(spelling)
                    if canonical is not None:
                        found[name] = canonical
            self._readings[spelling] = found
        return found

    @cached_property
    def prefix(self) -> re.Pattern[str]:
        """Library prefixes a user may paste along with a name: np.float16, torch.bfloat16 ..."""
        if not self.prefixes:
            return re.compile(r"(?!)")  # matches nothing
        alternatives = "|".join(re.escape(p) for p in dict.fromkeys(self.prefixes))
        return re.compile(rf"^(?:{alternatives})\.", re.I)

    def strip_prefix(self, spelling: str) -> str:
        # Every prefix ends in a dot: a spelling without one is not compiled against them.
        return self.prefix.sub("", spelling.strip()) if "." in spelling else spelling.strip()

    def width_readings(self, spelling: str) -> set[str]:
        """What a short width code could mean to a reader counting bits, or bytes (NumPy: per
        item; JAX: complex per component). Only readings that name a catalogued type count."""
        # A letter and a number: f16, i8, c128 (string tests, not a regex compiled per run).
        letter, digits = spelling[:1], spelling[1:]
        if not (letter and letter in "biufcs" and digits.isdecimal()):
            return set()
        n = int(digits)
        kind = {"b": "bool", "i": "int", "s": "int", "u": "uint", "f": "float", "c": "complex"}[
            letter
        ]
        out: set[str] = set()
        if kind == "bool":
            return {"bool"}
        for bits in (n, 8 * n) if kind != "complex" else (n, 8 * n, 16 * n):
            if kind == "float" and bits < 16:
                # "f8" read as bits means some 8-bit float; any member of the family will do.
                if any(d.is_float and d.bits == bits for d in CATALOGUE.values()):
                    out.add(f"float{bits}_*")
                continue
            name = f"{kind}{bits}"
            if name in CATALOGUE:
                out.add(name)
        return out

    def collides(self, label: str) -> bool:
        """True when ``label`` could be read as more than one type."""
        meanings = set(self.readings(label).values()) | self.width_readings(label.lower())
        return len(meanings) > 1

    def misreadings(self, label: str, canonical: str) -> str:
        """Who reads ``label`` as a type other than ``canonical``, and as which: ``OpenVINO:
        uint1``, or ``OpenVINO, TensorFlow: int8``; ``as a width code (bits or bytes): a 4-bit
        float`` where no notation has the label but a width code would mean another type. ""
        when nobody misreads it."""
        by_type: dict[str, list[str]] = {}
        for name, meaning in self.readings(label).items():
            if meaning != canonical:
                by_type.setdefault(meaning, []).append(self.titles[name])
        parts = [f"{', '.join(names)}: {meaning}" for meaning, names in by_type.items()]
        for meaning in sorted(self.width_readings(label.lower()) - {canonical} - set(by_type)):
            if meaning.endswith("_*"):
                bits = meaning.removeprefix("float").removesuffix("_*")
                meaning = f"{'an' if bits in ('8', '11', '18') else 'a'} {bits}-bit float"
            parts.append(f"as a width code (bits or bytes): {meaning}")
        return "; ".join(parts)

    def ambiguous(self, spelling: str) -> bool:
        """True when ``spelling``, typed by a user, could mean more than one type: it
        ``collides``, or a framework's own reading of it (NumPy's) differs from another
        notation's."""
        if self.collides(spelling):
            return True
        others = set(self.readings(spelling).values()) | self.width_readings(spelling.lower())
        if not others:
            return False
        for name in self.readers:
            reader = self.get(name).reader
            assert reader is not None, f"notation {name} names a reader"
            try:
                mine = reader(spelling)
            except UsageError:
                continue
            if mine is not None and others - {mine}:
                return True
        return False


def _indexed(text: str, order: Iterable[str]) -> dict[str, str]:
    """{notation: canonical} of an index entry, ``"jax numpy=int64 openvino=int8"``, in the
    notations' ``order``."""
    found: dict[str, str] = {}
    names: list[str] = []
    for word in text.split():
        name, _, canonical = word.partition("=")
        names.append(name)
        if canonical:
            found.update(dict.fromkeys(names, canonical))
            names = []
    return {name: found[name] for name in order if name in found}


def display(canonical: str, nota: Notation) -> str:
    """The label of ``canonical`` in ``nota``, with the canonical name where it could mislead."""
    label = nota.label(canonical)
    if label != canonical and nota.family.collides(label):
        return f"{label} ({canonical})"
    return label


def read_dtype(spelling: str, nota: Notation) -> str:
    """The canonical name a user meant by ``spelling``, read in ``nota`` first (its framework's
    own reading first of all: NumPy's spellings in the numpy dialect)."""
    family = nota.family
    key = family.strip_prefix(spelling)
    if nota.reader is not None:
        found = nota.reader(key)
        if found is not None:
            return found
    own = nota.spellings()
    for candidate in (key, key.lower()):
        if candidate in own:
            return own[candidate]
    readings = family.readings(key) or family.readings(key.lower())
    meanings = set(readings.values())
    if len(meanings) == 1:
        return meanings.pop()
    if len(meanings) > 1:
        says = "; ".join(f"{c} in {n} notation" for n, c in sorted(readings.items()))
        raise UsageError(
            f"{spelling!r} is ambiguous here ({says}): pass --notation or a canonical name"
        )
    if key.lower() in ("int", "float", "complex"):
        # Python's scalar types are operands, not dtypes: the nearest spelling (uint) is wrong.
        raise UsageError(
            f"{spelling!r} is a Python scalar, not a dtype: write {key.lower()} alone for a"
            f" Python scalar operand, or a dtype such as {key.lower()}32"
        )
    known = sorted({s for name in family.titles for s in family.spellings(name)})
    close = _close(key.lower(), known)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UsageError(f"unknown dtype {spelling!r} in {nota.name} notation{hint}")


def _close(key: str, known: list[str]) -> list[str]:
    """The spellings a mistyped ``key`` most likely stands for: a width the kind lacks
    (``int17``) gets the kind's nearest widths below and above (``int16``, ``int32``); any
    other the nearest spellings of types, never a weak one (``float*`` is written ``float``)."""
    import difflib
    import re

    width = re.fullmatch(r"([a-z_]*[a-z])(\d+)", key)
    if width is not None:
        kind, bits = width.group(1), int(width.group(2))
        widths = sorted(
            (int(k[len(kind) :]), k)
            for k in known
            if k.startswith(kind) and k[len(kind) :].isdigit()
        )
        below = [k for b, k in widths if b < bits][-1:]
        above = [k for b, k in widths if b > bits][:1]
        if below or above:
            return below + above
    types = [k for k in known if not k.endswith("*")]
    ratio = {k: difflib.SequenceMatcher(None, key, k).ratio() for k in types}
    ranked = sorted((k for k in types if ratio[k] >= 0.6), key=lambda k: -ratio[k])[:3]
    if not ranked:
        return []
    # only those about as close as the closest: flaot32 is float32, not cfloat
    return [k for k in ranked if ratio[k] >= ratio[ranked[0]] - 0.1]


# The catalogue's own names: every type, and the spellings NumPy, ml_dtypes and PyTorch users
# type for them (``half``, ``fp16``, ``cfloat``).
CANONICAL = Column(
    "canonical",
    "canonical names",
    "NumPy / ml_dtypes names (int8, bfloat16, float8_e4m3fn); Python scalars int*, float*,"
    " complex*",
    labels="\n".join(CATALOGUE),
    aliases="""
bool        bool_ boolean
int8        byte
int16       short
int32       intc
int64       long int_ longlong
uint8       ubyte
uint16      ushort
uint32      uintc
uint64      ulong ulonglong uint
float16     half fp16
float32     single fp32
float64     double fp64
bfloat16    bf16
complex64   cfloat csingle
complex128  cdouble
complex32   chalf
""",
)
# ml_dtypes' types are named like the catalogue's: ``ml_dtypes.bfloat16``.
CANONICAL_PREFIXES = ("ml_dtypes",)
