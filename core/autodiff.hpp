// Reverse-mode automatic differentiation on a tape over a scalar type T (Interval<B> for certified derivatives), with
// second-order adjoints for exact Hessian columns ("forward over reverse": a forward tangent in one input direction,
// then a reverse sweep of the adjoints' tangents; Griewank & Walther, Evaluating Derivatives, Ch. 5).
//
// Every node is the input, a constant, a linear combination of two nodes, a product of two nodes or a unary map;
// each stores its value and its local first and second derivatives, evaluated in T when the node is recorded. With
// T = Interval the derivatives are enclosures, so every gradient and Hessian entry encloses the true one. ReLU at its
// kink (an argument whose interval contains 0) gets the derivative enclosure [0, 1], the hull of its one-sided
// derivatives; the tape counts such nodes (kinks()) so that callers can say when a result is a generalized derivative.
// Boost.Math's autodiff is forward-mode only (nested per variable): a full Hessian over P inputs would cost O(P^2) per
// operation, so this tape is written here.
#pragma once

#include "core/scalar.hpp"

#include <cstdint>
#include <vector>

namespace tverify {

template <class T>
class Tape;

// A value recorded on a tape.
template <class T>
struct TapeVar {
  Tape<T>* tape = nullptr;
  std::int32_t index = -1;
};

template <class T>
class Tape {
 public:
  using Var = TapeVar<T>;

  void clear() {
    nodes_.clear();
    kinks_ = 0;
  }
  Var input(const T& value, int slot) { return push({Kind::Input, -1, -1, value, T(0), T(0), T(0), slot}); }
  Var constant(const T& value) { return push({Kind::Constant, -1, -1, value, T(0), T(0), T(0), -1}); }
  const T& value(Var v) const { return nodes_[v.index].value; }
  std::size_t size() const { return nodes_.size(); }
  int kinks() const { return kinks_; }

  // c_a a + c_b b
  Var linear(Var a, const T& ca, Var b, const T& cb) {
    return push({Kind::Linear, a.index, b.index, ca * value(a) + cb * value(b), ca, cb, T(0), -1});
  }
  Var scale(Var a, const T& c) { return push({Kind::Linear, a.index, -1, c * value(a), c, T(0), T(0), -1}); }
  Var multiply(Var a, Var b) {
    return push({Kind::Multiply, a.index, b.index, value(a) * value(b), value(b), value(a), T(0), -1});
  }
  // f(a) with f'(a) and f''(a) given.
  Var unary(Var a, const T& f, const T& df, const T& d2f) {
    return push({Kind::Unary, a.index, -1, f, df, T(0), d2f, -1});
  }
  Var relu_of(Var a) {
    const T& x = value(a);
    switch (sign_of(x)) {
      case Sign::Positive: return unary(a, x, T(1), T(0));
      case Sign::Negative:
      case Sign::Zero: return unary(a, T(0), T(0), T(0));
      default: ++kinks_; return unary(a, relu(x), T::hull(Exact(0), Exact(1)), T(0));
    }
  }

  // The adjoint of every node for d(seed * out) / d(node).
  std::vector<T> adjoints(Var out, const T& seed) const {
    std::vector<T> adj(nodes_.size(), T(0));
    adj[out.index] = seed;
    for (std::size_t k = nodes_.size(); k-- > 0;) {
      const Node& n = nodes_[k];
      if (n.kind == Kind::Input || n.kind == Kind::Constant || is_zero(adj[k])) continue;
      multiply_add(adj[n.a], n.da, adj[k]);
      if (n.b >= 0) multiply_add(adj[n.b], n.db, adj[k]);
    }
    return adj;
  }

  // gradient[slot] += adjoint of each input.
  void add_gradient(const std::vector<T>& adj, std::vector<T>& gradient) const {
    for (std::size_t k = 0; k < nodes_.size(); ++k)
      if (nodes_[k].kind == Kind::Input) gradient[nodes_[k].slot] += adj[k];
  }

  // Scratch space of add_hessian_column, reused across columns (no allocation per column).
  struct Workspace {
    std::vector<T> tangent, second;
    std::vector<char> moving, touched;
  };

