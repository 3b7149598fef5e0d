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
#include "core/level_readout.hpp"
#include "core/mlp.hpp"
#include "core/readout.hpp"

#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

namespace tverify::copy {

using Surd = QuadraticSurd;

struct CopyTransformerConfig {
  int alphabet = 2;  // D
  int n = 2;
  int length = 4;  // L
  EmbeddingKind embedding = EmbeddingKind::OneHot;
  TransformerVariant variant = TransformerVariant::Paper;
  std::optional<Exact> tau;  // nullopt: d ln(8 K d)
};

struct Layer1Output {
  Vector<Surd> value, key, query;
};

// Layer 1 at position p reads only the last min(p, n) + 1 tokens (every head's window is at most n + 1, and the MLP
// acts per position), so its outputs are memoised per token window (per thread, per transformer): each entry is still
// computed once by the literal weights. value_dot_psi[x] = T^value . Psi(x), used by the readout.
struct Layer1Entry {
  Layer1Output out;
  Vector<Surd> value_dot_psi;
  // T^key of this entry . T^query of another: a score depends on the two windows only, so it is memoised too.
  mutable std::unordered_map<const Layer1Entry*, Surd> score_as_key;

  const Surd& score_against(const Layer1Entry& query) const {
    auto it = score_as_key.find(&query);
    if (it == score_as_key.end()) it = score_as_key.emplace(&query, dot(out.key, query.out.query)).first;
    return it->second;
  }
};

// The layer-1 outputs of one sequence: a view into the calling thread's memo, valid on that thread.
class Layer1Blocks {
 public:
  const Layer1Output& operator[](std::size_t p) const { return entries_[p]->out; }
  const Layer1Entry& entry(std::size_t p) const { return *entries_[p]; }
  std::size_t size() const { return entries_.size(); }
  void push_back(const Layer1Entry* e) { entries_.push_back(e); }

 private:
  std::vector<const Layer1Entry*> entries_;
};

struct CopyStep {
  std::size_t position = 0;  // 1-based position of the query (the token it predicts is at position + 1)
  Token target = 0;
  std::optional<Token> output;        // present only when the argmax is certified and unique
  Margin margin = Margin::Undecided;  // Tie: the readout of `output`'s rivals equals the top value exactly
  std::vector<Token> tied;            // with Margin::Tie: every token whose readout equals the maximum
  unsigned bits = 0;                  // interval precision that decided
};

// A copy step from a level decision (core/level_readout.hpp) at query index p and the precision that decided.
CopyStep step_from(const std::pair<LevelDecision, unsigned>& decided, std::size_t p);

struct CopyRun {
  TokenString output;
  std::vector<CopyStep> steps;
  bool copied = false;
  bool decided = true;                     // every step's argmax certified, or an exact tie (then not copied)
  std::optional<std::size_t> failed_step;  // k (0-based) of the step that ended the run: steps.back()

  void clear();  // back to an empty run, keeping the buffers

  // Which step ended the run and why ("" when none did); written when asked, since an exhaustive run ends one
  // failing run per string and reads few of the texts.
  std::string failure() const;
};

// Adds generation step k (0-based; step.target set) to run as the copy loop defines it: the generated token joins the
// output (a wrong one too); returns false at the first wrong, tied or undecided token, with run.failed_step = k
// and run.decided = false when undecided. keep_step = false records the step only when it fails.
bool record_step(CopyRun& run, const CopyStep& step, std::size_t k, bool keep_step = true);

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
  void copy_sequence(const TokenString& x, std::size_t extra, TokenString& out) const;  // into out's buffer

  // Layer 1 at every position of a token sequence.
  Layer1Blocks layer1(const TokenString& sequence) const;
  // z_j = T^key_j . T^query_p for j = 0..p (exact).
  static std::vector<Surd> scores(const Layer1Blocks& blocks, std::size_t p);

  // Autoregressive generation of L tokens after <BOS>, x, <COPY>, stopping at the first wrong or undecided token.
  CopyRun copy_string(const TokenString& x) const { return copy_string(x, layer1(copy_sequence(x, x.size()))); }
  // The same from layer-1 blocks of the correct copy sequence: up to the first wrong token, generation sees exactly
  // the sequence the correct copy has, so the blocks can be computed once and shared with the lemma checks.
  CopyRun copy_string(const TokenString& x, const Layer1Blocks& copy_blocks) const;

  // The claim inside the proof of Theorem 2.3 on the copy sequence of x: for every query position i > L_C = L + 1,
  // z_{i-L_C+1} = n and |z_j| < n - 1/d for the other keys j <= i (two_sided), or z_j < n - 1/d (one-sided).
  std::optional<ScoreViolation> find_score_violation(const Layer1Blocks& copy_blocks, bool two_sided) const;

  // The weights of layer 1's MLP (hidden units: the gadgets, in the order they are built) and the head windows.
  const ReluMlp<Surd>& layer1_mlp() const { return mlp_; }
  const std::vector<AttentionHead<Surd>>& layer1_heads() const { return heads_; }  // h_1..h_{n+1}
  std::size_t head_window(int t) const { return static_cast<std::size_t>(t); }     // h_t averages the last t tokens

  // The averaging head h_t (t = 1..n+1) of Lemma C.1 at every position of a token sequence.
  std::vector<Vector<Surd>> head_outputs(const TokenString& sequence, int t) const;

  // The certified readout at query index p (0-based) given layer-1 blocks of the sequence so far.
  CopyStep next_token(const Layer1Blocks& blocks, std::size_t p) const;
  // The keys 0..p grouped by exact score against query p, with exact per-level value sums.
  std::vector<ScoreLevel<Surd>> levels_at(const Layer1Blocks& blocks, std::size_t p) const;

  // tau enclosed at this precision: the given exact tau, or the proof's d ln(8 K d).
  template <unsigned Bits>
  Interval<Bits> tau_interval() const {
    return config_.tau ? Interval<Bits>(*config_.tau)
                       : Interval<Bits>(dim_) * log(Interval<Bits>(proof_tau_log_argument_));
  }

  // Layer 1 at the last position of a window of at most n + 1 tokens, computed afresh (no memo).
  Layer1Entry layer1_entry(const TokenString& window) const;

 private:
  std::vector<Vector<Surd>> embed(const TokenString& sequence) const;
  Layer1Output layer1_at(const std::vector<Vector<Surd>>& embedded, std::size_t p) const;

  // The key of this transformer's per-thread memo of layer 1. A copy, and a transformer assigned another's
  // configuration, draw a key of their own (a memo is valid for one configuration only); the memo of the thread that
  // destroys a transformer, or assigns to it, goes with its key (a worker thread's memos end with the thread).
  class MemoKey {
   public:
    MemoKey();
    MemoKey(const MemoKey&) : MemoKey() {}
    MemoKey& operator=(const MemoKey&);
    ~MemoKey();
    std::uint64_t id;

   private:
    void release() const;
  };

  CopyTransformerConfig config_;
  MemoKey memo_key_;
  int dim_;
  Matrix<Surd> psi_;
  Exact proof_tau_log_argument_;            // 8 K d: the proof's tau is d ln(8 K d)
  std::vector<AttentionHead<Surd>> heads_;  // h_1..h_{n+1}
  ReluMlp<Surd> mlp_;
};

}  // namespace tverify::copy
