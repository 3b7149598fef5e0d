#include "model/onnx_writer.hpp"

#include <onnx/onnx_pb.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace tverify::model {

namespace {

constexpr std::int64_t ir_version = 8;  // ONNX IR version of opsets 17 and 18
constexpr unsigned chunk_bits = 52;     // a float64 holds every integer of magnitude below 2^53 exactly

// x as a double when the double holds it exactly.
std::optional<double> exact_double(const Exact& x) {
  const double d = x.convert_to<double>();
  if (!std::isfinite(d) || Exact(d) != x) return std::nullopt;
  return d;
}

// The integers' base-2^52 digits, least significant first, each with its integer's sign: v = sum_k digit_k 2^(52 k),
// every digit exact in a float64. As many digits as the largest integer needs.
std::vector<std::vector<double>> digits_of(const std::vector<BigInt>& values) {
  const BigInt base = BigInt(1) << chunk_bits;
  std::vector<std::vector<double>> digits;
  for (std::size_t i = 0; i < values.size(); ++i) {
    BigInt rest = abs(values[i]);
    const int sign = values[i] < 0 ? -1 : 1;
    for (std::size_t k = 0; k == 0 || rest != 0; ++k) {
      if (digits.size() <= k) digits.emplace_back(values.size(), 0.0);
      digits[k][i] = sign * static_cast<double>(static_cast<std::uint64_t>(BigInt(rest % base)));
      rest /= base;
    }
  }
  return digits;
}
void set_shape(onnx::TensorProto& t, const std::vector<std::int64_t>& shape) {
  for (std::int64_t d : shape) t.add_dims(d);
}

}  // namespace

struct OnnxWriter::Proto {
  onnx::ModelProto model;
  onnx::GraphProto& graph() { return *model.mutable_graph(); }

  onnx::TensorProto& real_initializer(const std::string& name, const std::vector<std::int64_t>& shape,
                                      const std::vector<double>& values) {
    onnx::TensorProto& t = *graph().add_initializer();
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::DOUBLE);
    set_shape(t, shape);
    for (double v : values) t.add_double_data(v);
    return t;
  }
};

OnnxWriter::OnnxWriter(const std::string& graph_name, std::int64_t opset) : proto_(std::make_unique<Proto>()) {
  proto_->model.set_ir_version(ir_version);
  proto_->model.set_producer_name("tverify");
  auto* set = proto_->model.add_opset_import();
  set->set_domain("");
  set->set_version(opset);
  proto_->graph().set_name(graph_name);
}

OnnxWriter::~OnnxWriter() = default;

std::string OnnxWriter::token_input(const std::string& name) {
  auto* input = proto_->graph().add_input();
  input->set_name(name);
  auto* type = input->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::INT64);
  type->mutable_shape()->add_dim()->set_dim_param("seq");
  return name;
}

std::string OnnxWriter::integers(const std::string& name, const std::vector<std::int64_t>& shape,
                                 const std::vector<std::int64_t>& values) {
  onnx::TensorProto& t = *proto_->graph().add_initializer();
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  set_shape(t, shape);
  for (std::int64_t v : values) t.add_int64_data(v);
  return name;
}

std::string OnnxWriter::rationals(const std::string& name, const std::vector<std::int64_t>& shape,
                                  const std::vector<Exact>& values) {
  std::vector<double> direct;
  for (const Exact& v : values) {
    const auto d = exact_double(v);
    if (!d) break;
    direct.push_back(*d);
  }
  if (direct.size() == values.size()) {
    proto_->real_initializer(name, shape, direct);
    return name;
  }
  std::vector<BigInt> numerators, denominators;
  for (const Exact& v : values) {
    numerators.push_back(numerator(v));
    denominators.push_back(denominator(v));
  }
  return node("Div",
              {integer_tensor(name + "_numerators", shape, numerators),
               integer_tensor(name + "_denominators", shape, denominators)},
              {}, name);
}

std::string OnnxWriter::integer_tensor(const std::string& name, const std::vector<std::int64_t>& shape,
                                       const std::vector<BigInt>& values) {
  const auto digits = digits_of(values);
  if (digits.size() == 1) {
    proto_->real_initializer(name, shape, digits[0]);
    return name;
  }
  // Horner: (.. (d_top 2^52 + d_top-1) 2^52 + ..) + d_0, every step exact.
  const std::string base = name + "_base";
  proto_->real_initializer(base, {}, {std::ldexp(1.0, chunk_bits)});
  std::string sum = name + "_digit" + std::to_string(digits.size() - 1);
  proto_->real_initializer(sum, shape, digits.back());
  for (std::size_t k = digits.size() - 1; k-- > 0;) {
    const std::string digit = name + "_digit" + std::to_string(k);
    proto_->real_initializer(digit, shape, digits[k]);
    sum = node("Add", {node("Mul", {sum, base}), digit}, {}, k == 0 ? name : "");
  }
  return sum;
}

std::string OnnxWriter::minus_infinity(const std::string& name) {
  proto_->real_initializer(name, {}, {-std::numeric_limits<double>::infinity()});
  return name;
}

std::string OnnxWriter::node(const std::string& op, const std::vector<std::string>& inputs,
                             const std::vector<OnnxAttribute>& attributes, const std::string& output) {
  std::string out = output;
  if (out.empty()) {
    for (char c : op) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += "_" + std::to_string(++generated_);
  }
  onnx::NodeProto& n = *proto_->graph().add_node();
  n.set_op_type(op);
  n.set_name(out);
  for (const auto& in : inputs) n.add_input(in);
  n.add_output(out);
  for (const auto& a : attributes) {
    onnx::AttributeProto& attribute = *n.add_attribute();
    attribute.set_name(a.name);
    if (const auto* i = std::get_if<std::int64_t>(&a.value)) {
      attribute.set_type(onnx::AttributeProto::INT);
      attribute.set_i(*i);
    } else if (const auto* text = std::get_if<std::string>(&a.value)) {
      attribute.set_type(onnx::AttributeProto::STRING);
      attribute.set_s(*text);
    } else {
      attribute.set_type(onnx::AttributeProto::INTS);
      for (std::int64_t v : std::get<std::vector<std::int64_t>>(a.value)) attribute.add_ints(v);
    }
  }
  return out;
}

void OnnxWriter::output(const std::string& name, std::int64_t classes) {
  auto* out = proto_->graph().add_output();
  out->set_name(name);
  auto* type = out->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::DOUBLE);
  type->mutable_shape()->add_dim()->set_dim_param("seq");
  type->mutable_shape()->add_dim()->set_dim_value(classes);
}

void OnnxWriter::describe(const std::string& key, const std::string& value) {
  auto* entry = proto_->model.add_metadata_props();
  entry->set_key(key);
  entry->set_value(value);
}

std::string OnnxWriter::serialized() const {
  std::string bytes;
  if (!proto_->model.SerializeToString(&bytes)) throw std::runtime_error("protobuf could not serialize the model");
  return bytes;
}

}  // namespace tverify::model
