#include "checkers/sweep_output.hpp"

#include "checkers/certificate.hpp"
#include "checkers/cluster.hpp"
#include "io/errors.hpp"
#include "checkers/file_manifest.hpp"
#include "io/files.hpp"
#include "checkers/programs.hpp"
#include "io/plot_labels.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>

namespace tverify {
namespace fs = std::filesystem;
namespace {

std::string csv(const SweepTable& t) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
    out += "\n";
  };
  line(t.columns);
  for (const auto& r : t.rows) line(r);
  return out;
}

std::size_t column_index(const SweepTable& t, const std::string& name) {
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i] == name) return i + 1;  // gnuplot counts from 1
  throw std::logic_error("sweep plot names an unknown column " + name);
}

// The Okabe-Ito colours, distinguishable with every common colour-vision deficiency, in the order series use them.
constexpr const char* palette[] = {"#0072B2", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#56B4E9", "#000000"};
constexpr const char* shade_colour = "#009E73";
// Filled circle, square, triangle, inverted triangle, diamond, pentagon.
constexpr int point_types[] = {7, 5, 9, 11, 13, 15};

// Whether some row of `column` holds a number inside the y range (a series with none would only leave the frame).
bool has_value_in_range(const SweepTable& t, const std::string& column, const std::pair<double, double>& range) {
  const std::size_t c = column_index(t, column) - 1;
  for (const auto& row : t.rows) {
    char* end = nullptr;
    const double v = std::strtod(row[c].c_str(), &end);
    if (end != row[c].c_str() && v >= range.first && v <= range.second) return true;
  }
  return false;
}

// Whether the column holds only whole numbers spanning at most 20 (lengths, values): one tick each, none between.
bool few_whole_numbers(const SweepTable& t, const std::string& column) {
  const std::size_t c = column_index(t, column) - 1;
  double lo = 0, hi = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    char* end = nullptr;
    const double v = std::strtod(t.rows[r][c].c_str(), &end);
    if (end == t.rows[r][c].c_str() || *end != '\0' || v != std::floor(v)) return false;
    lo = r ? std::min(lo, v) : v, hi = r ? std::max(hi, v) : v;
  }
  return !t.rows.empty() && hi - lo <= 20;
}

bool has_unknown_row(const SweepTable& t, const std::string& verdict_column) {
  if (verdict_column.empty()) return false;
  const std::size_t c = column_index(t, verdict_column) - 1;
  return std::any_of(t.rows.begin(), t.rows.end(), [&](const auto& row) { return row[c] == "unknown"; });
}

std::string style_text(SeriesStyle style) {
  return style == SeriesStyle::Points ? "points" : style == SeriesStyle::Lines ? "lines" : "linespoints";
}

