// Sweep results on disk: <dir>/<name>.csv (every probe, exact values as p/q beside decimals), <name>.gp (the gnuplot
// script), <name>.png (its plot, with the threshold marked), <name>.json (parameters, threshold, summary). Each file
// is staged completely, then the four replace their predecessors together (checkers/files.hpp), so an interrupted
// sweep leaves no half-written file and no mix of old and new files.
#pragma once

#include "checkers/verdict.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify {

struct SweepTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

struct PlotSpec {
  // Every member has a default initializer, so that brace-initializing the leading ones leaves the rest defaulted
  // without -Wmissing-field-initializers.
  std::string title{}, xlabel{}, ylabel{};
  bool logx = false, logy = false;
  std::optional<std::pair<double, double>> yrange{};
  std::string x_column{};
  std::vector<std::pair<std::string, std::string>> series{};  // (column, legend)
  std::vector<std::pair<double, std::string>> marks{};        // vertical lines (x, label), e.g. the threshold
  // A heat map instead of curves: x_column and y_column span a grid, heat_column colours each cell.
  std::string y_column{}, heat_column{}, heat_label{};
};

// Throws UsageError when gnuplot is not installed (checked before any work).
void require_gnuplot();
// Creates `dir` if missing and locks it until the process ends (checkers/files.hpp: OutputDirLock). Throws UsageError
// when it cannot be created or written, or when another process holds its lock.
void prepare_output_dir(const std::string& dir);
void write_sweep(const std::string& dir, const std::string& name, const SweepTable& table, const PlotSpec& plot,
                 const Json& summary);

}  // namespace tverify
