#include "core/exact.hpp"

#include <cctype>
#include <stdexcept>

namespace tverify {
namespace {

[[noreturn]] void reject(std::string_view text) {
  throw std::invalid_argument("'" + std::string(text) + "' is not an exact number (forms: 3, -2, 0.25, 1/5, 3e-2)");
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Boost reads a leading 0 as an octal prefix ("0125" is 85), so leading zeros are dropped first.
BigInt decimal_digits_to_bigint(std::string_view digits) {
  const auto first = digits.find_first_not_of('0');
  return first == std::string_view::npos ? BigInt(0) : BigInt(std::string(digits.substr(first)));
}

BigInt parse_natural(std::string_view digits, std::string_view whole) {
  if (!all_digits(digits)) reject(whole);
  return decimal_digits_to_bigint(digits);
}

// Decimal with optional fraction and exponent, no sign: "12", "0.25", ".5", "3e-2", "1.5E3".
Exact parse_unsigned_decimal(std::string_view s, std::string_view whole) {
  long exponent = 0;
  if (auto e = s.find_first_of("eE"); e != std::string_view::npos) {
    std::string_view exp_text = s.substr(e + 1);
    bool negative = false;
    if (!exp_text.empty() && (exp_text[0] == '-' || exp_text[0] == '+')) {
      negative = exp_text[0] == '-';
      exp_text.remove_prefix(1);
    }
    if (!all_digits(exp_text) || exp_text.size() > 6) reject(whole);
    exponent = std::stol(std::string(exp_text)) * (negative ? -1 : 1);
    s = s.substr(0, e);
  }
  std::string_view int_part = s, frac_part;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    int_part = s.substr(0, dot);
    frac_part = s.substr(dot + 1);
    if (int_part.empty() && frac_part.empty()) reject(whole);
    if (!frac_part.empty() && !all_digits(frac_part)) reject(whole);
  }
  if (!int_part.empty() && !all_digits(int_part)) reject(whole);
  if (int_part.empty() && frac_part.empty()) reject(whole);
  const BigInt mantissa = decimal_digits_to_bigint(std::string(int_part) + std::string(frac_part));
  exponent -= static_cast<long>(frac_part.size());
  if (exponent >= 0) return Exact(mantissa * big_pow(10, static_cast<unsigned long>(exponent)));
  return Exact(mantissa, big_pow(10, static_cast<unsigned long>(-exponent)));
}

}  // namespace

BigInt big_pow(unsigned long base, unsigned long exponent) {
  return boost::multiprecision::pow(BigInt(base), static_cast<unsigned>(exponent));
}

Exact parse_exact(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) reject(text);
  Exact value;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    BigInt num = parse_natural(s.substr(0, slash), text);
    BigInt den = parse_natural(s.substr(slash + 1), text);
    if (den == 0) throw std::invalid_argument("'" + std::string(text) + "' has a zero denominator");
    value = Exact(num, den);
  } else {
    value = parse_unsigned_decimal(s, text);
  }
  return negative ? Exact(-value) : value;
}

std::string exact_to_string(const Exact& value) {
  if (denominator(value) == 1) return numerator(value).str();
  return numerator(value).str() + "/" + denominator(value).str();
}

}  // namespace tverify
