// Writes one copy-construction case for the peer implementations in bench/peers/, and times the fast exact path on it:
// `export_copy_case D n L OUT.json [threads]`. The JSON holds the construction's literal weights (the embedding Psi,
// layer 1's MLP, the head windows, tau) as doubles and the repeat-free string x; the peers rebuild the same
// construction from them. Prints the fast path's time for the full copy (every decision certified).
#include "constructions/copy/strings.hpp"
#include "constructions/copy/fast/copy_fast.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iostream>

namespace {

using namespace tverify;

nlohmann::json matrix_json(const Matrix<copy::Surd>& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t j = 0; j < m.cols(); ++j) row.push_back(m(i, j).to_interval<64>().midpoint_double());
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: export_copy_case D n L OUT.json [threads]\n";
    return 2;
  }
  const int alphabet = std::stoi(argv[1]), n = std::stoi(argv[2]), length = std::stoi(argv[3]);
  const unsigned threads = argc > 5 ? static_cast<unsigned>(std::stoi(argv[5])) : 1;
  const copy::CopyTransformer t(copy::CopyTransformerConfig{
      alphabet, n, length, copy::EmbeddingKind::OneHot, copy::TransformerVariant::Corrected, {}});
  if (const Refusal why = copy::fast::FastCopy::refusal(t)) {
    std::cerr << "export_copy_case: D = " << alphabet << ", n = " << n << ": " << *why << "\n";
    return 2;
  }
  const copy::TokenString x = copy::repeat_free_string(alphabet, n, static_cast<std::size_t>(length), 1);
  nlohmann::json out;
  out["D"] = alphabet;
  out["n"] = n;
  out["L"] = length;
  out["tau"] = t.tau_interval<64>().midpoint_double();
  out["psi"] = matrix_json(t.embedding());
  out["inner"] = matrix_json(t.layer1_mlp().inner);
  nlohmann::json bias = nlohmann::json::array();
  for (const auto& b : t.layer1_mlp().inner_bias) bias.push_back(b.to_interval<64>().midpoint_double());
  out["inner_bias"] = bias;
  out["outer"] = matrix_json(t.layer1_mlp().outer);
  out["x"] = x;
  std::ofstream(argv[4]) << out.dump();

  const copy::fast::FastCopy fast(t);
  const auto start = std::chrono::steady_clock::now();
  const copy::fast::FastCopyRun r = fast.copy_string(x, threads, false);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print(
      "tverify fast path: D={} n={} L={} threads={}: {:.4f} s, copied={}, steps by bound {} (by the key index "
      "{}) / levels {} / exact {}\n",
      alphabet, n, length, threads, seconds, r.run.copied, r.stats.by_bound, r.stats.by_index, r.stats.by_levels,
      r.stats.by_exact);
  return r.run.copied ? 0 : 1;
}
