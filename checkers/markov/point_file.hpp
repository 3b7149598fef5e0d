// A parameter point of the Attention-with-Markov model read from a JSON file (`--point-file`): one key per block,
// exact numbers as strings ("1/3", "-0.25") or integers; vectors for e and a, matrices (lists of rows) for p (N x d),
// W_Q, W_K, W_V (m x d), W_O (d x m), W_1 (r x d), W_2 (d x r), and a number for b. `a` only without --tied.
// Any missing block, wrong shape or malformed number is a UsageError naming the block and the expected shape.
#pragma once

#include "constructions/markov/model.hpp"

#include <string>

namespace tverify::markov {

struct PointFile {
  Point point;
  std::string sha256;  // of the bytes read, which a certificate records
};

PointFile read_point_file(const std::string& path, const Shapes& shapes);

}  // namespace tverify::markov
