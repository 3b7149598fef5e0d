"""The CAT construction's claims, on docs/cat.md's reconstruction: the layer's decoding at every counterexample, the
NAR / MQNAR counts on small domains, and the numbers of the sufficient condition."""
import re
from fractions import Fraction
from itertools import combinations, product

from mpmath import iv

from cat_layer import UNDECIDED, CatLayer, dot, ngram_occurrences, signature
from claims_common import (claim_name, confirmed, field, in_range, not_checked, rational, refuted, stated_verdict,
                           token_list, verdict_finding)
from findings import BadInput

DECODE_BUDGET = 3000  # sequences decoded one by one to recount a claim
NGRAM_BUDGET = 1000  # N-grams whose signatures are compared pairwise
QUERY = re.compile(r"query at (\d+), match ends at (\d+)$")


def exact_number(text, where):
    return rational(text, where)


class Run:
    def __init__(self, certificate):
        params = field(certificate, "params", dict, "certificate")
        self.variant = field(certificate, "variant", str, "certificate")
        if self.variant not in ("key_delay", "value_delay", "ar", "key_delay_full", "value_delay_full"):
            raise BadInput(f"certificate.variant: {self.variant!r} is no variant of cat")
        self.V = in_range(params, "V", 2, 16)
        self.N = in_range(params, "N", 1, 4)
        self.L = in_range(params, "L", 2, 64)
        filt = field(params, "filter", str, "params")
        if self.variant == "ar":
            self.filter = [Fraction(1)]
        elif filt == "geometric":
            self.filter = [Fraction(1, 2 ** j) for j in range(self.N)]
        else:
            self.filter = [exact_number(f, "params.filter") for f in filt.split(",")]
        self.embedding = field(params, "embedding", str, "params")
        self.vectors = self._embeddings(params)
        c = field(params, "c", str, "params")
        self.c_given = None if c == "auto" else exact_number(c, "params.c")
        if self.c_given is not None and not 0 < self.c_given <= 10 ** 6:
            raise BadInput(f"params.c: {c!r} is outside (0, 1000000]")

    def _embeddings(self, params):
        if self.embedding == "onehot":
            return [[Fraction(int(i == a)) for i in range(self.V)] for a in range(self.V)]
        if self.embedding == "custom":
            rows = [[exact_number(v, "params.vectors") for v in row.split(",")]
                    for row in field(params, "vectors", str, "params").split(";")]
            if len(rows) != self.V or any(dot(r, r) != 1 for r in rows):
                raise BadInput("params.vectors: not V unit vectors")
            return rows
        return None  # stereo: the points tverify picks are not documented precisely enough to rebuild

    def layer(self, c):
        return CatLayer(self.vectors, self.filter, self.variant, c)

    def lengths(self):
        return range(self.N + 1, self.L + 1)

    def sequence_count(self):
        return sum(self.V ** m for m in self.lengths())


# The sufficient condition of docs/cat.md ("Signatures and the temperature")

def delta_squared(vectors):
    return min(dot([a - b for a, b in zip(u, v)], [a - b for a, b in zip(u, v)]) for u, v in combinations(vectors, 2))


def max_signed_cos_squared(run):
    """max over distinct N-grams of sign(<s, s'>) <s, s'>^2 / (|s|^2 |s'|^2); None when some signature is 0."""
    grams = list(product(range(run.V), repeat=run.N))
    sigs = [signature(run.vectors, run.filter, g) for g in grams]
    if any(dot(s, s) == 0 for s in sigs):
        return None
    best = None
    for s, t in combinations(sigs, 2):
        st = dot(s, t)
        value = (1 if st >= 0 else -1) * st * st / (dot(s, s) * dot(t, t))
        best = value if best is None or value > best else best
    return best


def condition_interval(run, cos2):
    """ln(2 (L - 1) / Delta) / min(Gamma, 1) for key delay, L - 2 for value delay; Gamma = 1 - cos_max."""
    cos_max = iv.sqrt(iv.mpf(abs(cos2).numerator) / abs(cos2).denominator) * (1 if cos2 >= 0 else -1)
    gamma = 1 - cos_max
    gamma_prime = gamma if gamma.b < 1 else (iv.mpf(1) if gamma.a >= 1 else None)
    if gamma_prime is None:
        return None
    count = run.L - 1 if run.layer(Fraction(1)).key_delay else run.L - 2
    d2 = delta_squared(run.vectors)
    delta = iv.sqrt(iv.mpf(d2.numerator) / d2.denominator)
    return iv.log(2 * count / delta) / gamma_prime


