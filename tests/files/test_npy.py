"""promote_cli.npy: header parsing, a corpus of malformed files, dtype mapping, value checks, and
a property test of the streaming conversion against ``np.load(A).astype(result)``.

Expected values come from NumPy / ml_dtypes themselves (np.save, np.load, astype, the numpy
header reader) and from IEEE 754 facts, never from promote's own output.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import struct
import sys
import tempfile
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.lib import format as npformat

from promote_cli import frameworks, npy
from promote_cli.api import Request
from promote_cli.dtypes import CATALOGUE
from promote_cli.errors import BadInputError, PromotionError, UsageError
from promote_cli.npy import numpy_dtypes

ML_TYPES = sorted(n for n, e in CATALOGUE.items() if e.numpy and hasattr(ml_dtypes, n))
NUMPY_TYPES = [n for n, e in CATALOGUE.items() if e.numpy and n not in ML_TYPES]


# --- headers ---------------------------------------------------------------------------------


def _header(d: dict) -> bytes:
    buf = io.BytesIO()
    npformat.write_array_header_1_0(buf, d)
    return buf.getvalue()


@pytest.mark.parametrize(
    "array",
    [
        np.arange(12, dtype=np.float32).reshape(3, 4),
        np.asfortranarray(np.arange(12, dtype=np.int16).reshape(3, 4)),
        np.arange(5, dtype=">f8"),
        np.zeros((0, 3), np.uint8),
        np.array(7, np.int64),
        np.array([True, False]),
        np.arange(3, dtype=np.clongdouble),
    ],
    ids=["f4", "fortran-i2", "big-endian-f8", "empty", "0-d", "bool", "clongdouble"],
)
def test_header_of_an_np_save_file_agrees_with_numpy(tmp_path, array):
    path = tmp_path / "x.npy"
    np.save(path, array)
    h = npy.read_header(path)
    loaded = np.load(path, mmap_mode="r") if array.size else np.load(path)
    assert h.shape == array.shape
    assert h.dtype == array.dtype
    assert h.fortran_order == (array.ndim > 1 and np.isfortran(array))
    assert h.nbytes == array.nbytes
    if array.size:
        assert h.offset == loaded.offset  # where numpy's memmap says the data starts
    assert h.offset + h.nbytes == path.stat().st_size


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_headers_of_format_versions_1_2_and_3_are_read(tmp_path, version):
    path = tmp_path / "v.npy"
    array = np.arange(6, dtype=np.int32).reshape(2, 3)
    with open(path, "wb") as f:
        npformat.write_array(f, array, version=version)
    h = npy.read_header(path)
    assert h.version == version
    assert (h.shape, h.dtype) == ((2, 3), np.dtype(np.int32))
    assert h.offset + h.nbytes == path.stat().st_size


@pytest.mark.parametrize("name", ML_TYPES)
def test_np_save_of_ml_dtypes_is_raw_and_needs_a_dtype(tmp_path, name):
    dtype = np.dtype(getattr(ml_dtypes, name))
    path = tmp_path / f"{name}.npy"
    np.save(path, np.zeros(3, dtype))
    h = npy.read_header(path)
    assert h.dtype is None, f"np.save wrote {h.descr!r}; expected a descr numpy reads as raw"
    assert h.itemsize == dtype.itemsize
    with pytest.raises(BadInputError, match=f"{name}.npy: holds raw {dtype.itemsize}-byte"):
        npy.data_dtype(h, None, "--dtype-a")
    assert npy.data_dtype(h, name, "--dtype-a") == dtype


def test_np_save_descrs_of_float8_e5m2_and_complex32_are_not_numpy_dtypes(tmp_path):
    # The forms np.save writes that numpy's own reader rejects; promote keeps their width.
    # complex32 is <W4 with ml_dtypes 0.6.0, <c4 with 0.7.0.
    for name, descrs in [("float8_e5m2", ("<f1",)), ("complex32", ("<W4", "<c4"))]:
        path = tmp_path / f"{name}.npy"
        np.save(path, np.zeros(2, getattr(ml_dtypes, name)))
        with pytest.raises(ValueError):
            np.load(path)
        h = npy.read_header(path)
        assert h.descr in descrs
        assert (h.dtype, h.itemsize) == (None, np.dtype(name).itemsize)


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("descr", ["<i8", "<f1"], ids=["typed", "raw-float8_e5m2"])
def test_python2_header_with_long_dimensions_is_read_as_numpy_reads_it(tmp_path, version, descr):
    # Python 2's NumPy wrote longs with an L, (3L, 2L); np.load accepts them in formats 1.0 and
    # 2.0 (Python 2 never wrote 3.0), and so does promote, raw descrs included.
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': (3L, 2L)}}\n"
    itemsize = 8 if descr == "<i8" else 1
    path = tmp_path / "py2.npy"
    path.write_bytes(_raw_header(text, version) + bytes(6 * itemsize))
    h = npy.read_header(path)
    assert (h.shape, h.descr, h.itemsize) == ((3, 2), descr, itemsize)
    if descr == "<i8":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy warns that it filtered the header
            assert np.load(path).shape == (3, 2)


def test_long_dimensions_in_a_format_3_header_are_refused_as_numpy_refuses_them(tmp_path):
    path = tmp_path / "v3.npy"
    text = "{'descr': '<i8', 'fortran_order': False, 'shape': (3L,)}\n"
    path.write_bytes(_raw_header(text, 3) + bytes(24))
    with pytest.raises(ValueError):
        np.load(path)
    with pytest.raises(BadInputError, match=r"not a valid \.npy header: cannot parse header"):
        npy.read_header(path)


def test_an_explicit_dtype_must_fit_raw_items_and_agree_with_a_typed_header(tmp_path):
    bf = tmp_path / "bf.npy"
    np.save(bf, np.zeros(3, ml_dtypes.bfloat16))
    with pytest.raises(UsageError, match="2-byte items but float8_e4m3fn is 1 byte wide"):
        npy.data_dtype(npy.read_header(bf), "float8_e4m3fn", "--dtype-a")
    f4 = tmp_path / "f4.npy"
    np.save(f4, np.zeros(3, np.float32))
    with pytest.raises(UsageError, match="holds float32, not int32"):
        npy.data_dtype(npy.read_header(f4), "int32", "--dtype-a")
    assert npy.data_dtype(npy.read_header(f4), "float32", "--dtype-a") == np.float32
    with pytest.raises(UsageError, match="uint3"):
        npy.data_dtype(npy.read_header(bf), "uint3", "--dtype-a")


# --- malformed files -------------------------------------------------------------------------

GOOD = {"descr": "<f4", "fortran_order": False, "shape": (2,)}
DATA = np.zeros(2, np.float32).tobytes()


def _raw_header(text: str, version: int = 1, declared: int | None = None) -> bytes:
    body = text.encode("utf8" if version == 3 else "latin1")
    length = len(body) if declared is None else declared
    size = struct.pack("<H" if version == 1 else "<I", length)
    return b"\x93NUMPY" + bytes([version, 0]) + size + body


# name -> (file bytes, words the one-line error must contain)
CORPUS: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "not a .npy file"),
    "short": (b"\x93NU", "not a .npy file"),
    "wrong-magic": (b"\x89PNG\r\n\x1a\n" + bytes(100), "not a .npy file"),
    "unknown-version": (b"\x93NUMPY\x09\x00" + _header(GOOD)[8:] + DATA, "version 9.0"),
    "non-literal-header": (
        _raw_header("{'descr': __import__('os').getcwd(), 'fortran_order': False, 'shape': (2,)}")
        + DATA,
        "not a valid .npy header",
    ),
    "header-not-a-dict": (_raw_header("['<f4', False, (2,)]\n") + DATA, "not a valid .npy header"),
    "missing-key": (
        _raw_header("{'descr': '<f4', 'fortran_order': False}\n") + DATA,
        "not a valid .npy header",
    ),
    "extra-key": (
        _raw_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}\n") + DATA,
        "not a valid .npy header",
    ),
    "keys-of-mixed-types": (
        _raw_header("{b'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\n") + DATA,
        "not a valid .npy header",
    ),
    "absurd-header-length-v2": (
        _raw_header("{}", version=2, declared=2**31) + DATA,
        "header length 2147483648 is absurd",
    ),
    "header-longer-than-file": (_raw_header("{'descr': '<f4'", declared=5000), "inside the header"),
    "deeply-nested-header": (
        _raw_header("{'descr': '<f4', 'fortran_order': False, 'shape': " + "(" * 3000 + ")" * 3000),
        "not a valid .npy header",
    ),
    "negative-dimension": (
        _header({"descr": "<f4", "fortran_order": False, "shape": (-1, 2)}) + DATA,
        "non-negative",
    ),
    "shape-overflows": (
        _header({"descr": "<f8", "fortran_order": False, "shape": (2**40, 2**40)}) + DATA,
        "more bytes than can exist",
    ),
    "shape-not-ints": (
        _raw_header("{'descr': '<f4', 'fortran_order': False, 'shape': ('2',)}\n") + DATA,
        "not a valid .npy header",
    ),
    "fortran-order-not-bool": (
        _raw_header("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}\n") + DATA,
        "not a valid .npy header",
    ),
    "truncated-data": (
        _header({"descr": "<f4", "fortran_order": False, "shape": (100,)}) + DATA,
        "truncated: the header promises 400 bytes of data, the file holds 8",
    ),
    "object-dtype": (
        _header({"descr": "|O", "fortran_order": False, "shape": (2,)}) + bytes(16),
        "never unpickles",
    ),
    "structured-dtype": (
        _header({"descr": [("a", "<f4")], "fortran_order": False, "shape": (2,)}) + DATA,
        "structured",
    ),
    "subarray-dtype": (
        _header({"descr": ("<f4", (2,)), "fortran_order": False, "shape": (1,)}) + DATA,
        "structured",
    ),
    "unicode-dtype": (
        _header({"descr": "<U2", "fortran_order": False, "shape": (1,)}) + DATA,
        "not numeric",
    ),
    "datetime-dtype": (
        _header({"descr": "<M8[ns]", "fortran_order": False, "shape": (1,)}) + DATA,
        "not numeric",
    ),
    "unknown-descr": (
        _raw_header("{'descr': '<zz', 'fortran_order': False, 'shape': (2,)}\n") + DATA,
        "not a dtype NumPy knows",
    ),
}


def write_corpus(directory: Path) -> dict[str, tuple[Path, str]]:
    """The malformed corpus as files (plus a directory and a FIFO): name -> (path, words)."""
    out = {}
    for name, (content, words) in CORPUS.items():
        path = directory / f"{name}.npy"
        path.write_bytes(content)
        out[name] = (path, words)
    (directory / "a-directory.npy").mkdir()
    out["directory"] = (directory / "a-directory.npy", "is a directory")
    out["missing"] = (directory / "missing.npy", "no such file")
    if hasattr(os, "mkfifo"):
        os.mkfifo(directory / "fifo.npy")
        out["fifo"] = (directory / "fifo.npy", "not a regular file")
    return out


@pytest.mark.parametrize("name", [*CORPUS, "directory", "missing", "fifo"])
def test_malformed_file_is_one_clear_error(tmp_path, name):
    corpus = write_corpus(tmp_path)
    if name not in corpus:
        pytest.skip("no os.mkfifo on this platform")
    path, words = corpus[name]
    with pytest.raises(BadInputError) as err:
        npy.read_header(path)
    message = str(err.value)
    assert message.startswith(f"{path}: "), message
    assert words in message
    assert "\n" not in message


# Well-formed .npy files that promote refuses: they hold no numbers to promote.
NOT_NUMERIC = {"structured-dtype", "unicode-dtype", "datetime-dtype"}


def test_numpy_agrees_the_corpus_is_malformed(tmp_path):
    # Guard against a corpus entry that is in fact fine: np.load must refuse each one too.
    for name, (path, _) in write_corpus(tmp_path).items():
        if name in ("fifo", "directory", "missing") or name in NOT_NUMERIC:
            continue
        with pytest.raises(Exception):  # noqa: B017 - any failure will do: numpy raises several
            np.load(path, allow_pickle=False)


def _as_nobody(check) -> int:
    """Run ``check`` in a forked child that has dropped root (root reads files whatever their
    mode; CI runs as root); the child's exit status is 0 when the check passed."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 3
        try:
            os.setgid(65534)
            os.setuid(65534)
            status = 0 if check() else 1
        finally:
            os._exit(status)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_an_unreadable_file_is_refused_as_permission_denied():
    # A directory an unprivileged user may enter, holding a file nobody may read.
    folder = Path(tempfile.mkdtemp(prefix="promote-locked-"))
    try:
        folder.chmod(0o755)
        path = folder / "locked.npy"
        np.save(path, np.zeros(2))
        path.chmod(0)

        def refused() -> bool:
            try:
                npy.read_header(path)
            except BadInputError as exc:
                return re.search(r"locked\.npy: permission denied", str(exc)) is not None
            return False

        if os.geteuid() == 0:
            assert _as_nobody(refused) == 0
        else:
            assert refused()
    finally:
        shutil.rmtree(folder)


