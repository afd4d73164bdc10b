"""Network files read once and checked before anything plays them (no torch).

A saved network is a ``.npz`` (a zip of ``.npy`` arrays) written by
:func:`agents.numpy_nets.save_npz`. :func:`read_network` is the one reader of such a
file for every player (``learned:PATH``, the lookahead's value networks, ``rerank``,
``mcts:net=``, the shipped pairs), and so for both engines (the native engine's
networks are built from the arrays it returns). It

- reads each array's header (name, dtype, shape) from the zip before its data and
  refuses an unknown name, a dtype that is not a float (weights) or a short scalar
  (``activation``, ``kind``, ``meta_*``), and a declared size past
  :data:`MOST_VALUES` -- so a small file declaring a huge layer is refused without
  allocating it;
- reads the data of each array once, as float32, and refuses a non-finite value (NaN,
  inf, or a float64 past float32's range);
- checks the shapes against the architecture they declare (:func:`check_architecture`:
  every layer's input is the previous one's output, every head reads the trunk);
- turns every failure (a truncated, bit-flipped or empty file, a bad zip, a missing
  array) into one :class:`NetFileError` naming the file and the array.

A player's file is read once per process while it is unchanged (:func:`shared` keeps
what was built from it by path, modification time and size): a table of four
``learned:zero`` seats, or a lookahead whose students and value networks are the same
files, reads each file once.
"""

from __future__ import annotations

import math
import zipfile
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Callable

import numpy as np

from .numpy_nets import ACTIVATIONS

#: The most values (floats) one network file may declare, over all its arrays: 16.8M,
#: 64 MiB as float32, ten times the shipped networks' 1.7M; a file past it is refused
#: from its headers alone, before any data is read.
MOST_VALUES = 1 << 24
#: The most arrays a file may hold, and the longest text (meta value) it may carry.
MOST_ARRAYS, MOST_TEXT = 256, 4096
#: The arrays of a pointer network's value head (:data:`agents.pointer_actor.VALUE_KEYS`).
VALUE_KEYS = ("value_w0", "value_b0", "value_w1", "value_b1", "value_skip")
#: The arrays of a pointer network's policy head.
POINTER_KEYS = ("query_w", "query_b", "action_embedding", "card_embedding", "feature_key",
                "feature_logit", "action_bias")
#: Arrays that hold text, not weights.
TEXT_KEYS = ("kind", "activation")
#: Files kept built by :func:`shared`.
_CACHE_SIZE = 32


class NetFileError(ValueError):
    """A network file that cannot be played: its path and what is wrong (the array)."""

    def __init__(self, path, what: str):
        super().__init__(f"{path}: {what}")
        self.path = str(path)


#: (resolved path, modification time, size, build) -> what ``build`` made of the file.
_BUILT: "OrderedDict[tuple, object]" = OrderedDict()


