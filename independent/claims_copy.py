"""The copy construction's claims (Repeat After Me): each counterexample re-derived, small domains re-enumerated."""
import re
from fractions import Fraction
from itertools import product

import copy_strings as strings
from claims_common import (ENUMERATION_BUDGET, claim_name, confirmed, field, in_range, not_checked, rational, refuted,
                           stated_verdict, token_list, verdict_finding)
from copy_transformer import UNDECIDED, Embedding, Layer1, Transformer, copy_sequence, dot, lemma_c4_statement
from findings import BadInput
from quadratic import QSqrt

GENERATION_BUDGET = 800  # strings generated one by one to recount a transformer claim over [D]^L


class Run:
    """The parameters a copy certificate records, read and checked for range."""

    def __init__(self, certificate):
        params = field(certificate, "params", dict, "certificate")
        self.variant = field(certificate, "variant", str, "certificate")
        if self.variant not in ("paper", "corrected"):
            raise BadInput(f"certificate.variant: {self.variant!r} is no variant of copy")
        self.D = in_range(params, "D", 1, 64)
        self.n = in_range(params, "n", 1, 64)
        self.L = in_range(params, "L", 1, 4096)
        self.S = in_range(params, "S", 1, 10 ** 18)
        self.embedding = params.get("embedding", "onehot")
        if self.embedding not in ("onehot", "c2"):
            raise BadInput(f"params.embedding: {self.embedding!r}")
        tau = params.get("tau", "proof")
        if not isinstance(tau, str):
            raise BadInput("params.tau: not a string")
        self.tau = "proof" if tau == "proof" else rational(tau, "params.tau")
        if self.tau != "proof" and self.tau <= 0:
            raise BadInput(f"params.tau: {tau!r} is not positive")
        self._transformer = None

    @staticmethod
    def _whole(params, name):
        value = field(params, name, int, "params")
        if value < 1:
            raise BadInput(f"params.{name}: {value} is not positive")
        return value

    def transformer(self):
        if self._transformer is None:
            self._transformer = Transformer(self.D, self.n, self.embedding, self.variant, self.tau)
        return self._transformer

    def strings(self):
        return self.D ** self.L

    def check_input(self, x, where):
        x = token_list(x, where)
        if len(x) != self.L or any(not 0 <= t < self.D for t in x):
            raise BadInput(f"{where}: {x} is not a string of [D]^L with D = {self.D}, L = {self.L}")
        return tuple(x)


def reading_of(claim):
    reading = claim.get("reading")
    if reading not in ("text", "formula"):
        raise BadInput(f"{claim['id']}: reading {reading!r} is neither text nor formula")
    return reading


def example_item(claim, x):
    return f"{claim_name(claim)} counterexample {list(x) if isinstance(x, tuple) else x}"


# Algorithm 1 (Appendix), Definition 2.2 (Sec. 2.2), errata E1 and E2

def algorithm1_got(x, run):
    y, failure = strings.algorithm1(x, run.n, run.variant)
    detail = None if failure is None else f"step {failure[0]}: {failure[1]}"
    return y, detail


def check_alg1_example(claim, example, run):
    x = run.check_input(example["input"], f"{claim['id']}.input")
    item = example_item(claim, x)
    reading = reading_of(claim)
    if strings.has_repeated_ngram(x, run.n, reading):
        return refuted(item, f"x repeats an n-gram under the {reading} reading: outside the claim")
    y, detail = algorithm1_got(x, run)
    if detail is None:
        return refuted(item, "Algorithm 1 copies x")
    if example.get("expected") != list(x) or example.get("got") != list(y):
        return refuted(item, f"Algorithm 1 gives {y} ({detail}); the certificate states expected "
                             f"{example.get('expected')}, got {example.get('got')}")
    if example.get("detail") != detail:
        return refuted(item, f"the failure is '{detail}', the certificate says '{example.get('detail')}'")
    return confirmed(item, f"Algorithm 1 ({run.variant}) gives {y}: {detail}")


