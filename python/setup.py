"""Builds keeper's Python package: the pure-Python face (keeper/) and the C
extension keeper._keeper, compiled from the repository's own sources (src/,
include/) with nothing downloaded: only the machine's Python headers and
setuptools are needed. See README.md in this folder."""
import glob
import os
import re

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
os.chdir(HERE)  # the paths below are relative to this folder, wherever it runs from


def rel(path):
    return os.path.relpath(path, HERE)


LIB_DIRS = ["src", "src/util", "src/core", "src/analysis", "src/deadlock",
            "src/heuristic", "src/search", "src/optimize", "src/driver"]
sources = [rel(os.path.join(HERE, "_keeper.c"))]
for d in LIB_DIRS:
    sources += sorted(rel(p) for p in glob.glob(os.path.join(ROOT, d, "*.c")))
if len(sources) < 20:
    raise SystemExit("keeper's C sources not found next to python/ (%s)" % ROOT)

with open(os.path.join(ROOT, "include", "keeper.h")) as f:
    VERSION = re.search(r'#define KEEPER_VERSION "([^"]+)"', f.read()).group(1)

setup(
    name="keeper-sokoban",
    version=VERSION,
    description="keeper: a Sokoban solver and solution optimizer (Python bindings)",
    license="MIT",
    packages=["keeper"],
    package_dir={"keeper": "keeper"},
    package_data={"keeper": ["py.typed"]},
    python_requires=">=3.8",
    ext_modules=[
        Extension(
            "keeper._keeper",
            sources=sources,
            include_dirs=[rel(os.path.join(ROOT, "include"))],
            define_macros=[("_GNU_SOURCE", None), ("NDEBUG", None)],
            extra_compile_args=["-std=c11", "-pthread", "-O2", "-fvisibility=hidden"],
            extra_link_args=["-pthread"],
            libraries=["m"],
        )
    ],
)