// The plot clauses of the curves, each series in its colour; a series off the y range is left out and named in a
// note below the frame.
std::string curve_clauses(const SweepTable& t, const PlotSpec& p, const std::string& csv_file, LabelTarget target,
                          std::string& settings) {
  const std::size_t xi = column_index(t, p.x_column);
  const std::string verdict =
      p.verdict_column.empty() ? "" : fmt::format("strcol({})", column_index(t, p.verdict_column));
  std::vector<std::string> clauses, off_scale;
  for (std::size_t k = 0; k < p.series.size(); ++k) {
    const PlotSeries& s = p.series[k];
    if (p.yrange && !has_value_in_range(t, s.column, *p.yrange)) {
      off_scale.push_back(s.legend);
      continue;
    }
    const std::size_t yi = column_index(t, s.column);
    const std::string y = verdict.empty() || k > 0 ? std::to_string(yi)
                                                   : fmt::format("({} eq 'unknown' ? NaN : column({}))", verdict, yi);
    // Its colour, and a point shape and size of its own, so that series lying on top of each other stay visible.
    const std::string colour = fmt::format("lc rgb '{}' pt {} ps {:.2f}", palette[k % std::size(palette)],
                                           point_types[k % std::size(point_types)], std::max(0.6, 1.5 - 0.3 * k));
    const std::string title = "title " + gnuplot_label(s.legend, target);
    if (!s.low_column.empty()) {
      clauses.push_back(fmt::format("'{}' using {}:{}:{}:{} skip 1 with yerrorbars {} {}", csv_file, xi, y,
                                    column_index(t, s.low_column), column_index(t, s.high_column), colour, title));
      if (s.style != SeriesStyle::Points)
        clauses.push_back(fmt::format("'{}' using {}:{} skip 1 with lines {} notitle", csv_file, xi, y, colour));
    } else {
      clauses.push_back(
          fmt::format("'{}' using {}:{} skip 1 with {} {} {}", csv_file, xi, y, style_text(s.style), colour, title));
    }
  }
  if (has_unknown_row(t, p.verdict_column) && !p.series.empty())
    clauses.push_back(
        fmt::format("'{}' using {}:({} eq 'unknown' ? column({}) : NaN) skip 1 with points pt 6 ps 1.6 "
                    "lc rgb '#000000' title {}",
                    csv_file, xi, verdict, column_index(t, p.series.front().column),
                    gnuplot_label("undecided (verdict unknown)", target)));
  if (!off_scale.empty()) {
    std::string names;
    for (const auto& n : off_scale) names += (names.empty() ? "" : ", ") + n;
    settings += fmt::format("set label 90 {} at graph 0, graph -0.16 left front\n",
                            gnuplot_label(names + " above the plotted range everywhere: not drawn", target));
  }
  if (clauses.empty())  // every series off the scale: draw the first anyway, so the figure has its axes
    clauses.push_back(fmt::format("'{}' using {}:{} skip 1 with linespoints lc rgb '{}' pt 7 title {}", csv_file, xi,
                                  column_index(t, p.series.front().column), palette[0],
                                  gnuplot_label(p.series.front().legend, target)));
  std::string out;
  for (const auto& c : clauses) out += (out.empty() ? "" : ", \\\n     ") + c;
  return out;
}

// The heat map: a discrete key for a quantity of a few values, a colour-blind-safe sequential palette otherwise.
std::string heat_clauses(const SweepTable& t, const PlotSpec& p, const std::string& csv_file, LabelTarget target,
                         std::string& settings) {
  std::string out = fmt::format("'{}' using {}:{}:{} skip 1 with image notitle", csv_file, column_index(t, p.x_column),
                                column_index(t, p.y_column), column_index(t, p.heat_column));
  if (p.heat_levels.empty()) {
    settings += "set palette defined (0 '#440154', 0.25 '#3B528B', 0.5 '#21908C', 0.75 '#5DC863', 1 '#FDE725')\n" +
                fmt::format("set cblabel {}\n", gnuplot_label(p.heat_label, target));
    return out;
  }
  std::string defined;
  const std::size_t heat = column_index(t, p.heat_column) - 1;
  for (std::size_t k = 0; k < p.heat_levels.size(); ++k) {
    const auto& [value, label] = p.heat_levels[k];
    defined += fmt::format("{}{} '{}'", k ? ", " : "", value, palette[k % std::size(palette)]);
    const bool present = std::any_of(t.rows.begin(), t.rows.end(),
                                     [&](const auto& row) { return std::strtod(row[heat].c_str(), nullptr) == value; });
    if (present)  // the key names the values the map holds
      out += fmt::format(", \\\n     keyentry with boxes fillstyle solid fillcolor rgb '{}' title {}",
                         palette[k % std::size(palette)], gnuplot_label(label, target));
  }
  settings += fmt::format("set palette defined ({})\nset cbrange [{}:{}]\nunset colorbox\n", defined,
                          p.heat_levels.front().first, p.heat_levels.back().first);
  return out;
}