# --- dtypes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NUMPY_TYPES + ML_TYPES)
def test_catalogue_names_round_trip_through_numpy(name):
    dtype = npy.numpy_dtype(name)
    assert npy.canonical_name(dtype) == name
    if name in ML_TYPES:
        assert dtype == np.dtype(getattr(ml_dtypes, name))


@pytest.mark.parametrize("name", ["uint3", "uint6", "nf4", "string", "float*", "int*"])
def test_types_without_numpy_representation_are_refused(name):
    with pytest.raises(PromotionError, match="no NumPy or ml_dtypes representation"):
        npy.numpy_dtype(name)


@pytest.mark.parametrize("name", ML_TYPES)
def test_name_descr_round_trips_through_np_load(tmp_path, name):
    """The claim behind writing ml_dtypes outputs with the type's name as descr."""
    dtype = np.dtype(getattr(ml_dtypes, name))
    assert npy.header_descr(dtype) == name
    values = np.arange(4).astype(dtype)
    path = tmp_path / "x.npy"
    with open(path, "wb") as f:
        npformat.write_array_header_1_0(f, {"descr": name, "fortran_order": False, "shape": (4,)})
        f.write(values.tobytes())
    loaded = np.load(path)
    assert loaded.dtype == dtype
    assert loaded.tobytes() == values.tobytes()
    assert npy.header_descr(dtype, void_header=True) == f"|V{dtype.itemsize}"


