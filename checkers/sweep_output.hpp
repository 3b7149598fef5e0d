// Sweep results on disk: <dir>/<name>.csv (every probe, exact values as p/q beside decimals), <name>.gp (the gnuplot
// script), <name>.png (its plot, with the threshold marked), <name>.json (the sweep's certificate: the command that
// made it, the summary with the threshold, and every probe; docs/certificate.md). Each file is staged completely,
// then the four replace their predecessors together (checkers/files.hpp), so an interrupted sweep leaves no
// half-written file and no mix of old and new files.
#pragma once

#include "checkers/verdict.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tverify {

// Where a sweep writes, and the fields of its certificates that say which command made them
// (sweep_certificate_header in checkers/certificate.hpp).
struct SweepOutput {
  std::string dir;
  Json header = Json::object();
};

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
// Writes <name>.csv, .gp, .png and .json (the certificate: out.header, the summary, the probes) into out.dir.
void write_sweep(const SweepOutput& out, const std::string& name, const SweepTable& table, const PlotSpec& plot,
                 const Json& summary);

}  // namespace tverify
