// The words of a certificate's table columns and summary entries for a write-up: a plot label
// (io/plot_labels.hpp: words with LaTeX math between dollars), "$\tau$ (decimal)" for tau_decimal, "error rate"
// for error_rate. Keys that no rule names come back with their underscores as spaces, a Greek letter's name or a single
// letter in math.
#pragma once

#include <string>

namespace tverify {

std::string column_words(const std::string& key);

// A label and its value, the value as text from outside (its dollars are not math): "$\tau$ = 1/2" after a label
// in math, "variant: paper" after words.
std::string setting_words(const std::string& label, const std::string& value);

}  // namespace tverify