def test_name_descr_needs_ml_dtypes_imported(tmp_path):
    import subprocess

    path = tmp_path / "bf.npy"
    with open(path, "wb") as f:
        npformat.write_array_header_1_0(
            f, {"descr": "bfloat16", "fortran_order": False, "shape": (1,)}
        )
        f.write(b"\x80\x3f")
    code = "import numpy as np, sys; print(np.load(sys.argv[1]).dtype)"
    bare = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True)
    assert bare.returncode != 0 and "not understood" in bare.stderr
    imported = subprocess.run(
        [sys.executable, "-c", "import ml_dtypes; " + code, path], capture_output=True, text=True
    )
    assert imported.stdout.strip() == "bfloat16"


@pytest.mark.parametrize(
    ("source", "target"), [("int4", "float8_e8m0fnu"), ("uint4", "int2"), ("int4", "bfloat16")]
)
def test_a_cast_is_refused_exactly_when_ml_dtypes_registers_none(source, target):
    # ml_dtypes 0.5.4 and 0.6.0 register no int4 -> float8_e8m0fnu or uint4 -> int2 cast
    # (astype itself raises TypeError); 0.7.0 registers every cast between its types.
    a, b = np.dtype(getattr(ml_dtypes, source)), np.dtype(getattr(ml_dtypes, target))
    try:
        np.zeros(1, a).astype(b)
    except TypeError:
        with pytest.raises(PromotionError, match=f"cannot cast {source} to {target}"):
            npy.check_cast(a, b)
    else:
        npy.check_cast(a, b)


