// Three-valued answers. A comparison on intervals can be undecided; Unknown is never rounded to an answer.
#pragma once

namespace tverify {

enum class Tri { False, True, Unknown };
enum class Sign { Negative, Zero, Positive, Unknown };

constexpr const char* to_string(Tri t) { return t == Tri::True ? "true" : t == Tri::False ? "false" : "unknown"; }

}  // namespace tverify
