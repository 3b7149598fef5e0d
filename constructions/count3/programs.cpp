#include "constructions/count3/programs.hpp"

#include <stdexcept>

namespace tverify::count3 {

using namespace rasp;

namespace {

// Algorithm 4's g: "g(a, b) is equivalent a % b if 0 <= a < 2 * b".
Value g(const Value& a, const Value& b) { return a < b ? a : Value(a - b); }

}  // namespace

// Algorithm 4, Count3 RASP encoder implementation (Appendix F), line by line.
Seq alg4_count_triplets(const Seq& x, Alg4Variant variant) {
  Value (*const mod)(const Value&, const Value&) = variant == Alg4Variant::Paper ? &g : &rasp::floor_mod;
  const Seq idxs = indices(x);
  // set n[i] = len(x) and last_x[i] = x[-1] for all i (only possible with encoder)
  const Seq n = sel_width(select({.k = x, .q = x, .pred = always}));
  const Seq last_x = kqv({.k = idxs, .q = n - 1, .v = x, .pred = equals, .reduction = Reduction::Mean});
  const Seq y = seq_map(n - x, n, mod);       // y[i] = -x[i] % n
  const Seq z = seq_map(x + last_x, n, mod);  // z[i] = (x[i] + x[-1]) % n
  // c = sum(A), where A[i, j] = 1 if y[i] == z[j] else 0
  Seq c = kqv({.k = full(x, 1),
               .q = full(x, 1),
               .v = sel_width(select({.k = z, .q = y, .pred = equals})) * n,  // sum(v) = mean(v * n)
               .pred = equals,
               .reduction = Reduction::Mean});
  c = c - idxs * n;  // compute count % n
  // because count <= n^2, there exists i such that c[i] = count % n or c[i] = n;
  // the case c[i] = n is handled by the default value (0) when no keys are selected
  return kqv({.k = c,
              .q = n,
              .v = c,
              .pred = [](const Value& a, const Value& b) { return 0 <= a && a < b; },
              .reduction = Reduction::Mean});
}

const std::vector<std::string>& alg4_operator_expressions() {
  static const std::vector<std::string> ops{
      "n - 1", "n - x", "x + last_x", "sel_width(select(k=z, q=y, pred=equals)) * n", "idxs * n", "c - idxs * n"};
  return ops;
}

// Algorithm 5, Match3' RASP decoder implementation (Appendix F).
Seq alg5_has_triplet(const Seq& x) {
  const Seq idxs = indices(x);
  const Seq first_x =
      kqv({.k = idxs, .q = full(x, 0), .v = x, .pred = equals, .reduction = Reduction::Mean, .causal = true});
  // use bitmask to compute mod
  const Seq y = -x & 127;             // y[i] = -x[i] % 128
  const Seq z = (first_x + x) & 127;  // z[i] = (x[0] + x[i]) % 128
  // max_count[-1] > 0 if there exists (i, j) such that y[i] == z[j]
  const Seq max_count = kqv({.k = full(x, 1),
                             .q = full(x, 1),
                             .v = sel_width(select({.k = y, .q = z, .pred = equals})),
                             .pred = equals,
                             .reduction = Reduction::Max});
  return tok_map(max_count, [](const Value& a) { return a < 1 ? a : Value(1); });  // return 0 or 1
}

// Algorithm 6, Count3 RASP decoder with chain of thought (Appendix F).
Seq alg6_count_triplets(const Seq& x) {
  const long long EOS = eos_token;
  const Seq idxs = indices(x);
  Seq n = kqv({.k = x, .q = full(x, EOS), .v = idxs, .pred = equals, .reduction = Reduction::Min, .causal = true});
  n = tok_map(n, [](const Value& a) { return a != 0 ? a : Value(-2); });
  const Seq last_x = kqv({.k = idxs, .q = n - 1, .v = x, .pred = equals, .reduction = Reduction::Mean});
  const Seq seq_len = kqv({.k = x, .q = x, .v = idxs, .pred = always, .reduction = Reduction::Max, .causal = true});
  const Seq i = seq_len - n;
  const Seq j = seq_len - 2 * n;
  const Seq xi = kqv({.k = idxs, .q = i, .v = x, .pred = equals, .reduction = Reduction::Max, .causal = true});
  const Seq xj = kqv({.k = idxs, .q = j, .v = x, .pred = equals, .reduction = Reduction::Max, .causal = true});
  const Seq y = (n - xi) % n + 1;
  const Seq z = (last_x + xj) % n + 1;
  const Seq y_mask_write = (n <= idxs) & (idxs < 2 * n);
  const Seq z_mask_write = (2 * n <= idxs) & (idxs < 3 * n);
  const Seq y_mask_read = (n < idxs) & (idxs <= 2 * n);
  const Seq z_mask_read = (2 * n < idxs) & (idxs <= 3 * n);
  const Seq z_count = sel_width(select({.k = x * y_mask_read,
                                        .q = z,
                                        .pred = [](const Value& a, const Value& b) { return a == b && a != 0; },
                                        .causal = true}));
  const Seq count = kqv({.k = z_mask_read,
                         .q = z_mask_read,
                         .v = n * x * z_mask_read,
                         .pred = [](const Value& a, const Value& b) { return truthy(bitwise_and(a, b)); },
                         .reduction = Reduction::Mean,
                         .causal = true});
  const Seq ans = count % n;
  const Seq ans_mask_write = idxs == 3 * n;
  const Seq eos_mask_write = idxs > 3 * n;
  return y * y_mask_write + z_count * z_mask_write + ans * ans_mask_write + EOS * eos_mask_write;
}

Value last_output(const Seq& program_output) {
  if (program_output.size() == 0) throw std::invalid_argument("RASP: a program's output is empty");
  return program_output.values.back();
}

ChainOfThought generate_alg6(const Sequence& x, std::size_t limit) {
  Seq s = sequence(x);
  s.values.emplace_back(eos_token);
  ChainOfThought out;
  while (out.generated.size() < limit) {
    current_run().reset_operators();
    const Value next = last_output(alg6_count_triplets(s));
    if (denominator(next) != 1) {
      out.non_integer = next;
      return out;
    }
    const long long token = static_cast<long long>(numerator(next));
    out.generated.push_back(token);
    s.values.push_back(next);
    if (token == eos_token) {
      out.terminated = true;
      break;
    }
  }
  return out;
}

Sequence expected_alg6_chain(const Sequence& x) {
  const long long n = static_cast<long long>(x.size());
  Sequence y, chain;
  for (long long xi : x) y.push_back(floor_mod(-xi, n) + 1);
  chain = y;
  for (long long xj : x) {
    const long long z = floor_mod(x.back() + xj, n) + 1;
    long long matches = 0;
    for (long long yi : y) matches += yi == z ? 1 : 0;
    chain.push_back(matches);
  }
  chain.push_back(count3_eq4(x));
  chain.push_back(eos_token);
  return chain;
}

}  // namespace tverify::count3