def check_alg1_counts(claim, run):
    item = f"{claim_name(claim)} counts over [D]^L"
    if run.strings() > ENUMERATION_BUDGET:
        return not_checked(item, f"{run.strings()} inputs; not re-enumerated")
    reading = reading_of(claim)
    checked = passed = with_repeat = failed_with_repeat = 0
    failing, first_failing_with_repeat = [], None
    for x in strings.all_strings(run.D, run.L):
        copies = algorithm1_got(x, run)[1] is None
        if strings.has_repeated_ngram(x, run.n, reading):
            with_repeat += 1
            if not copies:
                failed_with_repeat += 1
                first_failing_with_repeat = first_failing_with_repeat or list(x)
            continue
        checked += 1
        passed += copies
        if not copies:
            failing.append(list(x))
    details = claim.get("details", {})
    sharpness = details.get("sharpness", {})
    mine = {"checked": checked, "passed": passed, "failed": checked - passed, "strings_with_repeat": with_repeat,
            "failed_with_repeat": failed_with_repeat,
            "first_key_position": strings.first_key_position(run.n, run.variant),
            "smallest_failing_string_with_repeat": first_failing_with_repeat,
            "counterexample inputs": failing[:len(claim["counterexamples"])] if claim["counterexamples"] else []}
    stated = {"checked": claim["checked"], "passed": claim["passed"], "failed": claim["failed"],
              "strings_with_repeat": details.get("strings_with_repeat"),
              "failed_with_repeat": details.get("failed_with_repeat"),
              "first_key_position": details.get("first_key_position"),
              "smallest_failing_string_with_repeat": sharpness.get("smallest_failing_string_with_repeat"),
              "counterexample inputs": [e["input"] for e in claim["counterexamples"]]}
    verdict = "refuted" if checked > passed else ("verified" if checked else "unknown")
    return compare_all(item, mine, stated, claim, verdict,
                       f"{checked} repeat-free strings of {run.strings()} re-run through Algorithm 1")


def compare_all(item, mine, stated, claim, verdict, what):
    """The recomputed values against the certificate's, and, for a verified or refuted claim, its verdict finding
    (the callers recompute over the claim's whole domain). A vacuous claim's `finding` is compared here; its verdict
    is re-derived from the hypotheses (hypotheses_findings)."""
    differences = [f"{name}: certificate {stated[name]}, recomputed {value}" for name, value in mine.items()
                   if stated[name] != value]
    if stated_verdict(claim) != verdict:
        differences.append(f"verdict: certificate {stated_verdict(claim)}, recomputed {verdict}")
    found = [refuted(item, "; ".join(differences)) if differences else confirmed(item, what)]
    if claim["verdict"] in ("verified", "refuted"):
        found.append(verdict_finding(claim, verdict, what))
    return found


def check_lemma2_4(claim, run):
    item = f"{claim_name(claim)} p_n-gram over [D]^L"
    if run.strings() > ENUMERATION_BUDGET:
        return not_checked(item, f"{run.strings()} strings; not re-counted")
    reading = reading_of(claim)
    p, repeats = strings.p_ngram(run.D, run.n, run.L, reading)
    bound = strings.lemma2_4_bound(run.D, run.n, run.L)
    details = claim.get("details", {})
    mine = {"p_ngram": p, "strings_with_repeat": repeats, "strings": run.strings(), "bound": bound}
    stated = {"p_ngram": rational(details.get("p_ngram"), f"{item}.p_ngram"),
              "strings_with_repeat": details.get("strings_with_repeat"), "strings": details.get("strings"),
              "bound": rational(details.get("bound_L2_D_minus_n"), f"{item}.bound")}
    return compare_all(item, mine, stated, claim, "verified" if p < bound else "refuted",
                       f"p = {p} counted over {run.strings()} strings, L^2 D^-n = {bound}")


# Lemma C.2 (errata E5)

def check_lemma_c2(claim, run):
    if (run.D + 2) ** 2 > ENUMERATION_BUDGET:
        return [not_checked(f"{claim['id']} every property of every token", f"{run.D + 2} tokens; not re-enumerated")]
    psi = Embedding(run.D, "c2", run.variant)
    d, tokens = psi.d, range(run.D + 2)
    failures = {}
    for x in tokens:
        norm2 = dot(psi(x), psi(x))
        if norm2 != 1:
            failures[("norm", x)] = norm2
        if any(abs_greater_than_one(c) for c in psi(x)):
            failures[("inf", x)] = None
        for y in tokens:
            if y != x and not dot(psi(x), psi(y)) < 1 - Fraction(1, d):
                failures[("inner", x, y)] = dot(psi(x), psi(y))
        if x != psi.BOS and dot(psi(x), psi(psi.BOS)) != 0:
            failures[("bos", x)] = None
        if x != psi.COPY and dot(psi(x), psi(psi.COPY)) != 0:
            failures[("copy", x)] = None
    findings = []
    for example in claim["counterexamples"]:
        findings.append(check_lemma_c2_example(claim, example, failures))
    item = f"{claim['id']} every property of every token (d = {d})"
    if claim["verdict"] in ("verified", "refuted"):
        findings.append(verdict_finding(claim, "refuted" if failures else "verified",
                                        f"{len(failures)} failing property instances over all {run.D + 2} tokens"))
    if claim["verdict"] == "verified" and failures:
        findings.append(refuted(item, f"{len(failures)} property instances fail, e.g. {next(iter(failures))}"))
    elif claim["verdict"] == "verified":
        findings.append(confirmed(item, "norms, sup norms, inner products and orthogonality recomputed exactly"))
    elif not failures:
        findings.append(refuted(item, "every property holds here"))
    elif len(failures) != claim["failed"]:
        findings.append(not_checked(item, f"{len(failures)} failing (property, token or pair) instances here, "
                                          f"{claim['failed']} in the certificate: counted differently"))
    else:
        findings.append(confirmed(item, f"the same {len(failures)} failing property instances"))
    stated_d = claim.get("details", {}).get("d")
    if stated_d is not None and stated_d != d:
        findings.append(refuted(f"{claim['id']} details.d", f"certificate {stated_d}, recomputed {d}"))
    return findings