def auto_c(condition):
    """The smallest k/64 whose square certainly exceeds the condition (c is at most 10^6: docs/cat.md)."""
    if not condition.b < 10 ** 12:
        return None
    k = 1
    while not (iv.mpf(k * k) / 4096).a > condition.b:
        k += 1
    return Fraction(k, 64)


def check_condition(claim, run):
    """details: Delta^2, max cos^2, and c when 'auto'."""
    details = claim.get("details", {})
    item = f"{claim['id']} Delta^2, max cos^2 and c"
    cos2 = max_signed_cos_squared(run)
    d2 = delta_squared(run.vectors)
    mine = {"Delta_squared": d2, "max_cos_squared": cos2}
    stated = {k: rational(details[k], f"{item}.{k}") if k in details else None for k in mine}
    findings = []
    differences = [f"{k}: certificate {stated[k]}, recomputed {v}" for k, v in mine.items()
                   if stated[k] is not None and stated[k] != v]
    c, source = run.c_given, "given"
    if c is None and cos2 is not None and cos2 < 1:
        condition = condition_interval(run, cos2)
        c, source = (auto_c(condition), "the sufficient condition") if condition is not None else (None, "")
    from_certificate = False
    if c is None and "c" in details:
        # no sufficient condition without distinct signatures: the run's c is read from the certificate as an input
        c, source = rational(details["c"], f"{item}.c"), f"the certificate's {details.get('c_source', 'c')}"
        from_certificate = True
    elif "c" in details and c is not None and rational(details["c"], f"{item}.c") != c:
        differences.append(f"c: certificate {details['c']}, recomputed {c}")
    missing = [k for k in mine if stated[k] is None]
    if differences:
        findings.append(refuted(item, "; ".join(differences)))
    elif missing or from_certificate:
        findings.append(not_checked(item, f"Delta^2 = {d2}, max cos^2 = {cos2} recomputed; "
                                          + (f"the certificate states no {', '.join(missing)}" if missing else
                                             f"c = {c} is the certificate's, not re-derived")))
    else:
        findings.append(confirmed(item, f"Delta^2 = {d2}, max cos^2 = {cos2}, c = {c} ({source})"))
    return findings, c


def check_signatures(claim, run):
    """Proof of Theorem 1: every N-gram's signature is non-zero and no two have the same direction (max cos^2 < 1,
    signed); Gamma = 1 - cos_max, whose certificate interval must contain this checker's narrower enclosure."""
    item = f"{claim['id']} distinct signatures and Gamma"
    cos2 = max_signed_cos_squared(run)
    distinct = cos2 is not None and cos2 < 1
    if claim["verdict"] != ("verified" if distinct else "refuted"):
        return refuted(item, f"recomputed: signatures {'distinct' if distinct else 'not distinct'}; certificate "
                             f"{claim['verdict']}")
    if claim["counterexamples"]:
        return check_signature_examples(claim, run)
    stated = claim.get("details", {}).get("Gamma")
    if not distinct or stated is None:
        return confirmed(item, f"max signed cos^2 = {cos2}")
    old = iv.prec
    iv.prec = 320
    try:
        gamma = 1 - iv.sqrt(iv.mpf(abs(cos2).numerator) / abs(cos2).denominator) * (1 if cos2 >= 0 else -1)
        m = re.fullmatch(r"\[\s*(\S+),\s*(\S+)\s*\]", stated) if isinstance(stated, str) else None
        if not m:
            return not_checked(item, "details.Gamma is not an interval")
        lo, hi = iv.mpf(m.group(1)), iv.mpf(m.group(2))  # rounded inward: gamma must lie inside
        if not (lo.b <= gamma.a and gamma.b <= hi.a):
            return refuted(item, f"Gamma lies in {iv.nstr(gamma, 15)}, not inside the certificate's {stated}")
    finally:
        iv.prec = old
    return confirmed(item, f"max signed cos^2 = {cos2} < 1 exactly; Gamma inside the certificate's interval")


def check_signature_examples(claim, run):
    """Each counterexample: an N-gram whose signature is 0, or two distinct N-grams whose signatures have the same
    direction (cos = 1 exactly: <s, t> > 0 and <s, t>^2 = |s|^2 |t|^2)."""
    findings = []
    for example in claim["counterexamples"]:
        grams = example["input"]
        item = f"{claim['id']} counterexample {grams}"
        if example.get("got") == "zero" and isinstance(grams, list) and len(grams) == run.N:
            s = signature(run.vectors, run.filter, token_list(grams, item))
            findings.append(confirmed(item, "signature 0") if dot(s, s) == 0 else refuted(item, "non-zero signature"))
        elif example.get("got") == "cos = 1" and isinstance(grams, list) and len(grams) == 2 and grams[0] != grams[1]:
            s, t = (signature(run.vectors, run.filter, token_list(g, item)) for g in grams)
            same = dot(s, t) > 0 and dot(s, t) ** 2 == dot(s, s) * dot(t, t)
            findings.append(confirmed(item, "cos = 1 exactly") if same else refuted(item, "different directions"))
        else:
            findings.append(not_checked(item, "not a signature counterexample this checker reads"))
    return findings


