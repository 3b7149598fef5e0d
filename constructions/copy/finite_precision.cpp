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

}  // namespace

FinitePrecisionCopy::FinitePrecisionCopy(const CopyTransformer& exact, long bits) : exact_(exact), bits_(bits) {
  if (bits < 1)
    throw std::logic_error("FinitePrecisionCopy: bits must be at least 1 (got " + std::to_string(bits) + ")");
  const RuntimeMpfr::Precision precision(bits);
  weights_.layer1 = RoundedLayer1<F>::of(
      exact_, [](const Surd& s) { return rounded(s); }, F(0));
  const auto& c = exact_.config();
  weights_.tau =
      c.tau ? F(*c.tau)
            : F(exact_.dim()) *
                  log(F(Exact(BigInt(8) *
                              big_pow(static_cast<unsigned long>(c.alphabet), static_cast<unsigned long>(c.n)) *
                              exact_.dim())));
}

const FinitePrecisionCopy::Block& FinitePrecisionCopy::layer1(const TokenString& window) const {
  if (auto it = memo_.find(window); it != memo_.end()) return it->second;
  return memo_.emplace(window, weights_.layer1.block(MpfrOps{}, window)).first->second;
}

std::size_t FinitePrecisionCopy::key_width() const {
  return (weights_.layer1.outer.size() - static_cast<std::size_t>(exact_.dim())) / 2;
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
  for (std::size_t token = 0; token < w.layer1.psi.size(); ++token) {
    F r(0);
    for (std::size_t j = 0; j < blocks.size(); ++j)
      r += weight[j] / total * w.layer1.value_dot_psi(MpfrOps{}, *blocks[j], token);
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
