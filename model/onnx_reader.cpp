#include "model/onnx_reader.hpp"

#include "model/integer_types.hpp"
#include "model/op_table.hpp"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

namespace tverify::model {

namespace {

// A reason the model cannot be read; caught at read_onnx's boundary and returned as its message.
struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

bool is_real_type(int t) { return t == onnx_float || t == onnx_double || t == onnx_float16 || t == onnx_bfloat16; }
bool is_integer_type(int t) { return t == onnx_int64 || is_narrow_integer_type(t); }

double half_to_double(std::uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    magnitude = mantissa ? std::nan("") : INFINITY;
  else
    magnitude = std::ldexp(1024 + mantissa, exponent - 25);
  return sign ? -magnitude : magnitude;
}

double bfloat16_to_double(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

template <class Raw>
std::vector<Raw> raw_values(const std::string& raw, std::size_t count, const std::string& what) {
  if (raw.size() != count * sizeof(Raw))
    throw Refused(what + " holds " + std::to_string(raw.size()) + " bytes of data for " + std::to_string(count) +
                  " elements");
  std::vector<Raw> out(count);
  std::memcpy(out.data(), raw.data(), raw.size());  // ONNX stores raw data little-endian, as this machine does
  return out;
}

Exact exact_of_double(double x) {
  Exact q;
  mpq_set_d(q.backend().data(), x);  // exact: every finite double is a dyadic rational
  return q;
}

// Rounds q to the nearest multiple of 10^-digits, ties away from zero.
Exact snapped(const Exact& q, int digits) {
  const BigInt scale = big_pow(10, static_cast<unsigned long>(digits));
  const Exact scaled = q * Exact(scale);
  BigInt n = numerator(scaled), d = denominator(scaled);
  BigInt whole = n / d;  // toward zero
  const Exact rest = abs(scaled - Exact(whole));
  if (rest * 2 >= 1) whole += q.sign() < 0 ? -1 : 1;
  return Exact(whole, scale);
}

class Reader {
 public:
  explicit Reader(ReadOptions options) : options_(options) {}

  Graph read(const std::string& bytes) {
    onnx::ModelProto model;
    if (bytes.empty() || !model.ParseFromString(bytes)) throw Refused("is not an ONNX model (protobuf parse failed)");
    if (!model.has_graph() || model.graph().node_size() == 0) throw Refused("is not an ONNX model (no graph)");
    graph_.producer = model.producer_name() + (model.producer_version().empty() ? "" : " " + model.producer_version());
    read_opset(model);
    const onnx::GraphProto& g = model.graph();
    if (g.sparse_initializer_size() > 0) throw Refused("has sparse initializers, which tverify does not read");
    for (const auto& init : g.initializer()) {
      const int slot = define(init.name(), "initializer");
      graph_.constants[slot] = tensor_of(init, "initializer '" + init.name() + "'", true);
      declared_[slot] = init.data_type();
    }
    read_input(g);
    for (int i = 0; i < g.node_size(); ++i) read_node(g.node(i), i);
    read_output(g);
    graph_.slot_count = static_cast<int>(slots_.size());
    graph_.drop_dead_nodes();
    classify_arithmetic();
    graph_.narrow_integers = narrow_integer_types(graph_, declared_);
    if (const auto reason = unmodelled_narrow_integer_op(graph_, graph_.narrow_integers)) throw Refused(*reason);
    return std::move(graph_);
  }

 private:
  void read_opset(const onnx::ModelProto& model) {
    for (const auto& set : model.opset_import()) {
      if (!set.domain().empty() && set.domain() != "ai.onnx") continue;
      graph_.opset = set.version();
    }
    if (graph_.opset < min_opset || graph_.opset > max_opset)
      throw Refused("has opset " + std::to_string(graph_.opset) + "; tverify reads opsets " +
                    std::to_string(min_opset) + " to " + std::to_string(max_opset) +
                    " (export with torch.onnx.export(..., opset_version=14))");
  }

  int define(const std::string& name, const std::string& what) {
    if (name.empty()) throw Refused("has an unnamed " + what);
    if (!slots_.emplace(name, static_cast<int>(slots_.size())).second)
      throw Refused("defines the value '" + name + "' twice");
    return slots_.at(name);
  }

  int use(const std::string& name, const std::string& node) {
    if (name.empty()) return -1;  // an optional input left out
    const auto it = slots_.find(name);
    if (it == slots_.end())
      throw Refused(node + " reads '" + name + "', which no earlier node, initializer or input defines");
    return it->second;
  }

  void read_input(const onnx::GraphProto& g) {
    std::vector<const onnx::ValueInfoProto*> inputs;
    for (const auto& in : g.input())
      if (!slots_.count(in.name())) inputs.push_back(&in);
    if (inputs.size() != 1)
      throw Refused("has " + std::to_string(inputs.size()) +
                    " inputs besides its weights; tverify reads models with "
                    "one input, the token sequence");
    const onnx::ValueInfoProto& in = *inputs.front();
    const int type = in.type().tensor_type().elem_type();
    if (!is_integer_type(type))
      throw Refused("input '" + in.name() + "' is not a token sequence (its element type is not an integer type)");
    graph_.input_dims = dims_of(in);
    if (graph_.input_dims.empty() || graph_.input_dims.size() > 2)
      throw Refused("input '" + in.name() + "' is not a token sequence (rank " +
                    std::to_string(graph_.input_dims.size()) + "; expected [seq] or [batch, seq])");
    if (graph_.input_dims.size() == 2 && graph_.input_dims[0].size && *graph_.input_dims[0].size != 1)
      throw Refused("input '" + in.name() + "' has a fixed batch size of " +
                    std::to_string(*graph_.input_dims[0].size) + "; tverify feeds one sequence (batch 1)");
    graph_.input_name = in.name();
    graph_.input_slot = define(in.name(), "input");
    declared_[graph_.input_slot] = type;
  }

  void read_output(const onnx::GraphProto& g) {
    if (g.output_size() < 1) throw Refused("has no output");
    const onnx::ValueInfoProto& out = g.output(0);
    graph_.output_name = out.name();
    graph_.output_slot = use(out.name(), "the graph output");
    graph_.output_dims = dims_of(out);
  }

  static std::vector<Dimension> dims_of(const onnx::ValueInfoProto& v) {
    std::vector<Dimension> dims;
    for (const auto& d : v.type().tensor_type().shape().dim())
      dims.push_back(d.has_dim_value() ? Dimension{d.dim_value(), ""} : Dimension{std::nullopt, d.dim_param()});
    return dims;
  }

  void read_node(const onnx::NodeProto& n, int index) {
    Node node;
    node.op = n.op_type();
    node.name = n.name().empty() ? node.op + " #" + std::to_string(index) : n.name();
    if (!n.domain().empty() && n.domain() != "ai.onnx")
      throw Refused(node.label() + " is from the op domain '" + n.domain() + "', which tverify does not evaluate");
    if (!find_op(node.op))
      throw Refused(node.label() + " is an op tverify does not evaluate exactly (supported: " + supported_ops_text() +
                    ")");
    for (const auto& a : n.attribute()) node.attributes[a.name()] = attribute_of(a, node);
    for (const auto& name : n.input()) node.inputs.push_back(use(name, node.label()));
    for (const auto& name : n.output()) node.outputs.push_back(name.empty() ? -1 : define(name, "output"));
    if (node.outputs.empty() || node.outputs.front() < 0) throw Refused(node.label() + " has no output");
    declare_constant_type(n, node);
    if (node.op == "Cast") refuse_cast_target(node);
    refuse_other_opset_form(node);
    graph_.nodes.push_back(std::move(node));
  }

  // Whether the graph's live nodes are all rational (the graph then evaluates exactly), or rational and exp-log.
  void classify_arithmetic() {
    for (const Node& node : graph_.nodes) {
      const OpArithmetic arithmetic = op_of(node).arithmetic;
      const bool rational =
          arithmetic == OpArithmetic::Rational || (arithmetic == OpArithmetic::Power && integer_exponent(node));
      if (!rational) graph_.rational = false;
      if (!rational && arithmetic != OpArithmetic::ExpLog && arithmetic != OpArithmetic::Power) graph_.exp_log = false;
    }
  }

  // The type a Constant or ConstantOfShape node declares: its tensor's, or int64 for value_int(s), float32 for
  // value_float(s) and ConstantOfShape's default.
  void declare_constant_type(const onnx::NodeProto& n, const Node& node) {
    if (node.op != "Constant" && node.op != "ConstantOfShape") return;
    std::int64_t type = onnx_float;
    for (const auto& a : n.attribute()) {
      if (a.name() == "value" && a.has_t()) type = a.t().data_type();
      if (a.name() == "value_int" || a.name() == "value_ints") type = onnx_int64;
    }
    declared_[node.outputs.front()] = type;
  }

  // Cast's `to` is a numeric type or bool: a string, complex or undefined target is no value tverify models.
  static void refuse_cast_target(const Node& node) {
    const Attribute* to = node.attribute("to");
    if (!to || to->kind != Attribute::Kind::Int)
      throw Refused(node.label() + " has no integer attribute 'to' (the element type it casts to)");
    if (!is_real_type(static_cast<int>(to->i)) && !is_integer_type(static_cast<int>(to->i)) && to->i != onnx_bool)
      throw Refused(node.label() + " casts to " + onnx_type_name(to->i) +
                    "; tverify models casts to the numeric "
                    "types and bool only");
  }

  // The forms the model's opset gives an op: from opset 18 ReduceMean, ReduceMax, ReduceMin and ReduceProd take their
  // axes as an input (ReduceSum from 13) and Split may take `num_outputs`; before 18 those axes are an attribute and
  // Split has no `num_outputs`.
  void refuse_other_opset_form(const Node& node) const {
    const bool reduction =
        node.op == "ReduceMean" || node.op == "ReduceMax" || node.op == "ReduceMin" || node.op == "ReduceProd";
    const std::string opset = "opset " + std::to_string(graph_.opset);
    if (graph_.opset >= 18 && reduction && node.attribute("axes"))
      throw Refused(node.label() + " has an 'axes' attribute, which " + node.op + " takes as an input at " + opset);
    if (graph_.opset < 18 && reduction && node.inputs.size() > 1)
      throw Refused(node.label() + " has a second input, which " + node.op + " takes from opset 18 on (the model is " +
                    opset + ")");
    if (graph_.opset < 18 && reduction && node.attribute("noop_with_empty_axes"))
      throw Refused(node.label() + " has a 'noop_with_empty_axes' attribute, which " + node.op +
                    " takes from opset 18 on (the model is " + opset + ")");
    refuse_other_scatter_form(node);
    const Attribute* parts = node.op == "Split" ? node.attribute("num_outputs") : nullptr;
    if (parts && graph_.opset < 18)
      throw Refused(node.label() + " has a 'num_outputs' attribute, which Split takes from opset 18 on (the model is " +
                    opset + ")");
    if (parts && (parts->kind != Attribute::Kind::Int || parts->i != static_cast<std::int64_t>(node.outputs.size())))
      throw Refused(node.label() + " has a 'num_outputs' that is not its number of outputs (" +
                    std::to_string(node.outputs.size()) + ")");
  }

  // ScatterND takes a `reduction` from opset 16 (add, mul; max and min from 18).
  void refuse_other_scatter_form(const Node& node) const {
    const std::string opset = "opset " + std::to_string(graph_.opset);
    const Attribute* combine = node.op == "ScatterND" ? node.attribute("reduction") : nullptr;
    if (combine && combine->kind != Attribute::Kind::String)
      throw Refused(node.label() + " has a 'reduction' that is not a string");
    if (combine && graph_.opset < 16)
      throw Refused(node.label() +
                    " has a 'reduction' attribute, which ScatterND takes from opset 16 on (the model is " + opset +
                    ")");
    if (combine && (combine->s == "max" || combine->s == "min") && graph_.opset < 18)
      throw Refused(node.label() + " has reduction '" + combine->s +
                    "', which ScatterND takes from opset 18 on (the model is " + opset + ")");
  }

  // Pow's exponent is a constant integer (x^2 of a LayerNorm written out): then Pow is rational.
  bool integer_exponent(const Node& pow) const {
    if (pow.inputs.size() < 2) return false;
    const auto it = graph_.constants.find(pow.inputs[1]);
    const ExactTensor* e = it != graph_.constants.end() ? &it->second : nullptr;
    if (!e) {
      for (const auto& node : graph_.nodes)
        if (node.op == "Constant" && node.outputs.front() == pow.inputs[1] && node.attribute("value"))
          e = &node.attribute("value")->tensor;
    }
    if (!e) return false;
    if (!e->is_real()) return true;
    for (const auto& x : e->reals)
      if (!x.finite() || denominator(x.value) != 1) return false;
    return true;
  }

  Attribute attribute_of(const onnx::AttributeProto& a, const Node& node) {
    Attribute out;
    using P = onnx::AttributeProto;
    switch (a.type()) {
      case P::INT: out.kind = Attribute::Kind::Int, out.i = a.i(); break;
      case P::FLOAT:
        out.kind = Attribute::Kind::Float;
        out.f = weight_attribute(finite_exact(a.f(), node.label() + " attribute '" + a.name() + "'"), node, a.name());
        break;
      case P::INTS: out.kind = Attribute::Kind::Ints, out.ints.assign(a.ints().begin(), a.ints().end()); break;
      case P::FLOATS:
        out.kind = Attribute::Kind::Floats;
        for (float f : a.floats())
          out.floats.push_back(
              weight_attribute(finite_exact(f, node.label() + " attribute '" + a.name() + "'"), node, a.name()));
        break;
      case P::STRING: out.kind = Attribute::Kind::String, out.s = a.s(); break;
      case P::TENSOR:
        out.kind = Attribute::Kind::Tensor;
        out.tensor = tensor_of(a.t(), node.label() + " attribute '" + a.name() + "'", node.op == "Constant");
        break;
      default:
        throw Refused(node.label() + " has attribute '" + a.name() +
                      "' of a kind tverify does not read (subgraphs, "
                      "strings lists, sparse tensors)");
    }
    return out;
  }

  // A Constant's value_float(s) is a weight like a tensor's entries: snapped by --weights-as-decimal.
  Exact weight_attribute(Exact q, const Node& node, const std::string& attribute) {
    if (node.op != "Constant") return q;
    return snap(std::move(q), node.label() + " attribute '" + attribute + "'");
  }

  // q snapped by --weights-as-decimal (unchanged without it), recorded against the weight it belongs to.
  Exact snap(Exact q, const std::string& weight) {
    if (!options_.weights_as_decimal) return q;
    Exact out = snapped(q, *options_.weights_as_decimal);
    auto& list = graph_.snapped_weights;
    if (list.empty() || list.back().weight != weight) list.push_back({weight, 0, 0});
    ++list.back().values;
    if (out != q) ++list.back().changed;
    return out;
  }

  static Exact finite_exact(double x, const std::string& what) {
    if (!std::isfinite(x)) throw Refused(what + " is not a finite number");
    return exact_of_double(x);
  }

  // A tensor's exact values. `weight`: a model weight, snapped by --weights-as-decimal.
  ExactTensor tensor_of(const onnx::TensorProto& t, const std::string& what, bool weight) {
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
      throw Refused(what + " keeps its data in an external file; export the model with its weights inside");
    Shape shape(t.dims().begin(), t.dims().end());
    for (std::int64_t d : shape)
      if (d < 0) throw Refused(what + " has a negative dimension");
    std::int64_t elements = 0;
    try {
      elements = element_count(shape);
    } catch (const ModelError&) {  // more than 2^63 elements
      elements = INT64_MAX;
    }
    if (shape.size() > 8 || elements > (std::int64_t{1} << 26))
      throw Refused(what + " is larger than tverify reads (2^26 elements, rank 8)");
    const auto count = static_cast<std::size_t>(elements);
    const int type = t.data_type();
    const std::string& raw = t.raw_data();
    if (is_real_type(type)) {
      std::vector<double> values = real_values(t, type, raw, count, what);
      std::vector<Extended<Exact>> reals;
      reals.reserve(count);
      for (double x : values) {
        if (std::isnan(x)) throw Refused(what + " contains NaN");
        if (std::isinf(x)) {
          reals.push_back(Extended<Exact>::infinity(x > 0 ? 1 : -1));
          continue;
        }
        reals.push_back({weight ? snap(exact_of_double(x), what) : exact_of_double(x), 0});
      }
      refuse_infinite_weights(reals, what);
      return ExactTensor::real(std::move(shape), std::move(reals));
    }
    if (is_integer_type(type) || type == onnx_bool) {
      std::vector<std::int64_t> values = integer_values(t, type, raw, count, what);
      // int32_data holds every narrow type's entries (and uint64_data uint32's) in a wider field: one past the
      // type is no value of it.
      if (is_narrow_integer_type(type)) try {
          require_in_range(values, type);
        } catch (const ModelError& e) { throw Refused(what + ": " + e.what()); }
      return ExactTensor::integer(std::move(shape), std::move(values),
                                  type == onnx_bool ? ElementKind::Boolean : ElementKind::Integer);
    }
    throw Refused(what + " has element type " + std::to_string(type) +
                  " (strings, complex), which tverify does not read");
  }

  // Infinities are masks (masked_fill(mask, -inf), an additive 0 / -inf mask): a tensor holding one may hold
  // nothing but zeros and infinities. An infinite entry among other weights is refused.
  static void refuse_infinite_weights(const std::vector<Extended<Exact>>& reals, const std::string& what) {
    bool infinite = false, weight = false;
    for (const auto& x : reals) {
      infinite = infinite || !x.finite();
      weight = weight || (x.finite() && x.value != 0);
    }
    if (infinite && weight)
      throw Refused(what +
                    " holds infinite values among finite nonzero weights; tverify accepts infinities only in "
                    "masks (tensors of zeros and infinities)");
  }

  static std::vector<double> real_values(const onnx::TensorProto& t, int type, const std::string& raw,
                                         std::size_t count, const std::string& what) {
    std::vector<double> out;
    if (type == onnx_float) {
      if (!raw.empty())
        for (float f : raw_values<float>(raw, count, what)) out.push_back(f);
      else
        out.assign(t.float_data().begin(), t.float_data().end());
    } else if (type == onnx_double) {
      if (!raw.empty())
        out = raw_values<double>(raw, count, what);
      else
        out.assign(t.double_data().begin(), t.double_data().end());
    } else {  // float16 and bfloat16: 16-bit patterns, raw or in int32_data
      std::vector<std::uint16_t> bits;
      if (!raw.empty())
        bits = raw_values<std::uint16_t>(raw, count, what);
      else
        for (std::int32_t b : t.int32_data()) bits.push_back(static_cast<std::uint16_t>(b));
      for (std::uint16_t b : bits) out.push_back(type == onnx_float16 ? half_to_double(b) : bfloat16_to_double(b));
    }
    if (out.size() != count)
      throw Refused(what + " holds " + std::to_string(out.size()) + " values for " + std::to_string(count) +
                    " elements");
    return out;
  }

  static std::vector<std::int64_t> integer_values(const onnx::TensorProto& t, int type, const std::string& raw,
                                                  std::size_t count, const std::string& what) {
    std::vector<std::int64_t> out;
    auto take = [&](const auto& values) { out.assign(values.begin(), values.end()); };
    if (!raw.empty()) {
      switch (type) {
        case onnx_int64: take(raw_values<std::int64_t>(raw, count, what)); break;
        case onnx_int32: take(raw_values<std::int32_t>(raw, count, what)); break;
        case onnx_int16: take(raw_values<std::int16_t>(raw, count, what)); break;
        case onnx_uint16: take(raw_values<std::uint16_t>(raw, count, what)); break;
        case onnx_int8: take(raw_values<std::int8_t>(raw, count, what)); break;
        case onnx_uint8:
        case onnx_bool: take(raw_values<std::uint8_t>(raw, count, what)); break;
        case onnx_uint32: take(raw_values<std::uint32_t>(raw, count, what)); break;
        default: {  // uint64: refuse values past int64
          for (std::uint64_t v : raw_values<std::uint64_t>(raw, count, what)) {
            if (v > static_cast<std::uint64_t>(INT64_MAX)) throw Refused(what + " holds an integer past 2^63");
            out.push_back(static_cast<std::int64_t>(v));
          }
        }
      }
    } else if (type == onnx_int64) {
      take(t.int64_data());
    } else if (type == onnx_uint32 || type == onnx_uint64) {
      for (std::uint64_t v : t.uint64_data()) {
        if (v > static_cast<std::uint64_t>(INT64_MAX)) throw Refused(what + " holds an integer past 2^63");
        out.push_back(static_cast<std::int64_t>(v));
      }
    } else {
      take(t.int32_data());
    }
    if (out.size() != count)
      throw Refused(what + " holds " + std::to_string(out.size()) + " values for " + std::to_string(count) +
                    " elements");
    if (type == onnx_bool)
      for (auto& b : out) b = b != 0;
    return out;
  }

  ReadOptions options_;
  Graph graph_;
  std::map<std::string, int> slots_;
  std::map<int, std::int64_t> declared_;  // the ONNX element types the file declares, by slot
};

}  // namespace

std::variant<Graph, std::string> read_onnx(const std::string& bytes, const ReadOptions& options) {
  try {
    return Reader(options).read(bytes);
  } catch (const Refused& e) { return std::string(e.what()); } catch (const ModelError& e) {
    return std::string(e.what());
  }
}

}  // namespace tverify::model
