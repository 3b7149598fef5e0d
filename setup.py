"""The compiled half of `pip install .` (pyproject.toml has the rest): builds the CMake target _tverify with this
project's CMakeLists.txt for the interpreter running pip, and puts the module beside python/tverify/__init__.py."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DTVERIFY_BUILD_BENCH=OFF", "-DTVERIFY_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"],
                       check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_tverify", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = next((build / "python" / "tverify").glob("_tverify*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(ext_modules=[Extension("tverify._tverify", sources=[])], cmdclass={"build_ext": CMakeBuild})
