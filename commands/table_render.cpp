#include "commands/table_render.hpp"

#include "io/errors.hpp"
#include "io/latex_text.hpp"
#include "io/plot_labels.hpp"
#include "commands/column_words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace tverify {
namespace {

std::string markdown_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// Widths in characters of the footnote size: a one-column article line holds about this many (345 pt at about
// 4.2 pt a character), each column also spending about 3 on its padding.
constexpr std::size_t line_characters = 78, column_padding = 3;

// The longest unbreakable run of a cell, plus one character of slack (digits are wider than the average letter):
// LaTeX breaks at spaces and where latex_escape allows it.
std::size_t longest_word(const std::string& cell) {
  std::size_t longest = 0, run = 0;
  for (std::size_t i = 0; i < cell.size(); ++i) {
    run = cell[i] == ' ' ? 0 : run + 1;
    longest = std::max(longest, run);
    if (breaks_after(cell, i)) run = 0;
  }
  return longest + 1;
}

struct ColumnWidth {
  std::size_t word = 1, natural = 1;  // the longest word, the longest cell (capped)
};

std::vector<ColumnWidth> column_widths(const Table& t) {
  std::vector<ColumnWidth> widths(t.header.size());
  auto widen = [&](const Cells& cells) {
    for (std::size_t c = 0; c < cells.size() && c < widths.size(); ++c) {
      widths[c].word = std::max(widths[c].word, longest_word(cells[c]));
      widths[c].natural = std::max(widths[c].natural, std::min<std::size_t>(cells[c].size(), 60));
    }
  };
  widen(t.header);
  for (const auto& r : t.rows) widen(r);
  return widths;
}

// Each column's share of the text width: at least its longest word, the rest of the line shared in proportion to
// how much longer its cells are (a long summary wraps over several lines, a count stays narrow).
std::vector<double> column_shares(const Table& t) {
  const std::vector<ColumnWidth> widths = column_widths(t);
  double minimum = 0, surplus = 0;
  for (const auto& w : widths) {
    minimum += static_cast<double>(w.word + column_padding);
    surplus += static_cast<double>(w.natural - std::min(w.natural, w.word));
  }
  const double line = std::max(minimum, static_cast<double>(line_characters)), spare = line - minimum;
  std::vector<double> shares;
  for (const auto& w : widths) {
    const double extra = surplus > 0 ? spare * static_cast<double>(w.natural - std::min(w.natural, w.word)) / surplus
                                     : spare / static_cast<double>(widths.size());
    shares.push_back((static_cast<double>(w.word + column_padding) + extra) / line);
  }
  return shares;
}

std::string latex_row(const Cells& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? " & " : "") + latex_escape(cells[i]);
  // \tabularnewline, not \\: a next row opening with '[' would be read as the argument of \\.
  return out + " \\tabularnewline\n";
}

// The header row: each key in its words where the table has them.
std::string latex_header(const Table& t) {
  std::string out;
  for (std::size_t i = 0; i < t.header.size(); ++i) {
    const auto words = t.words.find(t.header[i]);
    out += (i ? " & " : "") + (words != t.words.end() ? latex_of_label(words->second) : latex_escape(t.header[i]));
  }
  return out + " \\tabularnewline\n";
}

std::string latex_caption(const Table& t) {
  return t.latex_caption.empty() ? latex_escape(t.caption) : latex_of_label(t.latex_caption);
}

// Text added at the end of the caption, in both forms: `plain` as text, `words` as a plot label.
void extend_caption(Table& t, const std::string& plain, const std::string& words) {
  if (!t.latex_caption.empty()) t.latex_caption += words;
  t.caption += plain;
}

// The column specification: each column its share of the line, ragged right.
std::string column_spec(const std::vector<double>& shares) {
  std::string spec;
  for (double share : shares)
    spec +=
        fmt::format(">{{\\raggedright\\arraybackslash}}p{{\\dimexpr {:.4f}\\linewidth-2\\tabcolsep\\relax}}", share);
  return spec;
}

