"""The count3 construction's claims (ENTP): the RASP programs run by this checker's own interpreter."""
import re
from fractions import Fraction
from itertools import product

import count3_programs as programs
from claims_common import (ENUMERATION_BUDGET, claim_name, confirmed, field, in_range, not_checked, refuted,
                           stated_verdict, token_list, verdict_finding)
from findings import BadInput
from rasp import Rasp

# Table 5 (Appendix C.1) as printed in the paper: the seed x and the 64-integer output.
TABLE5_OUTPUT = [52, 14, 22, 48, 28, 37, 3, 28, 14, 1, 12, 20, 38, 48, 51, 41, 0, 13, 14, 17, 12, 20, 17, 2, 10, 0, 6,
                 25, 26, 1, 28, 29, 22, 20, 19, 3, 22, 8, 4, 21, 24, 4, 39, 41, 36, 38, 40, 44, 16, 34, 7, 0, 5, 10, 1,
                 46, 5, 51, 8, 1, 32, 15, 44, 54]


class Run:
    def __init__(self, certificate):
        params = field(certificate, "params", dict, "certificate")
        self.variant = field(certificate, "variant", str, "certificate")
        if self.variant not in ("paper", "corrected"):
            raise BadInput(f"certificate.variant: {self.variant!r} is no variant of count3")
        self.mean = params.get("mean", "truncate")
        if self.mean not in ("truncate", "exact"):
            raise BadInput(f"params.mean: {self.mean!r}")
        self.distribution = params.get("distribution", "exhaustive")
        self.n = in_range(params, "n", 1, 64) if self.distribution == "exhaustive" else None
        values = params.get("values", "0:4")
        m = re.fullmatch(r"(\d+):(\d+)", values) if isinstance(values, str) else None
        if self.distribution == "exhaustive" and not m:
            raise BadInput(f"params.values: {values!r} is not lo:hi")
        self.lo, self.hi = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        if m and not 0 <= self.lo <= self.hi <= 10 ** 6:
            raise BadInput(f"params.values: {values!r} is not lo:hi with 0 <= lo <= hi <= 1000000")

    def exhaustive_size(self):
        """The number of sequences of length 1..n over lo..hi, or None for the sampled experiment distribution."""
        if self.distribution != "exhaustive":
            return None
        width = self.hi - self.lo + 1
        return sum(width ** m for m in range(1, self.n + 1))

    def domain(self):
        """Shorter first, then lexicographic (the certificate's domain order)."""
        for m in range(1, self.n + 1):
            for x in product(range(self.lo, self.hi + 1), repeat=m):
                yield list(x)


def enumerable(run):
    size = run.exhaustive_size()
    return size is not None and size <= ENUMERATION_BUDGET


def why_not_enumerated(run):
    if run.exhaustive_size() is None:
        return "sampled experiment inputs (a C++ generator); not re-drawn"
    return f"{run.exhaustive_size()} inputs; not re-enumerated"


def in_domain(x, run):
    """Exhaustive: length 1..n, values lo..hi. Experiment (Sec. 6.1): a prefix x_1..x_m, 16 <= m <= 63, of a seed of
    16 integers in [0, 63] extended by eq. (4)."""
    if run.distribution == "exhaustive":
        return len(x) <= run.n and all(run.lo <= v <= run.hi for v in x)
    return 16 <= len(x) <= 63 and all(0 <= v <= 63 for v in x[:16]) and all(
        x[m] == programs.count3(x[:m]) for m in range(16, len(x)))


def sequence_input(example, where):
    x = token_list(example["input"], where)
    if not x:
        raise BadInput(f"{where}: an empty sequence")
    return x


def counts_finding(item, claim, results, what):
    """results: (input, passed) in domain order. Compares the counts, the verdict and the counterexample inputs."""
    failing = [x for x, ok in results if not ok]
    mine = {"checked": len(results), "passed": len(results) - len(failing), "failed": len(failing), "unknown": 0,
            "counterexample inputs": failing[:len(claim["counterexamples"])]}
    stated = {"checked": claim["checked"], "passed": claim["passed"], "failed": claim["failed"],
              "unknown": claim["unknown"],
              "counterexample inputs": [e["input"] for e in claim["counterexamples"]]}
    differences = [f"{k}: certificate {stated[k]}, recomputed {v}" for k, v in mine.items() if stated[k] != v]
    verdict = "refuted" if failing else "verified"
    if stated_verdict(claim) != verdict:
        differences.append(f"verdict: certificate {stated_verdict(claim)}, recomputed {verdict}")
    found = [refuted(item, "; ".join(differences)) if differences else confirmed(item, what)]
    if claim["verdict"] in ("verified", "refuted"):  # results: the whole domain, input by input
        found.append(verdict_finding(claim, verdict, what))
    return found


