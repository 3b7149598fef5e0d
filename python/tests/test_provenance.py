"""What a certificate records of its inputs, from the CLI: the SHA-256 of every file it read (the model, an --expected
file, a --point-file), the parameters the run read and no others, and recheck reading a relative path from the
certificate's folder when the current folder has no such file."""
import hashlib
import json
import os
import shutil

from helpers import SOURCE_DIR, cli

SORT_MODEL = os.path.join(SOURCE_DIR, "examples", "models", "sort.onnx")


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def expected_run(folder):
    """sort.onnx against an --expected file of its task (sort over two tokens, lengths 1..2, BOS = 2), in `folder`
    with relative paths."""
    folder.mkdir()
    shutil.copy(SORT_MODEL, folder / "sort.onnx")
    lines = [{"input": [2, *x], "output": sorted(x)} for x in ([0], [1], [0, 0], [0, 1], [1, 0], [1, 1])]
    (folder / "pairs.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    ran = cli("check", "model", "--onnx", "sort.onnx", "--expected", "pairs.jsonl", "--json", "c.json", cwd=folder)
    assert ran.returncode in (0, 1), ran.stderr
    return json.loads((folder / "c.json").read_text())


def test_an_expected_run_records_the_file_it_read_and_only_the_parameters_it_read(tmp_path):
    cert = expected_run(tmp_path / "m")
    assert cert["options"]["expected"] == {"sha256": sha256(tmp_path / "m" / "pairs.jsonl")}
    assert cert["options"]["model"]["sha256"] == sha256(SORT_MODEL)
    # --V, --lengths, --bos and --seed are not read with --expected (without --samples): not recorded.
    assert set(cert["params"]) == {"onnx", "expected", "decode", "method"}
    assert "counts every token written" in cert["domain"]["description"]


def test_recheck_names_a_changed_expected_file(tmp_path):
    expected_run(tmp_path / "m")
    with open(tmp_path / "m" / "pairs.jsonl", "a") as f:
        f.write("\n")  # the same pairs, other bytes
    ran = cli("recheck", "c.json", cwd=tmp_path / "m")
    assert ran.returncode == 1, ran.stderr
    assert "options.expected.sha256" in ran.stdout + ran.stderr


def test_recheck_reads_relative_paths_from_the_certificate_folder(tmp_path):
    expected_run(tmp_path / "m")
    ran = cli("recheck", os.path.join("m", "c.json"), cwd=tmp_path)  # no sort.onnx or pairs.jsonl in tmp_path
    assert ran.returncode == 0, ran.stderr
    assert "reproduced" in ran.stdout


def test_a_certificate_that_records_an_unread_default_still_rechecks(tmp_path):
    cert = expected_run(tmp_path / "m")
    cert["params"].update({"seed": 1, "lengths": "1:4", "bos": "yes"})
    (tmp_path / "m" / "old.json").write_text(json.dumps(cert))
    ran = cli("recheck", "old.json", cwd=tmp_path / "m")
    assert ran.returncode == 0, ran.stdout + ran.stderr


def test_an_unread_parameter_edited_away_from_its_default_is_a_difference(tmp_path):
    cert = expected_run(tmp_path / "m")
    cert["params"]["lengths"] = "1:64"  # not read with --expected; its default is 1:4
    (tmp_path / "m" / "forged.json").write_text(json.dumps(cert))
    ran = cli("recheck", "forged.json", cwd=tmp_path / "m")
    assert ran.returncode == 1
    assert "params.lengths" in ran.stdout + ran.stderr


def test_a_default_point_file_is_no_path(tmp_path):
    (tmp_path / "m").mkdir()
    ran = cli("check", "markov", "--d", "1", "--m", "1", "--r", "1", "--N", "1", "--tied", "--claim", "markov.lemma1",
              "--json", "m/c.json", cwd=tmp_path)
    assert ran.returncode in (0, 1, 3), ran.stderr
    (tmp_path / "m" / "none").write_text("{}")  # a file named as the default, beside the certificate
    ran = cli("recheck", "m/c.json", cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr


def test_a_point_file_is_recorded_by_its_hash(tmp_path):
    point = tmp_path / "point.json"
    point.write_text(json.dumps({"e": ["1/2"], "p": [["-1/4"]], "W_Q": [["1"]], "W_K": [["2"]], "W_V": [["1/3"]],
                                 "W_O": [["1"]], "W_1": [["1"]], "W_2": [["-1"]], "b": "0"}))
    ran = cli("check", "markov", "--d", "1", "--m", "1", "--r", "1", "--N", "1", "--tied", "--point-file",
              "point.json", "--json", "c.json", cwd=tmp_path)
    assert ran.returncode in (0, 1, 3), ran.stderr
    cert = json.loads((tmp_path / "c.json").read_text())
    assert cert["options"]["point_file"] == {"sha256": sha256(point)}