std::string latex_part(const Table& t, const std::string& note) {
  const std::string spec = column_spec(column_shares(t));
  const std::string caption = latex_caption(t);
  // LaTeX typesets a caption twice (it measures it first), and a \footnotemark there would step the footnote counter
  // twice: the counter is stepped once before the table, and the mark and the text name its value.
  std::string out = "\\begingroup\\footnotesize\n\\stepcounter{footnote}\n\\begin{longtable}{" + spec + "}\n";
  out += "\\caption[{" + caption + "}]{" + caption + "\\footnotemark[\\value{footnote}]}\\\\\n\\toprule\n" +
         latex_header(t) + "\\midrule\n\\endfirsthead\n\\toprule\n" + latex_header(t) +
         "\\midrule\n\\endhead\n\\midrule\n" +
         fmt::format("\\multicolumn{{{}}}{{r}}{{continued on the next page}}\\\\\n", t.header.size()) +
         "\\endfoot\n\\bottomrule\n\\endlastfoot\n";
  for (const auto& r : t.rows) out += latex_row(r);
  return out + "\\end{longtable}\n\\footnotetext[\\value{footnote}]{" + latex_escape(note) + "}\n\\endgroup\n";
}

// The lines a row takes, its cells wrapped in their columns' widths (counted in one-column characters, which a
// two-column page's full width only widens).
std::size_t row_lines(const Cells& cells, const std::vector<double>& shares) {
  std::size_t lines = 1;
  for (std::size_t c = 0; c < cells.size() && c < shares.size(); ++c) {
    const double width = shares[c] * static_cast<double>(line_characters) - static_cast<double>(column_padding);
    const auto per_line = static_cast<std::size_t>(std::max(1.0, width));
    lines = std::max(lines, (cells[c].size() + per_line - 1) / per_line);
  }
  return lines;
}

// The footnote-size lines of rows one table* holds at the top of a two-column page, caption and rules aside: LaTeX
// lets a top float take 0.7 of a page (\dbltopfraction), about 40 lines of an article's text height.
constexpr std::size_t float_lines = 30;

// LaTeX holds at most 18 floats waiting for a place: a table's floats, over all its parts, are set (\\clearpage)
// every this many.
constexpr std::size_t floats_between_flushes = 8;

// One part of a table as consecutive table* floats, each of the rows that fit one, the later ones "(continued)".
std::vector<std::string> two_column_part(const Table& t, const std::string& note) {
  const std::vector<double> shares = column_shares(t);
  std::vector<std::vector<Cells>> floats(1);
  std::size_t used = row_lines(t.header, shares);
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const std::size_t lines = row_lines(t.rows[r], shares);
    if (lines + row_lines(t.header, shares) > float_lines)
      throw UsageError(
          fmt::format("--two-column: row {} of the table '{}' takes about {} lines, more than a float of "
                      "a page holds ({}); leave out its longest columns with --columns",
                      r + 1, t.caption.substr(0, 80), lines, float_lines));
    if (used + lines > float_lines && !floats.back().empty()) {
      floats.emplace_back();
      used = row_lines(t.header, shares);
    }
    floats.back().push_back(t.rows[r]);
    used += lines;
  }
  std::vector<std::string> out;
  for (std::size_t f = 0; f < floats.size(); ++f) {
    Table captioned = t;
    if (f > 0) extend_caption(captioned, " (continued)", " (continued)");
    const std::string caption = latex_caption(captioned);
    std::string text = "\\begin{table*}\\footnotesize\\centering\n\\caption[{" + caption + "}]{" + caption +
                       "}\n\\begin{tabular}{" + column_spec(shares) + "}\n\\toprule\n" + latex_header(t) +
                       "\\midrule\n";
    for (const auto& r : floats[f]) text += latex_row(r);
    text += "\\bottomrule\n\\end{tabular}\n\\par\\smallskip\\parbox{\\linewidth}{\\scriptsize\\raggedright " +
            latex_escape(note) + "}\n\\end{table*}\n";
    out.push_back(std::move(text));
  }
  return out;
}