# Algorithms 2 and 3 (Appendix E)

def check_alg2_alg3(claim, run):
    findings = []
    for example in claim["counterexamples"]:
        x = sequence_input(example, claim["id"])
        item = f"{claim['id']} counterexample {x}"
        answers = (programs.count3(x), programs.algorithm2(x), programs.algorithm3(x))
        findings.append(refuted(item, f"eq. (4), Algorithms 2 and 3 all give {answers[0]}") if len(set(answers)) == 1
                        else confirmed(item, f"eq. (4), Alg. 2, Alg. 3 give {answers}"))
    item = f"{claim['id']} every input"
    if not enumerable(run):
        return findings + [not_checked(item, why_not_enumerated(run))]
    results = [(x, programs.count3(x) == programs.algorithm2(x) == programs.algorithm3(x)) for x in run.domain()]
    return findings + counts_finding(item, claim, results, f"{len(results)} inputs: eq. (4) = Alg. 2 = Alg. 3")


# Algorithm 4 (Appendix F; Lemma 6.3; errata N1)

def algorithm4_answer(x, run):
    rasp = Rasp(run.mean)
    return programs.algorithm4(x, rasp, run.variant)[-1], rasp.mean_differences


def check_alg4(claim, run):
    findings = [check_alg4_example(claim, example, run) for example in claim["counterexamples"]]
    item = f"{claim['id']} every input"
    if not enumerable(run):
        return findings + [not_checked(item, why_not_enumerated(run))]
    results, mean_differences, with_large_value = [], 0, 0
    for x in run.domain():
        answer, differences = algorithm4_answer(x, run)
        mean_differences += differences
        ok = answer == programs.count3(x)
        with_large_value += not ok and max(x) >= len(x)
        results.append((x, ok))
    findings += counts_finding(item, claim, results, f"Algorithm 4 ({run.variant}) run on {len(results)} inputs")
    details = claim.get("details", {})
    mine = {"mean_differences": mean_differences, "failures_with_some_value_at_least_length": with_large_value}
    differences = [f"{k}: certificate {details.get(k)}, recomputed {v}" for k, v in mine.items()
                   if k in details and details[k] != v]
    missing = [k for k in mine if k not in details]
    findings.append(refuted(f"{claim['id']} details", "; ".join(differences)) if differences else
                    not_checked(f"{claim['id']} details", f"the certificate states no {', '.join(missing)}")
                    if missing else
                    confirmed(f"{claim['id']} details", ", ".join(f"{k} = {v}" for k, v in mine.items())))
    return findings


def check_alg4_example(claim, example, run):
    x = sequence_input(example, claim["id"])
    item = f"{claim['id']} counterexample {x}"
    if not in_domain(x, run):
        return refuted(item, "the input is outside the checked domain")
    answer, _ = algorithm4_answer(x, run)
    expected = programs.count3(x)
    if answer == expected:
        return refuted(item, f"Algorithm 4 gives Count3 = {expected}")
    if example.get("expected") != expected or example.get("got") != answer:
        return refuted(item, f"Count3 = {expected}, Algorithm 4 gives {answer}; the certificate says expected "
                             f"{example.get('expected')}, got {example.get('got')}")
    return confirmed(item, f"Algorithm 4 ({run.variant}, mean {run.mean}) gives {answer}, Count3 = {expected}")


# Table 5 (Appendix C.1)

def check_table5(claim):
    item = f"{claim['id']} the printed output"
    stated = claim.get("details", {}).get("sequence")
    if stated is not None and stated != TABLE5_OUTPUT:
        return [refuted(item, "the certificate's sequence is not the paper's Table 5")]
    failing = [m for m in range(16, 64) if TABLE5_OUTPUT[m] != programs.count3(TABLE5_OUTPUT[:m])]
    if claim["checked"] != 48 or claim["failed"] != len(failing) or claim["verdict"] != (
            "refuted" if failing else "verified"):
        return [refuted(item, f"recomputed {len(failing)} of 48 continuations wrong; certificate {claim['failed']} "
                              f"of {claim['checked']}, {claim['verdict']}")]
    return [confirmed(item, f"x_(m+1) = Count3(x_1..x_m) for m = 16..63: {48 - len(failing)}/48")]


# Algorithm 5 (Sec. 6.2, Appendix F)

def check_alg5(claim, run):
    findings = []
    for example in claim["counterexamples"]:
        x = sequence_input(example, claim["id"])
        findings.append(refuted(f"{claim['id']} counterexample {x}", "Algorithm 5 is right there") if alg5_ok(x, run)
                        else not_checked(f"{claim['id']} counterexample {x}", "fails here; got not compared"))
    item = f"{claim['id']} every input"
    if not enumerable(run):
        return findings + [not_checked(item, why_not_enumerated(run))]
    results = [(x, alg5_ok(x, run)) for x in run.domain()]
    return findings + counts_finding(item, claim, results,
                                      f"{len(results)} inputs, as printed and in one causal pass")


