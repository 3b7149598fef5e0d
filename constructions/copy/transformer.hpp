// The depth-2 copy transformer of Repeat After Me (Theorem 2.3, Appendix C), weight for weight.
//
// Positions (docs/positions.md): the sequence is s_1 = <BOS>, s_2..s_{L+1} = x_1..x_L, s_{L+2} = <COPY>, then the
// generated tokens. Appendix C writes L for the position just before <COPY> (its "x_{L+1} = <COPY>"); here that is
// L_C = L + 1, substituted wherever Appendix C writes L. Code indices are 0-based (p = position - 1).
//
// Layer 1 (Lemma C.4): n + 1 Hard-ALiBi averaging heads h_1..h_{n+1} (Lemma C.1: W_k = W_q = 0, W_v = I, window t),
// then one ReLU MLP on their concatenation whose hidden units are the gadgets of the proof:
//   g_t     = (t+1) h_{t+1} - t h_t                    (t = 0..n, h_0 = 0; linear in the heads)
//   ghat_tj = relu(e_j.g_t - n Psi(BOS).g_n) - relu(-e_j.g_t - n Psi(BOS).g_n)
//   gtil_t  = 1/2 relu(2 Psi(BOS).(g_t - h_1) - 1)     (variant corrected: without the 1/2, errata E4)
//   gstar_t = relu(Psi(COPY).g_{t-1})
//   T^value = h_1 (as relu(h_1) - relu(-h_1)), T^key = [ghat_1..ghat_n, gtil_1..gtil_n],
//   T^query = [ghat_0..ghat_{n-1}, n gstar_1..n gstar_n].
// Layer 2 (proof of Thm 2.3): H_i = T^value softmax(tau T^key T^query_i) over j <= i, no positional bias, and the
// readout Phi(z) = argmax over all D + 2 tokens of z . Psi(x). tau defaults to the proof's d ln(8 K d), K = D^n.
//
// Layer 1 and the attention scores are exact (Q(sqrt r), QuadraticSurd); the softmax and the readout are enclosed in
// MPFI intervals, and a generated token counts as decided only when its argmax margin is certified.
#pragma once

#include "constructions/copy/embedding.hpp"
#include "core/attention.hpp"
#include "core/mlp.hpp"
#include "core/readout.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify::copy {

using Surd = QuadraticSurd;

struct CopyTransformerConfig {
  int alphabet = 2;  // D
  int n = 2;
  int length = 4;    // L
  EmbeddingKind embedding = EmbeddingKind::OneHot;
  TransformerVariant variant = TransformerVariant::Paper;
  std::optional<Exact> tau;  // nullopt: d ln(8 K d)
};

struct Layer1Output {
  Vector<Surd> value, key, query;
};

struct CopyStep {
  std::size_t position = 0;  // 1-based position of the query (the token it predicts is at position + 1)
  Token target = 0;
  std::optional<Token> output;  // present only when the argmax is certified and unique
  Margin margin = Margin::Undecided;  // Tie: the readout of `output`'s rivals equals the top value exactly
  std::vector<Token> tied;      // with Margin::Tie: every token whose readout equals the maximum
  unsigned bits = 0;            // interval precision that decided
};

struct CopyRun {
  TokenString output;
  std::vector<CopyStep> steps;
  bool copied = false;
  bool decided = true;  // every step's argmax certified, or an exact tie (then not copied)
  std::string failure;
};

// A violation of the score claim in the proof of Theorem 2.3 (at 1-based query position i, key j).
struct ScoreViolation {
  std::size_t query = 0, key = 0;
  bool target = false;  // the target key's score is not n (else: a non-target key reaches the bound)
  Surd score;
};

class CopyTransformer {
 public:
  explicit CopyTransformer(const CopyTransformerConfig& config);

  const CopyTransformerConfig& config() const { return config_; }
  int dim() const { return dim_; }
  const Matrix<Surd>& embedding() const { return psi_; }
  Token bos() const { return bos_token(config_.alphabet); }
  Token copy() const { return copy_token(config_.alphabet); }
  std::string tau_description() const;

  // <BOS>, x, <COPY>, x_1..x_{extra}: the sequence the correct copy produces after `extra` generated tokens.
  TokenString copy_sequence(const TokenString& x, std::size_t extra) const;

  // Layer 1 at every position of a token sequence.
  std::vector<Layer1Output> layer1(const TokenString& sequence) const;
  // z_j = T^key_j . T^query_p for j = 0..p (exact).
  static std::vector<Surd> scores(const std::vector<Layer1Output>& blocks, std::size_t p);

  // Autoregressive generation of L tokens after <BOS>, x, <COPY>, stopping at the first wrong or undecided token.
  CopyRun copy_string(const TokenString& x) const { return copy_string(x, layer1(copy_sequence(x, x.size()))); }
  // The same from layer-1 blocks of the correct copy sequence: up to the first wrong token, generation sees exactly
  // the sequence the correct copy has, so the blocks can be computed once and shared with the lemma checks.
  CopyRun copy_string(const TokenString& x, const std::vector<Layer1Output>& copy_blocks) const;

  // The claim inside the proof of Theorem 2.3 on the copy sequence of x: for every query position i > L_C = L + 1,
  // z_{i-L_C+1} = n and |z_j| < n - 1/d for the other keys j <= i (two_sided), or z_j < n - 1/d (one-sided).
  std::optional<ScoreViolation> find_score_violation(const std::vector<Layer1Output>& copy_blocks,
                                                     bool two_sided) const;

  // The weights of layer 1's MLP (hidden units: the gadgets, in the order they are built) and the head windows.
  const ReluMlp<Surd>& layer1_mlp() const { return mlp_; }
  std::size_t head_window(int t) const { return static_cast<std::size_t>(t); }  // h_t averages the last t tokens

  // The averaging head h_t (t = 1..n+1) of Lemma C.1 at every position of a token sequence.
  std::vector<Vector<Surd>> head_outputs(const TokenString& sequence, int t) const;

  // The certified readout at query index p (0-based) given layer-1 blocks of the sequence so far.
  CopyStep next_token(const std::vector<Layer1Output>& blocks, std::size_t p) const;

 private:
  std::vector<Vector<Surd>> embed(const TokenString& sequence) const;
  Layer1Output layer1_at(const std::vector<Vector<Surd>>& embedded, std::size_t p) const;
  template <unsigned Bits>
  CopyStep readout_at(const std::vector<Layer1Output>& blocks, std::size_t p) const;

  CopyTransformerConfig config_;
  int dim_;
  Matrix<Surd> psi_;
  std::vector<AttentionHead<Surd>> heads_;  // h_1..h_{n+1}
  ReluMlp<Surd> mlp_;
};

}  // namespace tverify::copy
