// The model checker refuses graphs the ONNX specification does not define (opset 17, the operators' pages): each
// model below passes through the reader, and its invalid node must be refused with a usage error naming what is
// wrong, on every input, never evaluated from memory the evaluator did not write.
#include "io/files.hpp"
#include "checkers/registry.hpp"
#include "model/evaluator.hpp"
#include "model/onnx_reader.hpp"
#include "model/onnx_writer.hpp"

#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <functional>

#include <unistd.h>

using namespace tverify;

namespace {

// A folder of its own for one test case's files, removed afterwards.
struct Scratch {
  std::filesystem::path dir;
  explicit Scratch(const std::string& name)
      : dir(std::filesystem::temp_directory_path() /
            ("tverify-validation-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// A model over three tokens whose embedding rows E = [[1, 0], [0, 1], [1, 1]] (x = E[tokens], shape [seq, 2]) go
// through `body`, which returns the name of the logits; written into `dir`.
std::string model_with(const Scratch& scratch, const std::string& name,
                       const std::function<std::string(model::OnnxWriter&, const std::string& x)>& body,
                       std::int64_t classes = 2) {
  model::OnnxWriter w(name);
  const std::string tokens = w.token_input("tokens");
  const std::string embedding = w.rationals("E", {3, 2}, {1, 0, 0, 1, 1, 1});
  const std::string x = w.node("Gather", {embedding, tokens}, {{"axis", std::int64_t{0}}});
  w.node("Identity", {body(w, x)}, {}, "logits");
  w.output("logits", classes);
  const auto path = scratch.dir / (name + ".onnx");
  write_file_atomically(path, w.serialized());
  return path.string();
}

// A real tensor of zeros of this shape, made in the graph (ConstantOfShape), not stored in the file.
std::string zeros(model::OnnxWriter& w, const std::string& name, const std::vector<std::int64_t>& shape) {
  return w.node("ConstantOfShape", {w.integers(name, {static_cast<std::int64_t>(shape.size())}, shape)});
}

// x as [1, seq, 2].
std::string batched(model::OnnxWriter& w, const std::string& x) {
  return w.node("Unsqueeze", {x, w.integers("batch_axis", {1}, {0})});
}

// check model on every sequence of lengths 1..2 over the three tokens, read at every position.
void check(const std::string& onnx) {
  const Construction& c = find_construction("model");
  c.check(ParamValues::parse(c.params(), {{"onnx", onnx}, {"task", "reverse"}, {"V", "2"}, {"lengths", "1:2"}}),
          "stored", {}, RunOptions{});
}

}  // namespace

TEST_CASE("model validation: a Transpose perm that is no permutation is refused, never read past its input",
          "[model][validation]") {
  const Scratch s("transpose");
  // perm [0, 1, 1] repeats axis 1; before the check it read elements past the input's end.
  const auto repeated = model_with(s, "perm_repeated", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Transpose", {batched(w, x)}, {{"perm", std::vector<std::int64_t>{0, 1, 1}}});
  });
  CHECK_THROWS_WITH(check(repeated), Catch::Contains("Transpose") && Catch::Contains("gives axis 1 twice"));
  const auto negative = model_with(s, "perm_negative", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Transpose", {batched(w, x)}, {{"perm", std::vector<std::int64_t>{0, -1, 1}}});
  });
  CHECK_THROWS_WITH(check(negative), Catch::Contains("is no permutation"));
  const auto short_perm = model_with(s, "perm_short", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Transpose", {batched(w, x)}, {{"perm", std::vector<std::int64_t>{0, 1}}});
  });
  CHECK_THROWS_WITH(check(short_perm), Catch::Contains("is no permutation of the 3 axes"));
  // The same graph with a genuine permutation is evaluated: [1, seq, 2] -> [seq, 1, 2]... read as [1, seq, 2] after a
  // second transpose back.
  const auto valid = model_with(s, "perm_valid", [](model::OnnxWriter& w, const std::string& x) {
    const std::string moved = w.node("Transpose", {batched(w, x)}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
    return w.node("Transpose", {moved}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
  });
  CHECK_NOTHROW(check(valid));
}

TEST_CASE("model validation: repeated axes of Squeeze, Slice and ReduceSum are refused", "[model][validation]") {
  const Scratch s("axes");
  const auto squeeze = model_with(s, "squeeze_repeated", [](model::OnnxWriter& w, const std::string& x) {
    const std::string once = w.node("Unsqueeze", {batched(w, x), w.integers("second", {1}, {0})});
    return w.node("Squeeze", {once, w.integers("axes", {2}, {0, 0})});
  });
  CHECK_THROWS_WITH(check(squeeze), Catch::Contains("Squeeze's axes gives axis 0 twice"));
  const auto slice = model_with(s, "slice_repeated", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Slice", {x, w.integers("starts", {2}, {0, 0}), w.integers("ends", {2}, {2, 2}),
                            w.integers("axes", {2}, {1, -1})});
  });
  CHECK_THROWS_WITH(check(slice), Catch::Contains("Slice's axes gives axis -1 twice"));
  const auto reduce = model_with(s, "reduce_repeated", [](model::OnnxWriter& w, const std::string& x) {
    const std::string sum = w.node("ReduceSum", {batched(w, x), w.integers("axes", {2}, {0, 0})});
    return w.node("Mul", {x, sum});
  });
  CHECK_THROWS_WITH(check(reduce), Catch::Contains("axes gives axis 0 twice"));
}

