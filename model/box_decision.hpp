// What bounds over a box say about a model's outputs: at each read position, whether the argmax is the expected class
// for every member of the box, certainly not it for any member, or open (the bounds cannot tell, so the box is split
// or its members are evaluated one by one).
//
// The logits are enclosed over the box by evaluate_box (model/evaluator.hpp), in double intervals, or at 256 bits
// when the model has no double rung (a rational graph, a weight past the double range) or, if the caller allows,
// the doubles' range is passed. A position is Right when its
// expected class is one class c and the lower end of logit c is above the upper end of every other class's logit:
// then every member's exact argmax is c, strictly. It is Wrong when some class k's lower end is above the upper end
// of every class the position may expect: no member's argmax is then an expected class.
#pragma once

#include "model/loaded_model.hpp"
#include "model/token_box.hpp"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tverify::model {

// One read position of a box: the position in the token sequence and the classes its expected output may be over
// the box (sorted, distinct, non-empty).
struct BoxRead {
  std::size_t position = 0;
  std::vector<std::int64_t> expected;
};

enum class BoxVerdict { Right, Wrong, Open };

struct BoxReading {
  BoxVerdict verdict = BoxVerdict::Open;
  // Right: a lower bound on logit c minus the largest other logit, over the box (for the record; rounded down).
  double margin = 0;
};

// Why a graph has no box evaluation (the token input feeds an op other than an embedding lookup or Shape).
struct NoBoxEvaluation {
  std::string reason;
};

// What is asked of one box: the verdict at each of `reads`, given the output needs at least `classes` classes. With a
// plan (a generation read from the teacher-forced sequence, model/prefix_plan.hpp), its checks must hold for every
// member, or every read is Open. `may_climb`: an enclosure past the double range is made again at 256 bits.
struct BoxQuestion {
  TokenBox box;
  std::vector<BoxRead> reads;
  std::int64_t classes = 0;
  const PrefixPlan* plan = nullptr;
  bool may_climb = true;
};

struct BoxAnswer {
  std::vector<BoxReading> readings;  // one per read
  bool climbed = false;              // the doubles' range was passed and the box evaluated again at 256 bits
};

// The verdict at each read; every one Open when the graph cannot be evaluated over the box (a comparison that
// differs across it, a model error that its members' own evaluation reports) or its output is not logits of at least
// `classes` classes. NoBoxEvaluation when the graph has none.
std::variant<BoxAnswer, NoBoxEvaluation> decide_box(const LoadedModel& model, const BoxQuestion& q);

}  // namespace tverify::model
