// count3.lemma_a6: the ReLU gadget of ENTP Appendix A.6, exactly on every point of its domain for n = 1..max_n, at
// the printed constants (several eps, M = 2n/eps), and the limits of those constants: the largest eps and the
// smallest M that still work.
#include "checkers/count3/count3_claims.hpp"
#include "constructions/count3/gadget.hpp"

#include <fmt/format.h>

namespace tverify::count3 {

ClaimResult check_lemma_a6(long long max_n) {
  ClaimResult r = result_for(count3_claim_specs().lemma_a6);
  Tally t;
  const std::vector<Exact> epsilons{Exact(1, 2), Exact(1, 10), Exact(9, 10)};
  for (long long n = 1; n <= max_n; ++n)
    for (const Exact& eps : epsilons) {
      const Exact M = Exact(2 * n) / eps;
      if (const auto bad = gadget_counterexample(n, eps, M))
        t.fail({Json({{"n", n}, {"eps", exact_to_string(eps)}, {"M", exact_to_string(M)}}),
                Json(exact_to_string(g_reference(bad->first, bad->second))),
                Json(exact_to_string(g_relu(bad->first, bad->second, eps, M))),
                fmt::format("a = {}, b = {}", bad->first, bad->second)});
      else
        t.pass();
    }
  t.fill(r);
  // Limits, exactly: M = n/eps is the smallest (checked to work, and M slightly below fails at a = b = n); eps = 1
  // works (the lemma's bound eps < 1 is not needed), and any eps > 1 fails at a = 1, b = 2 once n >= 2.
  Json limits = Json::array();
  bool limits_hold = true;
  for (long long n : {1LL, 2LL, 8LL, max_n}) {
    const Exact eps(1, 2);
    const Exact smallest = smallest_gadget_m(n, eps);
    const bool works = !gadget_counterexample(n, eps, smallest);
    const bool below_fails = gadget_counterexample(n, eps, smallest - Exact(1, 1000)).has_value();
    const bool eps_one_works = !gadget_counterexample(n, Exact(1), Exact(n));
    const bool eps_above_fails =
        gadget_counterexample(n, Exact(1001, 1000), Exact(2 * n) * Exact(1000, 1001)).has_value();
    limits_hold = limits_hold && works && below_fails && smallest == Exact(n) / eps && eps_one_works &&
                  (n == 1 || eps_above_fails);
    limits.push_back({{"n", n},
                      {"smallest_M_at_eps_1/2", exact_to_string(smallest)},
                      {"lemma_M_at_eps_1/2", exact_to_string(Exact(2 * n) / eps)},
                      {"M_minus_1/1000_fails", below_fails},
                      {"eps_1_with_M_n_works", eps_one_works},
                      {"eps_1001/1000_with_M_2n/eps_fails", eps_above_fails}});
  }
  r.details["limits"] = limits;
  r.details["limits_summary"] =
      limits_hold ? "largest eps = 1 (n >= 2; for n = 1 every eps > 0 works), smallest M = n/eps: the lemma's "
                    "0 < eps < 1, M >= 2n/eps are sufficient with a factor 2 to spare in M"
                  : "the computed limits differ from eps_max = 1, M_min = n/eps (see limits)";
  r.summary = fmt::format("{}/{} (n, eps) exact; eps_max = 1, M_min = n/eps", t.passed, t.checked);
  return r;
}

}  // namespace tverify::count3