TEST_CASE("model validation: attributes and input counts the opset does not define are refused",
          "[model][validation]") {
  const Scratch s("attributes");
  // Opset 13 moved ReduceSum's axes and Split's sizes from attributes to inputs: an attribute would be ignored.
  const auto reduce = model_with(s, "reduce_attribute", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("ReduceSum", {x}, {{"axes", std::vector<std::int64_t>{7}}, {"keepdims", std::int64_t{1}}});
  });
  CHECK_THROWS_WITH(check(reduce), Catch::Contains("ReduceSum takes its axes as an input"));
  const auto split = model_with(s, "split_attribute", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Split", {x}, {{"axis", std::int64_t{1}}, {"split", std::vector<std::int64_t>{2}}});
  });
  CHECK_THROWS_WITH(check(split), Catch::Contains("Split takes its sizes as an input"));
  // CumSum's axis is one integer; a second one was ignored.
  const auto cumsum = model_with(s, "cumsum_two_axes", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("CumSum", {x, w.integers("axis", {2}, {0, 1})});
  });
  CHECK_THROWS_WITH(check(cumsum), Catch::Contains("CumSum's axis must hold one integer (it holds 2)"));
  // ConstantOfShape reads a 1-D shape.
  const auto constant = model_with(s, "constant_2d_shape", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Add", {x, w.node("ConstantOfShape", {w.integers("shape", {1, 1}, {2})})});
  });
  CHECK_THROWS_WITH(check(constant), Catch::Contains("ConstantOfShape's shape must be a 1-D tensor"));
  // Not is defined on booleans only.
  const auto negation = model_with(s, "not_of_int64", [](model::OnnxWriter& w, const std::string& x) {
    const std::string whole = w.node("Cast", {x}, {{"to", std::int64_t{7}}});
    return w.node("Cast", {w.node("Not", {whole})}, {{"to", std::int64_t{1}}});
  });
  CHECK_THROWS_WITH(check(negation), Catch::Contains("Not of a tensor that is not boolean"));
  // Max takes one or more inputs.
  const auto empty_max = model_with(s, "max_of_nothing", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Add", {x, w.node("Max", {})});
  });
  CHECK_THROWS_WITH(check(empty_max), Catch::Contains("Max and Min take one or more inputs"));
}

namespace {

// The token embedding's Gather with this axis attribute, its rows read as the logits.
std::string gather_with_axis(const Scratch& scratch, const std::string& name, const model::OnnxAttribute& axis) {
  model::OnnxWriter w(name);
  const std::string tokens = w.token_input("tokens");
  const std::string embedding = w.rationals("E", {3, 2}, {1, 0, 0, 1, 1, 1});
  w.node("Gather", {embedding, tokens}, {axis}, "logits");
  w.output("logits", 2);
  const auto path = scratch.dir / (name + ".onnx");
  write_file_atomically(path, w.serialized());
  return path.string();
}

}  // namespace

TEST_CASE("model validation: graphs the fuzz target found are refused or evaluated, never an internal error",
          "[model][validation]") {
  const Scratch s("fuzzed");
  CHECK_THROWS_AS(check(gather_with_axis(s, "axis_list", {"axis", std::vector<std::int64_t>{0}})), UsageError);
  CHECK_THROWS_WITH(check(gather_with_axis(s, "axis_list", {"axis", std::vector<std::int64_t>{0}})),
                    Catch::Contains("'axis' must be an integer"));
  CHECK_THROWS_WITH(check(gather_with_axis(s, "axis_past", {"axis", std::int64_t{2}})),
                    Catch::Contains("axis 2 is outside"));
  const auto concat = model_with(s, "concat_of_nothing", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Add", {x, w.node("Concat", {}, {{"axis", std::int64_t{1}}})});
  });
  CHECK_THROWS_WITH(check(concat), Catch::Contains("Concat has no input"));
  const auto trilu = model_with(s, "trilu_empty_k", [](model::OnnxWriter& w, const std::string& x) {
    return w.node("Trilu", {x, w.integers("k", {0}, {})});
  });
  CHECK_THROWS_WITH(check(trilu), Catch::Contains("Trilu's k must hold one integer (it holds 0)"));
  // A negative step over an empty axis takes nothing (the start has no index to be clamped to): x beside [seq, 0].
  const auto reversed = model_with(s, "empty_slice_reversed", [](model::OnnxWriter& w, const std::string& x) {
    const std::string empty = w.node(
        "Slice", {x, w.integers("starts", {1}, {0}), w.integers("ends", {1}, {0}), w.integers("axes", {1}, {1})});
    const std::string back = w.node("Slice", {empty, w.integers("from", {1}, {-1}), w.integers("to", {1}, {INT64_MIN}),
                                              w.integers("on", {1}, {1}), w.integers("step", {1}, {-1})});
    return w.node("Concat", {x, back}, {{"axis", std::int64_t{1}}});
  });
  CHECK_NOTHROW(check(reversed));
}

TEST_CASE("model validation: an output with zero classes is refused", "[model][validation]") {
  const Scratch s("classes");
  const auto none = model_with(
      s, "zero_classes",
      [](model::OnnxWriter& w, const std::string& x) {
        return w.node("Slice",
                      {x, w.integers("starts", {1}, {0}), w.integers("ends", {1}, {0}), w.integers("axes", {1}, {1})});
      },
      0);
  CHECK_THROWS_WITH(check(none), Catch::Contains("has 0 classes"));
}

TEST_CASE("model validation: a tensor past 2^24 elements or a MatMul past 2^32 multiply-adds is refused at once",
          "[model][validation][bounds]") {
  const Scratch s("bounds");
  // [8192, 1] + [1, 4096] broadcasts to 2^25 elements.
  const auto broadcast = model_with(s, "broadcast_too_large", [](model::OnnxWriter& w, const std::string& x) {
    const std::string sum =
        w.node("ReduceSum", {w.node("Add", {zeros(w, "tall", {8192, 1}), zeros(w, "wide", {1, 4096})})});
    return w.node("Add", {x, sum});
  });
  CHECK_THROWS_WITH(check(broadcast), Catch::Contains("a tensor larger than 2^24 elements"));
  // [4096, 512] x [512, 4096]: 2^24 outputs of 512 terms each, 2^33 multiply-adds.
  const auto product = model_with(s, "matmul_too_long", [](model::OnnxWriter& w, const std::string& x) {
    const std::string sum =
        w.node("ReduceSum", {w.node("MatMul", {zeros(w, "a_shape", {4096, 512}), zeros(w, "b_shape", {512, 4096})})});
    return w.node("Add", {x, sum});
  });
  CHECK_THROWS_WITH(check(product), Catch::Contains("multiply-adds, above the 2^32 an op may take"));
}

