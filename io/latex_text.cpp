#include "io/latex_text.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>

namespace tverify {
namespace {

// The LaTeX for one UTF-8 character outside ASCII: the symbols tverify's texts use, in math mode; anything else
// named by its code point, so that no input stops pdflatex.
std::string latex_symbol(unsigned code) {
  static const std::map<unsigned, std::string> symbols{
      {0x3C4, "$\\tau$"},   {0x3B8, "$\\theta$"}, {0x3C0, "$\\pi$"},    {0x3B1, "$\\alpha$"}, {0x3B2, "$\\beta$"},
      {0x3A3, "$\\Sigma$"}, {0x3A8, "$\\Psi$"},   {0x221A, "$\\surd$"}, {0xB1, "$\\pm$"},     {0x2264, "$\\le$"},
      {0x2265, "$\\ge$"},   {0x2260, "$\\ne$"},   {0xD7, "$\\times$"},  {0xB7, "$\\cdot$"},   {0x2212, "$-$"},
      {0x2192, "$\\to$"},   {0x2026, "\\dots{}"}, {0x2013, "--"},       {0x2014, "---"},      {0x11D, "\\^g"},
      {0x302, "\\^{}"},     {0x303, "\\~{}"}};
  const auto it = symbols.find(code);
  return it != symbols.end() ? it->second : fmt::format("[U+{:04X}]", code);
}

// The code point of the UTF-8 sequence starting at s[i]; advances i past it (a malformed byte counts alone).
unsigned next_code_point(const std::string& s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned lead = byte(i);
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (length == 1 || i + length > s.size()) return byte(i++);
  unsigned code = lead & (0x3F >> (length - 1));
  for (std::size_t k = 1; k < length; ++k) code = (code << 6) | (byte(i + k) & 0x3F);
  i += length;
  return code;
}

}  // namespace

bool breaks_after(const std::string& text, std::size_t i) {
  const char c = text[i];
  return (c == '.' || c == '_' || c == '/' || c == '=') && i + 1 < text.size() &&
         std::isalpha(static_cast<unsigned char>(text[i + 1]));
}

std::string latex_escape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      out += latex_symbol(next_code_point(text, i));
      continue;
    }
    ++i;
    if (c < 0x20 || c == 0x7F) {  // a control character (a line break, a form feed) would end a paragraph or stop LaTeX
      out += ' ';
      continue;
    }
    switch (c) {
      case '#':
      case '$':
      case '%':
      case '&':
      case '_':
      case '{':
      case '}': out += '\\', out += static_cast<char>(c); break;
      case '\\': out += "$\\backslash$"; break;
      case '^': out += "\\^{}"; break;
      case '~': out += "\\~{}"; break;
      case '<':
      case '>':
        if (i < text.size() && text[i] == '=') {  // "<=" and ">=" as the relations they stand for
          out += c == '<' ? "$\\le$" : "$\\ge$";
          ++i;
        } else {
          out += c == '<' ? "$<$" : "$>$";
        }
        break;
      case '|': out += "$|$"; break;
      default: out += static_cast<char>(c);
    }
    if (breaks_after(text, i - 1)) out += "\\allowbreak{}";
  }
  return out;
}

}  // namespace tverify
