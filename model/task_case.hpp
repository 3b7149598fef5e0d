// One input of a model check, as the engine evaluates it: the token sequence the model reads and the outputs it
// must produce, at which positions. The tasks that make these (checkers/model/tasks.hpp) live above the engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tverify::model {

using Tokens = std::vector<std::int64_t>;

// The sequence the model reads (with every target fed back, as teacher forcing would), the outputs expected at
// positions read_from, read_from + 1, ..., and whether those outputs are generated tokens (then `--decode generate`
// feeds the model its own argmax instead of the targets).
struct TaskCase {
  Tokens sequence;
  Tokens targets;
  std::size_t read_from = 0;
  bool generative = false;
};

}  // namespace tverify::model
