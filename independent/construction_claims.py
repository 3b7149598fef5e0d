"""The construction claims of a `check` certificate, re-derived without tverify's code.

`confirm(certificate, folder)` gives one Finding per counterexample and per re-checked claim (docs/certificate.md for
the format, docs/claims.md for the claims). Each construction has its own module, written from its paper:
claims_copy (Repeat After Me), claims_count3 (ENTP), claims_cat (CAT), claims_markov (Attention with Markov).

Every claim k gets exactly one verdict finding, "claims[k] <id>[ (reading)] verdict <v>": confirmed only when its
module re-derived the verdict (a module returns that finding itself, through claims_common.verdict_finding), or, for
`refuted`, when the module confirmed one of the claim's counterexamples as a real failure; `unknown` never. Otherwise
it is not checked. Each finding's item starts with "claims[k] ", the index of the claim it is about.
"""
import pathlib

import claims_cat
import claims_copy
import claims_count3
import claims_markov
from claims_common import claim_name, claims_of, confirmed, field, not_checked, refuted
from findings import BadInput, Finding, CONFIRMED, NOT_CONFIRMED

CHECKERS = {"copy": claims_copy, "count3": claims_count3, "cat": claims_cat, "markov": claims_markov}
VERDICTS = ("verified", "refuted", "vacuous", "unknown")


def confirm(certificate: dict, folder: pathlib.Path) -> list:
    if not isinstance(certificate, dict):
        raise BadInput("the certificate is not a JSON object")
    construction = field(certificate, "construction", str, "certificate")
    claims = claims_of(certificate)
    for k, claim in enumerate(claims):
        if claim["verdict"] not in VERDICTS:
            raise BadInput(f"claims[{k}].verdict: {claim['verdict']!r} is no verdict")
        if "outside_hypotheses" in claim and not isinstance(claim["outside_hypotheses"], bool):
            raise BadInput(f"claims[{k}].outside_hypotheses: not a boolean")
    checker = CHECKERS.get(construction)
    result = []
    for k, claim in enumerate(claims):
        if checker is None:
            found = [not_checked(claim_name(claim), f"no independent checker for construction {construction!r}")]
        else:
            try:
                found = checker.confirm(certificate, [claim])
            except BadInput as error:
                raise BadInput(f"claims[{k}]: {error}") from None
            except Exception as error:  # a fault of this checker: nothing it would have said is confirmed
                found = [not_checked(claim_name(claim),
                                     f"the {construction} checker failed: {type(error).__name__}: {error}")]
        result += [Finding(f"claims[{k}] {f.item}", f.status, f.why)
                   for f in claim_findings(claim, found)]
    return result


def claim_findings(claim, found):
    """The module's findings of one claim, its consistency findings and its one verdict finding."""
    name = claim_name(claim)
    prefix = f"{name} verdict "
    item = f"{name} verdict {claim['verdict']}"
    verdicts = [f for f in found if f.item.startswith(prefix)]
    others = [f for f in found if not f.item.startswith(prefix)]
    if not others and not verdicts:
        others = [not_checked(name, "nothing of this claim is re-derived here")]
    if any(f.status == NOT_CONFIRMED for f in verdicts):
        verdict = next(f for f in verdicts if f.status == NOT_CONFIRMED)
        verdict = Finding(item, NOT_CONFIRMED, verdict.why)
    elif claim["verdict"] != "unknown" and any(f.status == CONFIRMED and f.item == item for f in verdicts):
        verdict = next(f for f in verdicts if f.status == CONFIRMED and f.item == item)
    elif claim["verdict"] == "refuted" and any(f.status == CONFIRMED and "counterexample" in f.item
                                               for f in others):
        verdict = confirmed(item, "a counterexample re-evaluated here fails")
    else:
        verdict = not_checked(item, "the verdict is not re-derived here")
    return others + consistency(claim) + [verdict]


def consistency(claim):
    """The arithmetic every claim's counts and verdict must satisfy (docs/certificate.md)."""
    name, problems = claim_name(claim), []
    c, p, f, u = claim["checked"], claim["passed"], claim["failed"], claim["unknown"]
    if c != p + f + u:
        problems.append(f"checked {c} != passed {p} + failed {f} + unknown {u}")
    verdict, outside = claim["verdict"], claim.get("outside_hypotheses", False)
    if verdict == "verified" and (f or u or claim["counterexamples"] or outside):
        problems.append("verified with failures, unknowns, counterexamples or outside its hypotheses")
    if verdict == "refuted" and (f == 0 or not claim["counterexamples"]):
        problems.append("refuted without a failure and a counterexample")
    if (verdict == "vacuous") != bool(outside):
        problems.append(f"verdict {verdict} with outside_hypotheses {outside}")
    if problems:
        return [refuted(f"{name} counts and verdict", "; ".join(problems))]
    return []