def abs_greater_than_one(c):
    return c > 1 or c < -1


def check_lemma_c2_example(claim, example, failures):
    item = example_item(claim, example["input"])
    x = example["input"].get("x") if isinstance(example["input"], dict) else None
    detail = example.get("detail", "")
    if detail.startswith("||Psi(x)||_2") and isinstance(x, int):
        if ("norm", x) not in failures:
            return refuted(item, "||Psi(x)||_2 = 1 holds")
        norm2 = failures[("norm", x)]
        if example.get("got") != f"sqrt({norm2})":
            return refuted(item, f"||Psi(x)||_2 = sqrt({norm2}), the certificate says {example.get('got')}")
        return confirmed(item, f"||Psi(x)||_2 = sqrt({norm2}) != 1")
    return not_checked(item, f"this checker does not parse the property '{detail}'")


# Lemma C.1, Lemma C.4 (errata E4, E6)

SITE = re.compile(r"position (\d+): (key block|key position|query block|query position|value)(?: t=(\d+))?$")


def parse_vector(text, r):
    """'(1 0 1/2)' or '(1, 0)': rational entries; sqrt(q) and -sqrt(q) entries in Q(sqrt r). None otherwise."""
    if not isinstance(text, str) or not (text.startswith("(") and text.endswith(")")):
        return None
    entries = []
    for part in re.split(r"[\s,]+", text[1:-1].strip()):
        m = re.fullmatch(r"(-?)sqrt\((\d+(?:/\d+)?)\)", part)
        try:
            if m:
                value = QSqrt.sqrt_of(Fraction(m.group(2)), r)
                entries.append(-value if m.group(1) else value)
            else:
                entries.append(QSqrt(Fraction(part), 0, r))
        except ValueError:
            return None
    return entries


def copy_positions(x, run):
    """The copy sequence <BOS>, x, <COPY>, x_1..x_{L-1}: every prefix a correct generation reads (positions 1..2L+1)."""
    return copy_sequence(x, list(x[:-1]), run.D)


def lemma_c4_sites(run):
    sites = [("value", None)]
    for kind in ("key block", "key position", "query block", "query position"):
        sites += [(kind, t) for t in range(1, run.n + 1)]
    return sites


def lemma_c4_failures(x, run, layer1, psi):
    seq = copy_positions(x, run)
    failures = []
    for i in range(1, 2 * run.L + 2):
        for kind, t in lemma_c4_sites(run):
            built = layer1.block(seq, i, kind, t)
            stated = lemma_c4_statement(psi, run.n, run.L, seq, i, kind, t, run.variant)
            if any(a != b for a, b in zip(built, stated)):
                failures.append(f"position {i}: {kind}" + (f" t={t}" if t else ""))
    return failures


def check_lemma_c4(claim, run):
    psi = Embedding(run.D, run.embedding, run.variant)
    layer1 = Layer1(psi, run.n, run.variant)
    findings = []
    for example in claim["counterexamples"]:
        findings.append(check_lemma_c4_example(claim, example, run, psi, layer1))
    item = f"{claim['id']} every block at every position of every string"
    if run.strings() > ENUMERATION_BUDGET // (2 * run.L + 1):
        findings.append(not_checked(item, f"{run.strings()} strings; not re-enumerated"))
        return findings
    sites, failed = {}, 0
    for x in strings.all_strings(run.D, run.L):
        failures = lemma_c4_failures(x, run, layer1, psi)
        failed += bool(failures)
        for site in failures:
            sites[site] = sites.get(site, 0) + 1
    mine = {"checked": run.strings(), "failed": failed, "failing_sites": sites}
    stated = {"checked": claim["checked"], "failed": claim["failed"],
              "failing_sites": claim.get("details", {}).get("failing_sites", {})}
    verdict = "refuted" if failed else "verified"
    findings += (compare_all(item, mine, stated, claim, verdict,
                                f"layer 1 rebuilt at {2 * run.L + 1} positions of {run.strings()} strings"))
    return findings


