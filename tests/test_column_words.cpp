// commands/column_words: the words of table columns for LaTeX, by hand from the sweeps' documentation.
#include "io/plot_labels.hpp"
#include "commands/column_words.hpp"

#include <catch2/catch.hpp>

using tverify::column_words;
using tverify::setting_words;

TEST_CASE("column words: parameters in math, qualifiers in parentheses, formulas by name", "[report]") {
  CHECK(column_words("tau") == "$\\tau$");
  CHECK(column_words("tau_decimal") == "$\\tau$ (decimal)");
  CHECK(column_words("L") == "$L$");
  CHECK(column_words("x2") == "$x_{2}$");
  CHECK(column_words("error_rate") == "error rate");
  CHECK(column_words("smallest_verified_tau") == "smallest verified $\\tau$");
  CHECK(column_words("L2_D_minus_n_decimal") == "$L^2 D^{-n}$ (decimal)");
  CHECK(column_words("p_text_decimal") == "$p_{n\\mathrm{-gram}}$ (text reading, decimal)");
  CHECK(column_words("value_exact") == "value (exact)");
  CHECK(column_words("max-boxes") == "max boxes");
  CHECK(column_words("passed/failed/unknown") == "passed/failed/unknown");
  CHECK(column_words("cost_$") == "cost \\$");  // a dollar of the key is no math
  CHECK(setting_words("$D$", "2") == "$D$ = 2");
  CHECK(setting_words("variant", "paper") == "variant: paper");
  CHECK(tverify::latex_of_label(column_words("ci95_low")) == "95\\% interval, lower end");
}