// The parts of a table too wide for one line of a page: the key columns, then as many of the next columns as fit
// beside them (their longest words side by side), and so on; at most max_latex_columns columns a part.
std::vector<Table> split_columns(const Table& t) {
  const std::vector<ColumnWidth> widths = column_widths(t);
  const std::size_t keys = std::min(t.key_columns, t.header.size());
  std::size_t key_width = 0;
  for (std::size_t c = 0; c < keys; ++c) key_width += widths[c].word + column_padding;
  std::vector<std::pair<std::size_t, std::size_t>> ranges;  // [first, last) of the non-key columns of each part
  for (std::size_t first = keys; first < t.header.size();) {
    std::size_t last = first, width = key_width;
    while (last < t.header.size() && last - first + keys < max_latex_columns &&
           (last == first || width + widths[last].word + column_padding <= line_characters))
      width += widths[last++].word + column_padding;
    ranges.emplace_back(first, last);
    first = last;
  }
  if (ranges.size() <= 1) return {t};
  std::vector<Table> out;
  for (std::size_t p = 0; p < ranges.size(); ++p) {
    const auto [first, last] = ranges[p];
    auto pick = [&](const Cells& cells) {
      Cells part(cells.begin(), cells.begin() + static_cast<long>(keys));
      part.insert(part.end(), cells.begin() + static_cast<long>(first), cells.begin() + static_cast<long>(last));
      return part;
    };
    Table part = t;
    part.header = pick(t.header);
    part.rows.clear();
    part.key_columns = keys;
    const std::string which = fmt::format(" (part {} of {})", p + 1, ranges.size());
    extend_caption(part, which, which);
    for (const auto& r : t.rows) part.rows.push_back(pick(r));
    out.push_back(std::move(part));
  }
  return out;
}

// A column's one value in the caption's words.
std::string column_setting_words(const Table& t, const std::string& key, const std::string& value) {
  const auto words = t.words.find(key);
  return setting_words(words != t.words.end() ? words->second : plot_words(key), value);
}

// The table with each key column that holds one value in every row moved into the caption ("variant: paper"), and
// with constant_columns_in_caption every other such column too once there are two rows; at least one key column stays.
Table constant_columns_in_caption(Table t) {
  std::string moved, moved_words;
  for (std::size_t c = 0; c < t.header.size() && !t.rows.empty();) {
    const bool movable = c < t.key_columns ? t.key_columns > 1 : t.constant_columns_in_caption && t.rows.size() > 1;
    if (!movable || !std::all_of(t.rows.begin(), t.rows.end(), [&](const Cells& r) { return r[c] == t.rows[0][c]; })) {
      ++c;
      continue;
    }
    moved += (moved.empty() ? "" : "; ") + t.header[c] + ": " + t.rows[0][c];
    moved_words += (moved_words.empty() ? "" : "; ") + column_setting_words(t, t.header[c], t.rows[0][c]);
    t.header.erase(t.header.begin() + static_cast<long>(c));
    for (auto& r : t.rows) r.erase(r.begin() + static_cast<long>(c));
    if (c < t.key_columns) --t.key_columns;
  }
  if (!moved.empty()) extend_caption(t, " (" + moved + ")", " (" + moved_words + ")");
  return t;
}

}  // namespace

bool keep_columns(Table& table, const std::vector<std::string>& names) {
  std::vector<std::size_t> kept;
  for (std::size_t c = 0; c < table.header.size(); ++c)
    if (std::find(names.begin(), names.end(), table.header[c]) != names.end()) kept.push_back(c);
  if (kept.empty()) return false;
  auto pick = [&](const Cells& cells) {
    Cells out;
    for (std::size_t c : kept) out.push_back(c < cells.size() ? cells[c] : "");
    return out;
  };
  std::size_t keys = 0;
  for (std::size_t c : kept) keys += c < table.key_columns;
  table.header = pick(table.header);
  for (auto& r : table.rows) r = pick(r);
  table.key_columns = std::max<std::size_t>(keys, 1);
  return true;
}

std::string markdown_table(const Table& t) {
  std::string out = t.caption.empty() ? "" : markdown_escape(t.caption) + "\n\n";
  auto line = [&](const Cells& cells) {
    out += "|";
    for (const auto& c : cells) out += " " + markdown_escape(c) + " |";
    out += "\n";
  };
  line(t.header);
  out += "|";
  for (std::size_t i = 0; i < t.header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& r : t.rows) line(r);
  return out;
}

std::string latex_table(const Table& table, const std::string& note, LatexLayout layout) {
  std::string out;
  std::size_t floats = 0;
  for (const auto& part : split_columns(constant_columns_in_caption(table))) {
    if (layout == LatexLayout::OneColumn) {
      out += (out.empty() ? "" : "\n") + latex_part(part, note);
      continue;
    }
    for (const auto& text : two_column_part(part, note)) {
      if (floats > 0 && floats % floats_between_flushes == 0) out += "\\clearpage\n";
      out += text;
      ++floats;
    }
  }
  return layout == LatexLayout::TwoColumn ? out + "\\clearpage\n" : out;
}

}  // namespace tverify
