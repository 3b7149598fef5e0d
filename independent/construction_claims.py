"""The construction claims of a `check` certificate, re-derived without tverify's code.

`confirm(certificate, folder)` gives one Finding per counterexample and per re-checked claim (docs/certificate.md for
the format, docs/claims.md for the claims). Each construction has its own module, written from its paper:
claims_copy (Repeat After Me), claims_count3 (ENTP), claims_cat (CAT), claims_markov (Attention with Markov).
"""
import pathlib

import claims_cat
import claims_copy
import claims_count3
import claims_markov
from claims_common import claim_name, claims_of, field, not_checked
from findings import BadInput

CHECKERS = {"copy": claims_copy, "count3": claims_count3, "cat": claims_cat, "markov": claims_markov}


def confirm(certificate: dict, folder: pathlib.Path) -> list:
    if not isinstance(certificate, dict):
        raise BadInput("the certificate is not a JSON object")
    construction = field(certificate, "construction", str, "certificate")
    claims = claims_of(certificate)
    checker = CHECKERS.get(construction)
    if checker is None:
        return [not_checked(claim_name(c), f"no independent checker for construction {construction!r}")
                for c in claims]
    try:
        found = checker.confirm(certificate, claims)
    except BadInput:
        raise
    except Exception as error:  # a fault of this checker: nothing it would have said is confirmed
        return [not_checked(claim_name(c), f"the {construction} checker failed: {type(error).__name__}: {error}")
                for c in claims]
    return found + [not_checked(claim_name(c), "nothing of this claim is re-derived here") for c in claims
                    if not any(f.item.startswith(c["id"]) for f in found)]