def check_lemma_c4_example(claim, example, run, psi, layer1):
    x = run.check_input(example["input"], f"{claim['id']}.input")
    item = example_item(claim, x) + f" at {example.get('detail')}"
    m = SITE.match(example.get("detail", ""))
    if not m:
        return not_checked(item, "the detail names no block this checker reads")
    i, kind, t = int(m.group(1)), m.group(2), int(m.group(3)) if m.group(3) else None
    if not 1 <= i <= 2 * run.L + 1 or (t is not None and not 1 <= t <= run.n):
        return refuted(item, "no such position or block")
    seq = copy_positions(x, run)
    built = layer1.block(seq, i, kind, t)
    stated = lemma_c4_statement(psi, run.n, run.L, seq, i, kind, t, run.variant)
    if all(a == b for a, b in zip(built, stated)):
        return refuted(item, f"the block is {built}, as the lemma states")
    got, expected = parse_vector(example.get("got"), psi.r), parse_vector(example.get("expected"), psi.r)
    if got is None or expected is None:
        return not_checked(item, f"the block {built} differs from the statement {stated}; the certificate's "
                                 "expected/got are not read here")
    if got != built or expected != stated:
        return refuted(item, f"recomputed block {built} vs statement {stated}; the certificate says got "
                             f"{example.get('got')}, expected {example.get('expected')}")
    return confirmed(item, f"layer 1 gives {built}, the lemma states {stated}")


def hard_alibi_head(psi, seq, i, t):
    """The Hard-ALiBi head of Lemma C.1 built literally at query i: W_q = W_k = 0, so every score q_i . k_j is 0;
    bias 0 on keys j > i - t and -inf before; softmax: exp(0) = 1 on the window, exp(-inf) = 0 elsewhere, so each
    weight is exactly 1 / (the number of finite scores); the output sum_j w_j Psi(s_j) over keys j = 1..i."""
    scores = [0 if j > i - t else None for j in range(1, i + 1)]  # None: -inf
    exps = [Fraction(1) if z is not None else Fraction(0) for z in scores]  # exp(0 + 0), exp(-inf)
    weights = [e / sum(exps) for e in exps]
    total = [QSqrt(0, 0, psi.r)] * psi.d
    for j, w in enumerate(weights, start=1):
        total = [a + w * b for a, b in zip(total, psi(seq[j - 1]))]
    return total


def check_lemma_c1(claim, run):
    item = f"{claim['id']} h_1..h_{run.n + 1} at every position of every string"
    if run.strings() * (2 * run.L + 1) * (run.n + 1) > ENUMERATION_BUDGET:
        return [not_checked(item, f"{run.strings()} strings; not re-enumerated")]
    psi = Embedding(run.D, run.embedding, run.variant)
    layer1 = Layer1(psi, run.n, run.variant)
    failure = None
    for x in strings.all_strings(run.D, run.L):
        seq = copy_positions(x, run)
        for i in range(1, 2 * run.L + 2):
            for t in range(1, run.n + 2):
                start = max(1, i - t + 1)
                formula = [sum((psi(seq[j - 1])[k] for j in range(start, i + 1)), QSqrt(0, 0, psi.r))
                           / min(t, i) for k in range(psi.d)]
                if hard_alibi_head(psi, seq, i, t) != formula or layer1.h(seq, i, t) != formula:
                    failure = failure or f"x = {list(x)}, position {i}, t = {t}"
    what = f"the Hard-ALiBi head built (zero scores, bias -inf outside the window, softmax) on {run.strings()} strings"
    found = [refuted(item, failure) if failure else confirmed(item, f"{what} equals h_t = 1/min(t, i) sum x_j")]
    if claim["verdict"] in ("verified", "refuted"):
        found.append(verdict_finding(claim, "refuted" if failure else "verified", failure or what))
    return found


# Proof of Theorem 2.3: the score claim (errata E4, E7)

SCORE_SITE = re.compile(r"query position (\d+): (target key|key) (\d+) scores (\S+)")


def score_bound(run, psi):
    return run.n - Fraction(1, psi.d)


def score_fails(run, psi, i, j, z):
    """The claim at query i and key j: z_{i-L_C+1} = n; |z_j| < n - 1/d as printed, z_j < n - 1/d corrected (E7)."""
    if j == i - run.L:
        return z != run.n
    bound = score_bound(run, psi)
    return not (z < bound and (run.variant == "corrected" or -z < bound))


