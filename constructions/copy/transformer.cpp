#include "constructions/copy/transformer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <unordered_map>
#include <numeric>

namespace tverify::copy {
namespace {

// Builds the layer-1 MLP one hidden unit at a time: each unit is a linear form on u = [h_1 | .. | h_{n+1}] plus a
// bias, and writes itself into some output coordinates with some coefficient.
class MlpBuilder {
 public:
  MlpBuilder(std::size_t inputs, std::size_t outputs) : inputs_(inputs), outputs_(outputs) {}

  std::size_t unit(const Vector<Surd>& form, const Surd& bias) {
    forms_.push_back(form);
    biases_.push_back(bias);
    return forms_.size() - 1;
  }
  void write(std::size_t output, std::size_t unit, const Surd& coefficient) {
    writes_.push_back({output, unit, coefficient});
  }
  ReluMlp<Surd> build() const {
    ReluMlp<Surd> mlp{Matrix<Surd>(forms_.size(), inputs_), Matrix<Surd>(outputs_, forms_.size()), biases_, {}};
    for (std::size_t u = 0; u < forms_.size(); ++u)
      for (std::size_t c = 0; c < inputs_; ++c) mlp.inner(u, c) = forms_[u][c];
    for (const auto& w : writes_) mlp.outer(w.output, w.unit) += w.coefficient;
    return mlp;
  }

 private:
  struct Write {
    std::size_t output, unit;
    Surd coefficient;
  };
  std::size_t inputs_, outputs_;
  std::vector<Vector<Surd>> forms_;
  Vector<Surd> biases_;
  std::vector<Write> writes_;
};

// Linear forms on u = [h_1 | ... | h_{n+1}] (each block d wide).
class HeadForms {
 public:
  HeadForms(int n, int d, const Matrix<Surd>& psi) : n_(n), d_(d), psi_(psi) {}

  Vector<Surd> zero() const { return Vector<Surd>(static_cast<std::size_t>((n_ + 1) * d_), Surd(0)); }
  // e_j . h_k (h_0 = 0).
  Vector<Surd> h(int k, int j) const {
    Vector<Surd> f = zero();
    if (k >= 1) f[static_cast<std::size_t>((k - 1) * d_ + j)] = 1;
    return f;
  }
  // e_j . g_t = (t+1) e_j.h_{t+1} - t e_j.h_t.
  Vector<Surd> g(int t, int j) const { return scaled(h(t + 1, j), Surd(t + 1)) + scaled(h(t, j), Surd(-t)); }
  // Psi(token) . g_t and Psi(token) . h_1.
  Vector<Surd> psi_dot_g(Token token, int t) const {
    return psi_dot([&](int j) { return g(t, j); }, token);
  }
  Vector<Surd> psi_dot_h1(Token token) const {
    return psi_dot([&](int j) { return h(1, j); }, token);
  }

