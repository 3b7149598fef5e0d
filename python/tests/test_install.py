"""The documented install route: `python3 -m venv --system-site-packages` and `pip install --no-build-isolation` of a
copy of the sources, offline, put `import tverify` and the `tverify` command (the bundled CLI) in the venv. The
compiled module and executable come from this build (TVERIFY_PREBUILT, setup.py), so the test takes seconds; the
CMake build that pip runs without it is the one `scripts/build release` runs."""
import os
import shutil
import subprocess
import sys

import pytest

from helpers import BINARY, SOURCE_DIR

BUILD = os.path.dirname(os.path.dirname(os.path.abspath(BINARY)))


def tracked_files():
    try:
        listed = subprocess.run(["git", "-C", SOURCE_DIR, "ls-files", "-z"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return [name for name in listed.stdout.decode().split("\0") if name]


@pytest.mark.skipif(tracked_files() is None, reason="the sources are not a git checkout")
def test_a_venv_install_gives_the_module_and_the_command(tmp_path):
    source = tmp_path / "source"
    for name in tracked_files():
        if os.path.isfile(os.path.join(SOURCE_DIR, name)):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(os.path.join(SOURCE_DIR, name), source / name)
    venv = tmp_path / "venv"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = dict(os.environ, TVERIFY_PREBUILT=BUILD)
    env.pop("PYTHONPATH", None)
    installed = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-build-isolation", "--no-deps", "--no-index",
                                str(source)], capture_output=True, text=True, env=env, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    command = subprocess.run([str(venv / "bin" / "tverify"), "check", "count3", "--claim", "count3.alg2_alg3", "--n", "2",
                              "--json", "c.json"],
                             capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert command.returncode == 0, command.stderr
    assert "verified" in command.stdout and (tmp_path / "c.json").exists()
    imported = subprocess.run([str(venv / "bin" / "python"), "-c",
                               "import tverify, json; print(tverify.__file__); "
                               "print(tverify.recheck('c.json'))"],
                              capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert imported.returncode == 0, imported.stderr
    assert str(venv) in imported.stdout.splitlines()[0]  # the venv's copy, not the build's
    bad = subprocess.run([str(venv / "bin" / "tverify"), "check", "count3", "--n", "0"], capture_output=True,
                         text=True, timeout=60, env=env)
    assert bad.returncode == 2 and bad.stderr.startswith("tverify: error: --n")