def check_exceptional_filters(claim, run):
    """The explicit filters for which "almost all F" fails: each named collision (two N-grams with one direction) or
    zero signature, exactly."""
    findings = []
    for entry in claim.get("details", {}).get("exceptional_filters", []):
        filt = [exact_number(f, f"{claim['id']}.exceptional_filters") for f in entry.get("filter", [])]
        item = f"{claim['id']} exceptional filter {entry.get('filter')}"
        if len(filt) != run.N:
            findings.append(refuted(item, f"not a filter of length N = {run.N}"))
            continue
        if "collision" in entry:
            s, t = (signature(run.vectors, filt, token_list(g, item)) for g in entry["collision"])
            ok = entry["collision"][0] != entry["collision"][1] and dot(s, s) != 0 and dot(s, t) > 0 \
                and dot(s, t) ** 2 == dot(s, s) * dot(t, t)
            what = f"N-grams {entry['collision']} have one direction"
        elif "zero_signature" in entry:
            s = signature(run.vectors, filt, token_list(entry["zero_signature"], item))
            ok, what = dot(s, s) == 0, f"N-gram {entry['zero_signature']} has signature 0"
        else:
            findings.append(not_checked(item, "no collision or zero signature named"))
            continue
        ok = ok and entry.get("distinct") is False
        findings.append(confirmed(item, what + ", exactly") if ok else refuted(item, f"not so: {what}"))
    return findings


# Theorem 1 / Corollary 1 (NAR, AR) and Definition 5 (MQNAR)

def nar_target(z, N):
    """A valid NAR instance: the last N-gram occurs exactly once before; (match end, target) or None."""
    matches = ngram_occurrences(z, len(z), N)
    return (matches[0], z[matches[0]]) if len(matches) == 1 else None


def mqnar_valid(z, N):
    return all(len(ngram_occurrences(z, t, N)) <= 1 for t in range(N, len(z) + 1))


def decoding_text(layer, z, t):
    kind, value = layer.decode(z, t)
    if kind == "token":
        return str(value)
    return "tie" if kind == "tie" else UNDECIDED


def check_example(claim, example, run, layer, multi_query):
    z = token_list(example["input"], f"{claim['id']}.input")
    item = f"{claim['id']} counterexample {z} at {example.get('detail')}"
    m = QUERY.match(example.get("detail", ""))
    if not m or any(not 0 <= v < run.V for v in z) or not run.N + 1 <= len(z) <= run.L:
        return not_checked(item, "not an input or query this checker reads")
    t, match_end = int(m.group(1)), int(m.group(2))
    if multi_query:
        valid = mqnar_valid(z, run.N) and run.N <= t <= len(z) and ngram_occurrences(z, t, run.N) == [match_end]
    else:
        valid = t == len(z) and nar_target(z, run.N) == (match_end, z[match_end]) if match_end < len(z) else False
    if not valid:
        return refuted(item, "not a valid instance with that query and match")
    target = z[match_end]
    got = decoding_text(layer, z, t)
    if got == UNDECIDED:
        return not_checked(item, "the decoding is not decided by the enclosures")
    if got == str(target):
        return refuted(item, f"the layer decodes the target {target}")
    if example.get("expected") != target or example.get("got") != got:
        return refuted(item, f"target {target}, decoded {got}; the certificate says expected "
                             f"{example.get('expected')}, got {example.get('got')}")
    tie = " (an exact tie: the same sum of exponentials)" if got == "tie" else ""
    return confirmed(item, f"the layer at c = {layer.c} decodes {got}, target {target}{tie}")


