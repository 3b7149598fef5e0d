#include "constructions/rasp/rasp.hpp"

#include <algorithm>
#include <stdexcept>

namespace tverify::rasp {

namespace {

thread_local Run* innermost = nullptr;

std::string site_name(const std::source_location& where) {
  std::string file = where.file_name();
  if (const auto slash = file.find("constructions/"); slash != std::string::npos) file = file.substr(slash);
  return file + ":" + std::to_string(where.line());
}

void require_same_length(const Seq& a, const Seq& b) {
  if (a.size() != b.size()) throw std::invalid_argument("RASP: elementwise operands of different lengths");
}

// One elementwise operator: records its operands (program order names it) and applies f at every position.
template <class F>
Seq elementwise(const char* kind, bool linear, const Seq& a, const Seq& b, F f) {
  require_same_length(a, b);
  Run& run = current_run();
  const std::size_t op = run.next_operator();
  if (run.options().record) run.record_elementwise("op #" + std::to_string(op), kind, linear, a, &b);
  Seq out;
  out.literal = a.literal && b.literal;
  out.values.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out.values.push_back(f(a[i], b[i]));
  return out;
}

Seq literal_like(const Seq& x, long long c) {
  Seq out = full(x, Value(c));
  return out;
}

Value boolean(bool b) { return Value(b ? 1 : 0); }

}  // namespace

Seq sequence(const std::vector<long long>& tokens) {
  Seq s;
  for (long long t : tokens) s.values.emplace_back(t);
  return s;
}

bool equals(const Value& key, const Value& query) { return key == query; }
bool always(const Value&, const Value&) { return true; }

Run::Run(RunOptions options) : options_(options), outer_(innermost) { innermost = this; }
Run::~Run() { innermost = outer_; }

Run& current_run() {
  if (!innermost) throw std::logic_error("RASP: a program ran outside a rasp::Run");
  return *innermost;
}

void Run::record_mean(const std::string& site, std::size_t position, const Value& exact, const Value& truncated) {
  mean_differences_.push_back({site, position, exact, truncated});
}

void Run::record_elementwise(const std::string& site, const std::string& kind, bool linear, const Seq& a,
                             const Seq* b) {
  auto [it, fresh] = site_index_.try_emplace(site, sites_.size());
  if (fresh) sites_.push_back({site, kind, linear, {}});
  auto& arguments = sites_[it->second].arguments;
  for (std::size_t i = 0; i < a.size(); ++i) arguments.emplace(a[i], b ? (*b)[i] : Value(0));
}

Seq indices(const Seq& x) {
  Seq out;
  for (std::size_t i = 0; i < x.size(); ++i) out.values.emplace_back(static_cast<long long>(i));
  return out;
}

Seq full(const Seq& x, const Value& c) {
  Seq out;
  out.values.assign(x.size(), c);
  out.literal = true;
  return out;
}

Seq tok_map(const Seq& x, const std::function<Value(const Value&)>& f, std::source_location where) {
  Run& run = current_run();
  if (run.options().record) run.record_elementwise(site_name(where), "tok_map", false, x, nullptr);
  Seq out;
  for (const auto& v : x.values) out.values.push_back(f(v));
  return out;
}

Seq seq_map(const Seq& a, const Seq& b, const std::function<Value(const Value&, const Value&)>& f,
            std::source_location where) {
  require_same_length(a, b);
  Run& run = current_run();
  if (run.options().record) run.record_elementwise(site_name(where), "seq_map", false, a, &b);
  Seq out;
  for (std::size_t i = 0; i < a.size(); ++i) out.values.push_back(f(a[i], b[i]));
  return out;
}

Selector select(const SelectArgs& args) {
  require_same_length(args.k, args.q);
  const bool causal = args.causal || current_run().options().force_causal;
  Selector a;
  a.length = args.q.size();
  a.cells.assign(a.length * a.length, 0);
  for (std::size_t q = 0; q < a.length; ++q)
    for (std::size_t k = 0; k < a.length && (!causal || k <= q); ++k)
      a.cells[q * a.length + k] = args.pred(args.k[k], args.q[q]) ? 1 : 0;
  return a;
}

Seq sel_width(const Selector& a) {
  Seq out;
  for (std::size_t q = 0; q < a.length; ++q) {
    long long width = 0;
    for (std::size_t k = 0; k < a.length; ++k) width += a.at(q, k) ? 1 : 0;
    out.values.emplace_back(width);
  }
  return out;
}

Seq aggregate(const Selector& a, const Seq& v, Reduction reduction, const Value& default_value,
              const std::string& site) {
  if (v.size() != a.length) throw std::invalid_argument("RASP: aggregated values and selector of different lengths");
  Run& run = current_run();
  Seq out;
  for (std::size_t q = 0; q < a.length; ++q) {
    std::vector<const Value*> picked;
    for (std::size_t k = 0; k < a.length; ++k)
      if (a.at(q, k)) picked.push_back(&v[k]);
    if (picked.empty()) {
      out.values.push_back(default_value);
      continue;
    }
    if (reduction == Reduction::Max || reduction == Reduction::Min) {
      const auto less = [](const Value* x, const Value* y) { return *x < *y; };
      out.values.push_back(reduction == Reduction::Max ? **std::max_element(picked.begin(), picked.end(), less)
                                                       : **std::min_element(picked.begin(), picked.end(), less));
      continue;
    }
    Value sum = 0;
    for (const Value* p : picked) sum += *p;
    const Value exact = sum / Value(static_cast<long long>(picked.size()));
    const Value truncated = truncate_toward_zero(exact);
    if (run.options().record && exact != truncated) run.record_mean(site, q, exact, truncated);
    out.values.push_back(run.options().mean == MeanSemantics::Truncate ? truncated : exact);
  }
  return out;
}

Seq kqv(const KqvArgs& args, std::source_location where) {
  return aggregate(select({args.k, args.q, args.pred, args.causal}), args.v, args.reduction, args.default_value,
                   site_name(where));
}

Value floor_mod(const Value& a, const Value& b) {
  if (b == 0) throw std::domain_error("RASP: modulo by zero");
  const Value quotient = a / b;
  const BigInt floor_q = [&] {
    BigInt q = numerator(quotient) / denominator(quotient);  // truncates toward zero
    if (q * denominator(quotient) != numerator(quotient) && quotient < 0) q -= 1;
    return q;
  }();
  return a - b * Value(floor_q);
}

Value bitwise_and(const Value& a, const Value& b) {
  if (denominator(a) != 1 || denominator(b) != 1) throw std::domain_error("RASP: & of a non-integer");
  return Value(BigInt(numerator(a) & numerator(b)));
}

Value truncate_toward_zero(const Value& a) { return Value(BigInt(numerator(a) / denominator(a))); }

bool truthy(const Value& a) { return a != 0; }

Seq operator+(const Seq& a, const Seq& b) {
  return elementwise("add", true, a, b, [](const Value& x, const Value& y) { return Value(x + y); });
}
Seq operator-(const Seq& a, const Seq& b) {
  return elementwise("sub", true, a, b, [](const Value& x, const Value& y) { return Value(x - y); });
}
Seq operator*(const Seq& a, const Seq& b) {
  return elementwise("mul", a.literal || b.literal, a, b, [](const Value& x, const Value& y) { return Value(x * y); });
}
Seq operator%(const Seq& a, const Seq& b) { return elementwise("mod", b.literal && a.literal, a, b, floor_mod); }
Seq operator&(const Seq& a, const Seq& b) { return elementwise("and", a.literal && b.literal, a, b, bitwise_and); }
Seq operator==(const Seq& a, const Seq& b) {
  return elementwise("eq", a.literal && b.literal, a, b,
                     [](const Value& x, const Value& y) { return boolean(x == y); });
}
Seq operator<(const Seq& a, const Seq& b) {
  return elementwise("lt", a.literal && b.literal, a, b, [](const Value& x, const Value& y) { return boolean(x < y); });
}
Seq operator<=(const Seq& a, const Seq& b) {
  return elementwise("le", a.literal && b.literal, a, b,
                     [](const Value& x, const Value& y) { return boolean(x <= y); });
}
Seq operator>(const Seq& a, const Seq& b) {
  return elementwise("gt", a.literal && b.literal, a, b, [](const Value& x, const Value& y) { return boolean(x > y); });
}
Seq operator-(const Seq& a) { return literal_like(a, 0) - a; }

Seq operator+(const Seq& a, long long c) { return a + literal_like(a, c); }
Seq operator-(const Seq& a, long long c) { return a - literal_like(a, c); }
Seq operator-(long long c, const Seq& a) { return literal_like(a, c) - a; }
Seq operator*(const Seq& a, long long c) { return a * literal_like(a, c); }
Seq operator*(long long c, const Seq& a) { return literal_like(a, c) * a; }
Seq operator&(const Seq& a, long long c) { return a & literal_like(a, c); }
Seq operator==(const Seq& a, long long c) { return a == literal_like(a, c); }

}  // namespace tverify::rasp
