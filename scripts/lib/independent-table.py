"""Runs the independent checker (independent/confirm.py, which shares no code with tverify) on each certificate given
and prints a Markdown table for docs/claims.md: one row per certificate, the claims whose every finding it confirmed,
the claims with a finding it did not check, and any it found false (a claim listed there is not confirmed).

Usage: independent-table.py CERTIFICATE...   (exit 1 when the checker found anything false or could not read one)
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLAIM = re.compile(r"\b([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\b")
STATUSES = ("not confirmed", "not checked", "confirmed")  # the longer prefixes first


def findings_of(certificate):
    """The checker's (status, claim id) findings, and its answer line, for one certificate."""
    run = subprocess.run([sys.executable, str(ROOT / "independent" / "confirm.py"), str(certificate)],
                         capture_output=True, text=True, check=False)
    if run.returncode == 2:
        return None, "could not read it: " + run.stderr.strip()
    found = []
    for line in run.stdout.splitlines():
        status = next((s for s in STATUSES if line.startswith(s + ": ")), None)
        claim = CLAIM.search(line[len(status) + 2:]) if status else None
        if claim:
            found.append((status, claim.group(1)))
    return found, run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "no answer"


def row(certificate):
    found, answer = findings_of(certificate)
    name = pathlib.Path(certificate).stem
    if found is None:
        return f"| {name} | | | {answer} |", True
    worst = {}
    for status, claim in found:  # a claim takes its worst finding: not confirmed, then not checked, then confirmed
        if claim not in worst or STATUSES.index(status) < STATUSES.index(worst[claim]):
            worst[claim] = status
    listed = {s: ", ".join(sorted(c for c, w in worst.items() if w == s)) for s in STATUSES}
    false = listed["not confirmed"]
    return f"| {name} | {listed['confirmed']} | {listed['not checked']} | {false} |", bool(false)


def main(certificates):
    print("| certificate | claims the independent checker confirmed | claims it did not check (docs/trust.md) "
          "| claims it found false |")
    print("|---|---|---|---|")
    failed = False
    for certificate in certificates:
        line, bad = row(certificate)
        print(line)
        failed = failed or bad
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