namespace {

// x + the integer tensor `value` ([seq]) as a real column: a body that reads an integer computation.
std::string plus_integers(model::OnnxWriter& w, const std::string& x, const std::string& value) {
  const std::string column =
      w.node("Unsqueeze", {w.node("Cast", {value}, {{"to", std::int64_t{1}}}), w.integers("column_axis", {1}, {1})});
  return w.node("Add", {x, column});
}

// The tokens, or a constant, cast to the ONNX integer type `type`.
std::string tokens_as(model::OnnxWriter& w, std::int64_t type) { return w.node("Cast", {"tokens"}, {{"to", type}}); }
std::string constant_as(model::OnnxWriter& w, const std::string& name, std::int64_t value, std::int64_t type) {
  return w.node("Cast", {w.integers(name, {}, {value})}, {{"to", type}});
}

constexpr std::int64_t uint8 = 2, int8 = 3, int32 = 6;

}  // namespace

// Integers narrower than int64 are computed exactly and refused where the specification's fixed-width result differs
// from the exact one: the expected values are numpy's (np.uint8(2) * np.uint8(150) == 44, np.uint8(2) - np.uint8(5)
// == 253, np.int32(2) * np.int32(2**31 - 1) == -2), where tverify's exact values 300, -3 and 2^32 - 2 are outside
// the type.
TEST_CASE("model validation: a narrow integer result outside its type, which ONNX wraps, is refused",
          "[model][validation]") {
  const Scratch s("narrow");
  // Tokens 0..2 (V = 2 and BOS = 2): 2 * 150 = 300 is no uint8.
  const auto wraps = model_with(s, "uint8_product", [](model::OnnxWriter& w, const std::string& x) {
    return plus_integers(w, x, w.node("Mul", {tokens_as(w, uint8), constant_as(w, "k", 150, uint8)}));
  });
  CHECK_THROWS_WITH(check(wraps), Catch::Contains("(Mul)") &&
                                      Catch::Contains("the uint8 value 300 is outside uint8's range [0, 255]"));
  // 2 * 100 = 200 is a uint8: computed, the same value numpy's uint8 gives.
  const auto fits = model_with(s, "uint8_in_range", [](model::OnnxWriter& w, const std::string& x) {
    return plus_integers(w, x, w.node("Mul", {tokens_as(w, uint8), constant_as(w, "k", 100, uint8)}));
  });
  CHECK_NOTHROW(check(fits));
  const auto below = model_with(s, "uint8_difference", [](model::OnnxWriter& w, const std::string& x) {
    return plus_integers(w, x, w.node("Sub", {tokens_as(w, uint8), constant_as(w, "k", 5, uint8)}));
  });
  CHECK_THROWS_WITH(check(below), Catch::Contains("the uint8 value -3"));
  const auto int32_product = model_with(s, "int32_product", [](model::OnnxWriter& w, const std::string& x) {
    return plus_integers(w, x, w.node("Mul", {tokens_as(w, int32), constant_as(w, "k", INT32_MAX, int32)}));
  });
  CHECK_THROWS_WITH(check(int32_product), Catch::Contains("the int32 value 4294967294"));
  // The type follows the data through shape ops: a Reshape of the uint8 tokens is uint8.
  const auto reshaped = model_with(s, "uint8_reshaped", [](model::OnnxWriter& w, const std::string& x) {
    const std::string flat = w.node("Reshape", {tokens_as(w, uint8), w.integers("flat", {1}, {-1})});
    return plus_integers(w, x, w.node("Add", {flat, constant_as(w, "k", 254, uint8)}));
  });
  CHECK_THROWS_WITH(check(reshaped), Catch::Contains("the uint8 value 256"));
  // A sum whose partial sums leave int8 but whose result does not is the exact one: numpy's wrapped partial sums
  // end at the same 100 + 100 - 100 = 100.
  const auto sum = model_with(s, "int8_sum", [](model::OnnxWriter& w, const std::string& x) {
    const std::string terms = w.node("Cast", {w.integers("terms", {3}, {100, 100, -100})}, {{"to", int8}});
    const std::string total =
        w.node("ReduceSum", {terms, w.integers("all", {1}, {0})}, {{"keepdims", std::int64_t{0}}});
    return plus_integers(w, x, w.node("Add", {tokens_as(w, int8), total}));
  });
  CHECK_NOTHROW(check(sum));
}

TEST_CASE("model validation: Cast to a type tverify does not model is refused", "[model][validation]") {
  const Scratch s("cast");
  for (const std::int64_t to : {0, 8, 14}) {  // undefined, string, complex64
    const auto cast = model_with(s, "cast_to_" + std::to_string(to), [to](model::OnnxWriter& w, const std::string& x) {
      const std::string there = w.node("Cast", {"tokens"}, {{"to", to}});
      return plus_integers(w, x, w.node("Cast", {there}, {{"to", std::int64_t{7}}}));
    });
    CHECK_THROWS_WITH(check(cast), Catch::Contains("casts to") && Catch::Contains("numeric types and bool only"));
  }
}

