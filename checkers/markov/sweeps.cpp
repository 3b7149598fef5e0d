#include "checkers/markov/sweeps.hpp"

#include "checkers/cluster.hpp"
#include "checkers/sweep_output.hpp"
#include "constructions/markov/hessian_closed_form.hpp"
#include "core/definiteness.hpp"

#include <fmt/format.h>

namespace tverify::markov {

namespace {

int grid_size(const std::string& resolution) {
  const std::string allowed = "1/G with G an integer in [2, 200] (the grid step of p and q)";
  if (resolution.empty()) return 20;
  try {
    const Exact step = parse_exact(resolution);
    if (step > 0 && numerator(step) == 1 && denominator(step) >= 2 && denominator(step) <= 200)
      return static_cast<int>(denominator(step));
  } catch (const std::invalid_argument&) {}
  throw UsageError("--resolution must be " + allowed + " (got '" + resolution + "')");
}

// eq. (12)'s H_alpha at theta_pi for this chain, by exact LDL^T: 1 positive definite, 0 singular, -1 neither.
int h_alpha_code(const MarkovChain& chain, const Point& point) {
  switch (classify_definiteness(closed_form_h_alpha(chain, point)).verdict) {
    case Definiteness::PositiveDefinite: return 1;
    case Definiteness::PositiveSemidefiniteSingular: return 0;
    default: return -1;
  }
}

// The table row of the grid point p = i/g, q = j/g: its exact definiteness code, whether the certified gap encloses
// the mutual information, and the cells.
Json grid_row(int i, int j, int g, const Shapes& tied, const MarkovSetup& setup) {
  const MarkovChain chain(Exact(i, g), Exact(j, g));
  const Point pi = make_point(PointKind::Pi, chain, tied, setup.arbitrary).point;
  const Point star = make_point(PointKind::Star, chain, tied, setup.arbitrary, setup.variant).point;
  const int code = h_alpha_code(chain, pi);
  const Real gap = loss_without_attention(chain, pi) - loss_without_attention(chain, star);
  const Real mi = chain.mutual_information();
  const bool agrees = !disjoint(gap, mi);
  const std::vector<std::string> cells{fmt::format("{:.6f}", static_cast<double>(i) / g),
                                       fmt::format("{:.6f}", static_cast<double>(j) / g),
                                       fmt::format("{}/{}", i, g),
                                       fmt::format("{}/{}", j, g),
                                       std::to_string(code),
                                       fmt::format("{:.9g}", gap.midpoint_double()),
                                       fmt::format("{:.9g}", mi.midpoint_double()),
                                       agrees ? "1" : "0"};
  return {{"code", code}, {"agrees", agrees}, {"cells", cells}};
}

// A heat map over the (p, q) grid coloured by one column of the table.
PlotSpec heat_map(const std::string& title, const std::string& column, const std::string& label) {
  PlotSpec plot{title, "$p$", "$q$"};
  plot.x_column = "p";
  plot.y_column = "q";
  plot.heat_column = column;
  plot.heat_label = label;
  return plot;
}

}  // namespace

Json sweep_pq(const MarkovSetup& setup, const std::string& resolution, const SweepOutput& output) {
  const int g = grid_size(resolution);
  require_gnuplot();
  prepare_output_dir(output.dir);
  Shapes tied = setup.shapes;
  tied.tied = true;
  SweepTable table{{"p", "q", "p_exact", "q_exact", "h_alpha_definite", "gap_pi_minus_star", "mutual_information",
                    "gap_encloses_mi"},
                   {}};
  // The points are independent: under MPI they are shared out among the ranks (map_items), in row-major order.
  const auto side = static_cast<std::uint64_t>(g - 1);
  const std::vector<std::string> points = map_items(side * side, [&](std::uint64_t k) {
    return grid_row(static_cast<int>(k / side) + 1, static_cast<int>(k % side) + 1, g, tied, setup).dump();
  });
  int positive = 0, mismatches = 0;
  for (const std::string& text : points) {
    const Json point = Json::parse(text);
    positive += point["code"].get<int>() == 1;
    mismatches += !point["agrees"].get<bool>();
    table.rows.push_back(point["cells"].get<std::vector<std::string>>());
  }
  Json summary{{"construction", "markov"},
               {"vary", "pq"},
               {"grid", fmt::format("p, q = k/{} for k = 1..{}", g, g - 1)},
               {"shapes", {{"d", tied.d}, {"N", tied.N}}},
               {"h_alpha", "eq. (12) at theta_pi, exact LDL^T: 1 positive definite, 0 singular, -1 not semidefinite"},
               {"h_alpha_positive_definite_points", positive},
               {"gap", "L(theta_pi) - L(theta_star) by the large-N evaluator (W_O = 0), certified; midpoints plotted"},
               {"gap_disagrees_with_mutual_information", mismatches},
               {"arithmetic", "exact (definiteness); interval (losses, entropies)"}};
  PlotSpec definiteness = heat_map("$H_\\alpha$ of eq. (12) at $\\theta_\\pi$, decided by exact $LDL^T$",
                                   "h_alpha_definite", "definiteness");
  definiteness.heat_levels = {{-1, "not positive semidefinite"}, {0, "singular"}, {1, "positive definite"}};
  write_sweep(output, "markov-h-alpha", table, definiteness, summary);
  write_sweep(output, "markov-gap", table,
              heat_map("Optimality gap $L(\\theta_\\pi) - L(\\theta_\\star) = I(x_n; x_{n+1})$", "gap_pi_minus_star",
                       "gap (nats, certified; midpoints drawn)"),
              summary);
  return summary;
}

}  // namespace tverify::markov
