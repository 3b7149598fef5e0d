#include "constructions/copy/fast/integer_layer1.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace tverify::copy::fast {

namespace {

BigInt lcm_of_denominators(const Matrix<copy::Surd>& m, BigInt acc = 1) {
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j) {
      const BigInt den = denominator(m(i, j).rational_part());
      acc = acc / boost::multiprecision::gcd(acc, den) * den;
    }
  return acc;
}

// The radicand of an irrational entry of m, or nullopt when every entry is rational.
std::optional<unsigned long> irrational_radicand(const Matrix<copy::Surd>& m) {
  for (std::size_t i = 0; i < m.rows(); ++i)
    for (std::size_t j = 0; j < m.cols(); ++j)
      if (!m(i, j).is_rational()) return m(i, j).radicand();
  return std::nullopt;
}

// A scaled weight as an integer, or nullopt when it exceeds 2^40 in absolute value.
std::optional<std::int64_t> to_int64(const Exact& x) {
  if (denominator(x) != 1) throw std::logic_error("integer layer 1: a scaled weight is not an integer");
  const BigInt v = numerator(x);
  if (boost::multiprecision::abs(v) > BigInt(std::int64_t{1} << 40)) return std::nullopt;
  return v.convert_to<std::int64_t>();
}

}  // namespace

std::optional<std::string> IntegerLayer1::unsupported_reason(const copy::CopyTransformer& t) {
  // The Lemma C.2 codes are +-1/sqrt(r): rational exactly when r is a square (QuadraticSurd makes them rational).
  if (const auto r = irrational_radicand(t.embedding()))
    return fmt::format(
        "the embedding has irrational entries (the Lemma C.2 codes are +-1/sqrt({}) here; the fast "
        "path computes in integers)",
        *r);
  const auto& mlp = t.layer1_mlp();
  if (irrational_radicand(mlp.inner) || irrational_radicand(mlp.outer)) return "the layer-1 MLP has irrational weights";
  for (const auto& b : mlp.inner_bias)
    if (!b.is_rational()) return "the layer-1 MLP has an irrational bias";
  if (!mlp.outer_bias.empty()) return "the layer-1 MLP has an outer bias (not built by the construction)";
  return std::nullopt;
}

Refusal IntegerLayer1::refusal(const copy::CopyTransformer& t) {
  if (const auto why = unsupported_reason(t)) return "fast path: " + *why;
  return IntegerLayer1(t, ScaledWeightsOnly{}).scaling_refusal();
}

IntegerLayer1::IntegerLayer1(const copy::CopyTransformer& t) : IntegerLayer1(t, ScaledWeightsOnly{}) {
  // Callers check refusal() first: running a refused configuration is a bug, not bad input.
  if (const Refusal why = scaling_refusal())
    throw std::logic_error("IntegerLayer1 built for a refused configuration: " + *why);
  build_token_tables();
}

