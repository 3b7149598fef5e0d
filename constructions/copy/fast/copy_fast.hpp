// The fast exact path for the copy transformer of Theorem 2.3: the same decisions as
// CopyTransformer::copy_string, step for step, at L = 10^4..10^6.
//
// Layer 1 runs in exact integers (integer_layer1.hpp), at most once per position. At each generation step the scores
// of all keys against the query are integers: the query's few non-zero entries each add a scaled key column (SIMD,
// simd_kernels.hpp). In small domains (at most 2048 windows of n + 1 tokens) a score depends on the (query window, key
// window) pair only: each thread memoises those scores and, per query window, the windows it has met grouped into
// score levels; the table counts its keys per window, so a step's levels come from counts instead of a score per key.
// The decision is then certified in stages, cheapest first:
//   index (large domains, interior_keys.hpp): the keys of the query's highest-scoring n-gram are found in the n-gram
//      index and scored with the few keys whose windows hold <BOS> or <COPY>; every other key scores at most the bound
//      B derived from the weights, so stage 1's inequality is checked without scanning a key. Counted with stage 1,
//      and on its own (by_index); what it cannot certify is scanned.
//   0. (small domains) stage 1's bound from the window counts, walking down the met windows' levels to the first that
//      holds keys of this step (the top level: its size and value sums from the counts); the next met level bounds the
//      gap to the runner-up from below, so R_hi from above. What it cannot certify goes to stage 1, with the levels
//      then gathered from the counts and the exact gap. Counted with stage 1.
//   1. bound: only the top score level is summed exactly; every lower key weighs at most e^{-tau Delta} relative to a
//      top key (Delta = the gap to the runner-up level), which bounds how far the lower keys can move any readout
//      (decide_by_bound states the inequality); if it certifies a unique argmax, that is the decision.
//   2. levels, in integers: the exact per-level value sums compared lexicographically from the top level down, each
//      comparison certified by the weight ratio between levels (decide_lexicographically); exact ties exactly.
//   3. levels, in intervals: core/level_readout.hpp, the very function the exact evaluator uses (64 to 16384 bits).
//   4. exact: CopyTransformer::next_token on the Surd evaluator (counted; never needed in the tests).
// Stages 2 and 3 are counted together as "levels".
// The run reports how many steps each stage decided.
#pragma once

#include "constructions/copy/fast/interior_keys.hpp"
#include "constructions/copy/fast/window_cache.hpp"
#include "constructions/copy/fast/simd_kernels.hpp"

#include <optional>
#include <unordered_map>

namespace tverify::copy::fast {

struct FastStats {
  std::uint64_t steps = 0, by_bound = 0, by_levels = 0, by_exact = 0;
  std::uint64_t by_index = 0;  // of by_bound: certified by the index stage, without scanning the keys
  void merge(const FastStats& o) {
    steps += o.steps, by_bound += o.by_bound, by_levels += o.by_levels, by_exact += o.by_exact;
    by_index += o.by_index;
  }
};

struct FastCopyOptions {
  bool key_index = true;  // false: every step scans its keys (the path the index stage is measured against)
  // Subtracted from the index stage's bound B: 0, except in the tests that show that a wrong bound is caught.
  std::int64_t bound_slack = 0;
  // A copy runs on at most one thread per this many steps with the key index, and per an eighth as many when its
  // steps scan every key: a thread's start and its first touches of memory cost about as much as a few thousand
  // steps decided by the index, or a few hundred scans of thousands of keys. 1 in the tests that run short strings
  // on threads.
  std::size_t steps_per_thread = 8192;
};

struct FastCopyRun {
  copy::CopyRun run;  // the same fields as the exact evaluator's (steps, copied, decided, failure)
  FastStats stats;
};

// A memo of doubles by integer score gap: a flat table for small gaps (grown to the largest gap met, so a thread that
// meets few gaps touches little memory), a hash map beyond.
class GapCache {
 public:
  template <class Compute>
  double get(std::int64_t gap, Compute compute) {
    if (gap >= 0 && gap < flat_size) {
      const auto at = static_cast<std::size_t>(gap);
      if (at >= flat_.size()) flat_.resize(at + 1);
      auto& slot = flat_[at];
      if (!slot) slot = compute();
      return *slot;
    }
    auto it = large_.find(gap);
    return it != large_.end() ? it->second : large_.emplace(gap, compute()).first->second;
  }

