#include "constructions/copy/finite_precision.hpp"

#include <stdexcept>
#include <string>

namespace tverify::copy {
namespace {

RuntimeMpfr rounded(const Surd& s) {
  RuntimeMpfr v(s.rational_part());
  if (!s.is_rational()) v = v + RuntimeMpfr(s.surd_coefficient()) * sqrt(RuntimeMpfr(Exact(BigInt(s.radicand()))));
  return v;
}

std::vector<std::vector<RuntimeMpfr>> rounded(const Matrix<Surd>& m) {
  std::vector<std::vector<RuntimeMpfr>> out(m.rows());
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) out[r].push_back(rounded(m(r, c)));
  return out;
}

RuntimeMpfr relu(const RuntimeMpfr& x) { return x.sign() > 0 ? x : RuntimeMpfr(0); }

}  // namespace

FinitePrecisionCopy::FinitePrecisionCopy(const CopyTransformer& exact, long bits) : exact_(exact), bits_(bits) {
  if (bits < 1)
    throw std::logic_error("FinitePrecisionCopy: bits must be at least 1 (got " + std::to_string(bits) + ")");
  const RuntimeMpfr::Precision precision(bits);
  const auto& mlp = exact_.layer1_mlp();
  weights_.psi = rounded(exact_.embedding());
  weights_.inner = rounded(mlp.inner);
  weights_.outer = rounded(mlp.outer);
  weights_.inner_bias.clear();
  for (const auto& b : mlp.inner_bias) weights_.inner_bias.push_back(rounded(b));
  const auto& c = exact_.config();
  weights_.tau =
      c.tau ? F(*c.tau)
            : F(exact_.dim()) *
                  log(F(Exact(BigInt(8) *
                              big_pow(static_cast<unsigned long>(c.alphabet), static_cast<unsigned long>(c.n)) *
                              exact_.dim())));
}

const FinitePrecisionCopy::Block& FinitePrecisionCopy::layer1(const TokenString& window) const {
  const Weights& w = weights();
  if (auto it = memo_.find(window); it != memo_.end()) return it->second;
  const std::size_t d = static_cast<std::size_t>(exact_.dim());
  std::vector<F> u;  // [h_1 | .. | h_{n+1}] at the window's last position
  for (int t = 1; t <= exact_.config().n + 1; ++t) {
    const std::size_t span = std::min(exact_.head_window(t), window.size());
    for (std::size_t k = 0; k < d; ++k) {
      F sum(0);
      for (std::size_t q = window.size() - span; q < window.size(); ++q)
        sum += w.psi[static_cast<std::size_t>(window[q])][k];
      u.push_back(sum / F(static_cast<long>(span)));
    }
  }
  std::vector<F> hidden;
  for (std::size_t m = 0; m < w.inner.size(); ++m) {
    F pre = w.inner_bias[m];
    for (std::size_t c = 0; c < u.size(); ++c)
      if (w.inner[m][c].sign() != 0) pre += w.inner[m][c] * u[c];
    hidden.push_back(relu(pre));
  }
  Block out;
  for (const auto& row : w.outer) {
    F sum(0);
    for (std::size_t m = 0; m < row.size(); ++m)
      if (row[m].sign() != 0) sum += row[m] * hidden[m];
    out.push_back(sum);
  }
  return memo_.emplace(window, std::move(out)).first->second;
}

std::size_t FinitePrecisionCopy::key_width() const {
  return (weights().outer.size() - static_cast<std::size_t>(exact_.dim())) / 2;
}

RuntimeMpfr FinitePrecisionCopy::value_dot_psi(const Block& block, std::size_t token) const {
  const auto& psi_row = weights().psi[token];
  F v(0);
  for (std::size_t c = 0; c < psi_row.size(); ++c) v += block[c] * psi_row[c];
  return v;
}

Token FinitePrecisionCopy::next_token(std::span<const Block* const> blocks) const {
  const RuntimeMpfr::Precision precision(bits_);
  const Weights& w = weights();
  const std::size_t d = static_cast<std::size_t>(exact_.dim()), half = key_width();
  const Block& query = *blocks.back();
  std::vector<F> logits;
  for (const auto* key : blocks) {
    F z(0);
    for (std::size_t c = 0; c < half; ++c) z += (*key)[d + c] * query[d + half + c];
    logits.push_back(w.tau * z);
  }
  F top = logits.front();
  for (const auto& l : logits)
    if (l > top) top = l;
  F total(0);
  std::vector<F> weight;
  for (const auto& l : logits) {
    weight.push_back(exp(l - top));
    total += weight.back();
  }
  Token best = 0;
  F best_score(0);
  for (std::size_t token = 0; token < w.psi.size(); ++token) {
    F r(0);
    for (std::size_t j = 0; j < blocks.size(); ++j) r += weight[j] / total * value_dot_psi(*blocks[j], token);
    if (token == 0 || r > best_score) {
      best = static_cast<Token>(token);
      best_score = r;
    }
  }
  return best;
}

std::optional<std::size_t> FinitePrecisionCopy::first_wrong_step(const TokenString& x) const {
  const RuntimeMpfr::Precision precision(bits_);
  const std::size_t span = static_cast<std::size_t>(exact_.config().n) + 1;
  TokenString sequence = exact_.copy_sequence(x, 0);
  std::vector<const Block*> blocks;
  auto extend = [&]() {  // layer 1 at the sequence's last position
    const std::size_t p = sequence.size() - 1, first = p + 1 >= span ? p + 1 - span : 0;
    blocks.push_back(&layer1(TokenString(sequence.begin() + static_cast<long>(first), sequence.end())));
  };
  for (std::size_t p = 1; p <= sequence.size(); ++p) {
    const TokenString prefix(sequence.begin(), sequence.begin() + static_cast<long>(p));
    const std::size_t first = p >= span ? p - span : 0;
    blocks.push_back(&layer1(TokenString(prefix.begin() + static_cast<long>(first), prefix.end())));
  }
  for (std::size_t step = 0; step < x.size(); ++step) {
    const Token best = next_token(blocks);
    if (best != x[step]) return step;
    sequence.push_back(best);
    extend();
  }
  return std::nullopt;
}

}  // namespace tverify::copy
