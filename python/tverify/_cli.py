"""The `tverify` command that `pip install` puts on PATH: it runs the CLI executable installed inside the package
(tverify/bin/tverify, built by setup.py with the module) with the same arguments, so that its exit codes, output and
signals are the executable's own."""
import os
import sys
from pathlib import Path


def executable():
    return Path(__file__).resolve().parent / "bin" / "tverify"


def main():
    path = executable()
    if not os.access(path, os.X_OK):
        sys.stderr.write(f"tverify: internal error: the package's executable {path} is missing; reinstall tverify\n")
        sys.exit(4)
    os.execv(path, [str(path), *sys.argv[1:]])