def check_scores_example(claim, example, run):
    x = run.check_input(example["input"], f"{claim['id']}.input")
    item = example_item(claim, x) + f" at {example.get('detail')}"
    reading = reading_of(claim)
    if strings.has_repeated_ngram(x, run.n, reading):
        return refuted(item, f"x repeats an n-gram under the {reading} reading: outside the claim")
    m = SCORE_SITE.match(example.get("detail", ""))
    if not m:
        return not_checked(item, "the detail names no query and key this checker reads")
    i, j = int(m.group(1)), int(m.group(3))
    if not run.L + 2 <= i <= 2 * run.L + 1 or not 1 <= j <= i or (m.group(2) == "target key") != (j == i - run.L):
        return refuted(item, "no such query position or key")
    transformer = run.transformer()
    z = transformer.scores(copy_positions(x, run), i)[j - 1]
    if not score_fails(run, transformer.psi, i, j, z):
        return refuted(item, f"z = {z} satisfies the claim there")
    try:
        got = rational(example.get("got"), item)
    except BadInput:
        return not_checked(item, f"z = {z} breaks the claim; the certificate's got is not read here")
    if QSqrt(got, 0, z.r) != z:
        return refuted(item, f"z = {z}, the certificate says {example.get('got')}")
    bound = score_bound(run, transformer.psi)
    expected = str(run.n) if j == i - run.L else None
    if expected is None and str(bound) not in str(example.get("expected")):
        return refuted(item, f"the bound n - 1/d is {bound}; the certificate says {example.get('expected')}")
    if expected is not None and example.get("expected") != expected:
        return refuted(item, f"the target score should be {expected}; the certificate says {example.get('expected')}")
    return confirmed(item, f"z = {z}, exactly" + ("" if j == i - run.L else f"; bound {bound}"))


# Theorem 2.3 by generation, and err (Sec. 2.2)

def generation_text(run, x):
    generated, failure = run.transformer().generate(x)
    if failure is None:
        return generated, None
    k, kind, value = failure
    if kind == "wrong":
        return generated, f"step {k}: generated {value}, expected {x[k - 1]}"
    if kind == "tie":
        return generated, f"step {k}: the readout's argmax is an exact tie between tokens {' '.join(map(str, value))}"
    return generated, UNDECIDED


def check_generation_example(claim, example, run):
    x = run.check_input(example["input"], f"{claim['id']}.input")
    item = example_item(claim, x)
    reading = reading_of(claim)
    if strings.has_repeated_ngram(x, run.n, reading):
        return refuted(item, f"x repeats an n-gram under the {reading} reading: outside the claim")
    generated, detail = generation_text(run, x)
    if detail == UNDECIDED:
        return not_checked(item, f"after {generated} an argmax is not decided by the enclosures")
    if detail is None:
        return refuted(item, "the transformer copies x, every argmax decided")
    if example.get("got") != generated or example.get("expected") != list(x) or example.get("detail") != detail:
        return refuted(item, f"recomputed {generated} ({detail}); the certificate says {example.get('got')} "
                             f"({example.get('detail')})")
    exact = " (tie exact: the same sum of exponentials)" if "tie" in detail else ""
    return confirmed(item, f"generates {generated}: {detail}{exact}")


def recount_generation(run):
    """Per string of [D]^L: (copied, failed by an exact tie); None when some argmax is undecided."""
    outcome = {}
    for x in strings.all_strings(run.D, run.L):
        generated, detail = generation_text(run, x)
        if detail == UNDECIDED:
            return None
        outcome[x] = (detail is None, detail is not None and "tie" in detail)
    return outcome


def check_thm2_3_counts(claim, run, outcome):
    item = f"{claim_name(claim)} counts over [D]^L"
    if outcome is None:
        return not_checked(item, f"{run.strings()} strings; not re-generated (over {GENERATION_BUDGET} or undecided)")
    reading = reading_of(claim)
    free = [x for x in outcome if not strings.has_repeated_ngram(x, run.n, reading)]
    passed = sum(outcome[x][0] for x in free)
    failing = [list(x) for x in free if not outcome[x][0]]
    mine = {"checked": len(free), "passed": passed, "failed": len(free) - passed,
            "counterexample inputs": failing[:len(claim["counterexamples"])],
            "agreement_with_algorithm1": agreement_with_algorithm1(run, outcome)}
    stated = {"checked": claim["checked"], "passed": claim["passed"], "failed": claim["failed"],
              "counterexample inputs": [e["input"] for e in claim["counterexamples"]],
              "agreement_with_algorithm1": claim.get("details", {}).get("agreement_with_algorithm1")}
    verdict = "refuted" if failing else ("verified" if free else "unknown")
    return compare_all(item, mine, stated, claim, verdict, f"{len(free)} repeat-free strings generated")


def agreement_with_algorithm1(run, outcome):
    """Over every string of [D]^L: which of the transformer and Algorithm 1 copy it."""
    counts = {"both_copy": 0, "only_transformer_copies": 0, "only_algorithm1_copies": 0, "neither": 0}
    for x, (transformer_copies, _) in outcome.items():
        algorithm_copies = algorithm1_got(x, run)[1] is None
        key = ("both_copy" if algorithm_copies else "only_transformer_copies") if transformer_copies else (
            "only_algorithm1_copies" if algorithm_copies else "neither")
        counts[key] += 1
    return counts