# --- value checks ----------------------------------------------------------------------------

# (source dtype, value, target dtype, expected kind of change or None) and why.
CHANGES = [
    ("int64", 2**53 + 1, "float64", "rounded"),  # float64 has a 53-bit significand
    ("int64", 2**53, "float64", None),  # a power of two is exact
    ("int16", 2049, "float16", "rounded"),  # float16 integers are exact only up to 2048
    ("float32", 1e30, "float16", "overflow"),  # float16 max is 65504
    ("uint16", 65535, "float16", "overflow"),  # beyond 65504 + half an ulp: inf
    ("float32", 1000.0, "float8_e4m3fn", "overflow"),  # max 448 and no inf: NaN
    ("float32", float("nan"), "float16", None),  # NaN stays NaN
    ("float16", float("-inf"), "float32", None),  # inf stays inf
    ("float32", -0.0, "float8_e4m3fnuz", None),  # no negative zero, but -0.0 == 0.0
    ("int8", -1, "uint16", "out_of_range"),  # wraps to 65535, and back to -1
    ("uint64", 2**64 - 1, "int64", "out_of_range"),  # wraps to -1
    ("int32", 300, "int8", "out_of_range"),  # wraps to 44
    ("float32", float("nan"), "int32", "nonfinite_to_int"),
    ("float32", float("inf"), "int64", "nonfinite_to_int"),
    ("float32", 2.5, "int32", "rounded"),  # the fraction is dropped
    ("float32", 3e9, "int32", "out_of_range"),  # int32 max is 2**31 - 1
    ("complex64", 1 + 1j, "float32", "rounded"),  # the imaginary part is dropped
    ("bfloat16", 3.0, "float8_e5m2", None),  # 3 = 1.1b x 2**1 fits 2 mantissa bits
    ("float32", 1.1, "bfloat16", "rounded"),
    ("uint8", 255, "int16", None),
]


