"""The markov construction's claims (Attention with Markov): predictions, losses and gradient entries at the printed
points re-enclosed at a higher precision than the certificate's, and Appendix C.2's arithmetic redone exactly.

An interval confirms only a strict inequality (an enclosure excluding a value) or that the certificate's interval
contains this checker's narrower enclosure of the same number; it never confirms an equality of reals.
"""
import re
from decimal import Decimal
from fractions import Fraction

from mpmath import iv

import markov_model as model
import markov_symbolic as symbolic
from claims_common import claim_name, confirmed, field, in_range, not_checked, rational, refuted, verdict_finding
from findings import BadInput

PRECISION = 320  # bits; the certificates' enclosures are about 128 bits wide
ARBITRARY = {"zero": Fraction(0), "constant": Fraction(1, 2)}  # docs/markov.md, "The points"
RANDOM_RANGE = [-1, 1]  # random blocks are k/8, k in [-8, 8] (docs/markov.md)
GRADIENT = re.compile(r"dL/d(e|a|b|p_(\d+)|W_Q|W_K|W_V|W_O|W_1|W_2)(?:\[(\d+)(?:,(\d+))?\])?$")


class Run:
    def __init__(self, certificate):
        params = field(certificate, "params", dict, "certificate")
        self.variant = field(certificate, "variant", str, "certificate")
        if self.variant not in ("paper", "corrected"):
            raise BadInput(f"certificate.variant: {self.variant!r} is no variant of markov")
        self.p = exact_param(params, "p")
        self.q = exact_param(params, "q")
        self.d, self.m, self.r, self.N = (in_range(params, k, 1, hi) for k, hi in (("d", 16), ("m", 16), ("r", 64),
                                                                                 ("N", 16)))
        self.tied = params.get("tied") in ("true", True)
        self.arbitrary = field(params, "arbitrary", str, "params")
        self.point_file = params.get("point-file", "none")
        self.chain = model.Chain(self.p, self.q)

    def arbitrary_value(self):
        if self.arbitrary in ARBITRARY:
            return model.exact(ARBITRARY[self.arbitrary])
        return iv.mpf(RANDOM_RANGE)

    def shapes(self):
        d, m, r, N = self.d, self.m, self.r, self.N
        return {"e": (1, d), "a": (1, d), "b": (1, 1), "p": (N, d), "W_Q": (m, d), "W_K": (m, d), "W_V": (m, d),
                "W_O": (d, m), "W_1": (r, d), "W_2": (d, r)}


def exact_param(params, name):
    value = rational(params.get(name), f"params.{name}")
    if not 0 < value < 1:
        raise BadInput(f"params.{name}: {params.get(name)!r} is not strictly between 0 and 1")
    return value


def filled(rows, cols, value):
    return [[value] * cols for _ in range(rows)]


def theta_star(run):
    """eq. (7) for p + q <= 1, eq. (10) otherwise; w* of eq. (10) as printed, or with d r for d^2 (erratum M1)."""
    d, m, r, N = run.d, run.m, run.r, run.N
    p, q = model.exact(run.p), model.exact(run.q)
    ell = iv.log((1 - p) * (1 - q) / (p * q))
    anything = run.arbitrary_value()
    zero = iv.mpf(0)
    blocks = {"W_Q": filled(m, d, anything), "W_K": filled(m, d, anything), "W_V": filled(m, d, anything),
              "W_O": filled(d, m, zero)}
    if run.p + run.q <= 1:
        s = iv.sqrt(ell / d)
        blocks.update(e=[s] * d, p=filled(N, d, zero), W_1=filled(r, d, anything), W_2=filled(d, r, zero),
                      b=iv.log(p / (1 - p)))
    else:
        width = d * d if run.variant == "paper" else d * r
        w = iv.sqrt(2 * (1 - ell / d) / width)
        blocks.update(e=[iv.mpf(1)] * d, p=filled(N, d, iv.mpf(-0.5)), W_1=filled(r, d, w), W_2=filled(d, r, -w),
                      b=iv.log(p / (1 - p)) + iv.mpf(d) / 2)
    if not run.tied:
        blocks["a"] = list(blocks["e"])
    return blocks, "eq. 7" if run.p + run.q <= 1 else "eq. 10"


def theta_pi(run):
    """eq. (11): e = a = 0, W_O = 0, W_2 = 0, b = log(p/q); p_n, W_{K,Q,V}, W_1 arbitrary."""
    d, m, r, N = run.d, run.m, run.r, run.N
    anything, zero = run.arbitrary_value(), iv.mpf(0)
    blocks = {"e": [zero] * d, "p": filled(N, d, anything), "W_Q": filled(m, d, anything),
              "W_K": filled(m, d, anything), "W_V": filled(m, d, anything), "W_O": filled(d, m, zero),
              "W_1": filled(r, d, anything), "W_2": filled(d, r, zero),
              "b": iv.log(model.exact(run.p) / model.exact(run.q))}
    if not run.tied:
        blocks["a"] = [zero] * d
    return blocks, "eq. 11"