TEST_CASE("model validation: --weights-as-decimal snaps every real weight, a Constant's value_float(s) included",
          "[model][validation]") {
  // 0.1f is 13421773 / 2^27; snapped to one decimal it is 1/10, wherever the file stores it.
  model::OnnxWriter w("decimal_weights");
  const std::string tokens = w.token_input("tokens");
  const std::string x = w.node("Gather", {w.rationals("E", {2, 2}, {0, 1, 1, 0}), tokens}, {{"axis", std::int64_t{0}}});
  w.node("Identity", {x}, {}, "rows");
  w.output("logits", 2);
  onnx::ModelProto proto;
  REQUIRE(proto.ParseFromString(w.serialized()));
  // A Constant node holding `key` (logits = rows + value_float + value_floats reads both, so neither is dropped).
  const auto constant = [&](const std::string& key, onnx::AttributeProto::AttributeType type) -> auto& {
    onnx::NodeProto& node = *proto.mutable_graph()->add_node();
    node.set_op_type("Constant");
    node.add_output(key);
    onnx::AttributeProto& attribute = *node.add_attribute();
    attribute.set_name(key);
    attribute.set_type(type);
    return attribute;
  };
  constant("value_float", onnx::AttributeProto::FLOAT).set_f(0.1f);
  auto& many = constant("value_floats", onnx::AttributeProto::FLOATS);
  many.add_floats(0.1f);
  many.add_floats(0.7f);
  const auto add = [&](const std::string& a, const std::string& b, const std::string& out) {
    onnx::NodeProto& node = *proto.mutable_graph()->add_node();
    node.set_op_type("Add");
    node.add_input(a);
    node.add_input(b);
    node.add_output(out);
  };
  add("rows", "value_float", "shifted");
  add("shifted", "value_floats", "logits");
  const std::string bytes = proto.SerializeAsString();
  const auto exact = std::get<model::Graph>(model::read_onnx(bytes));
  const auto snapped = std::get<model::Graph>(model::read_onnx(bytes, model::ReadOptions{1}));
  const auto value = [](const model::Graph& g, const char* key) -> const model::Attribute& {
    for (const auto& node : g.nodes)
      if (const auto* a = node.attribute(key)) return *a;
    FAIL("no attribute " << key);
    throw;
  };
  CHECK(value(exact, "value_float").f == Exact(13421773, BigInt(1) << 27));
  CHECK(value(snapped, "value_float").f == Exact(1, 10));
  CHECK(value(snapped, "value_floats").floats == std::vector<Exact>{Exact(1, 10), Exact(7, 10)});
  CHECK(value(exact, "value_floats").floats[1] != Exact(7, 10));
  // What the certificate lists: E's four values (0 and 1 are multiples of 1/10 already), the two Constants'.
  REQUIRE(snapped.snapped_weights.size() == 3);
  CHECK(exact.snapped_weights.empty());
  const auto& e = snapped.snapped_weights[0];
  CHECK((e.weight == "initializer 'E'" && e.values == 4 && e.changed == 0));
  const auto& one = snapped.snapped_weights[1];
  CHECK((one.weight.find("attribute 'value_float'") != std::string::npos && one.values == 1 && one.changed == 1));
  const auto& two = snapped.snapped_weights[2];
  CHECK((two.weight.find("attribute 'value_floats'") != std::string::npos && two.values == 2 && two.changed == 2));
}

namespace {

// x = E[tokens] for E with `width` columns (row t: t + 1, t + 2, ...), written by `w`; returns x's name.
std::string embedded(model::OnnxWriter& w, std::int64_t width) {
  std::vector<Exact> rows;
  for (std::int64_t t = 0; t < 3; ++t)
    for (std::int64_t j = 0; j < width; ++j) rows.emplace_back(t + j + 1);
  return w.node("Gather", {w.rationals("E", {3, width}, rows), w.token_input("tokens")}, {{"axis", std::int64_t{0}}},
                "x");
}

std::variant<model::Graph, std::string> read_model(const std::string& bytes) { return model::read_onnx(bytes); }

// The exact values of the graph's output on the tokens 0, 1, 2.
std::vector<Exact> output_values(const model::Graph& graph) {
  const auto out = model::evaluate(graph, model::convert_weights<Exact>(graph), {0, 1, 2});
  std::vector<Exact> values;
  for (const auto& x : out.reals) values.push_back(x.value);
  return values;
}

// A reduction of x = E[tokens] ([3, 2] on the tokens 0, 1, 2) over axis 1, written as `opset` writes it.
std::string reduction(const std::string& op, std::int64_t opset, bool axes_as_input) {
  model::OnnxWriter w(op + "_" + std::to_string(opset), opset);
  const std::string x = embedded(w, 2);
  const std::string r = axes_as_input ? w.node(op, {x, w.integers("axes", {1}, {1})})
                                      : w.node(op, {x}, {{"axes", std::vector<std::int64_t>{1}}});
  w.node("Identity", {r}, {}, "logits");
  w.output("logits", 1);
  return w.serialized();
}

}  // namespace

TEST_CASE("model validation: opset 18's reductions take their axes as an input; each opset's other form is refused",
          "[model][validation]") {
  // Rows (1, 2), (2, 3), (3, 4): means 3/2, 5/2, 7/2; maxima 2, 3, 4; minima 1, 2, 3; products 2, 6, 12 (by hand),
  // at 17 and at 18.
  const std::map<std::string, std::vector<Exact>> expected{{"ReduceMean", {Exact(3, 2), Exact(5, 2), Exact(7, 2)}},
                                                           {"ReduceMax", {2, 3, 4}},
                                                           {"ReduceMin", {1, 2, 3}},
                                                           {"ReduceProd", {2, 6, 12}}};
  for (const auto& [op, values] : expected) {
    INFO(op);
    CHECK(output_values(std::get<model::Graph>(read_model(reduction(op, 17, false)))) == values);
    CHECK(output_values(std::get<model::Graph>(read_model(reduction(op, 18, true)))) == values);
    const auto attribute_at_18 = read_model(reduction(op, 18, false));
    REQUIRE(std::holds_alternative<std::string>(attribute_at_18));
    CHECK_THAT(std::get<std::string>(attribute_at_18), Catch::Contains("takes as an input at opset 18"));
    const auto input_at_17 = read_model(reduction(op, 17, true));
    REQUIRE(std::holds_alternative<std::string>(input_at_17));
    CHECK_THAT(std::get<std::string>(input_at_17), Catch::Contains("takes from opset 18 on (the model is opset 17)"));
  }
  model::OnnxWriter w("opset19", 19);
  w.node("Identity", {embedded(w, 2)}, {}, "logits");
  w.output("logits", 2);
  CHECK_THAT(std::get<std::string>(read_model(w.serialized())), Catch::Contains("tverify reads opsets 13 to 18"));
}