def alg5_ok(x, run):
    printed = programs.algorithm5(x, Rasp(run.mean))[-1] == programs.match3_prime(x)
    causal = programs.algorithm5(x, Rasp(run.mean, causal_everywhere=True))
    return printed and causal == [programs.match3_prime(x[:j + 1]) for j in range(len(x))]


# Algorithm 6 (Remark 6.4, Appendix F)

def alg6_ok(x, run):
    generated, _ = programs.algorithm6_generate(x, run.mean)
    if generated != programs.algorithm6_design(x):
        return False
    sequence = list(x) + [programs.EOS] + generated
    causal = programs.algorithm6(sequence, Rasp(run.mean, causal_everywhere=True))
    return causal[len(x):-1] == sequence[len(x) + 1:]


def check_alg6(claim, run):
    findings = []
    for example in claim["counterexamples"]:
        x = sequence_input(example, claim["id"])
        findings.append(refuted(f"{claim['id']} counterexample {x}", "Algorithm 6 works as designed there")
                        if alg6_ok(x, run) else
                        not_checked(f"{claim['id']} counterexample {x}", "fails here; got not compared"))
    item = f"{claim['id']} every input"
    if not enumerable(run):
        return findings + [not_checked(item, why_not_enumerated(run))]
    results = [(x, alg6_ok(x, run)) for x in run.domain()]
    return findings + counts_finding(item, claim, results,
                                      f"{len(results)} inputs generated with chain of thought, and in one causal pass")


# Lemma A.6 (the ReLU gadget for g)

def gadget(a, b, eps, M):
    """g(a, b) = ReLU(a - M ReLU(a - b + eps)) + ReLU(a - b)."""
    relu = lambda v: max(v, 0)
    return relu(a - M * relu(a - b + eps)) + relu(a - b)


def gadget_exact_on_domain(n, eps, M):
    """Lemma A.6's domain [2n - 1] x [n], read as integers 0 <= a <= 2n - 1, 1 <= b <= n (docs/count3.md)."""
    return all(gadget(a, b, eps, M) == programs.g_printed(a, b) for a in range(0, 2 * n) for b in range(1, n + 1))


def check_lemma_a6(claim):
    findings = []
    item = f"{claim['id']} n = 1..64 at eps = 1/2, 1/10, 9/10, M = 2n/eps"
    epsilons = (Fraction(1, 2), Fraction(1, 10), Fraction(9, 10))
    failing = [(n, eps) for n in range(1, 65) for eps in epsilons if not gadget_exact_on_domain(n, eps, 2 * n / eps)]
    if claim["checked"] != 192 or claim["failed"] != len(failing):
        findings.append(refuted(item, f"recomputed {len(failing)} failing of 192; certificate {claim['failed']} of "
                                      f"{claim['checked']}"))
    else:
        findings.append(confirmed(item, f"{192 - len(failing)}/192 exact"))
    if claim["verdict"] in ("verified", "refuted"):  # the whole grid of 192 (n, eps) re-run
        findings.append(verdict_finding(claim, "refuted" if failing else "verified",
                                        f"{len(failing)} of 192 (n, eps) fail, recomputed"))
    limits = claim.get("details", {}).get("limits", [])
    if not isinstance(limits, list) or not all(isinstance(limit, dict) for limit in limits):
        raise BadInput(f"{claim['id']}.details.limits: not a list of objects")
    for limit in limits:
        findings.append(check_a6_limit(claim, limit))
    return findings


def check_a6_limit(claim, limit):
    n = limit.get("n")
    item = f"{claim['id']} limits at n = {n}"
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise BadInput(f"{item}: n is not a positive integer")
    if n > 64:
        return not_checked(item, "n beyond the grid 1..64; not re-run")
    half = Fraction(1, 2)
    mine = {"smallest_M_at_eps_1/2": str(n / half), "lemma_M_at_eps_1/2": str(2 * n / half),
            "M_minus_1/1000_fails": not gadget_exact_on_domain(n, half, n / half - Fraction(1, 1000)),
            "eps_1_with_M_n_works": gadget_exact_on_domain(n, Fraction(1), Fraction(n)),
            "eps_1001/1000_with_M_2n/eps_fails": not gadget_exact_on_domain(
                n, Fraction(1001, 1000), 2 * n / Fraction(1001, 1000))}
    if not gadget_exact_on_domain(n, half, n / half):
        return refuted(item, f"M = n/eps = {n / half} does not work at eps = 1/2")
    differences = [f"{k}: certificate {limit.get(k)}, recomputed {v}" for k, v in mine.items() if limit.get(k) != v]
    if differences:
        return refuted(item, "; ".join(differences))
    return confirmed(item, "M = n/eps works and 1/1000 less fails; eps = 1 and eps = 1001/1000 as stated")


