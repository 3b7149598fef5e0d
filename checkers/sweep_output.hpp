// Sweep results on disk: <dir>/<name>.csv (every probe, exact values as p/q beside decimals), <name>.gp (the gnuplot
// script, which re-runs in that folder), its figures <name>.png (a quick look), <name>.pdf (vector, for a paper) and
// <name>-latex.tex with <name>-latex.pdf (cairolatex: the labels typeset by the paper's LaTeX), and <name>.json (the
// sweep's certificate: the command that made it, the summary with the threshold, and every probe;
// docs/certificate.md). gnuplot draws in a private temporary folder; every file is then staged completely beside
// its target, and all replace their predecessors together (io/files.hpp), so an interrupted sweep leaves no
// half-written file and no mix of old and new files.
#pragma once

#include "checkers/verdict.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify {

// The size of the vector figures (PDF and cairolatex; the PNG is a fixed 900 x 600 pixels): --figure-size.
struct FigureSize {
  double width_in = 4.6, height_in = 3.2;
};

// --figure-size: WIDTHxHEIGHT in inches or centimetres ("3.3x2.4in", "8x6cm"), each side from 1 to 20 inches, or by
// name: "column" (3.0 x 2.2 in, one column of a two-column paper: article, IEEE and ACM alike) or "page" (6.0 x 3.6
// in, the text width of one). Empty: the default 4.6 x 3.2 in. UsageError naming the forms otherwise.
FigureSize parse_figure_size(const std::string& text);

// Where a sweep writes, the fields of its certificates that say which command made them (sweep_certificate_header in
// checkers/certificate.hpp), and the size of its figures.
struct SweepOutput {
  std::string dir;
  Json header = Json::object();
  FigureSize figure{};
};

struct SweepTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

enum class SeriesStyle { LinesPoints, Points, Lines };

// One curve: a column against the plot's x column. Its legend is a plot label (io/plot_labels.hpp: words with
// $math$). With low and high columns it is drawn with error bars from low to high.
struct PlotSeries {
  std::string column{}, legend{};
  SeriesStyle style = SeriesStyle::LinesPoints;
  std::string low_column{}, high_column{};
};

// A figure. Titles, axis labels, legends and mark labels are plot labels (words, with LaTeX math between dollars).
struct PlotSpec {
  // Every member has a default initializer, so that brace-initializing the leading ones leaves the rest defaulted
  // without -Wmissing-field-initializers.
  std::string title{}, xlabel{}, ylabel{};
  bool logx = false, logy = false;
  std::optional<std::pair<double, double>> yrange{};  // a series with no value inside it is left out, and says so
  std::string x_column{};
  std::vector<PlotSeries> series{};
  std::vector<std::pair<double, std::string>> marks{};  // vertical lines (x, label), e.g. the threshold
  // A heat map instead of curves: x_column and y_column span a grid, heat_column colours each cell; with
  // heat_levels, the column takes only those values, each one colour with its label in the key (no colour bar).
  std::string y_column{}, heat_column{}, heat_label{};
  std::vector<std::pair<double, std::string>> heat_levels{};
  std::optional<std::pair<double, double>> shade{};  // an x range shaded, e.g. the theorem's range, in the key
  std::string shade_label{};
  std::string verdict_column{};  // the first series' rows whose verdict is `unknown`: open circles, their own key
};

// Throws UsageError when gnuplot is not installed (checked before any work).
void require_gnuplot();
// Creates `dir` if missing and locks it until the process ends (io/files.hpp: OutputDirLock). Throws UsageError
// when it cannot be created or written, or when another process holds its lock.
void prepare_output_dir(const std::string& dir);
// Lets go of a folder prepare_output_dir holds (a temporary folder about to be removed).
void release_output_dir(const std::string& dir);
// Writes <name>.csv, .gp, the figures and .json (the certificate: out.header, the summary, the probes) into out.dir.
void write_sweep(const SweepOutput& out, const std::string& name, const SweepTable& table, const PlotSpec& plot,
                 const Json& summary);

}  // namespace tverify