@pytest.mark.parametrize(("src", "value", "dst", "kind"), CHANGES)
def test_each_kind_of_value_change_is_counted(src, value, dst, kind):
    array = np.array([value, 0], dtype=npy.numpy_dtype(src))
    out = np.empty(2, npy.numpy_dtype(dst))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NaN -> int, complex -> real
        np.copyto(out, array, casting="unsafe")
    changes = npy.Changes()
    npy.count_changes(array, out, changes)
    expected = dict.fromkeys(npy.CHANGE_KINDS, 0)
    if kind:
        expected[kind] = 1
    assert changes.counts == expected


# --- property test: streaming conversion == np.load(A).astype(result) -------------------------


def _usable(name: str) -> bool:
    return CATALOGUE[name].numpy


@st.composite
def conversions(draw):
    """A policy, two of its types (holdable in .npy) and a result it does not refuse."""
    pol = frameworks.get(draw(st.sampled_from(frameworks.names())))
    types = [t for t in pol.universe if _usable(t)]
    a, b = draw(st.sampled_from(types)), draw(st.sampled_from(types))
    return pol, a, b


def _write_input(path: Path, array: np.ndarray, name: str, how: str) -> str | None:
    """Save ``array``; returns the explicit dtype promote must be given (raw forms)."""
    if name in ML_TYPES and how == "name-descr":
        with open(path, "wb") as f:
            npformat.write_array_header_1_0(
                f,
                {"descr": name, "fortran_order": np.isfortran(array), "shape": array.shape},
            )
            f.write(array.tobytes(order="A"))
        return None
    np.save(path, array)
    return name if name in ML_TYPES else None


def _reference(path: Path, array: np.ndarray, explicit: str | None) -> np.ndarray:
    try:
        loaded = np.load(path)
    except ValueError:  # np.save's '<f1' / '<W4' forms: what it saved is what np.load means
        return array
    return loaded.view(np.dtype(explicit)) if explicit else loaded


def _same_bits(out: np.ndarray, ref: np.ndarray) -> bool:
    """Bit for bit, NaN payloads aside (and longdouble's padding bytes, which hold no value)."""
    a, b = out.reshape(-1, order="A"), ref.reshape(-1, order="A")
    kind = CATALOGUE[npy.canonical_name(ref.dtype)].kind
    if ref.dtype.type in (np.longdouble, np.clongdouble):
        parts = [(a.real, b.real), (a.imag, b.imag)] if kind == "complex" else [(a, b)]
        return all(
            bool(
                np.all(((x == y) & (np.signbit(x) == np.signbit(y))) | (np.isnan(x) & np.isnan(y)))
            )
            for x, y in parts
        )
    if a.tobytes() == b.tobytes():
        return True
    if kind not in ("float", "complex"):
        return False
    differ = (a.view(np.uint8).reshape(a.size, -1) != b.view(np.uint8).reshape(b.size, -1)).any(1)
    return bool((~differ | (np.isnan(a) & np.isnan(b))).all())


