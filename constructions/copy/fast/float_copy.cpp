#include "constructions/copy/fast/float_copy.hpp"

#include "constructions/copy/rounded_layer1.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

namespace tverify::copy::fast {

namespace {

// Round a float to nearest-even with `bits` significand bits (bfloat16: 8), keeping float's exponent range.
float round_significand(float x, int bits) {
  if (!std::isfinite(x) || x == 0) return x;
  std::uint32_t u = std::bit_cast<std::uint32_t>(x);
  const int drop = 24 - bits;
  const std::uint32_t half = 1u << (drop - 1), mask = (1u << drop) - 1, lsb = (u >> drop) & 1u;
  u += half - 1 + lsb;  // round half to even
  u &= ~mask;
  return std::bit_cast<float>(u);
}

// float16: 11-bit significand, normal exponents -14..15, subnormals down to 2^-24, overflow to infinity.
float round_half(float x) {
  if (!std::isfinite(x) || x == 0) return x;
  const float a = std::fabs(x);
  if (a >= 65520.0f) return std::copysign(std::numeric_limits<float>::infinity(), x);  // rounds past 65504
  if (a < std::ldexp(1.0f, -14)) {                                                     // subnormal: a multiple of 2^-24
    const float q = std::nearbyint(a * std::ldexp(1.0f, 24));
    return std::copysign(q * std::ldexp(1.0f, -24), x);
  }
  return round_significand(x, 11);
}

template <FloatFormat F>
struct Arith {
  using T = std::conditional_t<F == FloatFormat::Float64, double, float>;
  T round(double x) const {
    if constexpr (F == FloatFormat::Float64)
      return x;
    else if constexpr (F == FloatFormat::Float32)
      return static_cast<float>(x);
    else if constexpr (F == FloatFormat::BFloat16)
      return round_significand(static_cast<float>(x), 8);
    else
      return round_half(static_cast<float>(x));
  }
  T add(T a, T b) const { return round(static_cast<double>(a) + b); }
  T mul(T a, T b) const { return round(static_cast<double>(a) * b); }
  T div(T a, T b) const { return round(static_cast<double>(a) / b); }
  T exp(T a) const { return round(std::exp(static_cast<double>(a))); }
  T zero() const { return T(0); }
};

template <class A>
FloatRun copies_impl(const A& ar, const copy::CopyTransformer& t, const copy::TokenString& x) {
  FloatRun run;
  using T = typename A::T;
  auto rounded = [&](const copy::Surd& s) { return ar.round(s.template to_interval<64>().midpoint_double()); };
  const auto layer1 = copy::RoundedLayer1<T>::of(t, rounded, T(0));
  const std::size_t d = layer1.dim, tokens = layer1.psi.size(), key_dim = (layer1.outer.size() - d) / 2;
  const std::size_t span = static_cast<std::size_t>(t.config().n) + 1;
  const T tau = ar.round(t.tau_interval<64>().midpoint_double());

  const copy::TokenString seq = t.copy_sequence(x, x.size());
  const std::size_t len = seq.size();
  std::vector<std::vector<T>> keys(len), queries(len), values(len);
  for (std::size_t p = 0; p < len; ++p) {
    const std::size_t first = p + 1 >= span ? p + 1 - span : 0;
    const std::vector<T> y =
        layer1.block(ar, std::span<const copy::Token>(seq.begin() + static_cast<long>(first), p + 1 - first));
    keys[p].assign(y.begin() + static_cast<long>(d), y.begin() + static_cast<long>(d + key_dim));
    queries[p].assign(y.begin() + static_cast<long>(d + key_dim), y.end());
    values[p].clear();
    for (std::size_t a = 0; a < tokens; ++a) values[p].push_back(layer1.value_dot_psi(ar, y, a));
  }
  const std::size_t prompt = x.size() + 2;
  std::vector<T> scores;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const std::size_t p = prompt - 1 + k;
    scores.resize(p + 1);  // every entry is written below; resize grows geometrically (assign reallocates per step)
    T top = -std::numeric_limits<T>::infinity();
    for (std::size_t j = 0; j <= p; ++j) {
      T s = 0;
      for (std::size_t c = 0; c < key_dim; ++c)
        if (queries[p][c] != 0) s = ar.add(s, ar.mul(keys[j][c], queries[p][c]));
      scores[j] = ar.mul(tau, s);
      top = std::max(top, scores[j]);
    }
    T total = 0;
    std::vector<T> readout(tokens, T(0));
    std::size_t nonzero_lower = 0;
    for (std::size_t j = 0; j <= p; ++j) {
      const T e = ar.exp(ar.add(scores[j], -top));
      total = ar.add(total, e);
      nonzero_lower += e != 0 && scores[j] != top;
      if (e != 0)
        for (std::size_t a = 0; a < tokens; ++a) readout[a] = ar.add(readout[a], ar.mul(e, values[j][a]));
    }
    ++run.steps;
    run.saturated_steps += nonzero_lower == 0;
    run.nonfinite =
        run.nonfinite || !std::isfinite(static_cast<double>(total)) || !std::isfinite(static_cast<double>(top));
    std::size_t best = 0;
    for (std::size_t a = 0; a < tokens; ++a) {
      readout[a] = ar.div(readout[a], total);
      if (readout[a] > readout[best]) best = a;
    }
    if (static_cast<copy::Token>(best) != x[k]) return run;
  }
  run.copied = true;
  return run;
}

}  // namespace

const char* to_string(FloatFormat f) {
  switch (f) {
    case FloatFormat::Float64: return "float64";
    case FloatFormat::Float32: return "float32";
    case FloatFormat::BFloat16: return "bfloat16";
    default: return "float16";
  }
}

double format_max(FloatFormat f) {
  switch (f) {
    case FloatFormat::Float64: return std::numeric_limits<double>::max();
    case FloatFormat::Float16: return 65504.0;
    default: return static_cast<double>(std::numeric_limits<float>::max());
  }
}

FloatRun copies_in_format(const copy::CopyTransformer& t, FloatFormat format, const copy::TokenString& x) {
  switch (format) {
    case FloatFormat::Float64: return copies_impl(Arith<FloatFormat::Float64>{}, t, x);
    case FloatFormat::Float32: return copies_impl(Arith<FloatFormat::Float32>{}, t, x);
    case FloatFormat::BFloat16: return copies_impl(Arith<FloatFormat::BFloat16>{}, t, x);
    default: return copies_impl(Arith<FloatFormat::Float16>{}, t, x);
  }
}

}  // namespace tverify::copy::fast
