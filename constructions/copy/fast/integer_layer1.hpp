// Layer 1 of the copy transformer (Repeat After Me, Lemma C.4) in exact integer arithmetic, for the fast path.
// With a rational embedding (one-hot; Lemma C.2's codes +-1/sqrt(r) where r is a square) every quantity of layer 1
// is rational with bounded denominators:
//   heads (Lemma C.1: W_k = W_q = 0, so h_t at position p is the plain average of the last min(t, p + 1) embeddings)
//   scaled by M = lcm(1..n+1) and the embedding's denominator P are integers; the MLP's inner weights and biases
//   scaled by their common denominator, and its outer weights by theirs, keep everything integral (ReLU commutes with
//   a positive scale). So the outputs scaled by Y = M P W_in W_out are exact integers, computed from the literal
//   weights of CopyTransformer (the same matrices, never re-derived).
// A score z_j = T^key_j . T^query_p is then the integer key_j . query_p over Y^2, and T^value_j . Psi(x) the integer
// value_dot_psi_j[x] over Y P. Irrational embeddings (Lemma C.2 elsewhere) are not supported (unsupported_reason says
// why).
#pragma once

#include "constructions/copy/transformer.hpp"
#include "core/refusal.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tverify::copy::fast {

// A non-zero entry of a query: (key coordinate, integer weight).
struct QueryEntry {
  std::uint32_t coordinate;
  std::int32_t weight;
};

struct IntegerRow {
  std::vector<std::int64_t> key, query, value_dot_psi;
  std::vector<std::int64_t> hidden, output;  // scratch: the MLP's pre-activations and outputs
  std::vector<std::uint32_t> moved;          // scratch of a full window: the units its tokens move
  std::vector<std::uint8_t> is_moved;        // by unit
  std::vector<QueryEntry> query_entries;     // scratch: the query's non-zero entries
};

class IntegerLayer1 {
 public:
  // Why the fast path cannot run this transformer exactly, or nullopt when it can.
  static std::optional<std::string> unsupported_reason(const copy::CopyTransformer& t);
  // Why the fast path cannot run this transformer exactly in 64-bit and 32-bit integers (unsupported weights, or an
  // intermediate that could overflow), or nullopt when it can.
  static Refusal refusal(const copy::CopyTransformer& t);
  explicit IntegerLayer1(const copy::CopyTransformer& t);  // requires !refusal(t) (std::logic_error otherwise)

  // Layer 1 at position p (0-based) of the sequence: reads the last n + 1 tokens only.
  IntegerRow at(const copy::TokenString& sequence, std::size_t p) const;
  void at(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const;  // reuses row's buffers
  // The same without copying the key and the query out of row.output ([T^value | T^key | T^query]): they are read
  // where key_in and query_in point.
  void outputs(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const;
  const std::int64_t* key_in(const IntegerRow& row) const { return row.output.data() + dim_; }
  const std::int64_t* query_in(const IntegerRow& row) const { return row.output.data() + dim_ + key_dim_; }

  const Exact& score_scale() const { return score_scale_; }  // z = integer score / score_scale
  const Exact& value_scale() const { return value_scale_; }  // T^value . Psi(x) = integer / value_scale
  std::size_t tokens() const { return psi_.size(); }
  std::size_t key_dim() const { return key_dim_; }
  // A bound on |key . query| (the integer score) for every key and query layer 1 can output, whatever the windows:
  // the sum over key coordinates c of the bounds of output_magnitudes on key_c and query_c. The fast path's 32-bit
  // kernels require it below 2^31 (refusal).
  BigInt score_bound() const;

  // The parts of layer 1 at a full window (p >= n), read by decompositions of the keys (interior_keys.hpp). Hidden
  // unit h's pre-activation there is hidden_bias(h) + sum over offsets i = 0..n of offset_column(i, x_{p-i})[h], and
  // key coordinate c is sum over (h, w) in key_weights(c) of w relu(that), all in the scaled integers of at().
  int n() const { return n_; }
  std::size_t hidden_units() const { return inner_.size(); }
  std::int64_t hidden_bias(std::size_t h) const { return inner_[h].bias; }
  const std::vector<std::int64_t>& offset_column(std::size_t i, std::size_t token) const {
    return offset_token_[i][token];
  }
  const std::vector<std::pair<std::uint32_t, std::int64_t>>& key_weights(std::size_t c) const {
    return outer_[dim_ + c].entries;
  }
  // A bound on |query_c| for every window (output_magnitudes), per key coordinate c.
  std::vector<BigInt> query_magnitudes() const;

 private:
  struct ScaledWeightsOnly {};
  // The integer weights and scales, without the token tables; a scale or weight past 2^40 sets weight_refusal_ and
  // stops the scaling there.
  IntegerLayer1(const copy::CopyTransformer& t, ScaledWeightsOnly);
  void build_token_tables();
  Refusal magnitude_refusal() const;
  Refusal scaling_refusal() const { return weight_refusal_ ? weight_refusal_ : magnitude_refusal(); }
  // The outputs at a full window (p >= n) and at a shorter one, into row.output.
  void full_window_outputs(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const;
  void short_window_outputs(const copy::TokenString& sequence, std::size_t p, IntegerRow& row) const;
  std::vector<BigInt> output_magnitudes() const;                   // per output coordinate, over every window
  BigInt score_bound(const std::vector<BigInt>& magnitude) const;  // score_bound from output_magnitudes()

  struct SparseRow {
    std::vector<std::pair<std::uint32_t, std::int64_t>> entries;  // (column, integer weight)
    std::int64_t bias = 0;
  };
  int n_ = 0;
  std::size_t dim_ = 0, key_dim_ = 0;
  std::int64_t window_scale_ = 1;                                   // M = lcm(1..n+1)
  std::vector<std::vector<std::int64_t>> psi_;                      // embedding * P
  std::vector<SparseRow> inner_;                                    // hidden units: W_in * inner, bias * M P W_in
  std::vector<SparseRow> outer_;                                    // outputs: W_out * outer (column = hidden unit)
  std::vector<std::vector<std::vector<std::int64_t>>> head_token_;  // [t - 1][token][unit]: W_t Psi(token) * P W_in
  // [i][token][unit]: sum over t = i+1..n+1 of (M / t) head_token_[t - 1][token][unit], the weight of the token i
  // positions back in a full window
  std::vector<std::vector<std::vector<std::int64_t>>> offset_token_;
  // The same without its zeros ([i][token]: (unit, weight)): a token moves few units at each offset
  std::vector<std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>>> offset_sparse_;
  std::vector<std::vector<std::pair<std::uint32_t, std::int64_t>>> outer_by_unit_;  // outer_ transposed: (output, w)
  // A full window's units that its tokens leave at their bias, and their part of the outputs:
  std::vector<std::int64_t> bias_;         // by unit
  std::vector<std::int64_t> bias_output_;  // sum over units h of outer(o, h) relu(bias_h), by output o
  Exact score_scale_, value_scale_;
  Refusal weight_refusal_;
};

}  // namespace tverify::copy::fast
