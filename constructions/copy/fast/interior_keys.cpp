#include "constructions/copy/fast/interior_keys.hpp"

#include <algorithm>
#include <limits>

namespace tverify::copy::fast {

namespace {

constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();

// The offsets at which hidden unit h's contribution varies over the alphabet tokens.
std::vector<std::uint32_t> offsets_read(const IntegerLayer1& layer1, std::size_t h, int alphabet) {
  std::vector<std::uint32_t> read;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(layer1.n()); ++i)
    for (std::size_t a = 1; a < static_cast<std::size_t>(alphabet); ++a)
      if (layer1.offset_column(i, a)[h] != layer1.offset_column(i, 0)[h]) {
        read.push_back(static_cast<std::uint32_t>(i));
        break;
      }
  return read;
}

}  // namespace

std::optional<InteriorKeys> InteriorKeys::make(const IntegerLayer1& layer1, int alphabet) {
  const int n = layer1.n();
  BigInt ngrams = 1;
  for (int i = 0; i < n; ++i) ngrams *= alphabet;
  if (alphabet < 2 || n < 1 || n > max_index_n || ngrams > BigInt(std::int64_t{1} << 40)) return std::nullopt;
  const std::size_t units = layer1.hidden_units(), tokens = static_cast<std::size_t>(alphabet);
  // Each unit as a constant (reads no offset) or a function of one offset's token; two offsets: not separable.
  std::vector<std::optional<std::uint32_t>> offset_of(units);
  std::vector<std::vector<std::int64_t>> unit_value(units);  // relu of the pre-activation, by token (or one entry)
  for (std::size_t h = 0; h < units; ++h) {
    const std::vector<std::uint32_t> read = offsets_read(layer1, h, alphabet);
    if (read.size() > 1) return std::nullopt;
    std::int64_t base = layer1.hidden_bias(h);
    for (std::size_t i = 0; i <= static_cast<std::size_t>(n); ++i) base += layer1.offset_column(i, 0)[h];
    if (read.empty()) {
      unit_value[h] = {std::max<std::int64_t>(base, 0)};
      continue;
    }
    const std::uint32_t t = read.front();
    offset_of[h] = t;
    for (std::size_t a = 0; a < tokens; ++a) {
      const std::int64_t pre = base - layer1.offset_column(t, 0)[h] + layer1.offset_column(t, a)[h];
      unit_value[h].push_back(std::max<std::int64_t>(pre, 0));
    }
  }
  InteriorKeys keys;
  keys.alphabet_ = alphabet;
  keys.n_ = n;
  keys.ngrams_ = ngrams.convert_to<std::uint64_t>();
  const std::vector<BigInt> query_max = layer1.query_magnitudes();
  BigInt term_max = 0;  // bounds |C| + sum_i max_a |f_i(a)| for every query: the arithmetic of a step fits 64 bits
  for (std::size_t c = 0; c < query_max.size(); ++c) {
    Coordinate coordinate;
    for (const auto& [h, w] : layer1.key_weights(c)) {
      if (!offset_of[h]) {
        coordinate.constant += w * unit_value[h].front();
        continue;
      }
      auto term = std::find_if(coordinate.terms.begin(), coordinate.terms.end(),
                               [&](const Term& t) { return t.offset == *offset_of[h]; });
      if (term == coordinate.terms.end())
        term = coordinate.terms.insert(coordinate.terms.end(), Term{*offset_of[h], std::vector<std::int64_t>(tokens)});
      for (std::size_t a = 0; a < tokens; ++a) term->by_token[a] += w * unit_value[h][a];
    }
    BigInt magnitude = boost::multiprecision::abs(BigInt(coordinate.constant));
    for (const Term& t : coordinate.terms) {
      std::int64_t largest = 0;
      for (auto v : t.by_token) largest = std::max(largest, v < 0 ? -v : v);
      magnitude += largest;
    }
    term_max += magnitude * query_max[c];
    keys.coordinates_.push_back(std::move(coordinate));
  }
  if (term_max >= BigInt(std::int64_t{1} << 62)) return std::nullopt;
  return keys;
}

void InteriorKeys::terms(std::span<const QueryEntry> query, QueryTerms& out) const {
  const std::size_t tokens = static_cast<std::size_t>(alphabet_);
  out.constant = 0;
  out.terms.assign((static_cast<std::size_t>(n_) + 1) * tokens, 0);
  for (const auto& [c, w] : query) {
    const Coordinate& coordinate = coordinates_[c];
    out.constant += w * coordinate.constant;
    for (const Term& t : coordinate.terms) {
      std::int64_t* f = out.terms.data() + t.offset * tokens;
      for (std::size_t a = 0; a < tokens; ++a) f[a] += w * t.by_token[a];
    }
  }
}

std::int64_t InteriorKeys::key(std::size_t c, const copy::TokenString& sequence, std::size_t p) const {
  const Coordinate& coordinate = coordinates_[c];
  std::int64_t k = coordinate.constant;
  for (const Term& t : coordinate.terms) k += t.by_token[static_cast<std::size_t>(sequence[p - t.offset])];
  return k;
}

NgramBound ngram_bound(const QueryTerms& q, int alphabet, int n, std::int64_t slack) {
  const std::size_t tokens = static_cast<std::size_t>(alphabet);
  NgramBound out;
  std::int64_t best = q.constant, smallest_loss = std::numeric_limits<std::int64_t>::max();
  std::uint64_t place = 1;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(n); ++i) {
    const std::int64_t* f = q.terms.data() + i * tokens;
    const std::size_t top = static_cast<std::size_t>(std::max_element(f, f + tokens) - f);
    best += f[top];
    if (i == 0) continue;  // the key's own token is not part of its n-gram
    std::int64_t second = lowest;
    for (std::size_t a = 0; a < tokens; ++a)
      if (a != top) second = std::max(second, f[a]);
    smallest_loss = std::min(smallest_loss, f[top] - second);
    out.ngram += top * place;
    place *= tokens;
  }
  out.bound = best - smallest_loss - slack;
  return out;
}

std::int64_t interior_score(const QueryTerms& q, int alphabet, int n, const copy::TokenString& sequence,
                            std::size_t p) {
  const std::size_t tokens = static_cast<std::size_t>(alphabet);
  std::int64_t z = q.constant;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(n); ++i)
    z += q.terms[i * tokens + static_cast<std::size_t>(sequence[p - i])];
  return z;
}

bool interior_window(const copy::TokenString& sequence, std::size_t p, int n, int alphabet) {
  if (p < static_cast<std::size_t>(n)) return false;
  for (std::size_t i = 0; i <= static_cast<std::size_t>(n); ++i)
    if (sequence[p - i] < 0 || sequence[p - i] >= alphabet) return false;
  return true;
}

std::uint64_t interior_ngram(const copy::TokenString& sequence, std::size_t p, int n, int alphabet) {
  std::uint64_t code = 0, place = 1;
  for (std::size_t i = 1; i <= static_cast<std::size_t>(n); ++i) {
    code += static_cast<std::uint64_t>(sequence[p - i]) * place;
    place *= static_cast<std::uint64_t>(alphabet);
  }
  return code;
}

}  // namespace tverify::copy::fast