def check_err(claim, run, outcome):
    item = f"{claim_name(claim)} err over [D]^L"
    reading = reading_of(claim)
    details = claim.get("details", {})
    findings = []
    if run.strings() <= ENUMERATION_BUDGET:
        p, _ = strings.p_ngram(run.D, run.n, run.L, reading)
        stated_p = rational(details.get("p_ngram"), f"{item}.p_ngram")
        findings.append(confirmed(f"{claim_name(claim)} p_ngram", f"{p}") if p == stated_p else
                        refuted(f"{claim_name(claim)} p_ngram", f"certificate {stated_p}, recomputed {p}"))
    else:
        p = None
    err = rational(details.get("err"), f"{item}.err")
    ties = details.get("errors_from_exact_ties", 0)
    without = rational(details.get("err_without_exact_ties", details.get("err")), f"{item}.err_without_exact_ties")
    if without != err - Fraction(ties, run.strings()):
        findings.append(refuted(f"{claim_name(claim)} err_without_exact_ties",
                                f"err - ties/D^L = {err - Fraction(ties, run.strings())}, the certificate says "
                                f"{without}"))
    if outcome is None or p is None:
        findings.append(not_checked(item, f"{run.strings()} strings; err not re-generated"))
        return findings
    wrong = sum(not copied for copied, _ in outcome.values())
    tie_count = sum(tie for _, tie in outcome.values())
    my_err = Fraction(wrong, run.strings())
    mine = {"err": my_err, "errors_from_exact_ties": tie_count}
    stated = {"err": err, "errors_from_exact_ties": ties}
    verdict = "verified" if my_err < p else "refuted"
    findings += (compare_all(item, mine, stated, claim, verdict,
                                f"err = {my_err} from {run.strings()} generated strings, p = {p}"))
    for example in claim["counterexamples"]:
        findings.append(check_err_example(claim, example, my_err, p))
    return findings


def check_err_example(claim, example, err, p):
    item = f"{claim_name(claim)} counterexample {example['input']}"
    if err < p:
        return refuted(item, f"err = {err} < p = {p}")
    if example.get("got") != str(err) or example.get("expected") != f"err < {p}":
        return refuted(item, f"err = {err}, p = {p}; the certificate says {example.get('got')}, "
                             f"{example.get('expected')}")
    return confirmed(item, f"err = {err} >= p = {p}")


# Theorem 2.7 and Corollary 2.8 (Sec. 2.3, errata E3)

def check_thm2_7(claim, run):
    findings = []
    bound = strings.theorem2_7_bound(run.D, run.L, run.S)
    details = claim.get("details", {})
    stated_bound = rational(details.get("bound"), f"{claim['id']}.details.bound")
    findings.append(confirmed(f"{claim['id']} bound 1 - |S|/D^L", str(bound)) if bound == stated_bound else
                    refuted(f"{claim['id']} bound 1 - |S|/D^L", f"certificate {stated_bound}, recomputed {bound}"))
    findings += check_tightness(claim, run, details.get("tightness"), bound)
    for example in claim["counterexamples"]:
        findings.append(check_gssm_example(claim, example, run, bound))
    if claim["verdict"] == "verified":
        every = check_every_gssm(claim, run, bound)
        findings.append(every)
        if every.status != "not checked":
            findings.append(verdict_finding(claim, "verified" if every.status == "confirmed" else "refuted",
                                            every.why))
    return findings


GSSM_BUDGET = 2 * 10 ** 5  # GSSMs times strings simulated


def check_every_gssm(claim, run, bound):
    """Theorem 2.7 over every GSSM with |S| states: u: S x (D + 2 tokens) -> S, r: S -> the D + 2 tokens, s_0."""
    item = f"{claim['id']} every GSSM"
    holds = (lambda err: err > bound) if run.variant == "paper" else (lambda err: err >= bound)
    if bound < 0 or (bound == 0 and run.variant != "paper"):  # err >= 0 > bound, or err >= 0 = bound (corrected: >=)
        return confirmed(item, f"the bound is {bound} and every error is >= 0")
    S, tokens = run.S, run.D + 2
    if S > 8:
        return not_checked(item, f"|S| = {S}: too many GSSMs to re-enumerate")
    count = S ** (S * tokens) * tokens ** S * S
    if count * run.strings() > GSSM_BUDGET:
        return not_checked(item, f"{count} GSSMs; not re-enumerated")
    smallest = min(strings.gssm_error(lambda s, t, u=update: u[s * tokens + t], readout, initial, run.D, run.L)
                   for update in product(range(S), repeat=S * tokens)
                   for readout in product(range(tokens), repeat=S)
                   for initial in range(S))
    details = claim.get("details", {})
    stated = details.get("smallest_err_over_all_gssms")
    if not holds(smallest) or details.get("gssms_enumerated") != count \
            or (stated is not None and rational(stated, item) != smallest):
        return refuted(item, f"{count} GSSMs, smallest err {smallest} against {bound}; certificate "
                             f"{details.get('gssms_enumerated')}, {stated}")
    return confirmed(item, f"all {count} GSSMs simulated on {run.strings()} strings: smallest err {smallest}")


