// Writes an ONNX model (opset 17, protobuf through Debian's libonnx) from exact weights, for `tverify export`: a graph
// with one integer token input of symbolic length `seq` and one real output of shape [seq, classes].
//
// Exactness: a rational constant is stored as float64 when every entry is a dyadic rational a double holds exactly;
// otherwise as Div(numerators, denominators) of integer tensors: float64 when every integer is below 2^53, else
// Horner sums of base-2^52 digits, each exact in a float64. tverify's evaluator computes those quotients exactly (or
// encloses them, in a graph with irrational ops). Irrational constants are left to the
// caller, as ops on rational ones (Sqrt, Log), so the model computes the exact real weights and no float approximates
// them.
#pragma once

#include "core/exact.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tverify::model {

struct OnnxAttribute {
  std::string name;
  std::variant<std::int64_t, std::vector<std::int64_t>, std::string> value;
};

class OnnxWriter {
 public:
  // A model of the given opset: 17 for tverify's exports (tests write 18 as well).
  explicit OnnxWriter(const std::string& graph_name, std::int64_t opset = 17);
  ~OnnxWriter();
  OnnxWriter(const OnnxWriter&) = delete;
  OnnxWriter& operator=(const OnnxWriter&) = delete;

  // The graph's input: int64 tokens of shape [seq].
  std::string token_input(const std::string& name);
  // A constant int64 tensor.
  std::string integers(const std::string& name, const std::vector<std::int64_t>& shape,
                       const std::vector<std::int64_t>& values);
  // A constant real tensor holding exactly these rationals (see the header comment).
  std::string rationals(const std::string& name, const std::vector<std::int64_t>& shape,
                        const std::vector<Exact>& values);
  std::string scalar(const std::string& name, const Exact& value) { return rationals(name, {}, {value}); }
  // A real scalar -infinity (an attention mask's excluded entry).
  std::string minus_infinity(const std::string& name);
  // A node with one output, named `output` (generated from the op when empty); returns the output's name.
  std::string node(const std::string& op, const std::vector<std::string>& inputs,
                   const std::vector<OnnxAttribute>& attributes = {}, const std::string& output = "");
  // The graph's output: real [seq, classes], computed as `name`.
  void output(const std::string& name, std::int64_t classes);
  // A key-value pair of the model's metadata_props (what the model is, for whoever opens the file).
  void describe(const std::string& key, const std::string& value);

  // The model's protobuf bytes.
  std::string serialized() const;

 private:
  // A real tensor of exactly these integers.
  std::string integer_tensor(const std::string& name, const std::vector<std::int64_t>& shape,
                             const std::vector<BigInt>& values);

  struct Proto;
  std::unique_ptr<Proto> proto_;
  int generated_ = 0;
};

}  // namespace tverify::model
