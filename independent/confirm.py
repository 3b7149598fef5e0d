"""Confirms a tverify certificate without tverify's code.

    /usr/bin/python3 independent/confirm.py CERT.json [--sample N] [--seed S] [--max-inputs M]

--max-inputs M (default 100,000): a domain (or the part of it outside the decided boxes) of at most M inputs is
re-evaluated input by input; a larger one is sampled (--sample N inputs, seeded by --seed S) and reported not checked.

Prints one line per finding (`confirmed: ...`, `not confirmed: ...`, `not checked: ...`) and a last line with the
answer. Exit 0: confirmed (every finding re-derived here and equal); 1: not confirmed (something the certificate
states is false, or differs from what is re-derived here); 3: nothing false, something not checked; 2: bad input (not
JSON, a key given twice, a missing field, a field of the wrong type or range, a missing or unreadable file it names):
one line on stderr, nothing on stdout.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from findings import BadInput, Finding, answer, CONFIRMED, NOT_CONFIRMED, NOT_CHECKED  # noqa: E402

EXIT = {CONFIRMED: 0, NOT_CONFIRMED: 1, NOT_CHECKED: 3}
USAGE = "usage: confirm.py CERT.json [--sample N] [--seed S] [--max-inputs M]"
CVC5, CVC5_SECONDS = "/usr/bin/cvc5", 10


def parse_arguments(argv):
    """{certificate, sample, seed, max_inputs}; BadInput on anything else."""
    values = {"certificate": None, "sample": 1000, "seed": 0, "max_inputs": 10 ** 5}
    least = {"--sample": 1, "--seed": 0, "--max-inputs": 0}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in least:
            if i + 1 >= len(argv):
                raise BadInput(f"{arg} needs a value")
            try:
                value = int(argv[i + 1])
            except ValueError:
                raise BadInput(f"{arg} takes a whole number, not '{argv[i + 1]}'")
            if value < least[arg]:
                raise BadInput(f"{arg} is out of range: {value}")
            values[arg[2:].replace("-", "_")] = value
            i += 2
        elif arg.startswith("-") and arg != "-":
            raise BadInput(f"unknown option '{arg}' ({USAGE})")
        elif values["certificate"] is None:
            values["certificate"] = arg
            i += 1
        else:
            raise BadInput(f"one certificate only ({USAGE})")
    if values["certificate"] is None:
        raise BadInput(f"no certificate given ({USAGE})")
    return values


def _no_duplicates(items):
    seen = set()
    for key, _ in items:
        if key in seen:
            raise BadInput(f"the key '{key}' is given twice in one object")
        seen.add(key)
    return dict(items)


def read_certificate(path):
    if not os.path.isfile(path):
        raise BadInput(f"'{path}' is not a readable file")
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise BadInput(f"'{path}' cannot be read: {error}")
    try:
        certificate = json.loads(text, object_pairs_hook=_no_duplicates,
                                 parse_constant=lambda name: _reject_constant(name))
    except RecursionError:
        raise BadInput(f"'{path}' is nested too deeply")
    except ValueError as error:
        raise BadInput(f"'{path}' is not JSON: {error}")
    if not isinstance(certificate, dict):
        raise BadInput(f"'{path}' is not a JSON object")
    if certificate.get("tool") != "tverify":
        raise BadInput(f"'{path}' is not a tverify certificate (tool is {certificate.get('tool')!r})")
    if certificate.get("format_version", 1) != 1:
        raise BadInput(f"format_version {certificate.get('format_version')!r} is not 1")
    for key in ("verb", "construction"):
        if not isinstance(certificate.get(key), str):
            raise BadInput(f"certificate.{key} is missing or not a string")
    return certificate


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def confirm(certificate, folder, sample, seed, max_inputs):
    verb, construction = certificate["verb"], certificate["construction"]
    if verb == "check" and construction == "model":
        import box_check
        import model_certificate
        model_certificate.ENUMERATION_LIMIT = max_inputs
        return model_certificate.confirm(certificate, folder, box_check.check_bounds, sample, seed)
    if verb == "check":
        try:
            import construction_claims
        except Exception as error:  # the construction part is missing or broken: nothing is confirmed
            return [Finding(f"{construction} certificate", NOT_CHECKED,
                            f"construction claims are not checked here ({type(error).__name__}: {error})")]
        return construction_claims.confirm(certificate, folder)
    if verb == "prove":
        return prove_findings(certificate, folder)
    if verb == "sweep":
        return [Finding(f"sweep of {construction}", NOT_CHECKED,
                        "a sweep's probes are not re-derived here (run each probe as a check certificate)")]
    raise BadInput(f"certificate.verb '{verb}' is not check, prove or sweep")


def prove_findings(certificate, folder):
    """A prove certificate: Z3's verdicts rest on the query encoding, which is not re-derived here; a query's dumped
    SMT-LIB2 file, where it exists, is re-run with cvc5 and its `unsat` reported."""
    claims = certificate.get("claims")
    if not isinstance(claims, list):
        raise BadInput("certificate.claims is missing or not a list")
    out = []
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict) or not isinstance(claim.get("id"), str):
            raise BadInput(f"claims[{i}] is not a claim")
        item = f"claims[{i}] {claim['id']} ({claim.get('verdict')})"
        out.append(Finding(item, NOT_CHECKED, "a Z3 proof: its encoding of the claim is not re-derived here"))
        details = claim.get("details") if isinstance(claim.get("details"), dict) else {}
        smt2 = details.get("smt2")
        if isinstance(smt2, str) and claim.get("verdict") == "verified":
            out.append(_cvc5_finding(item, smt2, folder))
    return out or [Finding("prove certificate", NOT_CHECKED, "no claims")]


def _cvc5_finding(item, smt2, folder):
    path = smt2 if os.path.isfile(smt2) else os.path.join(folder, smt2)
    if not os.path.isfile(path) or not shutil.which(CVC5):
        return Finding(f"{item} query {smt2}", NOT_CHECKED, "the query file or cvc5 is not here")
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    if "(set-logic" not in text:  # cvc5 needs a logic; Z3's dumps name none
        text = "(set-logic ALL)\n" + text
    try:
        result = subprocess.run([CVC5, f"--tlimit={CVC5_SECONDS * 1000}", "--lang=smt2"], input=text,
                                capture_output=True, text=True, timeout=CVC5_SECONDS + 5)
        said = [line for line in result.stdout.splitlines() if line.strip()] or \
            result.stderr.strip().splitlines()[-1:] or ["no answer"]
    except subprocess.TimeoutExpired:
        said = ["timeout"]
    status = CONFIRMED if said == ["unsat"] else NOT_CHECKED  # one check-sat, answered unsat and nothing else
    return Finding(f"{item} query {smt2} unsat by cvc5", status, "; ".join(said)[:200])


def main(argv):
    try:
        arguments = parse_arguments(argv)
        path = arguments["certificate"]
        certificate = read_certificate(path)
        folder = os.path.dirname(os.path.abspath(path))
        try:
            findings = confirm(certificate, folder, arguments["sample"], arguments["seed"], arguments["max_inputs"])
        except (BadInput, KeyboardInterrupt):
            raise
        except RecursionError:
            raise BadInput("the certificate is nested too deeply")
        except Exception as error:  # a failure of this checker is never a confirmation
            findings = [Finding("checker", NOT_CHECKED, f"the checker stopped: {type(error).__name__}: {error}")]
    except BadInput as error:
        print(f"confirm.py: {str(error).splitlines()[0] if str(error) else 'bad input'}", file=sys.stderr)
        return 2
    for finding in findings:
        print(finding.line())
    result = answer(findings)
    print(f"answer: {result}")
    return EXIT[result]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