@pytest.mark.slow
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    case=conversions(),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
    fortran=st.booleans(),
    swap=st.booleans(),
    how=st.sampled_from(["np.save", "name-descr"]),
    data=st.data(),
    chunk_bytes=st.sampled_from([1, 7, 64, 4096]),
)
def test_streamed_outputs_equal_np_load_astype_bit_for_bit(
    tmp_path_factory, case, shape, fortran, swap, how, data, chunk_bytes
):
    pol, a_name, b_name = case
    opts = pol.resolve_options({})
    work = tmp_path_factory.mktemp("prop")
    arrays, sources, explicit = [], [], []
    for i, name in enumerate((a_name, b_name)):
        dtype = npy.numpy_dtype(name)
        if swap and dtype.itemsize > 1 and name not in ML_TYPES:
            dtype = dtype.newbyteorder()
        count = int(np.prod(shape))
        raw = data.draw(st.binary(min_size=count * dtype.itemsize, max_size=count * dtype.itemsize))
        array = np.frombuffer(raw, dtype).reshape(shape)
        if fortran:
            array = np.asfortranarray(array)
        path = work / f"{i}.npy"
        explicit.append(_write_input(path, array, name, how))
        arrays.append(array)
        header = npy.read_header(path)
        sources.append(npy.Source(header, npy.data_dtype(header, explicit[-1], "--dtype")))
    try:
        result = npy.result_type(Request(pol, frameworks.notation_of(pol), opts), sources).result
        jobs = npy.plan(
            sources, result, [work / "0.out.npy", work / "1.out.npy"], skip_unchanged=False
        )
    except PromotionError:
        assume(False)
        return
    npy.execute(jobs, chunk_bytes=chunk_bytes)
    for i, job in enumerate(jobs):
        ref = _reference(job.npy.path, arrays[i], explicit[i])
        with np.errstate(all="ignore"):
            ref = ref.astype(job.target)
        out = np.load(job.out)
        assert out.dtype == job.target and out.dtype.isnative
        assert out.shape == ref.shape
        assert np.isfortran(out) == np.isfortran(ref)
        assert npy.read_header(job.out).fortran_order == job.npy.fortran_order
        assert _same_bits(out, ref), f"{pol.name}: {job.source} -> {job.target}"


def test_permission_denied_on_open_is_one_clear_error(tmp_path, monkeypatch):
    # The mapping itself, also where root could read a chmod 000 file.
    path = tmp_path / "x.npy"
    np.save(path, np.zeros(2))
    real_open = os.open

    def refusing_open(p, *args, **kwargs):
        if Path(p) == path:
            raise PermissionError(13, "Permission denied")
        return real_open(p, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    with pytest.raises(BadInputError, match=r"x\.npy: permission denied"):
        npy.read_header(path)


def test_an_input_replaced_after_its_header_was_read_is_refused(tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.arange(100, dtype=np.int16))
    np.save(b, np.zeros(1, np.float32))
    sources = [npy.Source(h, h.dtype) for h in map(npy.read_header, (a, b))]
    jobs = npy.plan(
        sources, "float32", [tmp_path / "x.npy", tmp_path / "y.npy"], skip_unchanged=False
    )
    np.save(tmp_path / "other.npy", np.arange(3, dtype=np.int16))
    os.replace(tmp_path / "other.npy", a)
    with pytest.raises(BadInputError, match="changed since its header was read"):
        npy.execute(jobs)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npy", "b.npy"]


def test_value_changes_are_counted_across_chunk_boundaries(tmp_path):
    # Python's int -> float rounds like IEEE 754 does: an independent count of the int64 values
    # that float64 cannot hold exactly, spread over many chunks.
    values = np.random.default_rng(1).integers(-(2**62), 2**62, 5000, dtype=np.int64)
    values[::7] = np.arange(len(values[::7]))  # small ones are exact
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, values)
    np.save(b, np.zeros(1, np.float64))
    sources = [npy.Source(h, h.dtype) for h in map(npy.read_header, (a, b))]
    jobs = npy.plan(
        sources, "float64", [tmp_path / "x.npy", tmp_path / "y.npy"], skip_unchanged=False
    )
    done = npy.execute(jobs, check_values=True, chunk_bytes=512)
    expected = sum(1 for v in values.tolist() if int(float(v)) != v)
    assert 0 < expected < len(values)
    assert done.written and not done.strict_refused
    assert done.changes[0].counts == {
        **dict.fromkeys(npy.CHANGE_KINDS, 0),
        "rounded": expected,
    }


