// Tables for a write-up, rendered as Markdown or as LaTeX that compiles as it is: every character of a cell escaped,
// booktabs rules, a caption, a footnote naming the tool that made the certificates, and a longtable whose columns share
// the text width (so a long table breaks across pages and a wide one wraps instead of running off the page). A table
// with more columns than a page holds is split into several, each repeating the leading key columns.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace tverify {

using Cells = std::vector<std::string>;

struct Table {
  std::string caption;
  Cells header;
  std::vector<Cells> rows;
  std::size_t key_columns = 1;  // repeated in every part when the table is split
  // LaTeX moves every column that holds one value in every row into the caption, not only key columns.
  bool constant_columns_in_caption = false;
  // LaTeX only, each a plot label (words with $math$, io/plot_labels.hpp): the caption in words (empty: the
  // caption as text), and the words of header keys (a key not here is set as it is).
  std::string latex_caption{};
  std::map<std::string, std::string> words{};
};

// The table with only the named columns (in the table's order); false when it has none of them.
bool keep_columns(Table& table, const std::vector<std::string>& names);

// A Markdown table, the caption as a paragraph above it.
std::string markdown_table(const Table& table);

// The most columns one LaTeX table holds; a table is split sooner when its columns' longest words do not fit one
// line of a one-column article page side by side (in a two-column paper, use --columns or table*).
constexpr std::size_t max_latex_columns = 8;

// One-column: one longtable per part of the table (key columns repeated), each captioned, `note` as the caption's
// footnote. Two-column (a [twocolumn] paper, where longtable does not work): each part as consecutive table* floats
// spanning both columns, each of rows that fit a float at the top of a page, the later ones captioned "(continued)",
// `note` in small print below each, and \clearpage after the table (and after every few of its floats), so that its
// floats are set before the text that follows and never pile up past LaTeX's limit; UsageError when one row alone
// is taller than a float. Key columns that hold one
// value in every row (a single construction, variant or parameter set) move into the caption (every such column with
// constant_columns_in_caption, when the table has two rows or more).
enum class LatexLayout { OneColumn, TwoColumn };
std::string latex_table(const Table& table, const std::string& note, LatexLayout layout = LatexLayout::OneColumn);

}  // namespace tverify