def marginal_entropy(run):
    """H(pi), pi_1 = p/(p + q)."""
    pi1 = model.exact(run.p / (run.p + run.q))
    return -pi1 * iv.log(pi1) - (1 - pi1) * iv.log(1 - pi1)


def parse_interval(text, where):
    m = re.fullmatch(r"\[\s*(\S+),\s*(\S+)\s*\]", text) if isinstance(text, str) else None
    if not m:
        return None
    try:
        lo, hi = iv.mpf(m.group(1)), iv.mpf(m.group(2))
    except (ValueError, TypeError):
        raise BadInput(f"{where}: {text!r} is not an interval") from None
    # (inner, outer): the decimal ends rounded inward (for "an enclosure lies inside it") and outward (for "an
    # enclosure misses it"); inner is None when rounding inward leaves nothing
    inner = iv.mpf([lo.b, hi.a]) if lo.b <= hi.a else None
    return inner, iv.mpf([lo.a, hi.b])


def inside(mine, theirs):
    """mine lies inside theirs = (inner, outer) from parse_interval."""
    return theirs[0] is not None and within(mine, theirs[0])


def misses(mine, theirs):
    return mine.b < theirs[1].a or mine.a > theirs[1].b


def short(x):
    return iv.nstr(x, 15)


def within(mine, theirs):
    return theirs.a <= mine.a and mine.b <= theirs.b


def excludes(enclosure, value):
    return enclosure.b < value or enclosure.a > value


def gradient_direction(name, run):
    """(block, row, column), 0-based, or None when the name is not read unambiguously here."""
    m = GRADIENT.match(name)
    if not m:
        return None
    block = "p" if m.group(1).startswith("p_") else m.group(1)
    if block == "a" and run.tied:
        return None
    if block == "b":
        return ("b", 0, 0)
    first, second = m.group(3), m.group(4)
    if first is None:
        return None
    rows, cols = run.shapes()[block]
    if block == "p":
        row, col = int(m.group(2)) - 1, int(first) - 1
        return ("p", row, col) if 0 <= row < rows and 0 <= col < cols else None
    if second is None:
        return (block, 0, int(first) - 1) if rows == 1 and 1 <= int(first) <= cols else None
    row, col = int(first) - 1, int(second) - 1
    return (block, row, col) if 0 <= row < rows and 0 <= col < cols else None


def check_example(claim, example, run, blocks, target_loss):
    name = example["input"]
    item = f"{claim['id']} counterexample {name}"
    if not isinstance(name, str):
        raise BadInput(f"{item}: the input is not a string")
    got = parse_interval(example.get("got"), item)
    if re.fullmatch(r"[01]+", name):
        if len(name) > run.N:
            return refuted(item, f"a prefix longer than N = {run.N}")
        bits = tuple(int(c) for c in name)
        f = model.sigmoid(model.logit(model.Point(blocks, run.tied), bits, run.d).v)
        kernel = run.chain.kernel(bits[-1])
        if example.get("expected") != str(kernel):
            return refuted(item, f"the kernel is {kernel}; the certificate says {example.get('expected')}")
        return judge(item, f, got, model.exact(kernel), "f")
    if name == "L":
        loss = model.loss(model.Point(blocks, run.tied), run.chain, run.N, run.d)
        expected = parse_interval(example.get("expected"), item)
        if expected is None or not inside(target_loss, expected):
            return not_checked(item, "the certificate's target loss does not contain this checker's enclosure")
        if not (loss.b < target_loss.a or loss.a > target_loss.b):
            return not_checked(item, "the enclosures of L and its target are not disjoint here")
        return judge(item, loss, got, None, "L")
    direction = gradient_direction(name, run)
    if direction is None:
        return not_checked(item, "not a quantity this checker evaluates")
    if example.get("expected") != "0":
        return not_checked(item, "a gradient entry whose expected value is not 0")
    entry = model.gradient_entry(model.Point(blocks, run.tied, direction), run.chain, run.N, run.d)
    return judge(item, entry, got, iv.mpf(0), "the entry")


def judge(item, mine, got, forbidden, what):
    """Confirmed when this checker's enclosure excludes the value the claim asserts and lies inside the certificate's
    interval."""
    if forbidden is not None and not (mine.b < forbidden.a or mine.a > forbidden.b):
        return not_checked(item, f"{what}'s enclosure {short(mine)} does not exclude the claimed value")
    if got is None:
        return not_checked(item, f"{what} encloses {short(mine)}; the certificate's got is not an interval")
    if not inside(mine, got):
        if misses(mine, got):
            return refuted(item, f"{what} lies in {short(mine)}, outside the certificate's {short(got[1])}")
        return not_checked(item, f"{what} lies in {short(mine)}, not inside the certificate's {short(got[1])}")
    return confirmed(item, f"{what} lies in {short(mine)}, inside the certificate's interval")


