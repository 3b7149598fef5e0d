"""check(checkpoint=..., resume=...): a check stopped by Ctrl-C resumes from its checkpoint to the certificate of an
uninterrupted run, with another thread count; the CLI rechecks it without the checkpoint; bad options are refused."""
import json
import os
import signal
import threading
import time

import pytest

import tverify
from helpers import SOURCE_DIR, cli

HISTOGRAM = os.path.join(SOURCE_DIR, "examples", "models", "histogram.onnx")
# 87,380 sequences in 256 chunks: about 2 s on one thread. The interrupt comes once the checkpoint holds a finished
# chunk, and the check stops within its 100 ms poll, which leaves most of the chunks to the resumed run however fast
# the machine is.
OPTIONS = dict(task="histogram", V=4, lengths="1:8", method="enumerate", progress=False)


def interrupt_once_written(path):
    """A thread that sends this process SIGINT as soon as `path` exists (the first chunk's checkpoint)."""
    def watch():
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.002)
        os.kill(os.getpid(), signal.SIGINT)
    return threading.Thread(target=watch, daemon=True)


def stable(certificate):
    c = json.loads(certificate.to_json())
    for key in ("elapsed_s", "command"):
        c.pop(key)
    return c


@pytest.fixture
def ctrl_c_raises():
    """Python's KeyboardInterrupt on SIGINT for the test, even where the process started with SIGINT ignored (a
    background job of a shell without job control), where Python installs no handler of its own."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_an_interrupted_check_resumes_to_the_uninterrupted_certificate(tmp_path, ctrl_c_raises):
    whole = tverify.check_model(HISTOGRAM, threads=2, **OPTIONS)
    checkpoint = tmp_path / "run.checkpoint.json"
    interrupter = interrupt_once_written(checkpoint)
    interrupter.start()
    with pytest.raises(KeyboardInterrupt):
        tverify.check_model(HISTOGRAM, threads=1, checkpoint=checkpoint, checkpoint_every=0, **OPTIONS)
    finished = json.loads(checkpoint.read_text())["enumerations"][0]["finished"]
    assert len(finished) < 256, "the interrupt came after the whole enumeration"
    resumed = tverify.check_model(HISTOGRAM, threads=2, checkpoint=checkpoint, resume=True, **OPTIONS)
    assert stable(resumed) == stable(whole)
    command = json.loads(resumed.to_json())["command"]
    assert "--checkpoint" in command and "--resume" in command
    (tmp_path / "c.json").write_text(resumed.to_json())
    checkpoint.unlink()  # recheck re-runs the whole command and never reads a checkpoint
    assert cli("recheck", "c.json", cwd=tmp_path).returncode == 0


def test_checkpoint_options_are_checked(tmp_path):
    with pytest.raises(ValueError, match="resume=True needs checkpoint=PATH"):
        tverify.check("count3", n=2, resume=True)
    with pytest.raises(TypeError, match="resume is a flag"):
        tverify.check("count3", n=2, checkpoint=tmp_path / "a.json", resume="yes")
    with pytest.raises(ValueError, match="checkpoint_every= needs checkpoint=PATH"):
        tverify.check("count3", n=2, checkpoint_every=30)
    with pytest.raises(ValueError, match=r"checkpoint_every must be an integer in \[0, 86400\]"):
        tverify.check("count3", n=2, checkpoint=tmp_path / "a.json", checkpoint_every=-1)
    (tmp_path / "a.json").write_text("{}")
    with pytest.raises(ValueError, match="exists: add --resume"):
        tverify.check("count3", n=2, checkpoint=tmp_path / "a.json", progress=False)
    with pytest.raises(ValueError, match="is not a checkpoint of `tverify check`"):
        tverify.check("count3", n=2, checkpoint=tmp_path / "a.json", resume=True, progress=False)
    assert (tmp_path / "a.json").read_text() == "{}"