def recount(claim, run, layer, multi_query):
    item = f"{claim['id']} every valid instance"
    if run.sequence_count() > DECODE_BUDGET:
        return not_checked(item, f"{run.sequence_count()} sequences; not re-decoded")
    checked = failed = without_match = valid = 0
    failing = []
    for length in run.lengths():
        for z in product(range(run.V), repeat=length):
            z = list(z)
            queries = mq_queries(z, run.N) if multi_query else nar_queries(z, run.N)
            if queries is None:
                continue
            valid += 1
            for t, match in queries:
                if match is None:
                    without_match += 1
                    continue
                checked += 1
                got = decoding_text(layer, z, t)
                if got == UNDECIDED:
                    return not_checked(item, f"{z} at {t}: the decoding is not decided by the enclosures")
                if got != str(z[match]):
                    failed += 1
                    failing.append(z)
    details = claim.get("details", {})
    mine = {"checked": checked, "failed": failed, "valid_instances": valid,
            "counterexample inputs": failing[:len(claim["counterexamples"])]}
    stated = {"checked": claim["checked"], "failed": claim["failed"], "valid_instances": details.get("valid_instances"),
              "counterexample inputs": [e["input"] for e in claim["counterexamples"]]}
    if multi_query:
        mine["queries_without_match"] = without_match
        stated["queries_without_match"] = details.get("queries_without_match")
    differences = [f"{k}: certificate {stated[k]}, recomputed {v}" for k, v in mine.items() if stated[k] != v]
    verdict = "refuted" if failed else "verified"
    if stated_verdict(claim) != verdict:
        differences.append(f"verdict: certificate {stated_verdict(claim)}, recomputed {verdict}")
    cos2 = max_signed_cos_squared(run)
    distinct = cos2 is not None and cos2 < 1
    if not multi_query and claim.get("outside_hypotheses") == distinct:
        differences.append(f"outside_hypotheses: certificate {claim.get('outside_hypotheses')}, but the signatures "
                           f"are {'distinct' if distinct else 'not distinct'} (Theorem 1 assumes distinct ones)")
    found = refuted(item, "; ".join(differences)) if differences else confirmed(
        item, f"{checked} queries of {valid} valid instances decoded at c = {layer.c}")
    found.failed = failed
    return found


def nar_queries(z, N):
    target = nar_target(z, N)
    return None if target is None else [(len(z), target[0])]


def mq_queries(z, N):
    if not mqnar_valid(z, N):
        return None
    queries = []
    for t in range(N, len(z) + 1):
        occurrences = ngram_occurrences(z, t, N)
        queries.append((t, occurrences[0] if occurrences else None))
    return queries


def confirm(certificate, claims):
    run = Run(certificate)
    if run.vectors is None:
        return [not_checked(claim_name(c), f"embedding {run.embedding!r}: its vectors are not rebuilt here")
                for c in claims]
    if run.V ** run.N > NGRAM_BUDGET:
        return [not_checked(claim_name(c), f"{run.V ** run.N} N-grams: their pairs are not re-compared")
                for c in claims]
    findings, c = [], None
    for claim in claims:
        cid = claim["id"]
        if cid in ("cat.signatures", "cat.thm1.key_delay", "cat.thm1.value_delay", "cat.cor1", "cat.mqnar"):
            condition_findings, c = check_condition(claim, run)
            findings += condition_findings
        if cid in ("cat.thm1.key_delay", "cat.thm1.value_delay", "cat.cor1", "cat.mqnar"):
            if c is None:
                findings.append(not_checked(claim_name(claim), "c not recomputed"))
                continue
            layer = run.layer(c)
            multi = cid == "cat.mqnar"
            findings += [check_example(claim, e, run, layer, multi) for e in claim["counterexamples"]]
            counted = recount(claim, run, layer, multi)
            findings.append(counted)
            if counted.status != "not checked" and claim["verdict"] in ("verified", "refuted"):
                # every valid instance decoded: the verdict is the recount's
                failed = getattr(counted, "failed", None)
                if failed is not None:
                    findings.append(verdict_finding(claim, "refuted" if failed else "verified", counted.why))
        if cid == "cat.signatures":
            result = check_signatures(claim, run)
            findings += result if isinstance(result, list) else [result]
            if claim["verdict"] in ("verified", "refuted"):  # every pair of N-grams compared
                cos2 = max_signed_cos_squared(run)
                findings.append(verdict_finding(claim, "verified" if cos2 is not None and cos2 < 1 else "refuted",
                                                f"max signed cos^2 over all N-grams = {cos2}"))
        elif cid == "cat.filters":
            findings += check_exceptional_filters(claim, run)
            findings.append(not_checked(f"{claim_name(claim)} sampled filters",
                                        "seeded random filters (a C++ generator); not re-drawn"))
        elif cid not in ("cat.thm1.key_delay", "cat.thm1.value_delay", "cat.cor1", "cat.mqnar"):
            findings.append(not_checked(claim_name(claim), "no independent implementation of this claim here"))
    return findings
