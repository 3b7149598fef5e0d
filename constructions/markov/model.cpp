#include "constructions/markov/model.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace tverify::markov {

Layout::Layout(Shapes shapes) : shapes_(shapes) {
  const int d = shapes.d, m = shapes.m, r = shapes.r;
  auto add = [&](std::string name, int rows, int cols) {
    blocks_.push_back({std::move(name), size_, rows, cols});
    size_ += rows * cols;
  };
  add("e", 1, d);
  add("p", shapes.N, d);
  add("W_Q", m, d);
  add("W_K", m, d);
  add("W_V", m, d);
  add("W_O", d, m);
  add("W_1", r, d);
  add("W_2", d, r);
  add("b", 1, 1);
  if (!shapes.tied) add("a", 1, d);
}

const Block& Layout::block(const std::string& name) const {
  for (const auto& b : blocks_)
    if (b.name == name) return b;
  throw std::out_of_range("no parameter block '" + name + "'");
}

bool Layout::has(const std::string& name) const {
  for (const auto& b : blocks_)
    if (b.name == name) return true;
  return false;
}

std::string Layout::entry_name(int index) const {
  for (const auto& b : blocks_) {
    if (index < b.offset || index >= b.offset + b.size()) continue;
    const int row = (index - b.offset) / b.cols, col = (index - b.offset) % b.cols;
    if (b.name == "b") return "b";
    if (b.name == "p") return fmt::format("p_{}[{}]", row + 1, col + 1);
    if (b.rows == 1) return fmt::format("{}[{}]", b.name, col + 1);
    return fmt::format("{}[{},{}]", b.name, row + 1, col + 1);
  }
  throw std::out_of_range("parameter index out of range");
}

void Point::fill(const std::string& name, const Exact& x) {
  const Block& b = layout.block(name);
  for (int i = 0; i < b.size(); ++i) set(b.offset + i, x);
}

bool Point::block_is_zero(const std::string& name) const {
  const Block& b = layout.block(name);
  for (int i = 0; i < b.size(); ++i)
    if (!exact[b.offset + i] || *exact[b.offset + i] != 0) return false;
  return true;
}

std::vector<Exact> Point::exact_row(const std::string& name, int row) const {
  const Block& b = layout.block(name);
  std::vector<Exact> out;
  for (int j = 0; j < b.cols; ++j) {
    const auto& x = exact[b.offset + row * b.cols + j];
    if (!x)
      throw std::invalid_argument("parameter " + layout.entry_name(b.offset + row * b.cols + j) + " is not rational");
    out.push_back(*x);
  }
  return out;
}

Real reciprocal(const Real& x) { return Real(1) / x; }
Real softplus(const Real& x) { return log(Real(1) + exp(x)); }
Real sigmoid(const Real& x) { return Real(1) / (Real(1) + exp(-x)); }

ModelWeights<Real> weights_of(const Point& point) {
  return ModelWeights<Real>{point.layout.shapes(), point.layout, point.values};
}

}  // namespace tverify::markov