TEST_CASE("model validation: opset 18's Split num_outputs cuts parts of ceil(dim / n), the last smaller",
          "[model][validation]") {
  // x = E[tokens] has `width` columns, split along axis 1 into `parts` outputs; logits = the first.
  const auto split = [](std::int64_t width, std::int64_t parts, std::int64_t opset, std::int64_t declared = 0) {
    model::OnnxWriter w("split", opset);
    embedded(w, width);
    w.output("logits", width);
    onnx::ModelProto proto;
    REQUIRE(proto.ParseFromString(w.serialized()));
    onnx::NodeProto& node = *proto.mutable_graph()->add_node();
    node.set_op_type("Split");
    node.add_input("x");
    for (std::int64_t k = 0; k < parts; ++k) node.add_output(k == 0 ? "logits" : "part" + std::to_string(k));
    const std::int64_t num_outputs = declared ? declared : parts;
    for (const auto& [name, value] : {std::pair<const char*, std::int64_t>{"axis", 1}, {"num_outputs", num_outputs}}) {
      onnx::AttributeProto& a = *node.add_attribute();
      a.set_name(name);
      a.set_type(onnx::AttributeProto::INT);
      a.set_i(value);
    }
    return model::read_onnx(proto.SerializeAsString());
  };
  // The widths of the parts, from the shapes of the outputs on the tokens 0, 1, 2.
  const auto widths = [](const model::Graph& graph) {
    std::vector<std::int64_t> out;
    const auto slots = model::evaluate_slots(graph, model::convert_weights<Exact>(graph), {0, 1, 2});
    for (const auto& node : graph.nodes)
      if (node.op == "Split")
        for (int slot : node.outputs) out.push_back(slots[static_cast<std::size_t>(slot)]->shape.at(1));
    return out;
  };
  // The specification's parts: 7 into 3 is 3, 3, 1; 9 into 4 is 3, 3, 3, 0 (onnx/onnx#4742); 6 into 3 is 2, 2, 2.
  CHECK(widths(std::get<model::Graph>(split(7, 3, 18))) == std::vector<std::int64_t>{3, 3, 1});
  CHECK(widths(std::get<model::Graph>(split(9, 4, 18))) == std::vector<std::int64_t>{3, 3, 3, 0});
  CHECK(widths(std::get<model::Graph>(split(6, 3, 18))) == std::vector<std::int64_t>{2, 2, 2});
  // 5 into 4 would be 2, 2, 2, -1.
  const model::Graph uneven = std::get<model::Graph>(split(5, 4, 18));
  CHECK_THROWS_WITH(model::evaluate(uneven, model::convert_weights<Exact>(uneven), {0}),
                    Catch::Contains("the last part would be negative"));
  CHECK_THAT(std::get<std::string>(split(6, 3, 17)), Catch::Contains("which Split takes from opset 18 on"));
  // num_outputs must be the node's number of outputs: 2^40 would have sized a vector before anything checked it.
  CHECK_THAT(std::get<std::string>(split(6, 3, 18, std::int64_t{1} << 40)),
             Catch::Contains("'num_outputs' that is not its number of outputs (3)"));
}

TEST_CASE("model validation: what the narrow-integer check cannot vouch for is refused when read",
          "[model][validation]") {
  // A uint8 initializer whose int32_data holds 300: ONNX Runtime would read 44; no uint8 is 300.
  model::OnnxWriter w("narrow_initializer");
  const std::string x = embedded(w, 2);
  w.node("Identity", {x}, {}, "logits");
  w.output("logits", 2);
  onnx::ModelProto proto;
  REQUIRE(proto.ParseFromString(w.serialized()));
  onnx::TensorProto& k = *proto.mutable_graph()->add_initializer();
  k.set_name("k");
  k.set_data_type(onnx::TensorProto::UINT8);
  k.add_int32_data(300);
  CHECK_THAT(std::get<std::string>(model::read_onnx(proto.SerializeAsString())),
             Catch::Contains("initializer 'k': the uint8 value 300 is outside uint8's range [0, 255]"));
  // ReduceMean of int32: ONNX sums in int32 and may wrap before dividing (4 * 2^30 wraps to 0), which no range check
  // of the mean sees.
  model::OnnxWriter mean("narrow_mean");
  const std::string ints = mean.node("Cast", {embedded(mean, 2)}, {{"to", std::int64_t{6}}});
  mean.node("ReduceMean", {ints}, {{"axes", std::vector<std::int64_t>{1}}}, "logits");
  mean.output("logits", 1);
  CHECK_THAT(std::get<std::string>(read_model(mean.serialized())),
             Catch::Contains("averages int32 integers, whose sum ONNX accumulates in int32"));
  // Opset 18's noop_with_empty_axes in an opset-17 reduction.
  model::OnnxWriter noop("noop_at_17");
  noop.node("ReduceMax", {embedded(noop, 2)},
            {{"axes", std::vector<std::int64_t>{1}}, {"noop_with_empty_axes", std::int64_t{1}}}, "logits");
  noop.output("logits", 1);
  CHECK_THAT(std::get<std::string>(read_model(noop.serialized())),
             Catch::Contains("'noop_with_empty_axes' attribute, which ReduceMax takes from opset 18 on"));
}

