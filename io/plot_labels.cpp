#include "io/plot_labels.hpp"

#include "io/latex_text.hpp"

#include <map>
#include <vector>

namespace tverify {
namespace {

// The label split at its dollars: even pieces are words, odd pieces math; "\\$" is a dollar of the words.
std::vector<std::string> pieces(const std::string& label) {
  std::vector<std::string> out{""};
  for (std::size_t i = 0; i < label.size(); ++i) {
    if (label[i] == '\\' && i + 1 < label.size() && label[i + 1] == '$')
      out.back() += label[++i];
    else if (label[i] == '$')
      out.emplace_back();
    else
      out.back() += label[i];
  }
  return out;
}

// Math in gnuplot's enhanced text: ^{..} and _{..} as they are, the commands tverify's labels use as UTF-8 or words.
std::string enhanced_math(const std::string& math) {
  static const std::map<std::string, std::string> commands{
      {"tau", "τ"},  {"theta", "θ"}, {"pi", "π"},  {"alpha", "α"}, {"beta", "β"},  {"le", "≤"},   {"ge", "≥"},
      {"cdot", "·"}, {"times", "×"}, {"ln", "ln"}, {"log", "log"}, {"infty", "∞"}, {",", " "},    {"mathrm", ""},
      {"text", ""},  {"ne", "≠"},    {"pm", "±"},  {"star", "*"},  {"max", "max"}, {"min", "min"}};
  std::string out;
  for (std::size_t i = 0; i < math.size(); ++i) {
    if (math[i] != '\\') {
      out += math[i] == '@' || math[i] == '&' || math[i] == '~' ? std::string("\\") + math[i] : std::string(1, math[i]);
      continue;
    }
    std::size_t j = i + 1;
    while (j < math.size() && std::isalpha(static_cast<unsigned char>(math[j]))) ++j;
    if (j == i + 1 && j < math.size()) ++j;  // a one-character command such as "\,"
    const auto it = commands.find(math.substr(i + 1, j - i - 1));
    out += it != commands.end() ? it->second : math.substr(i + 1, j - i - 1);
    i = j - 1;
  }
  return out;
}

// Words in gnuplot's enhanced text: its markup characters escaped.
std::string enhanced_words(const std::string& words) {
  std::string out;
  for (char c : words) {
    if (c == '^' || c == '_' || c == '@' || c == '&' || c == '~' || c == '{' || c == '}') out += '\\';
    out += c;
  }
  return out;
}

// A gnuplot double-quoted string: backslashes and quotes escaped, a line break as \n.
std::string double_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '\\' ? "\\\\" : c == '"' ? "\\\"" : c == '\n' ? "\\n" : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string plot_words(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '$' ? std::string("\\$") : std::string(1, c);
  return out;
}

std::string latex_of_label(const std::string& label) {
  const std::vector<std::string> parts = pieces(label);
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) out += k % 2 == 1 ? "$" + parts[k] + "$" : latex_escape(parts[k]);
  return out;
}

std::string gnuplot_label(const std::string& label, LabelTarget target) {
  if (target == LabelTarget::Latex) return double_quoted(latex_of_label(label));
  const std::vector<std::string> parts = pieces(label);
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) out += k % 2 == 1 ? enhanced_math(parts[k]) : enhanced_words(parts[k]);
  return double_quoted(out);
}

}  // namespace tverify