// Everything but the terminal: labels for `target`, the shaded range, the marks, the plot command.
std::string figure(const SweepTable& t, const PlotSpec& p, const std::string& csv_file, LabelTarget target) {
  // The PNG and PDF carry their title, broken after its first colon; the LaTeX figure has none (the paper's caption
  // says what it shows). The key goes below the plot, a line's height clear of the x label.
  std::string title = p.title;
  if (const auto colon = title.find(": "); colon != std::string::npos) title.replace(colon, 2, ":\n");
  std::string s = fmt::format(
      "reset\nset datafile separator ','\nset key below height 1\nset grid\n{}\n"
      "set xlabel {}\nset ylabel {}\n",
      target == LabelTarget::Latex ? "unset title" : "set title " + gnuplot_label(title, target),
      gnuplot_label(p.xlabel, target), gnuplot_label(p.ylabel, target));
  if (p.logx) s += "set logscale x\n";
  if (p.heat_column.empty()) s += "set autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n";
  if (!p.logx && p.heat_column.empty() && few_whole_numbers(t, p.x_column)) s += "set xtics 1\n";
  if (p.logy) s += "set logscale y\n";
  if (p.yrange) s += fmt::format("set yrange [{}:{}]\n", p.yrange->first, p.yrange->second);
  std::string plot;
  if (p.heat_column.empty()) {
    plot = curve_clauses(t, p, csv_file, target, s);
    for (std::size_t m = 0; m < p.marks.size(); ++m) {  // each mark a dashed line of its own, named in the key
      const auto& [x, label] = p.marks[m];
      s += fmt::format("set arrow {} from {},graph 0 to {},graph 1 nohead dt {} lw 2 lc rgb '#444444'\n", m + 1, x, x,
                       m + 2);
      plot += fmt::format(", \\\n     keyentry with lines dt {} lw 2 lc rgb '#444444' title {}", m + 2,
                          gnuplot_label(label, target));
    }
    if (p.shade) {
      s += fmt::format(
          "set object 1 rect from {},graph 0 to {},graph 1 behind fillcolor rgb '{}' "
          "fillstyle transparent solid 0.15 noborder\n",
          p.shade->first, p.shade->second, shade_colour);
      plot += fmt::format(", \\\n     keyentry with boxes fillstyle transparent solid 0.15 fillcolor rgb '{}' title {}",
                          shade_colour, gnuplot_label(p.shade_label, target));
    }
  } else {
    plot = heat_clauses(t, p, csv_file, target, s);
  }
  return s + "plot " + plot + "\n";
}

// The script: the PNG and the PDF with gnuplot's enhanced text, then the cairolatex figure with LaTeX labels. It
// names its files relative to its folder, so `gnuplot NAME.gp` re-runs it there.
std::string gnuplot_script(const SweepTable& t, const PlotSpec& p, const std::string& name, const FigureSize& size) {
  const std::string csv_file = name + ".csv";
  const std::string inches = fmt::format("{:.4g}in,{:.4g}in", size.width_in, size.height_in);
  return fmt::format("# {}: re-run in this folder with `gnuplot {}.gp`\n", name, name) +
         fmt::format("set terminal pngcairo size 900,600 enhanced font ',11'\nset output '{}.png'\n", name) +
         figure(t, p, csv_file, LabelTarget::Enhanced) +
         fmt::format("set terminal pdfcairo size {} enhanced font ',10'\nset output '{}.pdf'\nreplot\n", inches, name) +
         fmt::format("set terminal cairolatex pdf size {}\nset output '{}-latex.tex'\n", inches, name) +
         figure(t, p, csv_file, LabelTarget::Latex) + "unset output\n";
}

// The files gnuplot writes for sweep output `name`.
std::vector<std::string> figure_files(const std::string& name) {
  return {name + ".png", name + ".pdf", name + "-latex.tex", name + "-latex.pdf"};
}

}  // namespace

