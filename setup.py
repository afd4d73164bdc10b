"""Build of the optional native engine (singapore_env._native, C++17 with pybind11).

Everything else is configured in pyproject.toml. The extension is optional: a machine
without a C++ compiler (or a build without pybind11) installs the package all the same,
with the Python engine only; ``singapore_env.native`` then says why it is missing.
"""

from glob import glob

from setuptools import setup

try:
    from pybind11.setup_helpers import Pybind11Extension
except ImportError:  # a build without its build requirements (--no-build-isolation)
    print("setup.py: pybind11 is not installed: the native engine is not built")
    ext_modules = []
else:
    ext_modules = [Pybind11Extension(
        "singapore_env._native", ["native/module.cpp"], include_dirs=["native"],
        depends=sorted(glob("native/*.hpp") + glob("native/*.inc")),
        cxx_std=17, extra_compile_args=["-O2"], optional=True)]

setup(ext_modules=ext_modules)
