"""Corrupted copies of a shipped network folder, each played by the command line on
both engines: every one must be refused with one ``cannot load agent`` message, exit
code 2, in little memory (``agents/net_files.py``; ``tests/test_net_files.py`` runs
the same corruptions through the loaders).

    python scripts/net_file_check.py [--folder agents/policies/zero] [--engines python,native]

Prints, per corruption and engine: the exit code, the peak memory of the command (MB)
and the message's first line; exits 1 if any is not refused with exit code 2.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def _rewrite(file: Path, change) -> None:
    with np.load(file) as data:
        arrays = dict(data)
    change(arrays)
    np.savez_compressed(file, **arrays)


def _huge(file: Path) -> None:
    """A first layer declared 40,000 wide (824M floats, 3.3 GB), its data 1 MB of zeros:
    the loader must refuse it from the header, before it allocates anything."""
    with np.load(file) as data:
        arrays = dict(data)
    with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, value in arrays.items():
            with zf.open(name + ".npy", "w", force_zip64=True) as f:
                if name != "w0":
                    np.lib.format.write_array(f, value)
                    continue
                np.lib.format.write_array_header_1_0(f, {
                    "descr": "<f4", "fortran_order": False,
                    "shape": (value.shape[0], 40_000)})
                f.write(bytes(1 << 20))


def _cut(file: Path, size) -> None:
    data = file.read_bytes()
    file.write_bytes(data[:size(len(data))])


def _flip(file: Path) -> None:
    data = bytearray(file.read_bytes())
    data[len(data) // 3] ^= 0xFF
    file.write_bytes(bytes(data))


#: name -> (corruption of a network file in place, words its message holds)
CORRUPTIONS = {
    "wrong shape": (lambda f: _rewrite(f, lambda a: a.__setitem__("b1", a["b1"][:200])),
                    "array 'b1': expected shape"),
    "NaN": (lambda f: _rewrite(f, lambda a: a["w0"].__setitem__((3, 4), np.nan)),
            "array 'w0': 1 value(s) are not finite"),
    "inf": (lambda f: _rewrite(f, lambda a: a["b1"].__setitem__(0, np.inf)),
            "array 'b1': 1 value(s) are not finite"),
    "past float32": (lambda f: _rewrite(f, lambda a: a.__setitem__(
        "b0", np.full(a["b0"].shape, 1e39))), "array 'b0': "),
    "extra array": (lambda f: _rewrite(f, lambda a: a.__setitem__("bogus", np.zeros(3))),
                    "array 'bogus': not an array of this network"),
    "missing array": (lambda f: _rewrite(f, lambda a: a.pop("b1")), "array 'b1'"),
    "text weights": (lambda f: _rewrite(f, lambda a: a.__setitem__(
        "b0", np.array(["x"] * len(a["b0"])))), "array 'b0': expected float weights"),
    "truncated": (lambda f: _cut(f, lambda n: n // 2), "not a readable network file"),
    "0 bytes": (lambda f: _cut(f, lambda n: 0), "not a readable network file"),
    "bit flip": (_flip, "not a readable network file"),
    "huge shape": (_huge, "the file declares over"),
}


def corrupted_copy(folder: Path, out: Path, corruption: str) -> Path:
    """A copy of the network folder ``folder`` in ``out`` with its ``british.npz``
    corrupted as :data:`CORRUPTIONS` says; the corrupted file."""
    out.mkdir(parents=True)
    for file in Path(folder).glob("*.npz"):
        shutil.copy(file, out / file.name)
    CORRUPTIONS[corruption][0](out / "british.npz")
    return out / "british.npz"


def run(spec: str, engine: str) -> tuple[int, float, str]:
    """``simulate`` one game with ``spec`` on seat 0: (exit code, peak MB, output)."""
    command = [sys.executable, "-m", "singapore_app", "simulate", "--games", "1",
               "--engine", engine, "--players", f"{spec},heuristic,random,random"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=env, cwd=ROOT)
    output = process.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss / 1024, output


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", default=str(ROOT / "agents" / "policies" / "zero"))
    parser.add_argument("--engines", default="python,native")
    args = parser.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, (_, words)) in enumerate(CORRUPTIONS.items()):
            folder = Path(tmp) / f"c{i}"
            corrupted_copy(Path(args.folder), folder, name)
            for engine in args.engines.split(","):
                for spec in (f"learned:{folder / 'british.npz'}", f"lookahead:{folder}"):
                    code, mb, output = run(spec, engine)
                    line = next((x for x in output.splitlines() if "cannot load agent" in x),
                                output.strip().splitlines()[-1] if output.strip() else "")
                    ok = code == 2 and words in output and "Traceback" not in output
                    bad += not ok
                    print(f"{'ok ' if ok else 'BAD'} {name:14} {engine:6} {spec.split(':')[0]:9} "
                          f"exit {code}  {mb:6.0f} MB  {line[:150]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