def check_tightness(claim, run, tightness, bound):
    if not isinstance(tightness, dict):
        return []
    item = f"{claim['id']} tightness (Lemma D.1 form)"
    best = strings.lemma_d1_best_error(run.D, run.L, run.S)
    stated = rational(tightness.get("err"), f"{item}.err")
    if stated != best or tightness.get("copied") != min(run.S, run.D ** run.L) \
            or tightness.get("attains_bound") != (best == bound):
        return [refuted(item, f"recomputed err {best}, copied {min(run.S, run.D ** run.L)}; certificate {tightness}")]
    return [confirmed(item, f"err {best}, {'attains' if best == bound else 'does not attain'} the bound")]


def check_gssm_example(claim, example, run, bound):
    item = f"{claim['id']} counterexample GSSM"
    gssm = example["input"]
    if not isinstance(gssm, dict):
        raise BadInput(f"{item}: the input is not a GSSM object")
    states = field(gssm, "states", int, item)
    initial = field(gssm, "initial", int, item)
    readout = token_list(field(gssm, "readout", list, item), f"{item}.readout")
    update = token_list(field(gssm, "update", list, item), f"{item}.update")
    tokens = run.D + 2
    if gssm.get("tokens") != f"0..{run.D - 1} alphabet, {run.D} <BOS>, {run.D + 1} <COPY>":
        return not_checked(item, f"token numbering {gssm.get('tokens')!r} is not read here")
    if not 1 <= states <= run.S or len(readout) != states or len(update) != states * tokens \
            or not 0 <= initial < states or any(not 0 <= s < states for s in update) \
            or any(not 0 <= t < tokens for t in readout):
        return refuted(item, f"not a GSSM with at most |S| = {run.S} states over {tokens} tokens")
    err = strings.gssm_error(lambda s, t: update[s * tokens + t], readout, initial, run.D, run.L)
    fails = err <= bound if run.variant == "paper" else err < bound
    if not fails:
        return refuted(item, f"err = {err} satisfies the inequality against {bound}")
    if example.get("got") != str(err):
        return refuted(item, f"err = {err}, the certificate says {example.get('got')}")
    return confirmed(item, f"u(s, token) = update[s (D+2) + token], err = {err} over {run.strings()} strings, "
                           f"bound {bound}")


def check_cor2_8(claim, run):
    item = f"{claim['id']} hypothesis and bound"
    details = claim.get("details", {})
    hypothesis = 2 * run.S < run.D ** run.L
    bound = strings.theorem2_7_bound(run.D, run.L, run.S)
    mine = {"hypothesis_2S_below_D_pow_L": hypothesis, "bound": bound, "bound_above_half": bound > Fraction(1, 2)}
    stated = {"hypothesis_2S_below_D_pow_L": details.get("hypothesis_2S_below_D_pow_L"),
              "bound": rational(details.get("bound"), f"{item}.bound"),
              "bound_above_half": details.get("bound_above_half")}
    if hypothesis and not mine["bound_above_half"]:
        return [refuted(item, "2|S| < D^L but 1 - |S|/D^L <= 1/2")]
    if hypothesis and claim["verdict"] == "vacuous":
        return [refuted(item, "2|S| < D^L: the hypothesis holds"),
                verdict_finding(claim, "verified", "2|S| < D^L holds and 1 - |S|/D^L > 1/2")]
    if not hypothesis and claim["verdict"] != "vacuous":
        return [refuted(item, f"2|S| >= D^L: the claim asserts nothing here; the certificate says {claim['verdict']}")]
    verdict = "verified" if hypothesis else stated_verdict(claim)
    findings = compare_all(item, mine, stated, claim, verdict,
                           f"2|S| < D^L is {hypothesis}; 1 - |S|/D^L = {bound}")
    if claim["verdict"] == "vacuous" and not hypothesis:
        findings.append(verdict_finding(claim, "vacuous", f"2|S| >= D^L: |S| = {run.S}, D^L = {run.D ** run.L}"))
    return findings + check_tightness(claim, run, details.get("tightness"), bound)


