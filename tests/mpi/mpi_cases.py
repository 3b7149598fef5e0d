"""Runs under mpirun against the same binary run alone (docs/cluster.md): certificates equal apart from timings and
`ranks`, a killed rank fails the run without a certificate, so does a rank's own error (one line naming the rank), a
sweep or a check killed under 3 ranks resumes under 2, the sweeps whose points are shared out among the ranks give
one process's tables, --max-inputs counts the whole domain, and --progress shows rank 0's line.

Usage: mpi_cases.py TVERIFY_BINARY SOURCE_DIR CASE, with CASE one of the names in CASES."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

BINARY, SOURCE, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
# -q: no report of several lines for a non-zero exit code (tverify's carry verdicts), and no second of waiting after
# one; --oversubscribe: more ranks than this machine's 2 cores; CI runs as root, which Open MPI refuses unless told.
MPIRUN = ["mpirun", "-q", "--oversubscribe", "--mca", "odls_base_sigkill_timeout", "0"]
if os.geteuid() == 0:
    MPIRUN.append("--allow-run-as-root")
ENV = dict(os.environ, CI="true")


def run(args, ranks=None, timeout=600):
    command = ([*MPIRUN, "-np", str(ranks)] if ranks else []) + [BINARY, *args]
    return subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=timeout)


def stable(certificate):
    """The certificate without what differs between runs of one command by design."""
    c = json.loads(certificate)
    for key in ("elapsed_s", "ranks", "command"):
        c.pop(key, None)
    for claim in c["claims"]:
        claim.get("details", {}).pop("seconds", None)
    return c


def certificates_agree(args, expected_code):
    with tempfile.TemporaryDirectory() as folder:
        results = {}
        for ranks in (None, 2, 3):
            path = os.path.join(folder, f"{ranks}.json")
            done = run([*args, "--json", path], ranks)
            assert done.returncode == expected_code, (ranks, done.returncode, done.stdout, done.stderr)
            with open(path) as f:
                text = f.read()
            results[ranks] = stable(text)
            assert ("ranks" in json.loads(text)) == (ranks is not None), "ranks is recorded under MPI only"
            assert done.stdout.count("certificate:") == 1, "one rank prints"
        assert results[2] == results[None], "2 ranks differ from one process"
        assert results[3] == results[None], "3 ranks differ from one process"
        recheck = run(["recheck", os.path.join(folder, "3.json"), "--threads", "2"])
        assert recheck.returncode == 0, recheck.stdout + recheck.stderr


def check_copy():
    certificates_agree(["check", "copy", "--variant", "corrected", "--D", "2", "--n", "2", "--L", "8", "--threads", "2"],
                       1)


def check_cat():
    certificates_agree(["check", "cat", "--threads", "1"], 1)


def check_count3():
    # The claims decided by enumeration (the Z3 ones run the same on every rank).
    certificates_agree(["check", "count3", "--claim", "count3.alg4", "--claim", "match3.alg5", "--claim", "count3.alg6",
                        "--claim", "count3.rasp_mlp", "--threads", "2"], 1)


def check_model():
    model = os.path.join(SOURCE, "examples", "models", "sort.onnx")
    certificates_agree(["check", "model", "--onnx", model, "--task", "sort", "--V", "3", "--lengths", "1:5",
                        "--threads", "1"], 1)


def model_bounds():
    # The bounds method's trees, a box budget and the inputs it leaves one by one: the same on 1, 2 and 3 ranks.
    model = os.path.join(SOURCE, "examples", "models", "previous.onnx")
    certificates_agree(["check", "model", "--onnx", model, "--task", "reverse", "--V", "16", "--lengths", "1:3",
                        "--method", "bounds", "--threads", "2"], 1)
    certificates_agree(["check", "model", "--onnx", model, "--task", "previous", "--V", "16", "--lengths", "1:4",
                        "--max-boxes", "40"], 3)


def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def descends_from(pid, ancestor):
    while pid > 1:
        if pid == ancestor:
            return True
        pid = parent(pid)
    return False


def rank_process(launcher, rank):
    """The pid of the given rank of this launcher's job (Open MPI names the rank in each process's environment)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == launcher:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read().split(b"\0")
            if f"OMPI_COMM_WORLD_RANK={rank}".encode() in environ and descends_from(int(entry), launcher):
                return int(entry)
        except (OSError, ValueError, IndexError):
            continue
    return None