TEST_CASE("model validation: OneHot sets `on` at each index along a new axis, and an index out of range sets none",
          "[model][validation]") {
  // OneHot(indices, depth, values = [0, 5], axis) on the tokens 0, 1, 2, as F.one_hot exports it (then scaled).
  const auto one_hot = [](const std::string& indices_of, std::int64_t depth, std::int64_t axis,
                          std::vector<Exact> values = {0, 5}) {
    model::OnnxWriter w("one_hot");
    const std::string tokens = w.token_input("tokens");
    std::string indices = tokens;
    if (indices_of == "negated") indices = w.node("Neg", {tokens});
    const auto size = static_cast<std::int64_t>(values.size());
    const std::string hot = w.node(
        "OneHot", {indices, w.integers("depth", {}, {depth}), w.rationals("v", {size}, values)}, {{"axis", axis}});
    w.node("Identity", {hot}, {}, "logits");
    w.output("logits", depth);
    return read_model(w.serialized());
  };
  // By hand from the specification. Depth 3, axis -1: rows e_0, e_1, e_2 times 5.
  CHECK(output_values(std::get<model::Graph>(one_hot("tokens", 3, -1))) ==
        std::vector<Exact>{5, 0, 0, 0, 5, 0, 0, 0, 5});
  // Depth 2: token 2 is outside [-2, 1], so its row is all off.
  CHECK(output_values(std::get<model::Graph>(one_hot("tokens", 2, -1))) == std::vector<Exact>{5, 0, 0, 5, 0, 0});
  // Negative indices 0, -1, -2 count from the end: positions 0, 2, 1.
  CHECK(output_values(std::get<model::Graph>(one_hot("negated", 3, -1))) ==
        std::vector<Exact>{5, 0, 0, 0, 0, 5, 0, 5, 0});
  // Axis 0: the one-hot axis first, shape [depth, seq], the transpose of the rows above.
  CHECK(output_values(std::get<model::Graph>(one_hot("tokens", 2, 0))) == std::vector<Exact>{5, 0, 0, 0, 5, 0});
  const model::Graph three_values = std::get<model::Graph>(one_hot("tokens", 3, -1, {0, 5, 7}));
  CHECK_THROWS_WITH(output_values(three_values), Catch::Contains("OneHot's values must hold two elements"));
  const model::Graph negative_depth = std::get<model::Graph>(one_hot("tokens", -1, -1));
  CHECK_THROWS_WITH(output_values(negative_depth), Catch::Contains("OneHot's depth is negative (-1)"));
}

TEST_CASE("model validation: ScatterND replaces or combines the slices its indices name, as the specification says",
          "[model][validation]") {
  // data = x = E[tokens] on the tokens 0, 1, 2: rows (1, 2), (2, 3), (3, 4); the output is the scattered data.
  const auto scattered = [](std::int64_t opset, const std::vector<std::int64_t>& index_shape,
                            const std::vector<std::int64_t>& indices, const std::vector<std::int64_t>& update_shape,
                            const std::vector<Exact>& updates, const std::string& reduction = "") {
    model::OnnxWriter w("scatter", opset);
    const std::string x = embedded(w, 2);
    std::vector<model::OnnxAttribute> attributes;
    if (!reduction.empty()) attributes.push_back({"reduction", reduction});
    const std::string out = w.node(
        "ScatterND", {x, w.integers("indices", index_shape, indices), w.rationals("updates", update_shape, updates)},
        attributes);
    w.node("Identity", {out}, {}, "logits");
    w.output("logits", 2);
    return read_model(w.serialized());
  };
  const auto values = [&](auto&&... args) { return output_values(std::get<model::Graph>(scattered(args...))); };
  using V = std::vector<Exact>;
  // By hand. Row 1 replaced by (10, 20); row -1 (the last) likewise.
  CHECK(values(13, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{1}, std::vector<std::int64_t>{1, 2},
               V{10, 20}) == V{1, 2, 10, 20, 3, 4});
  CHECK(values(13, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{-1}, std::vector<std::int64_t>{1, 2},
               V{10, 20}) == V{1, 2, 2, 3, 10, 20});
  // Single elements (k = 2): (0, 1) <- 7 and (2, 0) <- 8.
  CHECK(values(13, std::vector<std::int64_t>{2, 2}, std::vector<std::int64_t>{0, 1, 2, 0}, std::vector<std::int64_t>{2},
               V{7, 8}) == V{1, 7, 2, 3, 8, 4});
  // Reductions: row 1 (2, 3) with (10, 20): add (12, 23), mul (20, 60) from opset 16; max with (0, 5) is (2, 5) at 18.
  CHECK(values(16, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{1}, std::vector<std::int64_t>{1, 2},
               V{10, 20}, "add") == V{1, 2, 12, 23, 3, 4});
  CHECK(values(16, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{1}, std::vector<std::int64_t>{1, 2},
               V{10, 20}, "mul") == V{1, 2, 20, 60, 3, 4});
  CHECK(values(18, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{1}, std::vector<std::int64_t>{1, 2},
               V{0, 5}, "max") == V{1, 2, 2, 5, 3, 4});
  // Adding to one row twice is defined (the sum); writing it twice without a reduction is not, and is refused.
  CHECK(values(16, std::vector<std::int64_t>{2, 1}, std::vector<std::int64_t>{0, 0}, std::vector<std::int64_t>{2, 2},
               V{1, 1, 1, 1}, "add") == V{3, 4, 2, 3, 3, 4});
  CHECK_THROWS_WITH(values(13, std::vector<std::int64_t>{2, 1}, std::vector<std::int64_t>{0, 0},
                           std::vector<std::int64_t>{2, 2}, V{1, 1, 1, 1}),
                    Catch::Contains("writes one slice twice"));
  CHECK_THROWS_WITH(values(13, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{3},
                           std::vector<std::int64_t>{1, 2}, V{10, 20}),
                    Catch::Contains("ScatterND's index 3 is outside axis 0 of extent 3"));
  CHECK_THROWS_WITH(values(13, std::vector<std::int64_t>{1, 1}, std::vector<std::int64_t>{1},
                           std::vector<std::int64_t>{1, 3}, V{1, 2, 3}),
                    Catch::Contains("ScatterND's updates have shape [1, 3]"));
  // Each opset's forms: no reduction before 16, no max or min before 18.
  const auto at_15 = scattered(15, {1, 1}, {1}, {1, 2}, {10, 20}, "add");
  CHECK_THAT(std::get<std::string>(at_15), Catch::Contains("which ScatterND takes from opset 16 on"));
  const auto max_at_17 = scattered(17, {1, 1}, {1}, {1, 2}, {10, 20}, "max");
  CHECK_THAT(std::get<std::string>(max_at_17), Catch::Contains("reduction 'max', which ScatterND takes from opset 18"));
}

