#include "proofs/copy_index_proofs.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

namespace tverify::proofs {

using namespace copy::fast;  // the index stage whose facts these are (this file only)

namespace {

// Model values up to 2^40 in magnitude: sums of a few of them stay exact in 64 bits on replay.
constexpr std::int64_t replay_limit = std::int64_t{1} << 40;

std::optional<std::int64_t> small_value(const z3::model& model, const z3::expr& e) {
  std::int64_t v = 0;
  if (!model.eval(e, true).is_numeral_i64(v) || v > replay_limit || v < -replay_limit) return std::nullopt;
  return v;
}

std::string numbered(const char* stem, int i) { return stem + std::to_string(i); }

// The window of interior tokens x_{p-n}..x_p from the model's x_0..x_n (x_i is the token i positions back), or
// nullopt when one is not a token of the alphabet.
std::optional<copy::TokenString> model_window(const z3::model& model, const std::vector<z3::expr>& x, int alphabet) {
  copy::TokenString window(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto v = small_value(model, x[i]);
    if (!v || *v < 0 || *v >= alphabet) return std::nullopt;
    window[x.size() - 1 - i] = static_cast<copy::Token>(*v);
  }
  return window;
}

// values[x] for a token x in 0..values.size()-1, as an ite chain.
z3::expr token_table(z3::context& ctx, const z3::expr& x, const std::vector<std::int64_t>& values) {
  z3::expr out = ctx.int_val(values.back());
  for (std::size_t a = values.size() - 1; a-- > 0;)
    out = z3::ite(x == static_cast<int>(a), ctx.int_val(values[a]), out);
  return out;
}

// Replays a model of the negated ngram bound through ngram_bound, as the steps compute it. Only the tokens the model
// names matter (the window's, each first maximiser g_i and each runner-up b_i), coded in increasing order: the tables
// restricted to them have the same largest and second largest values, and g_i stays the first maximiser (every
// token below it scores less), so the replay runs over that small alphabet however large the model's D is.
void replay_ngram_bound(const z3::model& model, const z3::expr& D, const z3::expr& C,
                        const std::vector<z3::func_decl>& f, const std::vector<z3::expr>& x,
                        const std::vector<z3::expr>& named, std::int64_t slack, ProofResult& r) {
  std::vector<std::int64_t> alphabet;  // the named tokens, ascending: token k of the replay is alphabet[k]
  for (const auto* group : {&x, &named})
    for (const auto& t : *group) {
      const auto v = small_value(model, t);
      if (!v) {
        r.counterexample = "a model outside the replayed range (values up to 2^40)";
        return;
      }
      alphabet.push_back(*v);
    }
  std::sort(alphabet.begin(), alphabet.end());
  alphabet.erase(std::unique(alphabet.begin(), alphabet.end()), alphabet.end());
  const auto code = [&](std::int64_t v) {
    return static_cast<copy::Token>(std::lower_bound(alphabet.begin(), alphabet.end(), v) - alphabet.begin());
  };
  const int tokens = static_cast<int>(alphabet.size()), n = static_cast<int>(f.size()) - 1;
  const auto constant = small_value(model, C);
  if (!constant) {
    r.counterexample = "a model outside the replayed range (values up to 2^40)";
    return;
  }
  QueryTerms terms{*constant, {}};
  for (int i = 0; i <= n; ++i)
    for (const std::int64_t a : alphabet) {
      const auto v = small_value(model, f[static_cast<std::size_t>(i)](D.ctx().int_val(a)));
      if (!v) {
        r.counterexample = "a model outside the replayed range (values up to 2^40)";
        return;
      }
      terms.terms.push_back(*v);
    }
  const std::size_t p = static_cast<std::size_t>(n);
  copy::TokenString window(p + 1);
  for (std::size_t i = 0; i <= p; ++i) window[p - i] = code(*small_value(model, x[i]));
  const std::int64_t score = interior_score(terms, tokens, n, window, p);
  const NgramBound bound = ngram_bound(terms, tokens, n, slack);
  r.replayed = interior_ngram(window, p, n, tokens) != bound.ngram && score > bound.bound;
  r.counterexample = fmt::format(
      "over the tokens {} (of D = {}; the replay codes them 0, 1, ...), the window of codes {} scores {} against "
      "B = {} (f_i by offset: {}; C = {})",
      fmt::join(alphabet, " "), model.eval(D, true).to_string(), copy::format_tokens(window), score, bound.bound,
      fmt::join(terms.terms, " "), terms.constant);
}

// Key coordinate c over the interior window ending at p, from the decomposition's terms.
std::int64_t decomposed_key(const InteriorKeys::Coordinate& c, const copy::TokenString& window, std::size_t p) {
  std::int64_t out = c.constant;
  for (const auto& t : c.terms) out += t.by_token[static_cast<std::size_t>(window[p - t.offset])];
  return out;
}

}  // namespace

ProofResult prove_ngram_bound(int n, const QueryOptions& options, std::int64_t slack) {
  if (n < 1) throw std::invalid_argument("the ngram bound needs n >= 1");
  z3::context ctx;
  const z3::sort integer = ctx.int_sort();
  const z3::expr D = ctx.int_const("D"), C = ctx.int_const("C"), a = ctx.int_const("a");
  const auto token = [&](const z3::expr& t) { return t >= 0 && t < D; };
  std::vector<z3::func_decl> f;
  std::vector<z3::expr> x, named, hypotheses{D >= 2};
  z3::expr score = C, top = C, other_ngram = ctx.bool_val(false);
  std::optional<z3::expr> smallest_loss;
  for (int i = 0; i <= n; ++i) {
    f.push_back(z3::function(numbered("f", i).c_str(), integer, integer));
    x.push_back(ctx.int_const(numbered("x", i).c_str()));
    const z3::expr g = ctx.int_const(numbered("g", i).c_str());  // the first maximiser of f_i, as ngram_bound takes it
    named.push_back(g);
    const z3::func_decl& fi = f.back();
    hypotheses.push_back(token(x.back()) && token(g));
    hypotheses.push_back(z3::forall(a, z3::implies(token(a), fi(a) <= fi(g))));
    hypotheses.push_back(z3::forall(a, z3::implies(token(a) && a < g, fi(a) < fi(g))));
    score = score + fi(x.back());
    top = top + fi(g);
    if (i == 0) continue;  // the key's own token is not part of its n-gram
    // b_i: a maximiser of f_i over the other tokens, the runner-up
    const z3::expr b = ctx.int_const(numbered("b", i).c_str());
    named.push_back(b);
    hypotheses.push_back(token(b) && b != g);
    hypotheses.push_back(z3::forall(a, z3::implies(token(a) && a != g, fi(a) <= fi(b))));
    const z3::expr loss = fi(g) - fi(b);
    smallest_loss = smallest_loss ? z3::ite(loss < *smallest_loss, loss, *smallest_loss) : loss;
    other_ngram = other_ngram || x.back() != g;
  }
  hypotheses.push_back(other_ngram);
  const z3::expr goal = score <= top - *smallest_loss - ctx.int_val(slack);
  const QueryOutcome q = prove(ctx, fmt::format("{}.n{}", options.name, n), hypotheses, goal, options);
  ProofResult r = from_outcome(
      fmt::format("for every D >= 2, every query's terms C, f_0..f_{} (integer tables over the tokens) and every "
                  "interior window x whose n-gram is not g* (g*_i the first maximiser of f_i): C + sum_i f_i(x_i) <= "
                  "C + sum_i max f_i - min_(i=1..{}) (max f_i - max_(a != g*_i) f_i(a)){}",
                  n, n, slack == 0 ? std::string() : fmt::format(" - {}", slack)),
      q);
  if (q.model) replay_ngram_bound(*q.model, D, C, f, x, named, slack, r);
  return r;
}

ProofResult prove_key_decomposition(const IntegerLayer1& layer1, int alphabet,
                                    const std::vector<InteriorKeys::Coordinate>& coordinates,
                                    const QueryOptions& options) {
  const int n = layer1.n();
  const std::size_t tokens = static_cast<std::size_t>(alphabet);
  if (alphabet < 2 || tokens > layer1.tokens() || coordinates.size() != layer1.key_dim())
    throw std::invalid_argument(
        "the key decomposition needs 2 <= alphabet <= layer 1's tokens, and a table for every key coordinate");
  for (const auto& c : coordinates)
    for (const auto& t : c.terms)
      if (t.by_token.size() != tokens || t.offset > static_cast<std::uint32_t>(n))
        throw std::invalid_argument("a term of the key decomposition is not a table over the alphabet at an offset");
  z3::context ctx;
  std::vector<z3::expr> x, hypotheses;
  for (int i = 0; i <= n; ++i) {
    x.push_back(ctx.int_const(numbered("x", i).c_str()));
    hypotheses.push_back(x.back() >= 0 && x.back() < alphabet);
  }
  std::vector<z3::expr> units;  // relu(b_h + sum_i O_i(x_i)[h]), the hidden units over the symbolic window
  for (std::size_t h = 0; h < layer1.hidden_units(); ++h) {
    z3::expr pre = ctx.int_val(layer1.hidden_bias(h));
    for (std::size_t i = 0; i <= static_cast<std::size_t>(n); ++i) {
      std::vector<std::int64_t> column(tokens);
      for (std::size_t t = 0; t < tokens; ++t) column[t] = layer1.offset_column(i, t)[h];
      pre = pre + token_table(ctx, x[i], column);
    }
    units.push_back(z3::ite(pre > 0, pre, ctx.int_val(0)));
  }
  z3::expr goal = ctx.bool_val(true);
  for (std::size_t c = 0; c < coordinates.size(); ++c) {
    z3::expr key = ctx.int_val(0), decomposed = ctx.int_val(coordinates[c].constant);
    for (const auto& [h, w] : layer1.key_weights(c)) key = key + ctx.int_val(w) * units[h];
    for (const auto& t : coordinates[c].terms) decomposed = decomposed + token_table(ctx, x[t.offset], t.by_token);
    goal = goal && key == decomposed;
  }
  const QueryOutcome q =
      prove(ctx, fmt::format("{}.D{}-n{}", options.name, alphabet, n), hypotheses, goal.simplify(), options);
  ProofResult r = from_outcome(
      fmt::format("for every window of {} tokens of [{}]: each of the {} key coordinates of layer 1 (integers) "
                  "equals kappa_c + sum_i k_(c,i)(x_i)",
                  n + 1, alphabet, coordinates.size()),
      q);
  if (!q.model) return r;
  const auto window = model_window(*q.model, x, alphabet);
  if (!window) {
    r.counterexample = "a model whose window is not interior";
    return r;
  }
  const std::size_t p = static_cast<std::size_t>(n);
  const IntegerRow row = layer1.at(*window, p);
  for (std::size_t c = 0; c < coordinates.size() && !r.replayed; ++c) {
    const std::int64_t decomposed = decomposed_key(coordinates[c], *window, p);
    r.replayed = row.key[c] != decomposed;
    r.counterexample = fmt::format("window {}: key coordinate {} is {} in layer 1, {} decomposed",
                                   copy::format_tokens(*window), c, row.key[c], decomposed);
  }
  if (!r.replayed) r.counterexample = "window " + copy::format_tokens(*window) + ": every key coordinate agrees";
  return r;
}

}  // namespace tverify::proofs