IntegerLayer1::IntegerLayer1(const copy::CopyTransformer& t, ScaledWeightsOnly) {
  if (const auto why = unsupported_reason(t)) throw std::logic_error("IntegerLayer1: " + *why);
  const auto scaled = [this](const Exact& x) {
    const auto v = to_int64(x);
    if (!v && !weight_refusal_) weight_refusal_ = "fast path: a scaled layer-1 weight exceeds 2^40";
    return v.value_or(0);
  };
  n_ = t.config().n;
  dim_ = static_cast<std::size_t>(t.dim());
  BigInt window_scale = 1;  // lcm(1..n+1), exactly: it passes 2^63 from n = 42 on
  for (int k = 1; k <= n_ + 1; ++k)
    window_scale = window_scale / boost::multiprecision::gcd(window_scale, BigInt(k)) * k;
  if (window_scale > BigInt(std::int64_t{1} << 40)) {
    weight_refusal_ = "fast path: the window scale lcm(1..n+1) exceeds 2^40";
    return;
  }
  window_scale_ = window_scale.convert_to<std::int64_t>();
  const auto& psi = t.embedding();
  const BigInt p_den = lcm_of_denominators(psi);
  for (std::size_t x = 0; x < psi.rows(); ++x) {
    psi_.emplace_back();
    for (std::size_t c = 0; c < psi.cols(); ++c) psi_.back().push_back(scaled(psi(x, c).rational_part() * p_den));
  }
  if (weight_refusal_) return;
  const auto& mlp = t.layer1_mlp();
  BigInt in_den = lcm_of_denominators(mlp.inner);
  for (const auto& b : mlp.inner_bias) {
    const BigInt den = denominator(b.rational_part());
    in_den = in_den / boost::multiprecision::gcd(in_den, den) * den;
  }
  const BigInt out_den = lcm_of_denominators(mlp.outer);
  const Exact input_scale = Exact(BigInt(window_scale_) * p_den);  // u * M P is integral
  for (std::size_t h = 0; h < mlp.inner.rows(); ++h) {
    SparseRow row;
    for (std::size_t c = 0; c < mlp.inner.cols(); ++c)
      if (!is_zero(mlp.inner(h, c)))
        row.entries.emplace_back(static_cast<std::uint32_t>(c), scaled(mlp.inner(h, c).rational_part() * in_den));
    if (!mlp.inner_bias.empty()) row.bias = scaled(mlp.inner_bias[h].rational_part() * in_den * input_scale);
    inner_.push_back(std::move(row));
  }
  if (weight_refusal_) return;
  for (std::size_t o = 0; o < mlp.outer.rows(); ++o) {
    SparseRow row;
    for (std::size_t h = 0; h < mlp.outer.cols(); ++h)
      if (!is_zero(mlp.outer(o, h)))
        row.entries.emplace_back(static_cast<std::uint32_t>(h), scaled(mlp.outer(o, h).rational_part() * out_den));
    outer_.push_back(std::move(row));
  }
  key_dim_ = (mlp.outer.rows() - dim_) / 2;
  const Exact y_scale = input_scale * Exact(in_den) * Exact(out_den);
  score_scale_ = y_scale * y_scale;
  value_scale_ = y_scale * Exact(p_den);
}

// The per-token tables of the window sums; magnitude_refusal() bounds their products and sums too (each is part of a
// hidden unit's sum).
void IntegerLayer1::build_token_tables() {
  head_token_.assign(static_cast<std::size_t>(n_) + 1,
                     std::vector<std::vector<std::int64_t>>(psi_.size(), std::vector<std::int64_t>(inner_.size(), 0)));
  for (std::size_t h = 0; h < inner_.size(); ++h)
    for (const auto& [c, w] : inner_[h].entries)
      for (std::size_t x = 0; x < psi_.size(); ++x) head_token_[c / dim_][x][h] += w * psi_[x][c % dim_];
  // A full window (p >= n): token x_{p-i} sits in the windows of the heads t = i+1..n+1, each weighing it M / t.
  offset_token_.assign(static_cast<std::size_t>(n_) + 1, std::vector<std::vector<std::int64_t>>(
                                                             psi_.size(), std::vector<std::int64_t>(inner_.size(), 0)));
  for (int i = 0; i <= n_; ++i)
    for (int t = i + 1; t <= n_ + 1; ++t)
      for (std::size_t x = 0; x < psi_.size(); ++x)
        for (std::size_t h = 0; h < inner_.size(); ++h)
          offset_token_[static_cast<std::size_t>(i)][x][h] +=
              window_scale_ / t * head_token_[static_cast<std::size_t>(t - 1)][x][h];
  offset_sparse_.resize(offset_token_.size());
  for (std::size_t i = 0; i < offset_token_.size(); ++i) {
    offset_sparse_[i].resize(psi_.size());
    for (std::size_t x = 0; x < psi_.size(); ++x)
      for (std::size_t h = 0; h < inner_.size(); ++h)
        if (const std::int64_t w = offset_token_[i][x][h])
          offset_sparse_[i][x].emplace_back(static_cast<std::uint32_t>(h), w);
  }
  outer_by_unit_.assign(inner_.size(), {});
  for (std::size_t o = 0; o < outer_.size(); ++o)
    for (const auto& [h, w] : outer_[o].entries) outer_by_unit_[h].emplace_back(static_cast<std::uint32_t>(o), w);
  bias_.clear();
  for (const auto& unit : inner_) bias_.push_back(unit.bias);
  bias_output_.assign(outer_.size(), 0);
  for (std::size_t o = 0; o < outer_.size(); ++o)
    for (const auto& [h, w] : outer_[o].entries) bias_output_[o] += w * std::max<std::int64_t>(bias_[h], 0);
}

