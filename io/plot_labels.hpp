// Plot labels written once, in words with LaTeX math between dollars ("error rate vs $L$", "$L^2 D^{-n}$",
// "$\tau$ of the proof"), and rendered for each gnuplot terminal: gnuplot's enhanced text for PNG and PDF (super- and
// subscripts, Greek letters as UTF-8), LaTeX for the cairolatex figure (words escaped, math as written). Each comes
// back as a double-quoted gnuplot string; a line break in the label stays one.
#pragma once

#include <string>

namespace tverify {

enum class LabelTarget { Enhanced, Latex };

// The label as a gnuplot string literal for the target.
std::string gnuplot_label(const std::string& label, LabelTarget target);

// The label as LaTeX text: its words escaped (io/latex_text.hpp), its math as written.
std::string latex_of_label(const std::string& label);

// Text from outside (a file name) as words of a label: its dollars are not math.
std::string plot_words(const std::string& text);

}  // namespace tverify