  // column[i] += d^2(seed * out) / d(slot_i) d(slot), given adj = adjoints(out, seed). Zero tangents are skipped.
  void add_hessian_column(const std::vector<T>& adj, int slot, std::vector<T>& column, Workspace& ws) const {
    const std::size_t size = nodes_.size();
    if (ws.tangent.size() < size) {
      ws.tangent.resize(size, T(0)), ws.second.resize(size, T(0));
      ws.moving.resize(size, 0), ws.touched.resize(size, 0);
    }
    auto& tangent = ws.tangent;
    auto& second = ws.second;
    auto& moving = ws.moving;
    auto& touched = ws.touched;
    bool any = false;
    for (std::size_t k = 0; k < size; ++k) {
      const Node& n = nodes_[k];
      if (n.kind == Kind::Input) {
        if (n.slot == slot) tangent[k] = T(1), moving[k] = 1, any = true;
        continue;
      }
      if (n.kind == Kind::Constant) continue;
      const bool ma = moving[n.a], mb = n.b >= 0 && moving[n.b];
      if (!ma && !mb) continue;
      moving[k] = 1;
      if (ma) multiply_add(tangent[k], n.da, tangent[n.a]);
      if (mb) multiply_add(tangent[k], n.db, tangent[n.b]);
    }
    if (any) {
      for (std::size_t k = size; k-- > 0;) {
        const Node& n = nodes_[k];
        if (n.kind == Kind::Input) {
          if (touched[k]) column[n.slot] += second[k];
          continue;
        }
        if (n.kind == Kind::Constant) continue;
        if (touched[k]) {
          add_to(ws, n.a, n.da, second[k]);
          if (n.b >= 0) add_to(ws, n.b, n.db, second[k]);
        }
        if (is_zero(adj[k])) continue;
        if (n.kind == Kind::Multiply) {
          if (moving[n.b]) add_to(ws, n.a, adj[k], tangent[n.b]);
          if (moving[n.a]) add_to(ws, n.b, adj[k], tangent[n.a]);
        } else if (n.kind == Kind::Unary && moving[n.a] && !is_zero(n.d2)) {
          add_to(ws, n.a, adj[k] * n.d2, tangent[n.a]);
        }
      }
    }
    for (std::size_t k = 0; k < size; ++k) {  // leave the workspace zero for the next column
      if (moving[k]) tangent[k] = T(0), moving[k] = 0;
      if (touched[k]) second[k] = T(0), touched[k] = 0;
    }
  }

 private:
  enum class Kind : std::uint8_t { Input, Constant, Linear, Multiply, Unary };
  struct Node {
    Kind kind;
    std::int32_t a, b;
    T value, da, db, d2;
    int slot;
  };

  Var push(Node n) {
    nodes_.push_back(std::move(n));
    return Var{this, static_cast<std::int32_t>(nodes_.size() - 1)};
  }
  static void multiply_add(T& into, const T& a, const T& b) {
    if constexpr (requires { into.add_product(a, b); })
      into.add_product(a, b);
    else
      into += a * b;
  }
  static void add_to(Workspace& ws, std::int32_t i, const T& a, const T& b) {
    multiply_add(ws.second[i], a, b);
    ws.touched[i] = 1;
  }

  std::vector<Node> nodes_;
  int kinks_ = 0;
};

// Arithmetic on tape variables, so that one templated model evaluates over T or over TapeVar<T>.
template <class T>
TapeVar<T> operator+(TapeVar<T> a, TapeVar<T> b) {
  return a.tape->linear(a, T(1), b, T(1));
}
template <class T>
TapeVar<T> operator-(TapeVar<T> a, TapeVar<T> b) {
  return a.tape->linear(a, T(1), b, T(-1));
}
template <class T>
TapeVar<T> operator-(TapeVar<T> a) {
  return a.tape->scale(a, T(-1));
}
template <class T>
TapeVar<T> operator*(TapeVar<T> a, TapeVar<T> b) {
  return a.tape->multiply(a, b);
}
template <class T>
TapeVar<T> operator*(TapeVar<T> a, const T& c) {
  return a.tape->scale(a, c);
}
template <class T>
TapeVar<T> exp(TapeVar<T> a) {
  const T e = exp(a.tape->value(a));
  return a.tape->unary(a, e, e, e);
}
template <class T>
TapeVar<T> reciprocal(TapeVar<T> a) {
  const T r = T(1) / a.tape->value(a);
  return a.tape->unary(a, r, -(r * r), T(2) * r * r * r);
}
template <class T>
TapeVar<T> relu(TapeVar<T> a) {
  return a.tape->relu_of(a);
}
// softplus(a) = log(1 + e^a): derivative sigma(a), second derivative sigma(a) (1 - sigma(a)).
template <class T>
TapeVar<T> softplus(TapeVar<T> a) {
  const T e = exp(a.tape->value(a));
  const T sigma = e / (T(1) + e);
  return a.tape->unary(a, log(T(1) + e), sigma, sigma * (T(1) - sigma));
}

}  // namespace tverify