 private:
  template <class Form>
  Vector<Surd> psi_dot(Form form, Token token) const {
    Vector<Surd> f = zero();
    for (int j = 0; j < d_; ++j) {
      const Surd& w = psi_(static_cast<std::size_t>(token), static_cast<std::size_t>(j));
      if (!is_zero(w)) f = f + scaled(form(j), w);
    }
    return f;
  }
  int n_, d_;
  const Matrix<Surd>& psi_;
};

std::uint64_t next_instance() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

// Every transformer's memo of layer 1 on the calling thread, by memo key. `live_memos` (trivially destructible, so
// readable until the thread ends) points at them while they exist: a transformer destroyed after them (a static one,
// at exit) finds nothing to release.
struct Layer1Memos;
thread_local Layer1Memos* live_memos = nullptr;

struct Layer1Memos {
  std::unordered_map<std::uint64_t, std::map<TokenString, Layer1Entry>> by_key;
  Layer1Memos() { live_memos = this; }
  ~Layer1Memos() { live_memos = nullptr; }
  Layer1Memos(const Layer1Memos&) = delete;
  Layer1Memos& operator=(const Layer1Memos&) = delete;
};

std::unordered_map<std::uint64_t, std::map<TokenString, Layer1Entry>>& layer1_memos() {
  thread_local Layer1Memos memos;
  return memos.by_key;
}

}  // namespace

CopyTransformer::MemoKey::MemoKey() : id(next_instance()) {}

CopyTransformer::MemoKey& CopyTransformer::MemoKey::operator=(const MemoKey&) {
  release();
  id = next_instance();
  return *this;
}

CopyTransformer::MemoKey::~MemoKey() { release(); }

void CopyTransformer::MemoKey::release() const {
  if (live_memos) live_memos->by_key.erase(id);
}

CopyTransformer::CopyTransformer(const CopyTransformerConfig& config)
    : config_(config),
      dim_(embedding_dim(config.embedding, config.alphabet)),
      psi_(make_embedding(config.embedding, config.alphabet, config.variant)),
      proof_tau_log_argument_(
          BigInt(8) * big_pow(static_cast<unsigned long>(config.alphabet), static_cast<unsigned long>(config.n)) *
          dim_) {
  const int n = config.n, d = dim_;
  const auto ud = static_cast<std::size_t>(d);
  for (int t = 1; t <= n + 1; ++t)  // Lemma C.1: averaging heads with window t
    heads_.push_back({Matrix<Surd>(ud, ud), Matrix<Surd>(ud, ud), Matrix<Surd>::identity(ud),
                      HardAlibiWindow{static_cast<std::size_t>(t)}});

  const std::size_t key_at = ud, block = static_cast<std::size_t>(n) * ud;
  const std::size_t query_at = key_at + block + static_cast<std::size_t>(n);
  const std::size_t outputs = query_at + block + static_cast<std::size_t>(n);
  const HeadForms forms(n, d, psi_);
  MlpBuilder mlp((static_cast<std::size_t>(n) + 1) * ud, outputs);

  for (int j = 0; j < d; ++j) {  // T^value = h_1 = relu(h_1) - relu(-h_1)
    const auto plus = mlp.unit(forms.h(1, j), 0), minus = mlp.unit(scaled(forms.h(1, j), Surd(-1)), 0);
    mlp.write(static_cast<std::size_t>(j), plus, 1);
    mlp.write(static_cast<std::size_t>(j), minus, -1);
  }
  const Vector<Surd> bos_gn = scaled(forms.psi_dot_g(bos(), n), Surd(n));
  for (int t = 0; t <= n; ++t)  // ghat_t: T^key blocks t = 1..n, T^query blocks t = 0..n-1
    for (int j = 0; j < d; ++j) {
      const Vector<Surd> gtj = forms.g(t, j);
      const auto a = mlp.unit(gtj + scaled(bos_gn, Surd(-1)), 0);
      const auto b = mlp.unit(scaled(gtj, Surd(-1)) + scaled(bos_gn, Surd(-1)), 0);
      const auto uj = static_cast<std::size_t>(j), ut = static_cast<std::size_t>(t);
      if (t >= 1) {
        mlp.write(key_at + (ut - 1) * ud + uj, a, 1);
        mlp.write(key_at + (ut - 1) * ud + uj, b, -1);
      }
      if (t <= n - 1) {
        mlp.write(query_at + ut * ud + uj, a, 1);
        mlp.write(query_at + ut * ud + uj, b, -1);
      }
    }
  const Surd gtilde_scale = config.variant == TransformerVariant::Paper ? Surd(Exact(1, 2)) : Surd(1);
  for (int t = 1; t <= n; ++t) {  // gtil_t: key positional entries
    const Vector<Surd> form = scaled(forms.psi_dot_g(bos(), t) + scaled(forms.psi_dot_h1(bos()), Surd(-1)), Surd(2));
    mlp.write(key_at + block + static_cast<std::size_t>(t - 1), mlp.unit(form, Surd(-1)), gtilde_scale);
  }
  for (int t = 1; t <= n; ++t)  // n gstar_t: query positional entries
    mlp.write(query_at + block + static_cast<std::size_t>(t - 1), mlp.unit(forms.psi_dot_g(copy(), t - 1), 0), Surd(n));
  mlp_ = mlp.build();
}

std::string CopyTransformer::tau_description() const {
  if (config_.tau) return exact_to_string(*config_.tau);
  const BigInt k = big_pow(static_cast<unsigned long>(config_.alphabet), static_cast<unsigned long>(config_.n));
  return std::to_string(dim_) + " ln(" + BigInt(BigInt(8) * k * dim_).str() + ")";
}

TokenString CopyTransformer::copy_sequence(const TokenString& x, std::size_t extra) const {
  TokenString s;
  copy_sequence(x, extra, s);
  return s;
}

void CopyTransformer::copy_sequence(const TokenString& x, std::size_t extra, TokenString& out) const {
  out.clear();
  out.reserve(x.size() + 2 + std::min(extra, x.size()));
  out.push_back(bos());
  out.insert(out.end(), x.begin(), x.end());
  out.push_back(copy());
  out.insert(out.end(), x.begin(), x.begin() + static_cast<long>(std::min(extra, x.size())));
}

Layer1Output CopyTransformer::layer1_at(const std::vector<Vector<Surd>>& embedded, std::size_t p) const {
  Vector<Surd> u;
  for (const auto& head : heads_) {
    const Vector<Surd> out = head.forward_at(embedded, p);
    u.insert(u.end(), out.begin(), out.end());
  }
  const Vector<Surd> y = mlp_(u);
  const auto d = static_cast<long>(dim_), half = (static_cast<long>(y.size()) - d) / 2;
  return {Vector<Surd>(y.begin(), y.begin() + d), Vector<Surd>(y.begin() + d, y.begin() + d + half),
          Vector<Surd>(y.begin() + d + half, y.end())};
}

std::vector<Vector<Surd>> CopyTransformer::embed(const TokenString& sequence) const {
  std::vector<Vector<Surd>> embedded;
  for (Token token : sequence) {
    embedded.emplace_back();
    for (std::size_t c = 0; c < psi_.cols(); ++c) embedded.back().push_back(psi_(static_cast<std::size_t>(token), c));
  }
  return embedded;
}

Layer1Entry CopyTransformer::layer1_entry(const TokenString& window) const {
  Layer1Entry entry{layer1_at(embed(window), window.size() - 1), {}, {}};
  for (std::size_t x = 0; x < psi_.rows(); ++x) {
    Surd v(0);
    for (std::size_t c = 0; c < psi_.cols(); ++c)
      if (!is_zero(psi_(x, c))) v += entry.out.value[c] * psi_(x, c);
    entry.value_dot_psi.push_back(v);
  }
  return entry;
}

Layer1Blocks CopyTransformer::layer1(const TokenString& sequence) const {
  auto& memo = layer1_memos()[memo_key_.id];
  const std::size_t span = static_cast<std::size_t>(config_.n) + 1;
  Layer1Blocks blocks;
  for (std::size_t p = 0; p < sequence.size(); ++p) {
    const std::size_t first = p + 1 >= span ? p + 1 - span : 0;
    TokenString window(sequence.begin() + static_cast<long>(first), sequence.begin() + static_cast<long>(p) + 1);
    auto it = memo.find(window);
    if (it == memo.end()) {
      Layer1Entry entry = layer1_entry(window);
      it = memo.emplace(std::move(window), std::move(entry)).first;
    }
    blocks.push_back(&it->second);
  }
  return blocks;
}

std::vector<Surd> CopyTransformer::scores(const Layer1Blocks& blocks, std::size_t p) {
  std::vector<Surd> z;
  z.reserve(p + 1);
  for (std::size_t j = 0; j <= p; ++j) z.push_back(blocks.entry(j).score_against(blocks.entry(p)));
  return z;
}

// softmax(tau z) grouped by exact score level (core/level_readout.hpp): keys with equal z get equal weight, and the
// per-level sums of T^value_j . Psi(x) are exact.
std::vector<ScoreLevel<Surd>> CopyTransformer::levels_at(const Layer1Blocks& blocks, std::size_t p) const {
  std::vector<const Surd*> z;  // into the memo: no copies
  z.reserve(p + 1);
  for (std::size_t j = 0; j <= p; ++j) z.push_back(&blocks.entry(j).score_against(blocks.entry(p)));
  std::vector<std::size_t> order(z.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *z[a] < *z[b]; });
  const std::size_t tokens = psi_.rows();
  std::vector<ScoreLevel<Surd>> levels;
  for (std::size_t j : order) {
    if (levels.empty() || !(levels.back().score == *z[j])) levels.push_back({*z[j], 0, Vector<Surd>(tokens, Surd(0))});
    ScoreLevel<Surd>& level = levels.back();
    ++level.count;
    const Vector<Surd>& value_dot_psi = blocks.entry(j).value_dot_psi;
    for (std::size_t x = 0; x < tokens; ++x)
      if (!is_zero(value_dot_psi[x])) level.value_dot_psi[x] += value_dot_psi[x];
  }
  return levels;
}