 private:
  static constexpr std::int32_t flat_size = 4096;
  std::vector<std::optional<double>> flat_;
  std::unordered_map<std::int64_t, double> large_;
};

class FastCopy {
 public:
  // Why the fast path cannot run this transformer exactly, or nullopt when it can (IntegerLayer1::refusal).
  static Refusal refusal(const copy::CopyTransformer& transformer) { return IntegerLayer1::refusal(transformer); }
  // requires !refusal(transformer)
  explicit FastCopy(const copy::CopyTransformer& transformer, FastCopyOptions options = {});
  FastCopy(const FastCopy&) = delete;  // the per-thread states are keyed by instance and refer to it
  FastCopy& operator=(const FastCopy&) = delete;
  ~FastCopy();

  // Generates L tokens after <BOS>, x, <COPY>, stopping at the first wrong, tied or undecided token. With threads > 1
  // (at most one per FastCopyOptions::steps_per_thread steps) the steps of one string are decided in parallel blocks
  // (the earliest failure wins); keep_steps = false drops the per-step records (long strings) but keeps the failing
  // step.
  FastCopyRun copy_string(const copy::TokenString& x, unsigned threads = 1, bool keep_steps = true) const;
  // The same into `out`, whose buffers it reuses (a loop over many strings allocates nothing per string).
  void copy_string(const copy::TokenString& x, FastCopyRun& out, unsigned threads = 1, bool keep_steps = true) const;

  const copy::CopyTransformer& transformer() const { return transformer_; }

 private:
  struct Table;
  struct Scratch {
    std::vector<std::int32_t> scores;
    std::vector<std::int64_t> top_sum;
    GapCache weight_bounds, weight_lower_bounds;  // by score gap
    std::vector<std::int64_t> level_sums;
    std::vector<std::int32_t> level_score;
    std::vector<long> level_count;
    std::vector<double> level_lead, level_tail;
    std::vector<copy::Token> tied;  // decide_lexicographically
    IntegerRow window_layer1;       // WindowCache::levels_of: layer 1 of windows no sequence has met yet
    QueryTerms query_terms;         // decide_by_index
  };
  struct ThreadState;
  static std::unordered_map<std::uint64_t, ThreadState>& thread_states();  // the calling thread's
  ThreadState& thread_state() const;
  double weight_bound(std::int64_t gap, Scratch& scratch) const;
  double weight_bound_down(std::int64_t gap, Scratch& scratch) const;
  void collect_levels(const Table& table, std::size_t p, Scratch& scratch) const;
  std::optional<copy::CopyStep> decide_lexicographically(const Table& table, std::size_t p, Scratch& scratch) const;
  copy::CopyStep decide(Table& table, std::size_t p, Scratch& scratch, FastStats& stats) const;
  // Stages 0 and 1 return whether they certified the argmax, and set `winner` when they did. (Not an
  // optional<Token>: GCC returns one through the stack as two stores read back as one load, a store-forwarding stall
  // that took 15% of the time of an exhaustive run.)
  bool decide_by_bound(const Table& table, std::size_t p, const TopLevel& level, Scratch& scratch,
                       copy::Token& winner) const;
  bool decide_by_window_bound(const Table& table, std::size_t p, const WindowLevels& levels, Scratch& scratch,
                              copy::Token& winner) const;
  bool decide_by_top_level(const Table& table, std::size_t p, Scratch& scratch, copy::Token& winner) const;
  bool decide_by_index(const Table& table, std::size_t p, Scratch& scratch, copy::Token& winner) const;
  void collect_window_levels(const Table& table, std::size_t p, const WindowLevels& levels, Scratch& scratch) const;
  bool certify_top(const Table& table, const std::int64_t* top_sum, std::size_t lower, std::int64_t gap,
                   Scratch& scratch, copy::Token& winner) const;
  copy::CopyStep decide_by_levels(const Table& table, std::size_t p, const Scratch& scratch) const;

  const copy::CopyTransformer& transformer_;
  IntegerLayer1 layer1_;
  FastCopyOptions options_;
  std::optional<InteriorKeys> interior_;  // the index stage's decomposition (nullopt: steps scan their keys)
  std::uint64_t instance_;                // keys the per-thread window caches
};

}  // namespace tverify::copy::fast
