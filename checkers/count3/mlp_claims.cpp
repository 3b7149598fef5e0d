// count3.rasp_mlp (ENTP Appendix A.6): Lemma 6.3's argument compiles Algorithm 4 into a transformer whose MLPs are
// O(1) because every elementwise map is either linear or the gadget g. tverify runs Algorithm 4 with the recorder on,
// collects every argument each elementwise map receives, and checks that claim site by site.
#include "checkers/count3/count3_claims.hpp"

#include <fmt/format.h>

#include <map>

namespace tverify::count3 {

namespace {

struct SiteSummary {
  std::string kind;
  bool linear = false;
  rasp::Value min_a, max_a, min_b, max_b;
  std::uint64_t arguments = 0, outside = 0;
  std::optional<std::pair<rasp::Value, rasp::Value>> first_outside;
  std::optional<Sequence> first_outside_input;
};

// Exact values travel as text (checkers/wire.hpp).
Json exact_pair(const std::optional<std::pair<rasp::Value, rasp::Value>>& p) {
  return p ? Json{exact_to_string(p->first), exact_to_string(p->second)} : Json();
}
std::optional<std::pair<rasp::Value, rasp::Value>> exact_pair_from(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return std::pair{parse_exact(j.at(0).get<std::string>()), parse_exact(j.at(1).get<std::string>())};
}

void to_json(Json& j, const SiteSummary& s) {
  put_fields(j, s.kind, s.linear, exact_pair(std::pair{s.min_a, s.max_a}), exact_pair(std::pair{s.min_b, s.max_b}),
             s.arguments, s.outside, exact_pair(s.first_outside),
             s.first_outside_input ? Json(*s.first_outside_input) : Json());
}
void from_json(const Json& j, SiteSummary& s) {
  Json a, b, first, first_input;
  get_fields(j, s.kind, s.linear, a, b, s.arguments, s.outside, first, first_input);
  s.first_outside_input.reset();
  if (!first_input.is_null()) s.first_outside_input = first_input.get<Sequence>();
  std::tie(s.min_a, s.max_a) = *exact_pair_from(a);
  std::tie(s.min_b, s.max_b) = *exact_pair_from(b);
  s.first_outside = exact_pair_from(first);
}

// Lemma A.6's domain for g at maximal length n: integers 0 <= a <= 2n - 1, 1 <= b <= n.
bool in_gadget_domain(const rasp::Value& a, const rasp::Value& b, long long n) {
  return denominator(a) == 1 && denominator(b) == 1 && a >= 0 && a <= 2 * n - 1 && b >= 1 && b <= n;
}

void absorb(SiteSummary& s, const rasp::ElementwiseSite& site, long long n, const Sequence& input) {
  for (const auto& [a, b] : site.arguments) {
    if (s.arguments == 0) s.min_a = s.max_a = a, s.min_b = s.max_b = b;
    s.min_a = std::min(s.min_a, a), s.max_a = std::max(s.max_a, a);
    s.min_b = std::min(s.min_b, b), s.max_b = std::max(s.max_b, b);
    ++s.arguments;
    if (site.kind == "seq_map" && !in_gadget_domain(a, b, n)) {
      ++s.outside;
      if (!s.first_outside) s.first_outside = std::make_pair(a, b), s.first_outside_input = input;
    }
  }
}

std::string covered_by_lemma(const SiteSummary& s) {
  if (s.linear) return "linear";
  if (s.kind == "seq_map") return s.outside == 0 ? "g, inside Lemma A.6's domain" : "g, outside Lemma A.6's domain";
  return "nonlinear, not covered by Lemma A.6";
}

// The printed expression behind a site name of Algorithm 4 ("op #k", or the seq_map lines y and z).
std::string expression_at(const std::string& site) {
  const auto& ops = alg4_operator_expressions();
  if (site.rfind("op #", 0) == 0) {
    const std::size_t k = std::stoul(site.substr(4));
    return k >= 1 && k <= ops.size() ? ops[k - 1] : site;
  }
  return "seq_map(..., n, g) at " + site;
}

bool covered(const SiteSummary& s) { return s.linear || (s.kind == "seq_map" && s.outside == 0); }

// The sites of one range of inputs, in the order first met, each summarised over the range.
struct SiteTable {
  std::map<std::string, SiteSummary> sites;
  std::vector<std::string> order;
};

void to_json(Json& j, const SiteTable& t) { put_fields(j, t.sites, t.order); }
void from_json(const Json& j, SiteTable& t) { get_fields(j, t.sites, t.order); }

// Joins the summaries of the next range: ranges are merged in index order, so `into`'s first site order and first
// witness outside the domain come from the smaller inputs, whatever the thread count.
void merge_sites(SiteTable& into, SiteTable&& from) {
  for (const auto& name : from.order) {
    SiteSummary& s = from.sites.at(name);
    auto [it, fresh] = into.sites.try_emplace(name, s);
    if (fresh) {
      into.order.push_back(name);
      continue;
    }
    SiteSummary& t = it->second;
    if (s.arguments == 0) continue;
    if (t.arguments == 0) t.min_a = s.min_a, t.max_a = s.max_a, t.min_b = s.min_b, t.max_b = s.max_b;
    t.min_a = std::min(t.min_a, s.min_a), t.max_a = std::max(t.max_a, s.max_a);
    t.min_b = std::min(t.min_b, s.min_b), t.max_b = std::max(t.max_b, s.max_b);
    t.arguments += s.arguments, t.outside += s.outside;
    if (!t.first_outside) t.first_outside = s.first_outside, t.first_outside_input = s.first_outside_input;
  }
}

}  // namespace

ClaimResult check_rasp_mlp(const InputSource& inputs, const ProgramSemantics& semantics, const RunOptions& options) {
  ClaimResult r = result_for(count3_claim_specs().rasp_mlp);
  const long long n = inputs.max_length();
  const SiteTable table_of_sites = enumerate_indices<SiteTable>(
      inputs.size(), options, r.id,
      [&](std::uint64_t i, SiteTable& acc) {
        const Sequence x = inputs.at(i);
        rasp::Run run({.mean = semantics.mean, .record = true});
        alg4_count_triplets(rasp::sequence(x), semantics.alg4);
        for (const auto& site : run.sites()) {
          auto [it, fresh] = acc.sites.try_emplace(site.site);
          if (fresh) {
            it->second.kind = site.kind, it->second.linear = site.linear;
            acc.order.push_back(site.site);
          }
          absorb(it->second, site, n, x);
        }
      },
      merge_sites);
  const auto& sites = table_of_sites.sites;
  const auto& order = table_of_sites.order;
  std::uint64_t uncovered = 0;
  Json table = Json::array();
  for (const auto& name : order) {
    const SiteSummary& s = sites.at(name);
    Json row{{"site", name},
             {"expression", expression_at(name)},
             {"kind", s.kind},
             {"a_range", {exact_to_string(s.min_a), exact_to_string(s.max_a)}},
             {"b_range", {exact_to_string(s.min_b), exact_to_string(s.max_b)}},
             {"arguments", s.arguments},
             {"verdict", covered_by_lemma(s)}};
    if (s.first_outside)
      row["first_outside"] = {{"a", exact_to_string(s.first_outside->first)},
                              {"b", exact_to_string(s.first_outside->second)},
                              {"input", *s.first_outside_input}};
    table.push_back(row);
    if (covered(s)) continue;
    ++uncovered;
    if (r.counterexamples.size() < options.max_counterexamples)
      r.counterexamples.push_back(
          {Json(expression_at(name)), Json("linear, or g on 0 <= a <= 2n-1, 1 <= b <= n"), Json(covered_by_lemma(s)),
           fmt::format("{} with a in [{}, {}], b in [{}, {}]", s.kind, exact_to_string(s.min_a),
                       exact_to_string(s.max_a), exact_to_string(s.min_b), exact_to_string(s.max_b))});
  }
  r.checked = order.size();
  r.failed = uncovered;
  r.passed = r.checked - uncovered;
  r.set_verdict_from_counts();
  r.summary = fmt::format("{}/{} elementwise maps covered (n = {})", r.passed, r.checked, n);
  r.details["sites"] = table;
  r.details["inputs"] = inputs.describe();
  r.details["note"] =
      "arguments: argument pairs received (distinct within each input); a product of two "
      "input-dependent sequences is bilinear, not linear";
  return r;
}

}  // namespace tverify::count3