def read_network(path: str | Path) -> dict:
    """The arrays of the network file ``path`` (name -> float32 array, or a str / int /
    float / bool for ``kind``, ``activation`` and ``meta_*``), read once and checked as
    the module says; FileNotFoundError for no file, :class:`NetFileError` for a bad
    one."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no policy file at {path}")
    arrays = _read(path)
    check_architecture(path, arrays)
    return arrays


def shared(path: str | Path, build: Callable[[dict], object]):
    """``build(read_network(path))``, built once a process while the file is unchanged
    (same path, modification time and size): the players of one file share what it
    built (read only), and a file read as a student and as a value network is read
    once."""
    path = Path(path)
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise FileNotFoundError(f"no policy file at {path}") from None
    except OSError as exc:
        raise NetFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, build)
    built = _BUILT.get(key)
    if built is None:
        built = _BUILT[key] = build(read_network(path))
        while len(_BUILT) > _CACHE_SIZE:
            _BUILT.popitem(last=False)
    else:
        _BUILT.move_to_end(key)
    return built


def _read(path: Path) -> dict:
    if path.is_dir():
        raise NetFileError(path, "is a folder, not a network file (.npz)")
    array = "(the zip directory)"
    try:
        with zipfile.ZipFile(path) as zf:
            members = zf.infolist()
            if len(members) > MOST_ARRAYS:
                raise NetFileError(path, f"holds {len(members)} arrays (at most {MOST_ARRAYS})")
            headers = []
            total = 0
            with_handles = []
            try:
                for info in members:
                    array = info.filename
                    if not array.endswith(".npy") or array.count("/") or len(array) > 200:
                        raise NetFileError(path, f"holds {array[:60]!r}, not an array (.npy)")
                    name = array[:-4]
                    handle = zf.open(info)
                    with_handles.append(handle)
                    shape, dtype, fortran = _header(handle)
                    _check_kind(path, name, shape, dtype)
                    total += math.prod(shape) if dtype.kind == "f" else 0
                    if total > MOST_VALUES:
                        raise NetFileError(path, f"array {name!r} {shape}: the file declares "
                                                 f"over {MOST_VALUES:,} values (a network "
                                                 f"this player cannot hold)")
                    headers.append((name, shape, dtype, fortran, handle))
                out = {}
                for name, shape, dtype, fortran, handle in headers:
                    array = name + ".npy"
                    out[name] = _data(path, name, shape, dtype, fortran, handle)
                return out
            finally:
                for handle in with_handles:
                    handle.close()
    except NetFileError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError,
            NotImplementedError, RuntimeError) as exc:
        what = str(exc) or type(exc).__name__
        where = "" if array.startswith("(") else f"array {array[:-4]!r}: "
        raise NetFileError(path, f"{where}not a readable network file (.npz: "
                                 f"{what[:120]})") from None


def _header(handle) -> tuple[tuple, np.dtype, bool]:
    """The shape, dtype and order (Fortran or C) of an ``.npy`` stream, read from its
    header alone."""
    version = np.lib.format.read_magic(handle)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
    else:
        raise ValueError(f"unknown .npy version {version}")
    return tuple(shape), dtype, bool(fortran)


def _check_kind(path, name: str, shape: tuple, dtype: np.dtype) -> None:
    """The dtype and rank an array of this name may have."""
    text = name in TEXT_KEYS or name.startswith("meta_")
    if text:
        if shape != () or dtype.kind not in "USbiuf" or dtype.itemsize > 4 * MOST_TEXT:
            raise NetFileError(path, f"array {name!r}: expected a short text or number, got "
                                     f"dtype {dtype} shape {shape}")
    elif dtype.kind != "f" or dtype.itemsize not in (2, 4, 8) or not 1 <= len(shape) <= 2 \
            or any(d < 1 for d in shape):
        raise NetFileError(path, f"array {name!r}: expected float weights of rank 1 or 2, got "
                                 f"dtype {dtype} shape {shape}")


def _data(path, name: str, shape: tuple, dtype: np.dtype, fortran: bool, handle):
    """The values of one array, read from its stream once: float32 weights (all
    finite), or a text or number."""
    count = math.prod(shape)
    raw = handle.read(count * dtype.itemsize)
    if len(raw) != count * dtype.itemsize:
        raise NetFileError(path, f"array {name!r}: truncated ({len(raw)} of "
                                 f"{count * dtype.itemsize} bytes)")
    values = np.frombuffer(raw, dtype=dtype, count=count).reshape(
        shape, order="F" if fortran else "C")
    if name in TEXT_KEYS or name.startswith("meta_"):
        value = values.item()
        return value.decode("latin-1") if isinstance(value, bytes) else value
    with np.errstate(over="ignore"):
        values = values.astype(np.float32)
    if not np.isfinite(values).all():
        bad = np.flatnonzero(~np.isfinite(values.reshape(-1)))
        raise NetFileError(path, f"array {name!r}: {len(bad)} value(s) are not finite "
                                 f"(NaN, inf or past float32), first at flat index {bad[0]}")
    return values


def meta_of(arrays: dict) -> dict:
    """The ``meta_*`` entries of a network's arrays, without the prefix (texts written
    from numbers or booleans read back as such, as ``np.array(value).item()`` gives)."""
    return {k[5:]: v for k, v in arrays.items() if k.startswith("meta_")}


# ---------------------------------------------------------------- the declared architecture
def _layers(path, arrays: dict) -> list[int]:
    """The widths of the hidden layers w0, b0, w1, b1... (the first is its input)."""
    n = 0
    while f"w{n}" in arrays:
        n += 1
    widths: list[int] = []
    for i in range(n):
        w, b = arrays[f"w{i}"], arrays.get(f"b{i}")
        if w.ndim != 2:
            raise NetFileError(path, f"array 'w{i}': expected 2 dimensions, got shape {w.shape}")
        if i and w.shape[0] != widths[-1]:
            raise NetFileError(path, f"array 'w{i}': reads {w.shape[0]} inputs but w{i - 1} "
                                     f"gives {widths[-1]}")
        if b is None or b.shape != (w.shape[1],):
            raise NetFileError(path, f"array 'b{i}': expected shape ({w.shape[1]},), got "
                                     f"{None if b is None else b.shape}")
        widths += [w.shape[0]] if not i else []
        widths.append(w.shape[1])
    return widths


def _need(path, arrays: dict, name: str, shape: tuple) -> None:
    got = arrays.get(name)
    if got is None:
        raise NetFileError(path, f"array {name!r} is missing")
    if isinstance(got, np.ndarray) and len(got.shape) == len(shape) and all(
            want is None or want == have for want, have in zip(shape, got.shape)):
        return
    want = ", ".join("any" if d is None else str(d) for d in shape)
    raise NetFileError(path, f"array {name!r}: expected shape ({want}), got "
                             f"{getattr(got, 'shape', type(got).__name__)}")


def check_architecture(path, arrays: dict) -> None:
    """NetFileError unless the arrays are one of the networks the players run: a flat
    actor (hidden layers, ``head_w``, ``head_b``) or a pointer network (``kind`` =
    ``"pointer"``; hidden layers, then the policy head's arrays and/or the value head's),
    every shape fitting the ones it connects to, no unknown array, a known activation."""
    activation = arrays.get("activation")
    if activation not in ACTIVATIONS:
        raise NetFileError(path, f"array 'activation': expected one of {sorted(ACTIVATIONS)}, "
                                 f"got {str(activation)[:40]!r}")
    widths = _layers(path, arrays)
    n = (len(widths) - 1) if widths else 0
    known = {"activation", *(f"{p}{i}" for i in range(n) for p in "wb")}
    kind = arrays.get("kind")
    if kind is None:
        width = widths[-1] if widths else None
        _need(path, arrays, "head_w", (width, None))
        _need(path, arrays, "head_b", (arrays["head_w"].shape[1],))
        known |= {"head_w", "head_b"}
    elif kind == "pointer":
        if not widths:
            raise NetFileError(path, "array 'w0' is missing (a pointer network needs hidden "
                                     "layers)")
        if widths[0] <= 4:
            raise NetFileError(path, f"array 'w0': reads {widths[0]} inputs, none besides the "
                                     f"projected VP")
        width = widths[-1]
        known |= {"kind"}
        if "query_w" in arrays or not any(k in arrays for k in VALUE_KEYS):
            _need(path, arrays, "query_w", (width, None))
            e = arrays["query_w"].shape[1]
            _need(path, arrays, "query_b", (e,))
            _need(path, arrays, "action_embedding", (None, e))
            _need(path, arrays, "card_embedding", (None, e))
            _need(path, arrays, "feature_key", (None, e))
            _need(path, arrays, "feature_logit", (arrays["feature_key"].shape[0],))
            _need(path, arrays, "action_bias", (arrays["action_embedding"].shape[0],))
            known |= set(POINTER_KEYS)
        if any(k in arrays for k in VALUE_KEYS):
            _need(path, arrays, "value_w0", (width, None))
            hidden = arrays["value_w0"].shape[1]
            _need(path, arrays, "value_b0", (hidden,))
            _need(path, arrays, "value_w1", (hidden, 2))
            _need(path, arrays, "value_b1", (2,))
            _need(path, arrays, "value_skip", (2,))
            known |= set(VALUE_KEYS)
    else:
        raise NetFileError(path, f"array 'kind': unknown network kind {str(kind)[:40]!r} "
                                 f"(known: pointer, or none for a flat actor)")
    unknown = sorted(k for k in arrays if k not in known and not k.startswith("meta_"))
    if unknown:
        raise NetFileError(path, f"array {unknown[0]!r}: not an array of this network "
                                 f"({'pointer' if kind else 'flat'}: {len(unknown)} unknown)")
