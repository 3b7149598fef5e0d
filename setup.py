"""The compiled half of `pip install .` (pyproject.toml has the rest): builds the CMake targets _tverify (the module)
and tverify (the CLI executable) with this project's CMakeLists.txt for the interpreter running pip, and puts the
module beside python/tverify/__init__.py and the executable at tverify/bin/tverify, which the `tverify` console
script runs (python/tverify/_cli.py). TVERIFY_PREBUILT=DIR takes both from an existing build folder of this project
(`scripts/build release` makes build/release) instead of building them again."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_build(folder):
    """Configures and builds the two targets in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(folder), "-DCMAKE_BUILD_TYPE=Release",
                    "-DTVERIFY_BUILD_BENCH=OFF", "-DTVERIFY_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"],
                   check=True)
    subprocess.run(["cmake", "--build", str(folder), "--target", "_tverify", "tverify", "-j",
                    str(os.cpu_count() or 1)], check=True)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        prebuilt = os.environ.get("TVERIFY_PREBUILT")
        build = Path(prebuilt).resolve() if prebuilt else Path(self.build_temp).resolve() / "cmake"
        if not prebuilt:
            cmake_build(build)
        module = next((build / "python" / "tverify").glob("_tverify*.so"), None)
        program = build / "cli" / "tverify"
        if module is None or not program.is_file():
            sys.exit(f"setup.py: {build} holds no built _tverify module and cli/tverify executable")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(module, target)
        (target.parent / "bin").mkdir(exist_ok=True)
        shutil.copy2(program, target.parent / "bin" / "tverify")


setup(ext_modules=[Extension("tverify._tverify", sources=[])], cmdclass={"build_ext": CMakeBuild})