FigureSize parse_figure_size(const std::string& text) {
  if (text.empty()) return {};
  if (text == "column") return {3.0, 2.2};
  if (text == "page") return {6.0, 3.6};
  const std::string forms =
      "WIDTHxHEIGHT in inches or centimetres (e.g. 3.3x2.4in, 8x6cm), each side from 1 to 20 "
      "in, or column (3.0 x 2.2 in) or page (6.0 x 3.6 in)";
  static const std::regex size(R"(([0-9]{1,3}(\.[0-9]{1,3})?)x([0-9]{1,3}(\.[0-9]{1,3})?)(in|cm))");
  std::smatch m;
  if (!std::regex_match(text, m, size)) throw UsageError("--figure-size must be " + forms + " (got '" + text + "')");
  const double per_inch = m[5] == "cm" ? 2.54 : 1.0;  // dividing keeps 2.54cm exactly 1 in
  const FigureSize out{std::stod(m[1]) / per_inch, std::stod(m[3]) / per_inch};
  if (out.width_in < 1 || out.width_in > 20 || out.height_in < 1 || out.height_in > 20)
    throw UsageError("--figure-size must be " + forms + " (got '" + text + "')");
  return out;
}

void require_gnuplot() {
  if (!writes_outputs()) return;  // only the rank that writes runs gnuplot
  if (!find_program("gnuplot"))
    throw UsageError("gnuplot not found: install the Debian package gnuplot-nox (scripts/setup does)");
}

namespace {

// The output folders this process holds, by canonical path.
struct HeldFolders {
  std::mutex mutex;
  std::map<std::string, OutputDirLock> locks;
};

HeldFolders& held_folders() {
  static HeldFolders held;
  return held;
}

std::string folder_key(const std::string& dir) {
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(dir.empty() ? fs::path("-") : fs::path(dir)), ec).string();
}

}  // namespace

void prepare_output_dir(const std::string& dir) {
  // Held until the process ends (or release_output_dir): every sweep of this process may write into the folder, no
  // other process may.
  if (!writes_outputs()) return;
  HeldFolders& held = held_folders();
  const std::lock_guard<std::mutex> guard(held.mutex);
  const std::string key = folder_key(dir);
  if (held.locks.count(key) == 0) held.locks.emplace(key, OutputDirLock(dir, "--out"));
}

void release_output_dir(const std::string& dir) {
  HeldFolders& held = held_folders();
  const std::lock_guard<std::mutex> guard(held.mutex);
  held.locks.erase(folder_key(dir));
}

void write_sweep(const SweepOutput& out, const std::string& name, const SweepTable& table, const PlotSpec& plot,
                 const Json& summary) {
  // gnuplot runs (no shell) in a scratch folder on a copy of the CSV; what it draws is then staged beside the
  // targets with the CSV, the script and the certificate, and all replace their predecessors together.
  if (!writes_outputs()) return;
  const fs::path base = fs::path(out.dir) / name;
  if (table.rows.empty())
    throw UsageError("the sweep '" + name +
                     "' has no probe to write: its range is empty (widen it, e.g. a larger "
                     "--L-max); the previous files are kept");
  const std::string csv_text = csv(table), script = gnuplot_script(table, plot, name, out.figure);
  const TemporaryFolder scratch("tverify-plot", "for gnuplot");
  write_file_atomically(scratch.path() / (name + ".csv"), csv_text);
  if (!run_program("gnuplot", {}, scratch.path().string(), script))
    throw UsageError("gnuplot could not draw '" + base.string() + ".png' (a full disk?); the previous files are kept");
  std::vector<ManifestFile> written{{name + ".csv", csv_text}, {name + ".gp", script}};
  for (const auto& file : figure_files(name)) {
    std::error_code ec;
    if (fs::file_size(scratch.path() / file, ec) == 0 || ec)
      throw UsageError("gnuplot could not draw '" + (fs::path(out.dir) / file).string() +
                       "' (a full disk?); the previous files are kept");
    written.emplace_back(file, read_text_file((scratch.path() / file).string(), "gnuplot's " + file));
  }
  // The certificate is renamed last, then the manifest written: a run killed in between leaves files the previous
  // manifest does not list as they are, and readers of the certificate refuse them (checkers/file_manifest.hpp).
  written.emplace_back(name + ".json",
                       sweep_certificate(out.header, name, summary, table.columns, table.rows).dump(2) + "\n");
  StagedFiles files;
  for (const auto& [file, text] : written) files.stage(fs::path(out.dir) / file, text);
  files.commit();
  write_file_atomically(manifest_of(base.string() + ".json"), manifest_text(written));
}

}  // namespace tverify
