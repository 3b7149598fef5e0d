// The model checker refuses graphs the ONNX specification does not define (opset 17, the operators' pages): each
// model below passes through the reader, and its invalid node must be refused with a usage error naming what is
// wrong, on every input, never evaluated from memory the evaluator did not write.
#include "checkers/files.hpp"
#include "checkers/registry.hpp"
#include "constructions/model/onnx_writer.hpp"

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
      : dir(std::filesystem::temp_directory_path() / ("tverify-validation-" + name + "-" + std::to_string(::getpid()))) {
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

TEST_CASE("model validation: attributes and input counts the opset does not define are refused", "[model][validation]") {
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
    const std::string empty = w.node("Slice", {x, w.integers("starts", {1}, {0}), w.integers("ends", {1}, {0}),
                                               w.integers("axes", {1}, {1})});
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
        return w.node("Slice", {x, w.integers("starts", {1}, {0}), w.integers("ends", {1}, {0}),
                                w.integers("axes", {1}, {1})});
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
