// An exact interpreter of the RASP-L dialect of Zhou et al. (2024) that ENTP's Algorithms 4-6 are written in
// (docs/count3.md): sequences of exact rationals, selectors A[q][k] = pred(k_j, q_i), `sel_width`, and
// `kqv` aggregation with mean / max / min and a default for queries that select nothing.
//
// The functions read like the Python: kqv({.k = idxs, .q = n - 1, .v = x, .pred = equals, .reduction = Mean}).
// Every call runs under the semantics of the current `Run` (one per thread, RAII): which mean (the reference one,
// truncated toward zero, or the exact rational), whether every selector is forced causal (what a decoder computes),
// and whether to record what the run sees (places where the two means differ, the values each elementwise map
// receives). Booleans are the integers 0 and 1, as in Python; `%` is Python's floor modulo; `&` is bitwise on
// integers (two's complement, so -x & 127 == (-x) mod 128).
#pragma once

#include "core/exact.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

namespace tverify::rasp {

using Value = Exact;

// One value per position. `literal` marks a sequence that does not depend on the input (full(x, c), scalars): a
// product with it is linear, which matters to the MLP argument of ENTP Lemma A.6.
struct Seq {
  std::vector<Value> values;
  bool literal = false;

  std::size_t size() const { return values.size(); }
  const Value& operator[](std::size_t i) const { return values[i]; }
};

Seq sequence(const std::vector<long long>& tokens);

// A[q][k]: does query position q select key position k.
struct Selector {
  std::size_t length = 0;
  std::vector<char> cells;
  bool at(std::size_t q, std::size_t k) const { return cells[q * length + k] != 0; }
};

using Predicate = std::function<bool(const Value& key, const Value& query)>;
bool equals(const Value& key, const Value& query);
bool always(const Value& key, const Value& query);  // the dialect's `true`

enum class MeanSemantics { Truncate, Exact };
enum class Reduction { Mean, Max, Min };

// A mean whose truncated value differs from the exact one.
struct MeanDifference {
  std::string site;
  std::size_t position = 0;
  Value exact, truncated;
};

// What one elementwise map received during a run: every distinct argument pair.
struct ElementwiseSite {
  std::string site;     // "file:line" for tok_map/seq_map, "op #k" for operators (k in program order)
  std::string kind;     // "seq_map", "tok_map", "add", "mul", "mod", ...
  bool linear = false;  // an affine map of its arguments (sums, differences, products with a literal)
  std::set<std::pair<Value, Value>> arguments;
};

struct RunOptions {
  MeanSemantics mean = MeanSemantics::Truncate;
  bool force_causal = false;  // every select causal, as in a decoder's attention
  bool record = false;        // fill mean_differences and sites
};

// The semantics of the program calls made on this thread while it lives (they nest: the innermost counts).
class Run {
 public:
  explicit Run(RunOptions options);
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  const RunOptions& options() const { return options_; }
  const std::vector<MeanDifference>& mean_differences() const { return mean_differences_; }
  const std::vector<ElementwiseSite>& sites() const { return sites_; }

  void record_mean(const std::string& site, std::size_t position, const Value& exact, const Value& truncated);
  void record_elementwise(const std::string& site, const std::string& kind, bool linear, const Seq& a, const Seq* b);
  std::size_t next_operator() { return ++operators_; }
  void reset_operators() { operators_ = 0; }

 private:
  RunOptions options_;
  Run* outer_;
  std::vector<MeanDifference> mean_differences_;
  std::vector<ElementwiseSite> sites_;
  std::map<std::string, std::size_t> site_index_;
  std::size_t operators_ = 0;
};

// The innermost Run of this thread; throws std::logic_error when there is none.
Run& current_run();

Seq indices(const Seq& x);
Seq full(const Seq& x, const Value& c);
Seq tok_map(const Seq& x, const std::function<Value(const Value&)>& f,
            std::source_location where = std::source_location::current());
Seq seq_map(const Seq& a, const Seq& b, const std::function<Value(const Value&, const Value&)>& f,
            std::source_location where = std::source_location::current());

struct SelectArgs {
  const Seq& k;
  const Seq& q;
  Predicate pred;
  bool causal = false;
};
Selector select(const SelectArgs& args);
Seq sel_width(const Selector& a);

struct KqvArgs {
  const Seq& k;
  const Seq& q;
  const Seq& v;
  Predicate pred;
  Value default_value = 0;
  Reduction reduction = Reduction::Mean;
  bool causal = false;
};
Seq kqv(const KqvArgs& args, std::source_location where = std::source_location::current());
Seq aggregate(const Selector& a, const Seq& v, Reduction reduction, const Value& default_value,
              const std::string& site);

// Python semantics on exact values.
Value floor_mod(const Value& a, const Value& b);    // a - b * floor(a / b); b != 0
Value bitwise_and(const Value& a, const Value& b);  // integers only (std::domain_error otherwise)
Value truncate_toward_zero(const Value& a);
bool truthy(const Value& a);

Seq operator+(const Seq& a, const Seq& b);
Seq operator-(const Seq& a, const Seq& b);
Seq operator*(const Seq& a, const Seq& b);
Seq operator%(const Seq& a, const Seq& b);
Seq operator&(const Seq& a, const Seq& b);
Seq operator==(const Seq& a, const Seq& b);
Seq operator<(const Seq& a, const Seq& b);
Seq operator<=(const Seq& a, const Seq& b);
Seq operator>(const Seq& a, const Seq& b);
Seq operator-(const Seq& a);
// With a scalar on either side (the scalar is a literal sequence).
Seq operator+(const Seq& a, long long c);
Seq operator-(const Seq& a, long long c);
Seq operator-(long long c, const Seq& a);
Seq operator*(const Seq& a, long long c);
Seq operator*(long long c, const Seq& a);
Seq operator&(const Seq& a, long long c);
Seq operator==(const Seq& a, long long c);

}  // namespace tverify::rasp