// How large each output coordinate of layer 1 (scaled) can be over every window, following each weight's sign through
// the ReLU instead of the triangle inequality. A coordinate of u (head t's average of the last tokens' embeddings,
// scaled by M) lies between M times the smallest and the largest scaled embedding entry of its column, since an
// average stays within the range of what it averages; a hidden unit ReLU(bias + w . u) then lies in [0, H] with
// H = max(0, bias + sum_c max(w_c u_lo_c, w_c u_hi_c)); an output sum_h w_h hidden_h in
// [sum_h min(0, w_h H_h), sum_h max(0, w_h H_h)], whose larger end in absolute value is returned.
std::vector<BigInt> IntegerLayer1::output_magnitudes() const {
  std::vector<BigInt> u_lo(dim_), u_hi(dim_);  // per embedding coordinate, shared by every head
  for (std::size_t c = 0; c < dim_; ++c) {
    u_lo[c] = u_hi[c] = BigInt(psi_.front()[c]);
    for (const auto& e : psi_) u_lo[c] = std::min(u_lo[c], BigInt(e[c])), u_hi[c] = std::max(u_hi[c], BigInt(e[c]));
    u_lo[c] *= window_scale_, u_hi[c] *= window_scale_;
  }
  std::vector<BigInt> hidden_hi;
  for (const auto& row : inner_) {
    BigInt hi = row.bias;
    for (const auto& [c, w] : row.entries) hi += std::max(w * u_lo[c % dim_], w * u_hi[c % dim_]);
    hidden_hi.push_back(std::max(hi, BigInt(0)));
  }
  std::vector<BigInt> magnitude;
  for (const auto& row : outer_) {
    BigInt lo = 0, hi = 0;
    for (const auto& [h, w] : row.entries) (w > 0 ? hi : lo) += w * hidden_hi[h];
    magnitude.push_back(std::max(hi, BigInt(-lo)));
  }
  return magnitude;
}

BigInt IntegerLayer1::score_bound() const { return score_bound(output_magnitudes()); }

std::vector<BigInt> IntegerLayer1::query_magnitudes() const {
  const std::vector<BigInt> magnitude = output_magnitudes();
  return {magnitude.begin() + static_cast<std::ptrdiff_t>(dim_ + key_dim_), magnitude.end()};
}

BigInt IntegerLayer1::score_bound(const std::vector<BigInt>& magnitude) const {
  BigInt bound = 0;  // key coordinate c meets query coordinate c
  for (std::size_t c = 0; c < key_dim_; ++c) bound += magnitude[dim_ + c] * magnitude[dim_ + key_dim_ + c];
  return bound;
}

// Bounds every intermediate from the weights and refuses the model unless each fits its integer type with room to
// spare (the reason, else nullopt): the fast path never overflows silently.
//   64 bits (every partial sum of the hidden units and outputs, and the readout sums over up to 2^24 keys): the
//   triangle inequality, |bias| + sum |w| max|u|, which bounds the partial sums too.
//   32 bits (keys, queries and scores in the SIMD kernels and the window cache): output_magnitudes(); a score's
//   partial sums are at most sum_c |key_c| |query_c|.
Refusal IntegerLayer1::magnitude_refusal() const {
  BigInt psi_max = 0;
  for (const auto& e : psi_)
    for (auto v : e) psi_max = std::max(psi_max, BigInt(std::abs(v)));
  const BigInt u_max = BigInt(window_scale_) * psi_max;
  BigInt hidden_max = 0;
  std::vector<BigInt> hidden_bound;
  for (const auto& row : inner_) {
    BigInt v = boost::multiprecision::abs(BigInt(row.bias));
    for (const auto& [c, w] : row.entries) v += BigInt(std::abs(w)) * u_max;
    hidden_bound.push_back(v);
    hidden_max = std::max(hidden_max, v);
  }
  BigInt output_max = 0, value_max = 0;
  for (std::size_t o = 0; o < outer_.size(); ++o) {
    BigInt bound = 0;
    for (const auto& [h, w] : outer_[o].entries) bound += BigInt(std::abs(w)) * hidden_bound[h];
    output_max = std::max(output_max, bound);
    if (o < dim_) value_max = std::max(value_max, bound);
  }
  const BigInt readout_max = value_max * psi_max * BigInt(dim_) * (BigInt(1) << 24);
  const BigInt limit = BigInt(1) << 62;
  if (hidden_max >= limit || output_max >= limit || readout_max >= limit)
    return "fast path: the integer layer 1 could overflow 64 bits for these weights";
  const std::vector<BigInt> magnitude = output_magnitudes();
  const BigInt score_max = score_bound(magnitude), int32_limit = BigInt(1) << 31;
  const bool entries_fit = std::all_of(magnitude.begin() + static_cast<std::ptrdiff_t>(dim_), magnitude.end(),
                                       [&](const BigInt& m) { return m < int32_limit; });
  if (score_max >= int32_limit || !entries_fit)
    return "fast path: integer scores could exceed 32 bits for these weights (bound " + score_max.str() + ")";
  return std::nullopt;
}