# Appendix A.6: the elementwise maps of Algorithm 4 (errata N2)

def algorithm4_arguments(run):
    """Per elementwise site of Algorithm 4 this checker names: every (a, b) it receives on the domain."""
    seen = {}

    def record(site, a, b):
        seen.setdefault(site, set()).add((a, b))

    for x in run.domain():
        programs.algorithm4(x, Rasp(run.mean, record=record), run.variant)
    return seen


def affine_on(pairs):
    """Whether some alpha a + beta b + gamma equals a * b on every pair: rank [a b 1] = rank [a b 1 ab], exactly."""
    rows = [[Fraction(a), Fraction(b), Fraction(1), Fraction(a) * b] for a, b in pairs]
    return rank([r[:3] for r in rows]) == rank(rows)


def rank(rows):
    rows = [list(r) for r in rows]
    rank_so_far, columns = 0, len(rows[0]) if rows else 0
    for col in range(columns):
        pivot = next((i for i in range(rank_so_far, len(rows)) if rows[i][col] != 0), None)
        if pivot is None:
            continue
        rows[rank_so_far], rows[pivot] = rows[pivot], rows[rank_so_far]
        for i in range(len(rows)):
            if i != rank_so_far and rows[i][col] != 0:
                factor = rows[i][col] / rows[rank_so_far][col]
                rows[i] = [x - factor * y for x, y in zip(rows[i], rows[rank_so_far])]
        rank_so_far += 1
    return rank_so_far


def ranges(pairs):
    return value_range([a for a, _ in pairs]), value_range([b for _, b in pairs])


def value_range(values):
    return f"[{min(values)}, {max(values)}]"


def check_rasp_mlp(claim, run):
    if not enumerable(run):
        return [not_checked(f"{claim['id']}", why_not_enumerated(run))]
    seen = algorithm4_arguments(run)
    findings = []
    for example in claim["counterexamples"]:
        findings.append(check_rasp_mlp_example(claim, example, run, seen))
    return findings


def check_rasp_mlp_example(claim, example, run, seen):
    text = example["input"]
    item = f"{claim['id']} counterexample {text}"
    m = re.fullmatch(r"(\w+) with a in (\[\S+, \S+\]), b in (\[\S+, \S+\])", example.get("detail", ""))
    if not isinstance(text, str) or not m:
        return not_checked(item, "the site is not read here")
    a_range, b_range = m.group(2), m.group(3)
    if text.startswith("seq_map(..., n, g)"):
        candidates = [s for s in ("g(n - x, n)", "g(x + last_x, n)")
                      if ranges(seen[s]) == (a_range, b_range)]
        if not candidates:
            return refuted(item, "no g site of Algorithm 4 receives these argument ranges")
        pairs = seen[candidates[0]]
        outside = [(a, b) for a, b in pairs if not (0 <= a <= 2 * run.n - 1 and 1 <= b <= run.n)]
        if not outside:
            return refuted(item, "g stays in Lemma A.6's domain there")
        return confirmed(item, f"{candidates[0]} receives (a, b) = {min(outside)} outside [2n - 1] x [n]")
    site = {"sel_width(select(k=z, q=y, pred=equals)) * n": "sel_width * n", "idxs * n": "idxs * n"}.get(text)
    if site is None:
        return not_checked(item, "the site is not read here")
    pairs = seen[site]
    if ranges(pairs) != (a_range, b_range):
        return refuted(item, f"recomputed ranges a {ranges(pairs)[0]}, b {ranges(pairs)[1]}")
    if affine_on(pairs):
        return not_checked(item, f"a * b equals an affine map on the {len(pairs)} argument pairs received at this n; "
                                 "the certificate's verdict is structural (a product of two computed values)")
    return confirmed(item, "a product of two input-dependent values, not affine on the arguments received")


def confirm(certificate, claims):
    run = Run(certificate)
    findings = []
    for claim in claims:
        cid = claim["id"]
        if cid == "count3.alg2_alg3":
            findings += check_alg2_alg3(claim, run)
        elif cid == "count3.alg4":
            findings += check_alg4(claim, run)
        elif cid == "count3.table5":
            findings += check_table5(claim)
        elif cid == "match3.alg5":
            findings += check_alg5(claim, run)
        elif cid == "count3.alg6":
            findings += check_alg6(claim, run)
        elif cid == "count3.lemma_a6":
            findings += check_lemma_a6(claim)
        elif cid == "count3.rasp_mlp":
            findings += check_rasp_mlp(claim, run)
        else:
            findings.append(not_checked(claim_name(claim), "transformers with seeded random weights or Z3 proofs; "
                                                           "not re-derived here"))
    return findings
