#include "commands/column_words.hpp"

#include "io/plot_labels.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <vector>

namespace tverify {
namespace {

// Columns whose words no rule finds: the sweeps' formulas and abbreviations (docs/sweeps.md names each).
const std::map<std::string, std::string>& named_columns() {
  static const std::map<std::string, std::string> names{
      {"L2_D_minus_n", "$L^2 D^{-n}$"},
      {"L2_over_Dn", "Lemma 2.4's bound $L^2 D^{-n}$"},
      {"log2_log2_L", "$\\log_2 \\log_2 L$"},
      {"thm2_3_text", "Theorem 2.3 (text reading)"},
      {"p_ngram_text", "$p_{n\\mathrm{-gram}}$ (text reading)"},
      {"p_ngram_formula", "$p_{n\\mathrm{-gram}}$ (formula reading)"},
      {"p_text", "$p_{n\\mathrm{-gram}}$ (text reading)"},
      {"p_formula", "$p_{n\\mathrm{-gram}}$ (formula reading)"},
      {"err", "error"},
      {"ci95_low", "95% interval, lower end"},
      {"ci95_high", "95% interval, upper end"},
      {"error_rate_upper", "error rate, unknown inputs as errors"},
      {"min_bits", "fewest bits"},
      {"mpfr_steps", "MPFR steps"},
      {"h_alpha_definite", "$h_\\alpha$ definite"},
      {"gap_pi_minus_star", "gap $L(\\theta_\\pi) - L(\\theta_\\star)$"},
      {"gap_encloses_mi", "gap encloses $I(x_n; x_{n+1})$"},
      {"mutual_information", "$I(x_n; x_{n+1})$"},
      {"c_squared", "$c^2$"},
      {"c_min", "smallest $c$"},
      {"c_min_squared", "smallest $c^2$"},
      {"c_condition", "the sufficient condition's $c$"},
      {"c_condition_squared", "the sufficient condition's $c^2$"},
      {"c_largest_failing", "largest failing $c$"},
      {"value_exact", "value (exact)"},
      {"smallest_verified_over_proof_tau", "smallest verified $\\tau$ over the proof's $\\tau$"},
  };
  return names;
}

// A last word that qualifies the rest: "tau_decimal" is "$\tau$ (decimal)".
const std::map<std::string, std::string>& qualifiers() {
  static const std::map<std::string, std::string> words{
      {"decimal", "decimal"}, {"exact", "exact"}, {"text", "text reading"}, {"formula", "formula reading"}};
  return words;
}

bool greek(const std::string& word) {
  static const std::array<const char*, 12> letters{"alpha",  "beta", "gamma", "delta", "epsilon", "theta",
                                                   "lambda", "mu",   "pi",    "sigma", "tau",     "phi"};
  for (const char* letter : letters)
    if (word == letter) return true;
  return false;
}

// One word of a key: a Greek letter's name or a single letter (with digits: "x2" is $x_2$) in math, others as they are.
std::string word_of(const std::string& word) {
  if (greek(word)) return "$\\" + word + "$";
  if (!word.empty() && std::isalpha(static_cast<unsigned char>(word[0])) &&
      (word.size() == 1 || std::all_of(word.begin() + 1, word.end(), [](char c) { return std::isdigit(c); })))
    return word.size() == 1 ? "$" + word + "$" : "$" + word.substr(0, 1) + "_{" + word.substr(1) + "}$";
  return plot_words(word);
}

std::vector<std::string> words_of(const std::string& key) {
  std::vector<std::string> out{""};
  for (char c : key) {
    if (c == '_' || c == '-') {
      if (!out.back().empty()) out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

}  // namespace

std::string column_words(const std::string& key) {
  if (const auto it = named_columns().find(key); it != named_columns().end()) return it->second;
  std::vector<std::string> words = words_of(key);
  if (words.empty()) return plot_words(key);
  std::string qualifier;
  if (words.size() > 1) {
    if (const auto it = qualifiers().find(words.back()); it != qualifiers().end()) {
      qualifier = " (" + it->second + ")";
      words.pop_back();
      std::string rest;
      for (std::size_t i = 0; i < words.size(); ++i) rest += (i ? "_" : "") + words[i];
      if (const auto named = named_columns().find(rest); named != named_columns().end())
        return named->second.back() == ')'  // "(text reading)" and "decimal" make "(text reading, decimal)"
                   ? named->second.substr(0, named->second.size() - 1) + ", " + it->second + ")"
                   : named->second + qualifier;
    }
  }
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? " " : "") + word_of(words[i]);
  return out + qualifier;
}

std::string setting_words(const std::string& label, const std::string& value) {
  const bool math = label.size() > 1 && label.front() == '$' && label.back() == '$';
  return label + (math ? " = " : ": ") + plot_words(value);
}

}  // namespace tverify
