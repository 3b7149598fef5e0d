#include "constructions/markov/points.hpp"

#include <random>
#include <stdexcept>

namespace tverify::markov {

namespace {

Real log_of(const Exact& x) { return log(Real(x)); }

struct Builder {
  SymbolicPoint out;
  std::map<std::string, Real> symbols;

  void set(int index, const Exact& x) {
    out.point.set(index, x);
    out.symbolic[index] = Affine{x, {}};
  }
  // constant + coefficient * symbol
  void set(int index, const Exact& constant, const std::string& symbol, const Exact& coefficient) {
    out.point.set(index, Real(constant) + Real(coefficient) * symbols.at(symbol));
    out.symbolic[index] = Affine{constant, {{symbol, coefficient}}};
  }
  void fill(const std::string& block, const Exact& x) {
    const Block& b = out.point.layout.block(block);
    for (int i = 0; i < b.size(); ++i) set(b.offset + i, x);
  }
  void fill(const std::string& block, const Exact& constant, const std::string& symbol, const Exact& coefficient) {
    const Block& b = out.point.layout.block(block);
    for (int i = 0; i < b.size(); ++i) set(b.offset + i, constant, symbol, coefficient);
  }
  void arbitrary(const std::string& block, const Arbitrary& a, std::mt19937_64& rng) {
    const Block& b = out.point.layout.block(block);
    std::uniform_int_distribution<int> k(-8, 8);
    for (int i = 0; i < b.size(); ++i) {
      switch (a.fill) {
        case Arbitrary::Fill::Zero: set(b.offset + i, Exact(0)); break;
        case Arbitrary::Fill::Constant: set(b.offset + i, a.constant); break;
        case Arbitrary::Fill::Random: set(b.offset + i, Exact(k(rng), 8)); break;
      }
    }
  }
  // The readout: a = e when tied, else the separate block set to e (Thms. 3, 4).
  void copy_e_to_a() {
    if (!out.point.layout.has("a")) return;
    const Block& e = out.point.layout.block("e");
    const Block& a = out.point.layout.block("a");
    for (int i = 0; i < e.size(); ++i) {
      out.point.values[a.offset + i] = out.point.values[e.offset + i];
      out.point.exact[a.offset + i] = out.point.exact[e.offset + i];
      out.symbolic[a.offset + i] = out.symbolic[e.offset + i];
    }
  }
};

}  // namespace

Exact w_relation_coefficient(const Shapes& shapes, Variant variant) {
  return Exact(shapes.d) * (variant == Variant::Paper ? shapes.d : shapes.r);
}

std::map<std::string, Real> symbol_values(const MarkovChain& chain, const Shapes& shapes, Variant variant) {
  const int d = shapes.d;
  const Exact& p = chain.p();
  const Exact& q = chain.q();
  std::map<std::string, Real> s;
  s.emplace("l1", log_of(p / (1 - p)));
  s.emplace("l2", log_of((1 - q) / q));
  s.emplace("l3", log_of(p / q));
  const Real gap = s.at("l2") - s.at("l1");             // log((1-p)(1-q)/(pq))
  if (chain.switching() == 1) s.emplace("s", Real(0));  // log(1) = 0 exactly; its enclosure may straddle 0
  if (chain.switching() < 1) s.emplace("s", sqrt(gap / Real(d)));
  const Real under = Real(Exact(2) / w_relation_coefficient(shapes, variant)) * (Real(1) - gap / Real(d));
  if (under.sign() == Sign::Positive || under.sign() == Sign::Zero) s.emplace("w", sqrt(under));
  return s;
}

SymbolicPoint make_point(PointKind kind, const MarkovChain& chain, const Shapes& shapes, const Arbitrary& arbitrary,
                         Variant variant) {
  const Layout layout(shapes);
  Builder b{SymbolicPoint{Point(layout), std::vector<Affine>(layout.size()), ""},
            symbol_values(chain, shapes, variant)};
  std::mt19937_64 rng(arbitrary.seed);
  for (const char* block : {"W_Q", "W_K", "W_V"}) b.arbitrary(block, arbitrary, rng);
  b.fill("W_O", Exact(0));
  if (kind == PointKind::Pi) {  // eq. 11
    b.out.equation = "eq. 11";
    b.fill("e", Exact(0));
    b.arbitrary("p", arbitrary, rng);
    b.arbitrary("W_1", arbitrary, rng);
    b.fill("W_2", Exact(0));
    b.set(layout.index("b"), Exact(0), "l3", Exact(1));
  } else if (chain.switching() <= 1) {  // eq. 7
    b.out.equation = "eq. 7";
    b.fill("e", Exact(0), "s", Exact(1));
    b.fill("p", Exact(0));
    b.arbitrary("W_1", arbitrary, rng);
    b.fill("W_2", Exact(0));
    b.set(layout.index("b"), Exact(0), "l1", Exact(1));
  } else {  // eq. 10
    b.out.equation = "eq. 10";
    if (!b.symbols.count("w")) throw std::invalid_argument("eq. 10: w* is undefined (1 - (1/d) log(...) < 0)");
    b.fill("e", Exact(1));
    b.fill("p", Exact(-1, 2));
    b.fill("W_1", Exact(0), "w", Exact(1));
    b.fill("W_2", Exact(0), "w", Exact(-1));
    b.set(layout.index("b"), Exact(shapes.d, 2), "l1", Exact(1));
  }
  b.copy_e_to_a();
  return std::move(b.out);
}

Point random_point(const Shapes& shapes, std::uint64_t seed) {
  Point point{Layout(shapes)};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> k(-8, 8);
  for (int i = 0; i < point.layout.size(); ++i) point.set(i, Exact(k(rng), 8));
  return point;
}

}  // namespace tverify::markov
