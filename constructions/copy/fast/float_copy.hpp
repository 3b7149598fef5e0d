// The copy transformer of Theorem 2.3 run in a floating-point format, every operation rounded to it:
// float64 and float32 natively, bfloat16 (8-bit significand) and float16 (11-bit significand, exponents -14..15,
// overflow to infinity) emulated: each operation is computed in float and rounded to nearest-even in the format (an
// operation whose exact result float cannot hold is rounded twice; the figures say so). The weights are the exact
// construction's (CopyTransformer), rounded; layer 1, the scores, the max-shifted softmax and the readout run in the
// format and the argmax takes the first of equal values. A measurement of what the format does, never a verification.
#pragma once

#include "constructions/copy/transformer.hpp"

#include <cstdint>
#include <string>

namespace tverify::copy::fast {

enum class FloatFormat { Float64, Float32, BFloat16, Float16 };

const char* to_string(FloatFormat f);
// The largest finite value of the format, as a double.
double format_max(FloatFormat f);

struct FloatRun {
  bool copied = false;                // generated x after <BOS>, x, <COPY> (stops at the first wrong token)
  std::uint64_t steps = 0;            // generation steps run
  std::uint64_t saturated_steps = 0;  // steps whose softmax was exactly one-hot on the top score (every lower weight 0)
  bool nonfinite = false;             // an infinity or NaN reached the softmax
};

FloatRun copies_in_format(const copy::CopyTransformer& t, FloatFormat format, const copy::TokenString& x);

}  // namespace tverify::copy::fast