TEST_CASE("model validation: Einsum reads equations as numpy.einsum does, and refuses what it cannot read",
          "[model][validation]") {
  // x = E[tokens] on the tokens 0, 1, 2: rows (1, 2), (2, 3), (3, 4); W = [[1, 0, 2], [0, 1, 1]].
  const auto einsum = [](const std::string& equation, const std::string& second = "") {
    model::OnnxWriter w("einsum");
    std::vector<std::string> inputs{embedded(w, 2)};
    if (second == "W") inputs.push_back(w.rationals("W", {2, 3}, {1, 0, 2, 0, 1, 1}));
    if (second == "x") inputs.push_back(inputs.front());
    if (second == "square") inputs = {w.rationals("S", {2, 2}, {1, 2, 3, 4})};
    if (second == "batched") {
      inputs = {w.node("Unsqueeze", {inputs.front(), w.integers("axis", {1}, {0})})};
      inputs.push_back(inputs.front());
    }
    w.node("Identity", {w.node("Einsum", inputs, {{"equation", equation}})}, {}, "logits");
    w.output("logits", 2);
    return output_values(std::get<model::Graph>(read_model(w.serialized())));
  };
  using V = std::vector<Exact>;
  // By hand: x W has rows (1, 2, 4), (2, 3, 7), (3, 4, 10).
  CHECK(einsum("ij,jk->ik", "W") == V{1, 2, 4, 2, 3, 7, 3, 4, 10});
  CHECK(einsum("ij,jk", "W") == V{1, 2, 4, 2, 3, 7, 3, 4, 10});  // implicit: i and k, used once, in order
  CHECK(einsum("...j,jk->...k", "W") == V{1, 2, 4, 2, 3, 7, 3, 4, 10});
  CHECK(einsum("ij->ji") == V{1, 2, 3, 2, 3, 4});
  CHECK(einsum("ji") == V{1, 2, 3, 2, 3, 4});  // implicit output "ij": the transpose
  CHECK(einsum("ij->") == V{15});
  CHECK(einsum("ij,ij->i", "x") == V{5, 13, 25});
  CHECK(einsum("ii->i", "square") == V{1, 4});  // the diagonal
  // Attention scores q k^T of [1, 3, 2] with itself: row_i . row_j.
  CHECK(einsum("bqd,bkd->bqk", "batched") == V{5, 8, 11, 8, 13, 18, 11, 18, 25});
  CHECK_THROWS_WITH(einsum("ij,jk->il", "W"), Catch::Contains("names an axis no input has"));
  CHECK_THROWS_WITH(einsum("ij->jj"), Catch::Contains("or one axis twice"));
  CHECK_THROWS_WITH(einsum("ijk->i"), Catch::Contains("does not fit input 1 of rank 2"));
  CHECK_THROWS_WITH(einsum("ij,ik->jk", "W"), Catch::Contains("gives one axis the extents 3 and 2"));
  CHECK_THROWS_WITH(einsum("ij->i2"), Catch::Contains("Einsum's equation 'ij->i2' is outside what tverify reads"));
  CHECK_THROWS_WITH(einsum("ij,jk->ik"), Catch::Contains("has 2 terms for 1 inputs"));
}

TEST_CASE("model validation: nodes the output does not depend on are dropped, never evaluated", "[model][validation]") {
  // logits = x, beside a dead branch that divides x by zero and one that takes exp(x): the reader checks both, the
  // evaluation runs neither, and the graph is rational (evaluated exactly) because its live nodes are.
  model::OnnxWriter w("dead_branches");
  const std::string x = embedded(w, 2);
  w.node("Div", {x, zeros(w, "zero_shape", {1})});
  w.node("Exp", {x});
  w.node("Identity", {x}, {}, "logits");
  w.output("logits", 2);
  const model::Graph graph = std::get<model::Graph>(read_model(w.serialized()));
  CHECK(graph.rational);
  CHECK(graph.nodes.size() == 2);  // the Gather and the Identity
  CHECK(output_values(graph) == std::vector<Exact>{1, 2, 2, 3, 3, 4});
  // An op tverify does not evaluate is refused even in a dead branch: the reader reads the whole file.
  model::OnnxWriter unknown("dead_unknown_op");
  const std::string y = embedded(unknown, 2);
  unknown.node("Celu", {y});
  unknown.node("Identity", {y}, {}, "logits");
  unknown.output("logits", 2);
  CHECK_THAT(std::get<std::string>(read_model(unknown.serialized())), Catch::Contains("Celu"));
}

