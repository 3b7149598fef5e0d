// An ONNX model as tverify evaluates it: its nodes in topological order with every value numbered (a slot), its
// weights as exact tensors (a stored float is a dyadic rational, entered without rounding), the token input and the
// logits output. Nothing here knows protobuf; model/onnx_reader.* builds a Graph from a file's bytes.
#pragma once

#include "model/tensor.hpp"
#include "core/exact.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tverify::model {

using ExactTensor = Tensor<Exact>;

struct Attribute {
  enum class Kind { Int, Float, Ints, Floats, String, Tensor };
  Kind kind = Kind::Int;
  std::int64_t i = 0;
  Exact f;
  std::vector<std::int64_t> ints;
  std::vector<Exact> floats;
  std::string s;
  ExactTensor tensor;
};

struct Node {
  std::string name;  // the node's name, or "<op> #<index>" when the file gives none
  std::string op;
  std::vector<int> inputs;   // slots; -1 for an optional input left out
  std::vector<int> outputs;  // slots
  std::map<std::string, Attribute> attributes;

  const Attribute* attribute(const std::string& key) const;
  std::int64_t int_attribute(const std::string& key, std::int64_t fallback) const;
  Exact float_attribute(const std::string& key, const Exact& fallback) const;
  // What messages call the node: "node 'name' (Op)".
  std::string label() const { return "node '" + name + "' (" + op + ")"; }
};

// One dimension of the token input or the output: a number, or a symbolic name (a dynamic axis).
struct Dimension {
  std::optional<std::int64_t> size;
  std::string symbol;
};

// One weight --weights-as-decimal snapped: an initializer or a Constant's value, its real values, and how many of
// them the snap changed.
struct SnappedWeight {
  std::string weight;
  std::int64_t values = 0, changed = 0;
};

struct Graph {
  std::int64_t opset = 0;
  std::string producer;  // "pytorch 1.13.1"
  std::vector<Node> nodes;
  int slot_count = 0;
  std::map<int, ExactTensor> constants;  // initializers, by slot
  int input_slot = -1, output_slot = -1;
  std::string input_name, output_name;
  std::vector<Dimension> input_dims, output_dims;
  ElementKind input_kind = ElementKind::Integer;
  // The ONNX type of every integer value narrower than int64, by slot (model/integer_types.hpp): the
  // evaluator refuses such a value outside its type's range.
  std::map<int, std::int64_t> narrow_integers;
  // What --weights-as-decimal snapped, in the order the file holds the weights (empty without it).
  std::vector<SnappedWeight> snapped_weights;
  // Every op is rational (no Exp, Softmax, Sqrt, ...): the whole graph evaluates in exact arithmetic.
  bool rational = true;
  // Every op is rational or one of Exp, Softmax, Sigmoid, Log, Sqrt and Pow: the graph may evaluate in exact exp-log
  // arithmetic (core/exp_log.hpp), on inputs whose values stay within it.
  bool exp_log = true;

  // The fixed sequence length of the token input (its last axis), when it has no symbolic name.
  std::optional<std::int64_t> fixed_length() const;
  // Drops the initializers no node reads: nothing is converted to any precision for them.
  void drop_unread_constants();
  // Drops the nodes the output does not depend on: they are never evaluated, so an error or an undecidable comparison
  // in one cannot spoil an input (the reader checked them all the same).
  void drop_dead_nodes();
};

}  // namespace tverify::model