def check_point_claim(claim, run, point_of, target):
    if run.point_file != "none":
        return [not_checked(claim_name(claim), "a --point-file run; the file is not read here")]
    blocks, _ = point_of(run)
    findings = [check_example(claim, e, run, blocks, target) for e in claim["counterexamples"]]
    findings += check_loss_details(claim, run, blocks, target)
    if claim["verdict"] == "verified":
        findings += prediction_identity(claim, run)
    elif claim["verdict"] != "refuted":
        findings.append(not_checked(f"{claim['id']} {claim['verdict']}", "this verdict is not re-derived here"))
    if claim["id"] in ("markov.thm2.stationary", "markov.thm4") and \
            claim.get("outside_hypotheses") != (run.p + run.q <= 1):
        findings.append(refuted(f"{claim['id']} outside_hypotheses", f"Theorems 2 and 4 assume p + q > 1; here "
                                f"p + q = {run.p + run.q}, the certificate says {claim.get('outside_hypotheses')}"))
    return findings


def check_loss_details(claim, run, blocks, target):
    """details.loss and target_loss.value must contain this checker's enclosures; details.large_n.loss too: at the
    printed points W_O = 0 and p_n does not depend on n, so logit_n depends on x_n alone and x_n ~ pi at every n, and
    the loss is the same at every N (docs/markov.md, "Large N")."""
    details = claim.get("details", {})
    point = model.Point(blocks, run.tied)
    loss = model.loss(point, run.chain, run.N, run.d)
    findings = []
    named = [("details.loss", details.get("loss"), loss),
             ("details.target_loss", details.get("target_loss", {}).get("value"), target)]
    large = details.get("large_n", {})
    if large.get("loss") is not None and all_positions_alike(blocks):
        named.append((f"details.large_n.loss (N = {large.get('N')})", large.get("loss"),
                      model.loss(point, run.chain, 1, run.d)))
    for name, text, mine in named:
        if text is None:
            continue
        item = f"{claim['id']} {name}"
        theirs = parse_interval(text, item)
        if theirs is None:
            findings.append(not_checked(item, "not an interval"))
        elif inside(mine, theirs):
            findings.append(confirmed(item, f"contains this checker's {short(mine)}"))
        elif misses(mine, theirs):
            findings.append(refuted(item, f"{text} misses this checker's {short(mine)}"))
        else:
            findings.append(not_checked(item, f"{text} overlaps this checker's {short(mine)} without containing it"))
    return findings


def all_positions_alike(blocks):
    """W_O = 0 exactly and every p_n the same interval (so the same number, for the printed points)."""
    zero_wo = all(x.a == 0 and x.b == 0 for row in blocks["W_O"] for x in row)
    rows = blocks["p"]
    return zero_wo and all(r is rows[0] or all(a.a == b.a and a.b == b.b and a.a == a.b for a, b in zip(r, rows[0]))
                           for r in rows)


def prediction_identity(claim, run):
    """theta_star: logit_n = l1 (x_n = 0), l2 (x_n = 1), so f = the kernel; theta_pi: logit_n = l3, so f = pi_1; for
    every n <= N, as polynomials in the logs (markov_symbolic)."""
    star = claim["id"] in ("markov.thm1", "markov.thm3")
    above = run.p + run.q > 1
    kind = ("eq. 10" if above else "eq. 7") if star else "eq. 11"
    point = symbolic.printed_point(kind, run.d, run.r, run.N, run.variant, above)
    relations = point["b"].relations
    item = f"{claim['id']} f = {'the Markov kernel' if star else 'pi_1'} at {kind}, every n <= {run.N}"
    try:
        for n in range(1, run.N + 1):
            for x in (0, 1):
                target = symbolic.Poly.symbol(("l2" if x else "l1") if star else "l3", relations)
                got = symbolic.logit(point, x, n)
                if got != target:
                    return [not_checked(item, f"logit_{n} at x_n = {x} is {got}, not {target} as a polynomial in "
                                              "the logs (which does not make them different reals)")]
    except ValueError as error:
        return [not_checked(item, str(error))]
    findings = [confirmed(item, "logit_n equals the log-odds exactly, the logs as symbols; L = its target and "
                                "grad L = 0 then follow by Lemmas 1-2")]
    if not star:
        findings.append(not_checked(f"{claim['id']} Hessian", "eq. (12), the LDL^T and the Hessian enclosures are "
                                                              "not re-derived here"))
    return findings


# Appendix C.2, eq. (26) at the printed averages (27)