def killed_rank():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "c.json")
        command = [*MPIRUN, "-np", "2", BINARY, "check", "copy", "--variant", "corrected", "--D", "2", "--n", "3",
                   "--L", "16", "--claim", "copy.thm2_3", "--threads", "1", "--json", path]
        launcher = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        victim = None
        for _ in range(200):
            victim = rank_process(launcher.pid, 1)
            if victim:
                break
            time.sleep(0.05)
        assert victim, "rank 1 never started"
        time.sleep(1.0)
        os.kill(victim, signal.SIGKILL)
        out, err = launcher.communicate(timeout=120)
        assert launcher.returncode not in (0, 1, 2, 3), f"a run with a killed rank exited {launcher.returncode}: {err}"
        assert not os.path.exists(path), "a certificate was written for a run with a killed rank"
        assert "verified" not in out, out


def sweep_resume():
    args = ["sweep", "copy", "--fast", "--variant", "corrected", "--D", "16", "--n", "4", "--vary", "L=4096:524288:x2",
            "--samples", "2", "--threads", "1"]
    with tempfile.TemporaryDirectory() as folder:
        alone, killed = os.path.join(folder, "alone"), os.path.join(folder, "killed")
        done = run([*args, "--out", alone])
        assert done.returncode == 0, done.stderr
        checkpoint = os.path.join(killed, "copy-fast-L.checkpoint.json")
        launcher = subprocess.Popen([*MPIRUN, "-np", "3", BINARY, *args, "--out", killed], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, env=ENV)
        for _ in range(600):
            time.sleep(0.05)
            try:
                with open(checkpoint) as f:
                    rows = json.load(f)["rows"]
            except (OSError, ValueError):
                continue
            if len(rows) >= 2:
                break
        launcher.send_signal(signal.SIGTERM)  # as Slurm's scancel does; mpirun passes it on to every rank
        launcher.wait(timeout=60)
        with open(checkpoint) as f:
            finished = len(json.load(f)["rows"])
        assert 2 <= finished < 8, f"the killed sweep had finished {finished} of 8 points"
        resumed = run([*args, "--out", killed, "--resume"], ranks=2)
        assert resumed.returncode == 0, resumed.stderr
        for name in ("copy-fast-L.json", "copy-fast-L.csv"):
            with open(os.path.join(alone, name)) as a, open(os.path.join(killed, name)) as b:
                left, right = a.read(), b.read()
            if name.endswith(".json"):  # the certificates, apart from timings, command lines and ranks
                left, right = [without_timings(json.loads(text)) for text in (left, right)]
            else:
                left = [line.rsplit(",", 1)[0] for line in left.splitlines()]
                right = [line.rsplit(",", 1)[0] for line in right.splitlines()]
            assert left == right, f"{name}: the resumed sweep differs from one process"