// A full window (p >= n): W u regrouped by offset, W u = sum_i offset_token_[i][x_{p-i}] (exact), of which only the
// non-zero entries are added (offset_sparse_). A unit they do not move keeps its bias, so its part of the outputs is
// bias_output_'s; only the moved units are evaluated, and the outputs are bias_output_ plus, per moved unit h,
// outer(., h) (relu(pre_h) - relu(bias_h)). Every partial sum is at most the triangle inequality's output bound, which
// magnitude_refusal keeps below 2^62: |relu(bias)| <= |bias| and |relu(pre) - relu(bias)| <= |pre - bias| <= the
// rest of that unit's bound, sum |w| max|u|.
void IntegerLayer1::full_window_outputs(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const {
  std::vector<std::int64_t>& hidden = row.hidden;
  hidden.assign(bias_.begin(), bias_.end());
  row.is_moved.assign(bias_.size(), 0);
  row.moved.clear();
  for (std::size_t i = 0; i <= static_cast<std::size_t>(n_); ++i)
    for (const auto& [h, w] : offset_sparse_[i][static_cast<std::size_t>(sequence[p - i])]) {
      hidden[h] += w;
      if (!row.is_moved[h]) row.is_moved[h] = 1, row.moved.push_back(h);
    }
  row.output.assign(bias_output_.begin(), bias_output_.end());
  for (const std::uint32_t h : row.moved)
    if (const std::int64_t change = std::max<std::int64_t>(hidden[h], 0) - std::max<std::int64_t>(bias_[h], 0))
      for (const auto& [o, w] : outer_by_unit_[h]) row.output[o] += w * change;
}

// A window of p + 1 <= n tokens: W u = sum_t (M / count_t) sum over the last count_t tokens of W_t Psi(token), with
// W_t the columns of head t (head_token_ holds every W_t Psi(token)); then the ReLU (it commutes with the positive
// scale), and the outputs gather only the units it leaves positive.
void IntegerLayer1::short_window_outputs(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const {
  std::vector<std::int64_t>& hidden = row.hidden;
  hidden.assign(bias_.begin(), bias_.end());
  for (int t = 1; t <= n_ + 1; ++t) {
    const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(t), p + 1);
    const std::int64_t weight = window_scale_ / static_cast<std::int64_t>(count);
    for (std::size_t j = p + 1 - count; j <= p; ++j) {
      const auto& column = head_token_[static_cast<std::size_t>(t - 1)][static_cast<std::size_t>(sequence[j])];
      for (std::size_t h = 0; h < hidden.size(); ++h) hidden[h] += weight * column[h];
    }
  }
  row.output.assign(outer_.size(), 0);
  for (std::size_t h = 0; h < hidden.size(); ++h)
    if (hidden[h] > 0)
      for (const auto& [o, w] : outer_by_unit_[h]) row.output[o] += w * hidden[h];
}

void IntegerLayer1::outputs(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const {
  if (p >= static_cast<std::size_t>(n_))
    full_window_outputs(sequence, p, row);
  else
    short_window_outputs(sequence, p, row);
  row.value_dot_psi.assign(psi_.size(), 0);
  for (std::size_t c = 0; c < dim_; ++c) {
    const std::int64_t value = row.output[c];
    if (value == 0) continue;
    for (std::size_t x = 0; x < psi_.size(); ++x) row.value_dot_psi[x] += value * psi_[x][c];
  }
}

void IntegerLayer1::at(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const {
  outputs(sequence, p, row);
  row.key.assign(key_in(row), key_in(row) + key_dim_);
  row.query.assign(query_in(row), query_in(row) + key_dim_);
}

IntegerRow IntegerLayer1::at(const copy::TokenString& sequence, std::size_t p) const {
  IntegerRow row;
  at(sequence, p, row);
  return row;
}

}  // namespace tverify::copy::fast