TEST_CASE("model validation: Cast to a real type rounds to nearest, ties to even, as an IEEE conversion does",
          "[model][validation]") {
  // x = E[tokens] on the tokens 0, 1, 2: rows (1, 2), (2, 3), (3, 4); the output is Cast(x / divisor) or, for
  // `exponential`, Cast(exp(x)). Expected values by hand from the formats' bits, and the same from numpy's float16
  // and float32 conversions of these values.
  const auto cast = [](std::int64_t to, std::int64_t divisor, bool exponential = false) {
    model::OnnxWriter w("cast_rounds");
    const std::string x = embedded(w, 2);
    const std::string value = exponential ? w.node("Exp", {x}) : w.node("Div", {x, w.scalar("d", Exact(divisor))});
    w.node("Identity", {w.node("Cast", {value}, {{"to", to}})}, {}, "logits");
    w.output("logits", 2);
    return std::get<model::Graph>(read_model(w.serialized()));
  };
  using V = std::vector<Exact>;
  const std::int64_t float32 = 1, float16 = 10, float64 = 11, bfloat16 = 16;
  // x / 3: 1/3, 2/3, 2/3, 1, 1, 4/3. 1/3 = 1.0101... x 2^-2: float32 keeps 23 fraction bits and rounds up
  // (0x3EAAAAAB), float16 10 and rounds down (0x3555), bfloat16 7 and rounds up (0x3EAB).
  const Exact f32(11184811, BigInt(1) << 25), f16(1365, 4096), bf16(171, 512);
  CHECK(output_values(cast(float32, 3)) == V{f32, f32 * 2, f32 * 2, 1, 1, f32 * 4});
  CHECK(output_values(cast(float16, 3)) == V{f16, f16 * 2, f16 * 2, 1, 1, f16 * 4});
  CHECK(output_values(cast(bfloat16, 3)) == V{bf16, bf16 * 2, bf16 * 2, 1, 1, bf16 * 4});
  const Exact f64(BigInt(6004799503160661), BigInt(1) << 54);  // Python's float(1/3)
  CHECK(output_values(cast(float64, 3)) == V{f64, f64 * 2, f64 * 2, 1, 1, f64 * 4});
  // Subnormal float16 at x / 2^25: 2^-25 is half the smallest subnormal, a tie to the even 0; 3 x 2^-25 ties to
  // 2^-23.
  const Exact tiny(1, BigInt(1) << 24);
  CHECK(output_values(cast(float16, std::int64_t{1} << 25)) == V{0, tiny, tiny, tiny * 2, tiny * 2, tiny * 2});
  // An irrational value, enclosed: exp(1..4) in float16 are 87/32, 473/64, 1285/64, 1747/32, decided in double
  // intervals (both ends of each enclosure round to the same float16).
  const model::Graph exps = cast(float16, 1, true);
  const auto out = model::evaluate(exps, model::convert_weights<DoubleInterval>(exps), {0, 1, 2});
  V points;
  for (const auto& e : out.reals) {
    REQUIRE(e.value.lower() == e.value.upper());
    points.push_back(e.value.lower());
  }
  CHECK(points == V{Exact(87, 32), Exact(473, 64), Exact(473, 64), Exact(1285, 64), Exact(1285, 64), Exact(1747, 32)});
  // Integers to reals round the same way: 2049 and 2051 tie to 2048 and 2052 in float16, 65519 rounds to 65504 and
  // 65520 to infinity; 2^24 + 1 and 2^24 + 3 tie to 2^24 and 2^24 + 4 in float32.
  const auto integer_cast = [](std::int64_t value, std::int64_t to) {
    model::OnnxWriter w("integer_cast");
    const std::string x = embedded(w, 2);
    w.node("Identity", {w.node("Add", {x, w.node("Cast", {w.integers("n", {}, {value})}, {{"to", to}})})}, {},
           "logits");
    w.output("logits", 2);
    const model::Graph g = std::get<model::Graph>(read_model(w.serialized()));
    return model::evaluate(g, model::convert_weights<Exact>(g), {0}).reals.front();  // 1 + the cast value
  };
  CHECK(integer_cast(2049, float16).value == 2049);
  CHECK(integer_cast(2051, float16).value == 2053);
  CHECK(integer_cast(65519, float16).value == 65505);
  CHECK(integer_cast(65520, float16).inf == 1);
  CHECK(integer_cast(16777217, float32).value == 16777217);
  CHECK(integer_cast(16777219, float32).value == 16777221);
  CHECK(integer_cast(16777217, float64).value == 16777218);  // exact in float64
}

TEST_CASE("model validation: ScatterND into a tensor of empty slices, and a large integer cast in double intervals",
          "[model][validation]") {
  // data [2, 0] has two slices of no element: scattering into slice 1 changes nothing (and must not index a flag per
  // element). logits = x + ReduceSum(ScatterND(...)) = x + 0.
  model::OnnxWriter w("scatter_empty");
  const std::string x = embedded(w, 2);
  const std::string scattered =
      w.node("ScatterND", {w.rationals("D", {2, 0}, {}), w.integers("i", {1, 1}, {1}), w.rationals("u", {1, 0}, {})});
  const std::string zero = w.node("ReduceSum", {scattered}, {{"keepdims", std::int64_t{0}}});
  w.node("Identity", {w.node("Add", {x, zero})}, {}, "logits");
  w.output("logits", 2);
  CHECK(output_values(std::get<model::Graph>(read_model(w.serialized()))) == std::vector<Exact>{1, 2, 2, 3, 3, 4});
  // 2^53 + 1 cast to float64 is 2^53 (a tie to even), a point in double intervals as exactly.
  model::OnnxWriter c("cast_large");
  const std::string y = embedded(c, 2);
  const std::string big =
      c.node("Cast", {c.integers("n", {}, {(std::int64_t{1} << 53) + 1})}, {{"to", std::int64_t{11}}});
  c.node("Identity", {c.node("Add", {y, big})}, {}, "logits");
  c.output("logits", 2);
  const model::Graph g = std::get<model::Graph>(read_model(c.serialized()));
  const auto slots = model::evaluate_slots(g, model::convert_weights<DoubleInterval>(g), {0});
  const Exact two_53(BigInt(1) << 53);
  for (const auto& node : g.nodes)
    if (node.op == "Cast") {
      const auto& cast = slots[static_cast<std::size_t>(node.outputs.front())]->reals.front().value;
      CHECK(cast.lower() == two_53);
      CHECK(cast.upper() == two_53);
    }
}