def check_resume():
    """A check killed under 3 ranks part-way through an enumeration resumes from its checkpoint under 2 ranks, and its
    certificate is the uninterrupted one's (apart from timings, command lines and ranks)."""
    model = os.path.join(SOURCE, "examples", "models", "histogram.onnx")
    args = ["check", "model", "--onnx", model, "--task", "histogram", "--V", "4", "--lengths", "1:8", "--method",
            "enumerate", "--threads", "2"]
    with tempfile.TemporaryDirectory() as folder:
        alone, resumed, checkpoint = (os.path.join(folder, name) for name in ("alone.json", "resumed.json", "ck.json"))
        assert run([*args, "--json", alone]).returncode == 0
        launcher = subprocess.Popen([*MPIRUN, "-np", "3", BINARY, *args, "--checkpoint", checkpoint,
                                     "--checkpoint-every", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=ENV)
        finished = 0
        for _ in range(3000):
            time.sleep(0.01)
            try:
                with open(checkpoint) as f:
                    finished = len(json.load(f)["enumerations"][0]["finished"])
            except (OSError, ValueError, IndexError):
                continue
            if finished >= 4:
                break
        launcher.send_signal(signal.SIGTERM)
        launcher.wait(timeout=60)
        with open(checkpoint) as f:
            finished = len(json.load(f)["enumerations"][0]["finished"])
        assert 4 <= finished < 256, f"the killed check had finished {finished} of 256 chunks"
        done = run([*args, "--checkpoint", checkpoint, "--resume", "--json", resumed], ranks=2)
        assert done.returncode == 0, done.stderr
        with open(alone) as a, open(resumed) as b:
            assert stable(a.read()) == stable(b.read()), "the resumed check differs from one process"


def sweep_points():
    """Sweeps whose points are shared out among the ranks (the Markov (p, q) grid, CAT's temperatures and lengths,
    exact and fast): their tables and certificates are one process's, apart from the command line and `ranks`."""
    sweeps = [(["markov", "--vary", "pq", "--resolution", "1/6"], ["markov-gap", "markov-h-alpha"]),
              (["cat", "--vary", "L", "--variant", "key_delay_full"], ["cat-c-vs-length"]),
              (["cat", "--vary", "c", "--variant", "ar", "--N", "1", "--V", "2", "--L-max", "8"], ["cat-length-vs-c"]),
              (["cat", "--fast", "--vary", "c", "--variant", "ar", "--N", "1", "--V", "3", "--L-max", "3000"],
               ["cat-length-vs-c"])]
    for args, names in sweeps:
        with tempfile.TemporaryDirectory() as folder:
            outputs = {}
            for ranks in (None, 2, 3):
                out = os.path.join(folder, str(ranks))
                done = run(["sweep", *args, "--out", out], ranks)
                assert done.returncode == 0, (args, ranks, done.stdout, done.stderr)
                for name in names:
                    with open(os.path.join(out, name + ".csv")) as f:
                        table = f.read()
                    with open(os.path.join(out, name + ".json")) as f:
                        certificate = {k: v for k, v in json.load(f).items() if k not in ("command", "ranks")}
                    outputs.setdefault(ranks, []).append((table, certificate))
            if args[0] == "markov":
                assert len(outputs[None][0][0].splitlines()) == 1 + 25, "a row per grid point"
            assert outputs[2] == outputs[None], (args, "2 ranks differ from one process")
            assert outputs[3] == outputs[None], (args, "3 ranks differ from one process")


def progress():
    """--progress under mpirun: one progress line, rank 0's (the other ranks' stderr is /dev/null), counting the whole
    domain ([3]^13, 1,594,323 strings); without it, nothing on stderr (CI is set)."""
    args = ["check", "copy", "--claim", "copy.alg1", "--D", "3", "--n", "3", "--L", "13", "--threads", "1"]
    shown = run([*args, "--progress"], 2)
    assert shown.returncode == 1, (shown.stdout, shown.stderr)
    lines = [line for line in shown.stderr.splitlines() if line.startswith("strings [")]  # text mode reads \r as \n
    assert lines, shown.stderr
    assert all("/1594323 " in line for line in lines), lines
    counts = [int(line.split("] ")[1].split("/")[0]) for line in lines]
    assert counts == sorted(counts), ("rank 0 draws, counting up", lines)
    hidden = run(args, 2)
    assert hidden.returncode == 1 and hidden.stderr == "", hidden.stderr


def rank_error():
    """An error of one rank alone (rank 1's --onnx is missing): exit 2, one line naming the rank, no certificate."""
    model = os.path.join(SOURCE, "examples", "models", "sort.onnx")
    args = ["check", "model", "--task", "sort", "--V", "3", "--lengths", "1:3"]
    with tempfile.TemporaryDirectory() as folder:
        certificate, missing = os.path.join(folder, "c.json"), os.path.join(folder, "missing.onnx")
        command = [*MPIRUN, "-np", "1", BINARY, *args, "--onnx", model, "--json", certificate, ":",
                   "-np", "1", BINARY, *args, "--onnx", missing, "--json", certificate]
        done = subprocess.run(command, capture_output=True, text=True, env=ENV, timeout=600)
        assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
        line = f"rank 1: tverify: error: --onnx '{missing}' cannot be read: No such file or directory\n"
        # Open MPI's event library may add a line of its own ("[warn] Epoll MOD(1) on fd 23 failed...") as mpirun
        # tears the job down under load; tverify's output is the rest.
        ours = "".join(s for s in done.stderr.splitlines(keepends=True) if not s.startswith("[warn] Epoll"))
        assert ours == line, done.stderr
        assert not os.path.exists(certificate)


def max_inputs():
    """--max-inputs counts the whole domain under MPI, and the refusal is one line, printed once."""
    done = run(["check", "copy", "--D", "3", "--n", "3", "--L", "16", "--max-inputs", "1000"], 2)
    assert done.returncode == 2, (done.stdout, done.stderr)
    # Open MPI's event library may add a "[warn] Epoll ..." line of its own while the job ends; tverify's is one line.
    ours = "".join(line for line in done.stderr.splitlines(True) if not line.startswith("[warn] Epoll"))
    assert ours == ("tverify: error: the domain [D]^L has 43046721 inputs, above --max-inputs 1000; raise "
                    "--max-inputs or pass --force\n"), done.stderr


def without_timings(certificate):
    """A sweep certificate's summary, request and probes, each point's seconds left out."""
    for row in certificate["summary"]["rows"]:
        row.pop("seconds")
    probes = certificate["probes"]
    column = probes["columns"].index("seconds")
    probes["columns"].pop(column)
    for row in probes["rows"]:
        row.pop(column)
    return {key: certificate[key] for key in ("construction", "variant", "params", "sweep", "summary", "probes")}


CASES = {f.__name__: f for f in (check_copy, check_cat, check_count3, check_model, model_bounds, killed_rank,
                                  check_resume, sweep_resume, sweep_points, progress, rank_error, max_inputs)}

if __name__ == "__main__":
    CASES[CASE]()
    print(f"{CASE}: ok")
