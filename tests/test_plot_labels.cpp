// Plot labels: words and $math$ rendered for gnuplot's enhanced text (PNG, PDF) and for LaTeX (cairolatex), inside
// double-quoted gnuplot strings.
#include "io/latex_text.hpp"
#include "io/plot_labels.hpp"

#include <catch2/catch.hpp>

using namespace tverify;

TEST_CASE("plot labels: math as enhanced text or LaTeX, words escaped for each, dollars from data stay dollars",
          "[labels]") {
  CHECK(gnuplot_label("Lemma 2.4's bound $L^2 D^{-n}$", LabelTarget::Enhanced) == "\"Lemma 2.4's bound L^2 D^{-n}\"");
  CHECK(gnuplot_label("Lemma 2.4's bound $L^2 D^{-n}$", LabelTarget::Latex) == "\"Lemma 2.4's bound $L^2 D^{-n}$\"");
  // In enhanced text an underscore would subscript: the words escape it (a backslash, doubled inside the string).
  CHECK(gnuplot_label("copy.thm2_3", LabelTarget::Enhanced) == "\"copy.thm2\\\\_3\"");
  CHECK(gnuplot_label("temperature $\\tau$", LabelTarget::Enhanced) == "\"temperature τ\"");
  CHECK(gnuplot_label("temperature $\\tau$", LabelTarget::Latex) == "\"temperature $\\\\tau$\"");
  CHECK(gnuplot_label("a \"quoted\"\nline", LabelTarget::Enhanced) == "\"a \\\"quoted\\\"\\nline\"");
  // A file name with dollars is words: no math, and LaTeX gets \$.
  CHECK(gnuplot_label(plot_words("a$x$.onnx"), LabelTarget::Latex) == "\"a\\\\$x\\\\$.\\\\allowbreak{}onnx\"");
  CHECK(gnuplot_label(plot_words("a$x$.onnx"), LabelTarget::Enhanced) == "\"a$x$.onnx\"");
}

TEST_CASE("LaTeX text: control characters become spaces, so no line break ends a caption's paragraph", "[labels]") {
  CHECK(latex_escape("a\nb\x0c"
                     "c\x7f") == "a b c ");
}
