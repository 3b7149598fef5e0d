"""`tverify completion bash|zsh`: the script completes verbs, constructions, each command's own options, and files
after a FILE option, from the CLI's own declarations; another shell is refused in one line."""
import os
import subprocess

import pytest

from helpers import cli


def completions(script, folder, words):
    """What the script offers for the command line `words`, the last word being completed."""
    program = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tverify; printf "%s\\n" "${COMPREPLY[@]}"'
    done = subprocess.run(["bash", "-c", program, "_", str(script), *words], capture_output=True, text=True,
                          cwd=folder, check=True)
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def script(tmp_path_factory):
    folder = tmp_path_factory.mktemp("completion")
    ran = cli("completion", "bash", cwd=folder)
    assert ran.returncode == 0, ran.stderr
    path = folder / "tverify.bash"
    path.write_text(ran.stdout)
    return path


def test_verbs_constructions_and_options(script, tmp_path):
    assert "check" in completions(script, tmp_path, ["tverify", ""])
    assert completions(script, tmp_path, ["tverify", "check", "co"]) == ["copy", "count3"]
    assert completions(script, tmp_path, ["tverify", "check", "copy", "--va"]) == ["--variant"]
    # Options of that command only: --onnx is the model's, --vary a sweep's.
    options = completions(script, tmp_path, ["tverify", "check", "copy", "--"])
    assert "--checkpoint" in options and "--onnx" not in options and "--vary" not in options
    # eval model offers what eval reads: the model and one input, not the check's task and domain.
    evaluated = completions(script, tmp_path, ["tverify", "eval", "model", "--"])
    assert "--input" in evaluated and "--logits" in evaluated and "--task" not in evaluated
    assert "--lengths" not in evaluated and "--logits" not in completions(script, tmp_path,
                                                                           ["tverify", "check", "model", "--"])
    assert "--vary" in completions(script, tmp_path, ["tverify", "sweep", "model", "--"])


def test_files_after_a_file_option(script, tmp_path):
    (tmp_path / "model.onnx").write_text("")
    (tmp_path / "my model.onnx").write_text("")
    (tmp_path / "[x].onnx").write_text("")
    (tmp_path / "runs").mkdir()
    assert completions(script, tmp_path, ["tverify", "check", "model", "--onnx", "mo"]) == ["model.onnx"]
    assert completions(script, tmp_path, ["tverify", "sweep", "copy", "--out", "ru"]) == ["runs"]
    # A name with a space or a glob character is one candidate, as it is.
    assert completions(script, tmp_path, ["tverify", "check", "model", "--onnx", "my"]) == ["my model.onnx"]
    assert completions(script, tmp_path, ["tverify", "check", "model", "--onnx", "["]) == ["[x].onnx"]
    # --option=value: bash splits the word at '=' (COMP_WORDBREAKS).
    assert completions(script, tmp_path, ["tverify", "check", "model", "--onnx", "=", "mo"]) == ["model.onnx"]
    assert "model.onnx" in completions(script, tmp_path, ["tverify", "check", "model", "--onnx", "="])
    assert completions(script, tmp_path, ["tverify", "sweep", "copy", "--out", "=", "r"]) == ["runs"]


def test_the_shells_of_completion(script, tmp_path):
    assert completions(script, tmp_path, ["tverify", "completion", ""]) == ["bash", "zsh"]


# bashcompinit's compgen -F runs a bash completion function under `emulate sh` (arrays from 0) and hands all it offers to
# zsh's own matching (compadd), which keeps the candidates the word being completed starts: zsh_offers does the same.
ZSH_DRIVER = r"""
source "$1"; shift
emulate -L sh
setopt kshglob noshglob braceexpand nokshautoload
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
_tverify
printf '%s\n' "${COMPREPLY[@]}"
"""


def zsh_offers(script, folder, words):
    # compinit writes its dump to $HOME: the test's folder, not the user's.
    environment = {**os.environ, "HOME": str(folder), "ZDOTDIR": str(folder)}
    done = subprocess.run(["zsh", "-f", "-c", ZSH_DRIVER, "_", str(script), *words], capture_output=True, text=True,
                          cwd=folder, env=environment, check=True)
    assert done.stderr == ""
    return [c for c in done.stdout.splitlines() if c.startswith(words[-1])]


def test_zsh_completes_through_bashcompinit(tmp_path):
    ran = cli("completion", "zsh", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    script = tmp_path / "tverify.zsh"
    script.write_text(ran.stdout)
    (tmp_path / "model.onnx").write_text("")
    assert zsh_offers(script, tmp_path, ["tverify", "check", "co"]) == ["copy", "count3"]
    assert zsh_offers(script, tmp_path, ["tverify", "check", "copy", "--va"]) == ["--variant"]
    options = zsh_offers(script, tmp_path, ["tverify", "check", "copy", "--"])
    assert "--checkpoint" in options and "--onnx" not in options
    assert zsh_offers(script, tmp_path, ["tverify", "check", "model", "--onnx", "mo"]) == ["model.onnx"]
    assert zsh_offers(script, tmp_path, ["tverify", "completion", ""]) == ["bash", "zsh"]


def test_zsh_and_other_shells(tmp_path):
    zsh = cli("completion", "zsh", cwd=tmp_path)
    assert zsh.returncode == 0 and "bashcompinit" in zsh.stdout and "_tverify()" in zsh.stdout
    fish = cli("completion", "fish", cwd=tmp_path)
    assert fish.returncode == 2 and fish.stdout == ""
    assert fish.stderr == "tverify: error: completion: the shell must be bash or zsh (got 'fish')\n"