CopyStep step_from(const std::pair<LevelDecision, unsigned>& decided, std::size_t p) {
  const auto& [d, bits] = decided;
  CopyStep step;
  step.position = p + 1;
  step.bits = bits;
  step.margin = d.margin;
  if (d.margin == Margin::Certified) step.output = static_cast<Token>(d.winner);
  for (std::size_t t : d.tied) step.tied.push_back(static_cast<Token>(t));
  return step;
}

CopyStep CopyTransformer::next_token(const Layer1Blocks& blocks, std::size_t p) const {
  return step_from(
      decide_levels_laddered(levels_at(blocks, p), [this]<unsigned Bits>() { return tau_interval<Bits>(); }), p);
}

bool record_step(CopyRun& run, const CopyStep& step, std::size_t k, bool keep_step) {
  const bool generated = step.margin == Margin::Certified && step.output == step.target;
  if (keep_step || !generated) run.steps.push_back(step);
  if (step.output) run.output.push_back(*step.output);
  if (generated) return true;
  run.failed_step = k;
  run.decided = step.margin != Margin::Undecided;
  return false;
}

void CopyRun::clear() {
  output.clear();
  steps.clear();
  copied = false;
  decided = true;
  failed_step.reset();
}

std::string CopyRun::failure() const {
  if (!failed_step) return "";
  const CopyStep& step = steps.back();
  const std::size_t k = *failed_step;
  if (step.margin == Margin::Tie)
    return fmt::format("step {}: the readout's argmax is an exact tie between tokens {}", k + 1,
                       format_tokens(step.tied));
  if (!step.output) return fmt::format("step {}: the readout's argmax is not certified", k + 1);
  return fmt::format("step {}: generated {}, expected {}", k + 1, *step.output, step.target);
}

