"""Reading claim results of a certificate (docs/certificate.md) and naming what a finding is about."""
import re
from fractions import Fraction

from findings import BadInput, Finding, CONFIRMED, NOT_CONFIRMED, NOT_CHECKED

ENUMERATION_BUDGET = 10 ** 5  # inputs re-checked one by one for a verified claim


def field(obj, name, kind, where):
    """obj[name], which must exist and be of type kind (a type or tuple of types)."""
    if not isinstance(obj, dict) or name not in obj:
        raise BadInput(f"{where}: no field {name!r}")
    value = obj[name]
    if isinstance(value, bool) and kind is not bool and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise BadInput(f"{where}.{name}: a boolean where {kind} was expected")
    if not isinstance(value, kind):
        raise BadInput(f"{where}.{name}: expected {kind}, got {type(value).__name__}")
    return value


def whole(obj, name, where):
    value = field(obj, name, int, where)
    if value < 0:
        raise BadInput(f"{where}.{name}: negative count {value}")
    return value


NUMBER = re.compile(r"\s*([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d{1,4}))?(?:/(\d+))?\s*")


def rational(text, where):
    """An exact number as certificates and parameters write it: an integer, or a string "p/q", "3.5", "1e-3"
    (an exponent of at most 4 digits; no zero denominator)."""
    if isinstance(text, bool):
        raise BadInput(f"{where}: a boolean where a number was expected")
    if isinstance(text, int):
        return Fraction(text)
    m = NUMBER.fullmatch(text) if isinstance(text, str) else None
    if not m or (m.group(4) is not None and (m.group(3) is not None or "." in m.group(2))):
        raise BadInput(f"{where}: {text!r} is not an exact number")
    if m.group(4) is not None and int(m.group(4)) == 0:
        raise BadInput(f"{where}: {text!r} has a zero denominator")
    value = Fraction(m.group(2)) * Fraction(10) ** int(m.group(3) or 0)
    if m.group(4) is not None:
        value /= int(m.group(4))
    return -value if m.group(1) == "-" else value


def in_range(params, name, lo, hi, where="params"):
    """params[name]: an integer in [lo, hi] (tverify's own range for that option)."""
    value = field(params, name, int, where)
    if not lo <= value <= hi:
        raise BadInput(f"{where}.{name}: {value} is outside [{lo}, {hi}]")
    return value


def token_list(value, where):
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise BadInput(f"{where}: expected a list of integers, got {value!r}")
    return value


def claim_name(claim):
    reading = claim.get("reading")
    return f"{claim['id']} ({reading})" if reading else claim["id"]


def claims_of(certificate):
    claims = field(certificate, "claims", list, "certificate")
    for k, claim in enumerate(claims):
        where = f"claims[{k}]"
        field(claim, "id", str, where)
        field(claim, "verdict", str, where)
        field(claim, "counterexamples", list, where)
        if "reading" in claim:
            field(claim, "reading", str, where)
        for name in ("checked", "passed", "failed", "unknown"):
            whole(claim, name, where)
        if "details" in claim:
            field(claim, "details", dict, where)
        for j, example in enumerate(claim["counterexamples"]):
            if not isinstance(example, dict) or "input" not in example:
                raise BadInput(f"{where}.counterexamples[{j}]: not a counterexample object with an input")
            if "detail" in example and not isinstance(example["detail"], str):
                raise BadInput(f"{where}.counterexamples[{j}].detail: not a string")
        sharpness = claim.get("details", {}).get("sharpness", {})
        if not isinstance(sharpness, dict):
            raise BadInput(f"{where}.details.sharpness: not an object")
    return claims


def confirmed(item, why=""):
    return Finding(item, CONFIRMED, why)


def refuted(item, why):
    return Finding(item, NOT_CONFIRMED, why)


def not_checked(item, why):
    return Finding(item, NOT_CHECKED, why)


def stated_verdict(claim):
    """What the check found: the verdict, or for a `vacuous` claim (outside its hypotheses) its `finding`."""
    if claim["verdict"] == "vacuous":
        return claim.get("finding", "vacuous")
    return claim["verdict"]


def verdict_finding(claim, recomputed, why):
    """The claim's verdict finding from a verdict re-derived here: `verified` over the claim's whole domain,
    `refuted` from failures found here, `vacuous` from hypotheses recomputed and violated."""
    item = f"{claim_name(claim)} verdict {claim['verdict']}"
    if recomputed == claim["verdict"]:
        return confirmed(item, why)
    return refuted(item, f"recomputed {recomputed}: {why}")