def test_a_type_missing_from_an_older_ml_dtypes_is_refused_naming_it(monkeypatch):
    # ml_dtypes 0.5.4 has no complex32 (it came in 0.6.0): that ml_dtypes, as far as it matters.
    monkeypatch.delattr(ml_dtypes, "complex32")
    monkeypatch.setattr(ml_dtypes, "__version__", "0.5.4")
    with pytest.raises(PromotionError, match=r"complex32 needs a newer ml_dtypes than .* 0\.5\.4"):
        npy.numpy_dtype("complex32")


def test_the_types_held_through_ml_dtypes_are_every_type_numpy_lacks():
    # Every catalogue type NumPy holds is NumPy's own (np.dtype reads its name with nothing
    # else imported) or one ml_dtypes makes: asking for it imports ml_dtypes.
    assert set(ML_TYPES) <= numpy_dtypes.ML_DTYPES
    held = {n for n, e in CATALOGUE.items() if e.numpy}
    for name in held - numpy_dtypes.ML_DTYPES:
        assert np.dtype(name).type.__module__ == "numpy", name
    assert {"bfloat16", "int4", "float8_e4m3fn", "complex32"} <= numpy_dtypes.ML_DTYPES


# --- the convert orchestration ---------------------------------------------------------------


def _three_jobs(tmp_path: Path) -> list[npy.Job]:
    """A conversion (int64 above 2**53 -> float64: one value rounds), a copy and a skip."""
    paths = [tmp_path / n for n in ("i.npy", "f.npy", "g.npy")]
    np.save(paths[0], np.array([2**53 + 1, 3], np.int64))
    np.save(paths[1], np.zeros(5, np.float64))
    np.save(paths[2], np.zeros(7, np.float64))
    actions = (npy.CONVERT, npy.COPY, npy.SKIP)
    return [
        npy.Job(h, h.dtype, np.dtype(np.float64), tmp_path / f"out{i}.npy", action)
        for i, (h, action) in enumerate(zip(map(npy.read_header, paths), actions, strict=True))
    ]


@pytest.mark.parametrize(
    ("dry_run", "strict", "check_values", "expected"),
    [
        (False, False, False, 16 + 40),  # every output written: the conversion and the copy
        (True, False, True, 16),  # a dry run reads only what it counts: the conversion
        (True, True, False, 16),
        (True, False, False, 0),  # a plain dry run reads nothing
    ],
)
def test_bytes_to_read_is_what_execute_streams(tmp_path, dry_run, strict, check_values, expected):
    jobs = _three_jobs(tmp_path)
    seen: list[int] = []
    npy.execute(
        jobs, dry_run=dry_run, strict=strict, check_values=check_values, progress=seen.append
    )
    assert sum(seen) == expected
    assert npy.bytes_to_read(jobs, dry_run=dry_run, counting=strict or check_values) == expected


def test_strict_refusal_is_decided_by_execute_in_a_dry_run_too(tmp_path):
    jobs = _three_jobs(tmp_path)
    for dry_run in (True, False):
        done = npy.execute(jobs, dry_run=dry_run, strict=True)
        assert done.strict_refused and not done.written
        assert done.changes[0].counts["rounded"] == 1 and done.changes[1:] == [None, None]
    assert not any(p.name.startswith("out") for p in tmp_path.iterdir())
    checked = npy.execute(jobs, check_values=True)  # counting alone refuses nothing
    assert checked.written and not checked.strict_refused


@pytest.mark.parametrize(
    ("name", "out_dir", "expected"),
    [
        ("data/a.npy", None, "data/a.promoted.npy"),
        ("data/a.bin", None, "data/a.bin.promoted.npy"),
        ("data/a.npy", "out", "out/a.npy"),
    ],
)
def test_default_output_is_beside_the_input_or_under_out_dir(name, out_dir, expected):
    out = npy.default_output(Path(name), None if out_dir is None else Path(out_dir))
    assert out == Path(expected)
