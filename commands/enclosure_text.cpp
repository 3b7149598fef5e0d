#include "commands/enclosure_text.hpp"

#include <mpfr.h>

#include <regex>

namespace tverify {
namespace {

// The number of significant digits of a decimal number as written ("-1.2500e+00" has 5).
int significant_digits(const std::string& number) {
  int digits = 0;
  bool leading = true;
  for (char c : number) {
    if (c == 'e' || c == 'E') break;
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

// The decimal `number` rounded toward `rounding` (down or up) to `digits` significant digits: read into 256 bits
// rounded the same way, then printed rounded the same way again, so the result lies on the number's outer side.
std::string rounded(const std::string& number, int digits, mpfr_rnd_t rounding) {
  mpfr_t x;
  mpfr_init2(x, 256);
  mpfr_set_str(x, number.c_str(), 10, rounding);
  char* text = nullptr;
  mpfr_asprintf(&text, rounding == MPFR_RNDD ? "%.*RDg" : "%.*RUg", digits, x);
  std::string out(text);
  mpfr_free_str(text);
  mpfr_clear(x);
  return out;
}

// A zero, however written ("0.00000e+00", "-0"), is "0"; any other number at `digits` digits, rounded toward
// `rounding`. Whether to rewrite: a number longer than `digits` digits, or a zero written any other way.
std::string shortened(const std::string& number, int digits, mpfr_rnd_t rounding) {
  return significant_digits(number) == 0 ? "0" : rounded(number, digits, rounding);
}
bool too_long(const std::string& number, int digits) {
  const int significant = significant_digits(number);
  return significant > digits || (significant == 0 && number != "0");
}

}  // namespace

std::string with_short_enclosures(const std::string& text, int digits) {
  if (digits <= 0) return text;
  static const std::string number = R"(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";
  static const std::regex enclosure("\\[(" + number + "), (" + number + ")\\]");
  std::string out;
  auto from = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), enclosure), end; it != end; ++it) {
    const std::smatch& m = *it;
    out.append(from, m[0].first);
    const std::string lo = m[1].str(), hi = m[2].str();
    if (too_long(lo, digits) || too_long(hi, digits))
      out += "[" + shortened(lo, digits, MPFR_RNDD) + ", " + shortened(hi, digits, MPFR_RNDU) + "]";
    else
      out += m[0].str();
    from = m[0].second;
  }
  out.append(from, text.cend());
  return out;
}

}  // namespace tverify
