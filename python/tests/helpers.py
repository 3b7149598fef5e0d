"""What the package's tests share: the CLI at TVERIFY_BINARY, and certificates compared as `tverify recheck` compares
them."""

import json
import os
import subprocess

BINARY = os.environ["TVERIFY_BINARY"]
SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def cli(*args, cwd):
    return subprocess.run([BINARY, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def reproducible(certificate_text):
    """A certificate without the fields that differ between two runs of one command by design, as `tverify recheck`
    leaves them out: the command line, elapsed time and build (version, commit), and each claim's timings (seconds)
    and Z3 dump paths."""
    j = json.loads(certificate_text)
    for key in ("elapsed_s", "command", "version", "commit"):
        j.pop(key, None)

    def stable(x):
        if isinstance(x, dict):
            return {k: stable(v) for k, v in x.items() if k not in ("seconds", "smt2")}
        if isinstance(x, list):
            return [stable(v) for v in x]
        return x

    j["claims"] = stable(j["claims"])
    return j