CopyRun CopyTransformer::copy_string(const TokenString& x, const Layer1Blocks& copy_blocks) const {
  CopyRun run;
  const std::size_t prompt = x.size() + 2;  // <BOS>, x, <COPY>
  for (std::size_t k = 0; k < x.size(); ++k) {
    CopyStep step = next_token(copy_blocks, prompt - 1 + k);
    step.target = x[k];
    if (!record_step(run, step, k)) return run;
  }
  run.copied = true;
  return run;
}

std::optional<ScoreViolation> CopyTransformer::find_score_violation(const Layer1Blocks& blocks, bool two_sided) const {
  const std::size_t lc = static_cast<std::size_t>(config_.length) + 1;
  const Surd n(config_.n), bound = Surd(Exact(config_.n)) - Surd(Exact(1, dim_));
  for (std::size_t i = lc + 1; i <= blocks.size(); ++i) {
    const auto z = scores(blocks, i - 1);
    const std::size_t target = i - lc + 1;
    if (!(z[target - 1] == n)) return ScoreViolation{i, target, true, z[target - 1]};
    for (std::size_t j = 1; j <= z.size(); ++j)
      if (j != target && !(z[j - 1] < bound && (!two_sided || -z[j - 1] < bound)))
        return ScoreViolation{i, j, false, z[j - 1]};
  }
  return std::nullopt;
}

std::vector<Vector<Surd>> CopyTransformer::head_outputs(const TokenString& sequence, int t) const {
  return heads_.at(static_cast<std::size_t>(t - 1)).forward(embed(sequence));
}

}  // namespace tverify::copy