def check_settings(claim, run):
    settings = claim.get("details", {}).get("settings")
    if not isinstance(settings, dict):
        return []
    transformer = run.transformer()
    item = f"{claim_name(claim)} settings d and tau"
    if settings.get("d") != transformer.psi.d or settings.get("tau") != transformer.tau_text():
        return [refuted(item, f"recomputed d = {transformer.psi.d}, tau = {transformer.tau_text()}; "
                              f"certificate {settings.get('d')}, {settings.get('tau')}")]
    return [confirmed(item, f"d = {transformer.psi.d}, tau = {transformer.tau_text()}")]


def confirm(certificate, claims):
    run = Run(certificate)
    outcome = recount_generation(run) if run.strings() <= GENERATION_BUDGET and any(
        c["id"] in ("copy.thm2_3", "copy.err") for c in claims) else None
    findings = []
    for claim in claims:
        findings += confirm_claim(claim, run, outcome)
    return findings


def hypotheses_findings(claim, run):
    """Theorem 2.3 assumes 2n <= L <= D^n, Lemma C.4 the one-hot embedding; its proof's score claim 2L + 2 <= K = D^n. A certificate that flags
    otherwise is contradicted (a consistent flag adds no finding: the claim's other findings cover it)."""
    K = run.D ** run.n
    inside = {"copy.thm2_3": 2 * run.n <= run.L <= K, "copy.err": 2 * run.n <= run.L <= K,
              "copy.scores": 2 * run.L + 2 <= K, "copy.lemma_c4": run.embedding == "onehot"}.get(claim["id"])
    if inside is None:
        return []
    where = f"D = {run.D}, n = {run.n}, L = {run.L}, embedding {run.embedding}"
    if not inside:
        found = [verdict_finding(claim, "vacuous", f"the hypotheses fail at {where}")]
    elif claim["verdict"] == "vacuous":
        found = [refuted(f"{claim_name(claim)} verdict vacuous", f"the hypotheses hold at {where}")]
    else:
        found = []
    if claim.get("outside_hypotheses") == (not inside):
        return found
    return found + [refuted(f"{claim_name(claim)} outside_hypotheses",
                    f"the certificate says {claim.get('outside_hypotheses')}; the hypotheses "
                    f"{'hold' if inside else 'fail'} at D = {run.D}, n = {run.n}, L = {run.L}")]


def confirm_claim(claim, run, outcome):
    return hypotheses_findings(claim, run) + claim_findings(claim, run, outcome)


def claim_findings(claim, run, outcome):
    cid = claim["id"]
    if cid == "copy.alg1":
        return [check_alg1_example(claim, e, run) for e in claim["counterexamples"]] + check_alg1_counts(claim, run)
    if cid == "copy.lemma2_4":
        return check_lemma2_4(claim, run)
    if cid == "copy.lemma_c1":
        return check_lemma_c1(claim, run)
    if cid == "copy.lemma_c2":
        return check_lemma_c2(claim, run)
    if cid == "copy.lemma_c4":
        return check_lemma_c4(claim, run) + check_settings(claim, run)
    if cid == "copy.scores":
        return scores_findings(claim, run) + check_settings(claim, run)
    if cid == "copy.thm2_3":
        return ([check_generation_example(claim, e, run) for e in claim["counterexamples"]]
                + check_thm2_3_counts(claim, run, outcome) + check_settings(claim, run))
    if cid == "copy.err":
        return check_err(claim, run, outcome) + check_settings(claim, run)
    if cid == "copy.thm2_7":
        return check_thm2_7(claim, run)
    if cid == "copy.cor2_8":
        return check_cor2_8(claim, run)
    return [not_checked(claim_name(claim), "no independent implementation of this claim here")]


def scores_findings(claim, run):
    findings = [check_scores_example(claim, e, run) for e in claim["counterexamples"]]
    item = f"{claim_name(claim)} every query of every repeat-free string"
    if run.strings() > GENERATION_BUDGET:
        return findings + [not_checked(item, f"{run.strings()} strings; not re-enumerated")]
    reading = reading_of(claim)
    transformer = run.transformer()
    checked = failed = 0
    for x in strings.all_strings(run.D, run.L):
        if strings.has_repeated_ngram(x, run.n, reading):
            continue
        checked += 1
        seq = copy_positions(x, run)
        failed += any(score_fails(run, transformer.psi, i, j, z)
                      for i in range(run.L + 2, 2 * run.L + 2)
                      for j, z in enumerate(transformer.scores(seq, i), start=1))
    mine = {"checked": checked, "failed": failed}
    stated = {"checked": claim["checked"], "failed": claim["failed"]}
    verdict = "refuted" if failed else ("verified" if checked else "unknown")
    return findings + compare_all(item, mine, stated, claim, verdict,
                                  f"scores of {checked} repeat-free strings recomputed exactly")