def eq26_logit(x, e, p, w1, b, beta, d, r):
    """logit_n = e d (e x_n + p)(1 + w_1^2 d ((2 beta - r) x_n + r - beta)) + b."""
    return e * d * (e * x + p) * (1 + w1 * w1 * d * ((2 * beta - r) * x + r - beta)) + b


def structured_model_logit(x, e, p, w1, b, beta, d, r):
    """The model with the learned structure of eqs. (14)-(19), exactly: e = e v, p_n = p v with v in {-1, 1}^d (v = 1
    here; only v^T v = d enters), W_O = 0 (approximation 17, so y_n = x_n e + p_n), W_1 = w_1 w v^T with w in {-1, 1}^r
    holding beta entries +1, W_2 = W_1^T, a = e (tied)."""
    v = [1] * d
    w = [1] * beta + [-1] * (r - beta)
    y = [(e * x + p) * vi for vi in v]
    W1 = [[w1 * wi * vj for vj in v] for wi in w]
    hidden = [max(sum(a * c for a, c in zip(row, y)), 0) for row in W1]
    z = [yk + sum(W1[i][k] * hidden[i] for i in range(r)) for k, yk in enumerate(y)]
    return sum(e * vk * zk for vk, zk in zip(v, z)) + b


def rounds_to(enclosure, printed):
    """Whether every real in the enclosure rounds (half away from zero) to the printed decimal."""
    digits = len(printed.split(".")[1]) if "." in printed else 0
    half = Fraction(1, 2 * 10 ** digits)
    centre = Fraction(Decimal(printed))
    return (model.exact(centre - half) < enclosure.a) and (enclosure.b < model.exact(centre + half))


def check_c2(claim):
    details = claim.get("details", {})
    averages = details.get("printed_averages", {})
    try:
        e, p, w1, b = (Fraction(Decimal(averages[k])) for k in ("e", "p", "w1", "b"))
        beta, d, r = averages["beta"], averages["d"], averages["r"]
    except (KeyError, ArithmeticError, TypeError, ValueError):
        return [not_checked(claim["id"], "printed_averages not read")]
    findings = []
    if (e, p, w1, b, beta, d, r) != (Fraction("0.3618"), Fraction("-0.1539"), Fraction("0.3264"),
                                    Fraction("-0.1229"), 5, 4, 16):
        findings.append(refuted(f"{claim['id']} printed averages", "not eq. (27) of the paper with d = 4, r = 16"))
    printed = {1: ("0.8191", "0.694"), 0: ("-1.3897", "0.199")}
    for value in details.get("values", []):
        x = value.get("x_n")
        item = f"{claim['id']} x_n = {x}"
        if x not in printed:
            raise BadInput(f"{item}: x_n is not 0 or 1")
        logit = eq26_logit(x, e, p, w1, b, beta, d, r)
        f = model.sigmoid(model.exact(logit))
        problems = []
        model_logit = structured_model_logit(x, e, p, w1, b, beta, d, r)
        if (model_logit == logit) != value.get("model_logit_equals_eq26"):
            problems.append(f"the structured model gives {model_logit}, eq. (26) {logit}; the certificate says "
                            f"model_logit_equals_eq26 = {value.get('model_logit_equals_eq26')}")
        if str(logit) != value.get("eq26_logit"):
            problems.append(f"eq. (26) gives {logit}, the certificate {value.get('eq26_logit')}")
        if not rounds_to(model.exact(logit), printed[x][0]):
            problems.append(f"{float(logit):.6f} does not round to the printed {printed[x][0]}")
        if not rounds_to(f, printed[x][1]):
            problems.append(f"sigmoid {f} does not round to the printed {printed[x][1]}")
        stated_f = parse_interval(value.get("f"), item)
        if stated_f is None or not inside(f, stated_f):
            problems.append("the certificate's f does not contain this checker's enclosure")
        findings.append(refuted(item, "; ".join(problems)) if problems else
                        confirmed(item, f"the structured model and eq. (26) give {logit} exactly, rounding to "
                                        f"{printed[x][0]}; the sigmoid rounds to {printed[x][1]}"))
    return findings


def confirm(certificate, claims):
    run = Run(certificate)
    old = iv.prec
    iv.prec = PRECISION
    try:
        findings = []
        for claim in claims:
            cid = claim["id"]
            if cid in ("markov.thm1", "markov.thm3"):
                findings += check_point_claim(claim, run, theta_star, run.chain.entropy_rate())
            elif cid in ("markov.thm2.stationary", "markov.thm4"):
                findings += check_point_claim(claim, run, theta_pi, marginal_entropy(run))
            elif cid == "markov.c2":
                findings += check_c2(claim)
            else:
                findings.append(not_checked(claim_name(claim), "random points, Hessians, probes or Z3 proofs; "
                                                               "not re-derived here"))
        return findings
    finally:
        iv.prec = old
