// Strings over the alphabet [D] = {0, .., D-1} (Repeat After Me, Sec. 2.1) and the two readings of "repeated n-gram"
// in Definition 2.2. Positions are 1-based in comments (as in the paper) and 0-based in code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tverify::copy {

using Token = int;
using TokenString = std::vector<Token>;

// The index-th string of [D]^L in lexicographic order (x_1 most significant): the enumeration order of every check.
TokenString string_at(std::uint64_t index, int alphabet, int length);
void string_at(std::uint64_t index, int alphabet, int length, TokenString& into);  // reuses into's buffer

// Definition 2.2 is printed two ways. The text says "two repeated sequences of n tokens"; the formula compares
// x_i..x_{i+n} with x_j..x_{j+n}, which are n+1 tokens. Both readings are checked everywhere.
enum class NgramReading { Text, Formula };

constexpr const char* to_string(NgramReading r) { return r == NgramReading::Text ? "text" : "formula"; }
std::string describe(NgramReading r);

// How many tokens one "n-gram" has under the reading: n (text) or n + 1 (formula).
int window_length(NgramReading reading, int n);

// Whether some two distinct start positions i != j carry equal windows of w tokens (both windows inside x).
bool has_repeated_window(const TokenString& x, int w);

std::string format_tokens(const TokenString& x);

// The lexicographically least de Bruijn sequence B(k, n) (Fredricksen-Kessler-Maiorana): every n-gram over [k] once
// in the cycle, so any window of it, read as a linear string, repeats no n-gram.
TokenString de_bruijn(int k, int n);
// A repeat-free string of the given length (<= k^n): a window of B(k, n) from a seeded start, the alphabet relabelled
// by a seeded permutation.
TokenString repeat_free_string(int alphabet, int n, std::size_t length, std::uint64_t seed);

}  // namespace tverify::copy
