"""Build of the optional native engine (singapore_env._native, C++17 with pybind11).

Everything else is configured in pyproject.toml. The extension is optional: a machine
without a C++ compiler (or a build without pybind11) installs the package all the same,
with the Python engine only; ``singapore_env.native`` then says why it is missing.

``SINGAPORE_NATIVE_DEBUG=1`` in the environment makes the debug build: the game's
invariants checked after every step (``native/invariants.hpp``), ``-O1 -g``.
``SINGAPORE_NATIVE_SANITIZE=1`` makes the sanitizer build (``docs/native.md``):
AddressSanitizer and UndefinedBehaviorSanitizer, every index of the state's lists and of
the standard library's containers checked, ``-O1 -g``; Python loads it with libasan
preloaded.
"""

import hashlib
import os
from glob import glob
from pathlib import Path

from setuptools import setup

#: The native sources; the module is built with their digest (``SOURCE_DIGEST``), which
#: ``singapore_env.native`` compares with the sources beside it to refuse a stale build.
SOURCES = sorted(glob("native/*.cpp") + glob("native/*.hpp") + glob("native/*.inc"))
DIGEST = hashlib.sha256(b"".join(Path(p).read_bytes() for p in SOURCES)).hexdigest()[:16]

try:
    from pybind11.setup_helpers import Pybind11Extension
except ImportError:  # a build without its build requirements (--no-build-isolation)
    print("setup.py: pybind11 is not installed: the native engine is not built")
    ext_modules = []
else:
    DEBUG = os.environ.get("SINGAPORE_NATIVE_DEBUG", "") not in ("", "0")
    SANITIZE = os.environ.get("SINGAPORE_NATIVE_SANITIZE", "") not in ("", "0")
    SANITIZERS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
                  "-fno-sanitize-recover=undefined"]
    ext_modules = [Pybind11Extension(
        "singapore_env._native", ["native/module.cpp"], include_dirs=["native"],
        depends=SOURCES,
        define_macros=[("SOURCE_DIGEST", f'"{DIGEST}"')] + [("SINGAPORE_NATIVE_DEBUG", "1")] * DEBUG
        + [("SINGAPORE_NATIVE_SANITIZE", "1"), ("_GLIBCXX_ASSERTIONS", "1")] * SANITIZE,
        cxx_std=17, extra_compile_args=["-O1", "-g"] + SANITIZERS * SANITIZE if DEBUG or SANITIZE
        else ["-O2"], extra_link_args=SANITIZERS * SANITIZE, optional=True)]

setup(ext_modules=ext_modules)
