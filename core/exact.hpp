// Exact arithmetic: GMP rationals and integers through Boost.Multiprecision (docs/conventions.md).
// cpp_rational is deliberately not used (Boost 1.74 has wrong-value and hang bugs in its rational adaptor).
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <string>
#include <string_view>

namespace tverify {

using Exact = boost::multiprecision::mpq_rational;
using BigInt = boost::multiprecision::mpz_int;

// Parses a user number exactly: "3", "-2", "0.2" (= 1/5), "1/5", "3e-2" (= 3/100), "1.5E3", "-7/21".
// Throws std::invalid_argument naming the accepted forms when the text is not one of them.
Exact parse_exact(std::string_view text);

// "p/q" for a non-integer, "p" for an integer: the form certificates use for exact numbers.
std::string exact_to_string(const Exact& value);

// base^exponent exactly.
BigInt big_pow(unsigned long base, unsigned long exponent);

}  // namespace tverify
